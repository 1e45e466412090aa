/* backend.c - the device-backend registry and the core API table handed to backend modules. */
#include "backend/backend.h"

#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/storage.h"
#include "core/tensor.h"
#include "ops/copy.h"

static const tl_device_backend *registry[TL_NUM_DEVICE_TYPES] = {[TL_DEV_META] = &tl_meta_backend};

const tl_device_backend *tl_backend_get(int device_type)
{
    return device_type >= 0 && device_type < TL_NUM_DEVICE_TYPES ? registry[device_type] : NULL;
}

int tl_backend_register(int device_type, const tl_device_backend *b)
{
    if (device_type <= TL_DEV_CPU || device_type == TL_DEV_META || device_type >= TL_NUM_DEVICE_TYPES)
        return tl_err(TL_ERR_VALUE, "tensorlib: cannot register a backend for device type %d", device_type);
    if (b && (b->abi_version != TL_BACKEND_ABI_VERSION || b->size != sizeof(tl_device_backend)))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: the %s backend was built for backend ABI version %u "
                      "(size %u), this core has version %d (size %zu); rebuild tensorlib",
                      tl_device_type_names[device_type], b->abi_version, b->size, TL_BACKEND_ABI_VERSION,
                      sizeof(tl_device_backend));
    registry[device_type] = b;
    return 0;
}

int tl_backend_check(tl_device device)
{
    if (device.type != TL_DEV_CPU && !tl_backend_get(device.type))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: no backend is loaded for device type '%s'",
                      tl_device_type_names[device.type]);
    return 0;
}

static void api_set_error(int kind, const char *msg) { tl_err((tl_errkind)kind, "%s", msg); }
static size_t api_itemsize(int dtype) { return dtype >= 0 && dtype < TL_NUM_DTYPES ? (size_t)tl_dtype_itemsize((tl_dtype)dtype) : 0; }

static int api_dtype_from_name(const char *name)
{
    for (int d = 0; d < TL_NUM_DTYPES; d++)
        if (strcmp(tl_dtype_infos[d].name, name) == 0) return d;
    return -1;
}

static const tl_core_api core_api = {
    .abi_version = TL_BACKEND_ABI_VERSION,
    .size = sizeof(tl_core_api),
    .register_backend = tl_backend_register,
    .set_error = api_set_error,
    .dtype_itemsize = api_itemsize,
    .dtype_from_name = api_dtype_from_name,
};

const tl_core_api *tl_core_api_get(void) { return &core_api; }

static const char *const binary_names[] = {
#define TL_X_OP(N, ...) #N,
    TL_BACKEND_BINARY_LIST(TL_X_OP)
#undef TL_X_OP
};
static const char *const unary_names[] = {
#define TL_X_OP(N, ...) #N,
    TL_BACKEND_UNARY_LIST(TL_X_OP)
#undef TL_X_OP
};

const char *tl_backend_op_name(int op, bool binary)
{
    return op < 0 || op >= (binary ? TL_BACKEND_NUM_BOPS : TL_BACKEND_NUM_UOPS) ? "?"
                                                                                : (binary ? binary_names : unary_names)[op];
}

static const char *const xop_names[] = {
#define TL_X_OP(N, ...) #N,
    TL_BACKEND_XOP_LIST(TL_X_OP)
#undef TL_X_OP
};

/* The position of name (either case) in names[0..n), or -1. */
static int find_name(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        const char *p = name, *q = names[i];
        while (*p && (*p >= 'a' && *p <= 'z' ? *p - 32 : *p) == *q) p++, q++;
        if (!*p && !*q) return i;
    }
    return -1;
}

int tl_backend_op_code(const char *name, bool binary)
{
    return binary ? find_name(name, binary_names, TL_BACKEND_NUM_BOPS) : find_name(name, unary_names, TL_BACKEND_NUM_UOPS);
}

int tl_backend_xop_code(const char *name)
{
    /* the registry's scalar-bound clamps are clamp_s, clamp_min_s, clamp_max_s */
    char buf[32];
    size_t n = strlen(name);
    if (n > 2 && n < sizeof buf && !strcmp(name + n - 2, "_s") && strncmp(name, "lerp", 4)) {
        memcpy(buf, name, n - 2);
        buf[n - 2] = 0;
        name = buf;
    }
    return find_name(name, xop_names, TL_BACKEND_NUM_XOPS);
}

/* A fresh CPU tensor shaped like src (its strides when src is dense, else contiguous) in
 * pinned memory. */
static int empty_pinned_like(tl_tensor *out, const tl_tensor *src, tl_dtype dtype, const char *no_allocator)
{
    /* the geometry of a meta tensor (no bytes), the bytes pinned */
    tl_tensor proto = tl_tensor_geom(src, src->ndim, src->sizes, src->strides), like = {0};
    proto.device = (tl_device){TL_DEV_META, -1};
    if (tl_tensor_empty_like(&like, &proto, dtype, TL_MEMFMT_PRESERVE) < 0) return -1;
    tl_storage *s = tl_storage_new_pinned(like.storage->nbytes, no_allocator);
    int rc = s ? tl_tensor_init(out, s, like.offset, like.ndim, like.sizes, like.strides, dtype) : -1;
    tl_storage_release(s);
    tl_tensor_clear(&like);
    return rc;
}

int tl_backend_pin(tl_tensor *out, const tl_tensor *src, bool factory)
{
    const char *no_allocator = factory ? "pin_memory=True requires a CUDA or other accelerator backend; no pinned "
                                         "memory allocator is available on this system."
                                       : "Cannot access accelerator device when none is available.";
    if (empty_pinned_like(out, src, (tl_dtype)src->dtype, no_allocator) < 0) return -1;
    if (tl_copy_(out, src) < 0 || tl_tensor_copy_names(out, src) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    return 0;
}

int tl_backend_record_stream(const tl_tensor *t, uintptr_t stream)
{
    const tl_device_backend *b = tl_backend_get(t->device.type);
    if (t->device.type == TL_DEV_CPU || !b || !b->record_stream)
        return tl_err(TL_ERR_NOTIMPL, "Could not run 'aten::record_stream' with arguments from the '%s' backend. "
                      "This could be because the operator doesn't exist for this backend.",
                      t->device.type == TL_DEV_CPU ? "CPU" : t->device.type == TL_DEV_META ? "Meta"
                                                                                              : tl_device_type_names[t->device.type]);
    return b->record_stream(t->storage->data, t->device.index, stream);
}

/* Copy to another device: a dense source of the requested dtype moves as its bytes (strides
 * kept); another source is first cast and made contiguous on its own device (the host's
 * loops, or the backend's element-wise entry through tl_copy_). */
int tl_backend_to_device(tl_tensor *out, const tl_tensor *src, tl_device dev, int dtype_, bool non_blocking)
{
    tl_dtype dtype = (tl_dtype)dtype_;
    tl_tensor tmp = {0};
    const tl_tensor *from = src;
    if (src->device.type == TL_DEV_META && dev.type != TL_DEV_META)
        return tl_err(TL_ERR_NOTIMPL, "Cannot copy out of meta tensor; no data!");
    if (dev.type == TL_DEV_META) { /* no bytes to move: the geometry a CPU copy would have */
        tl_tensor like = tl_tensor_geom(src, src->ndim, src->sizes, src->strides);
        like.device = dev;
        if (tl_tensor_empty_like(out, &like, dtype, TL_MEMFMT_PRESERVE) < 0) return -1;
        return tl_tensor_copy_names(out, src);
    }
    /* a dense source of the target dtype moves as its bytes and keeps its strides (channels_last,
     * a transpose), as torch's preserve_format; anything else is cast and made contiguous on its
     * own device first (the host's loops, or the backend's copy kernel) */
    bool raw = src->dtype == dtype && tl_is_non_overlapping_and_dense(src);
    if (!raw) {
        if (tl_clone(&tmp, src, dtype, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
        from = &tmp;
    }
    const tl_device_backend *b = tl_backend_get(dev.type != TL_DEV_CPU ? dev.type : src->device.type);
    /* non_blocking: a device-to-host copy lands in pinned memory, a host-to-device copy from
     * pinned memory is queued; pageable host memory is copied synchronously (torch's rules) */
    bool async = non_blocking && b->copy_async;
    int rc = -1;
    if (async && dev.type == TL_DEV_CPU) {
        rc = empty_pinned_like(out, from, dtype, "Cannot access accelerator device when none is available.");
    } else {
        async = async && from->storage->pinned;
        rc = from == src ? tl_tensor_empty_strided(out, src->ndim, src->sizes, src->strides, dtype, dev)
                         : tl_tensor_empty(out, from->ndim, from->sizes, dtype, dev, false);
    }
    if (rc == 0) {
        rc = (async ? b->copy_async : b->copy)(tl_data(out), out->device, tl_data(from), from->device,
                                               (size_t)tl_numel(from) * (size_t)tl_itemsize(from));
        if (rc == 0) rc = tl_tensor_copy_names(out, src);  /* names travel, as with every copy */
        if (rc < 0) tl_tensor_clear(out);
    }
    if (from == &tmp) tl_tensor_clear(&tmp);
    return rc;
}

int tl_backend_copy_across(tl_tensor *dst, const tl_tensor *src, bool non_blocking)
{
    tl_device_type other = dst->device.type != TL_DEV_CPU ? dst->device.type : src->device.type;
    const tl_device_backend *b = tl_backend_get(other);
    if (!b || !b->copy) return tl_backend_check((tl_device){other, 0});
    /* the same elements in the same dense order on both sides: one byte copy, queued when
     * asked and the host side is pinned (torch's rule) */
    bool same = dst->dtype == src->dtype && dst->ndim == src->ndim && tl_is_non_overlapping_and_dense(dst) &&
                tl_is_non_overlapping_and_dense(src);
    for (int d = 0; same && d < dst->ndim; d++)
        same = dst->sizes[d] == src->sizes[d] && (dst->sizes[d] == 1 || dst->strides[d] == src->strides[d]);
    if (same) {
        const tl_tensor *host = dst->device.type == TL_DEV_CPU ? dst : src->device.type == TL_DEV_CPU ? src : NULL;
        bool async = non_blocking && b->copy_async && host && host->storage->pinned;
        return (async ? b->copy_async : b->copy)(tl_data(dst), dst->device, tl_data(src), src->device,
                                                 (size_t)tl_numel(dst) * (size_t)tl_itemsize(dst));
    }
    /* else the source moves as it is (its bytes when dense, else made contiguous on its own
     * device), and the copy within dst's device casts, broadcasts and follows dst's strides */
    tl_tensor tmp = {0};
    if (tl_backend_to_device(&tmp, src, dst->device, src->dtype, false) < 0) return -1;
    int rc = tl_copy_(dst, &tmp);
    tl_tensor_clear(&tmp);
    return rc;
}

int tl_backend_refuse(const char *op, tl_device dev, int dtype)
{
    if (dtype == TL_BACKEND_REFUSE_DIMS)
        return tl_err(TL_ERR_NOTIMPL, "tensorlib: %s is not implemented for %s tensors with more than %d "
                      "non-mergeable dims yet", op, tl_device_type_names[dev.type], TL_BACKEND_EW_MAX_DIMS);
    if (dtype < 0)
        return tl_err(TL_ERR_NOTIMPL, "tensorlib: %s is not implemented for %s tensors yet", op,
                      tl_device_type_names[dev.type]);
    return tl_err(TL_ERR_NOTIMPL, "tensorlib: %s is not implemented for %s tensors of dtype %s yet", op,
                  tl_device_type_names[dev.type], tl_dtype_infos[dtype].name);
}

int tl_backend_dtype_code(int dtype)
{
    switch (dtype) {
#define TL_X_BDT(ID) case TL_##ID: return TL_BDT_##ID;
        TL_BACKEND_DTYPES(TL_X_BDT)
#undef TL_X_BDT
    default: return -1;
    }
}

int tl_backend_to_host(tl_tensor *out, const tl_tensor *t)
{
    return tl_backend_to_device(out, t, (tl_device){TL_DEV_CPU, -1}, t->dtype, false);
}

int tl_backend_read_element(const tl_tensor *t, void *dst)
{
    const tl_device_backend *b = tl_backend_get(t->device.type);
    if (!b || !b->copy) return tl_backend_check(t->device);
    return b->copy(dst, (tl_device){TL_DEV_CPU, -1}, tl_data(t), t->device, (size_t)tl_itemsize(t));
}

int tl_backend_fill(tl_tensor *t, const void *value)
{
    const tl_device_backend *b = tl_backend_get(t->device.type);
    if (!b || !b->copy || !b->memset_zero)
        return tl_backend_refuse("fill_", t->device, -1);
    if (!tl_is_non_overlapping_and_dense(t)) { /* one element on the device, broadcast by the copy entry */
        int64_t one = 1;
        tl_tensor v = {0}, e = {0};
        int rc = tl_tensor_empty(&v, 1, &one, (tl_dtype)t->dtype, t->device, false);
        if (rc == 0) rc = b->copy(tl_data(&v), t->device, value, (tl_device){TL_DEV_CPU, -1}, (size_t)tl_itemsize(t));
        if (rc == 0) rc = tl_tensor_view_init(&e, &v, t->ndim, t->sizes, (int64_t[TL_MAX_DIMS]){0}, 0);
        if (rc == 0) rc = tl_copy_(t, &e);
        if (e.storage) tl_tensor_clear(&e);
        if (v.storage) tl_tensor_clear(&v);
        return rc;
    }
    int64_t n = tl_numel(t);
    size_t isz = (size_t)tl_itemsize(t), nbytes = (size_t)n * isz;
    if (n == 0) return 0;
    bool zero = true;
    for (size_t i = 0; i < isz; i++) zero = zero && ((const unsigned char *)value)[i] == 0;
    /* dense: the elements fill [data, data + nbytes) whatever the strides' order */
    if (zero) return b->memset_zero(tl_data(t), nbytes, t->device.index);
    /* the pattern on the host, at most 4 MiB of it, copied over in as few copies as that allows
     * (one for up to 4 MiB) */
    size_t per = (size_t)1 << 22, chunk = nbytes < per ? nbytes : per / isz * isz;
    char *host = malloc(chunk);
    if (!host) return tl_err(TL_ERR_MEMORY, "tensorlib: out of memory filling a %s tensor", tl_device_type_names[t->device.type]);
    for (size_t i = 0; i < chunk; i += isz) memcpy(host + i, value, isz);
    int rc = 0;
    for (size_t at = 0; at < nbytes && rc == 0; at += chunk)
        rc = b->copy((char *)tl_data(t) + at, t->device, host, (tl_device){TL_DEV_CPU, -1},
                     nbytes - at < chunk ? nbytes - at : chunk);
    free(host);
    return rc;
}
