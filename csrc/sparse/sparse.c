/* sparse.c - the sparse layer: wrapping strided components into a sparse tensor (COO and
 * the compressed layouts), freeing them, layout names for messages, and the COO invariants
 * (validation and size inference) with torch's messages. */
#include "sparse/sparse.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

const char *tl_layout_cname(int layout)
{
    static const char *names[] = {"Strided", "Sparse", "SparseCsr", "SparseCsc", "SparseBsr", "SparseBsc"};
    return layout >= 0 && layout < TL_NUM_LAYOUTS ? names[layout] : "?";
}

void tl_sparse_free(struct tl_sparse *s)
{
    if (!s) return;
    tl_tensor_clear(&s->indices);
    tl_tensor_clear(&s->plain);
    tl_tensor_clear(&s->values);
    free(s);
}

static void tensor_blank(tl_tensor *t)
{
    memset(t, 0, sizeof *t);
    t->sizes = t->small;
    t->strides = t->small + TL_SMALL_DIMS;
}

/* Moves `src` into `dst` (a blank struct member): the small-array pointers are rebased. */
static void tensor_move(tl_tensor *dst, tl_tensor *src)
{
    *dst = *src;
    if (src->sizes == src->small) {
        dst->sizes = dst->small;
        dst->strides = dst->small + TL_SMALL_DIMS;
    }
    tensor_blank(src);
}

/* The shell every sparse tensor has: its size, all-zero strides over one zeroed element of
 * its dtype (never read by sparse code; a dense kernel handed one reads zeros). */
static int sparse_shell(tl_tensor *out, tl_layout layout, int ndim, const int64_t *size, tl_dtype dtype,
                        tl_device device)
{
    int64_t zeros[TL_MAX_DIMS] = {0};
    if (tl_check_shape(size, ndim) < 0) return -1;
    tl_storage *st = tl_storage_new(16, device, true);
    if (!st) return -1;
    int rc = tl_tensor_init(out, st, 0, ndim, size, zeros, dtype);
    tl_storage_release(st);
    if (rc < 0) return -1;
    out->layout = (uint8_t)layout;
    return 0;
}

int tl_coo_wrap(tl_tensor *out, tl_tensor *indices, tl_tensor *values, int ndim, const int64_t *size, bool coalesced)
{
    tl_sparse *s = calloc(1, sizeof *s);
    if (!s) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (sparse_shell(out, TL_LAYOUT_SPARSE_COO, ndim, size, (tl_dtype)values->dtype, values->device) < 0) {
        free(s);
        return -1;
    }
    tensor_blank(&s->plain);
    tensor_move(&s->indices, indices);
    tensor_move(&s->values, values);
    s->sparse_dim = (int32_t)s->indices.sizes[0];
    s->dense_dim = s->values.ndim - 1;
    s->coalesced = coalesced;
    out->sparse = s;
    return 0;
}

int tl_compressed_wrap(tl_tensor *out, tl_layout layout, tl_tensor *compressed, tl_tensor *plain, tl_tensor *values,
                       int ndim, const int64_t *size)
{
    tl_sparse *s = calloc(1, sizeof *s);
    if (!s) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (sparse_shell(out, layout, ndim, size, (tl_dtype)values->dtype, values->device) < 0) {
        free(s);
        return -1;
    }
    tensor_move(&s->indices, compressed);
    tensor_move(&s->plain, plain);
    tensor_move(&s->values, values);
    bool block = layout == TL_LAYOUT_SPARSE_BSR || layout == TL_LAYOUT_SPARSE_BSC;
    s->batch_dim = s->indices.ndim - 1;
    s->sparse_dim = 2;
    s->dense_dim = s->values.ndim - s->batch_dim - 1 - (block ? 2 : 0);
    s->blocksize[0] = block ? s->values.sizes[s->batch_dim + 1] : 1;
    s->blocksize[1] = block ? s->values.sizes[s->batch_dim + 2] : 1;
    s->coalesced = true;
    out->sparse = s;
    return 0;
}

/* A view aliasing `src` (its storage stays the caller's), in a blanked tensor. */
static int alias_into(tl_tensor *dst, const tl_tensor *src)
{
    return tl_tensor_view_init(dst, src, src->ndim, src->sizes, src->strides, src->offset);
}

int tl_compressed_alias(tl_tensor *out, tl_layout layout, const tl_tensor *compressed, const tl_tensor *plain,
                        const tl_tensor *values, int ndim, const int64_t *size)
{
    tl_tensor c = {0}, p = {0}, v = {0};
    tensor_blank(&c);
    tensor_blank(&p);
    tensor_blank(&v);
    if (alias_into(&c, compressed) < 0 || alias_into(&p, plain) < 0 || alias_into(&v, values) < 0 ||
        tl_compressed_wrap(out, layout, &c, &p, &v, ndim, size) < 0) {
        tl_tensor_clear(&c);
        tl_tensor_clear(&p);
        tl_tensor_clear(&v);
        return -1;
    }
    return 0;
}

int tl_coo_alias(tl_tensor *out, const tl_tensor *indices, const tl_tensor *values, int ndim, const int64_t *size,
                 bool coalesced)
{
    tl_tensor i = {0}, v = {0};
    tensor_blank(&i);
    tensor_blank(&v);
    if (alias_into(&i, indices) < 0 || alias_into(&v, values) < 0 ||
        tl_coo_wrap(out, &i, &v, ndim, size, coalesced) < 0) {
        tl_tensor_clear(&i);
        tl_tensor_clear(&v);
        return -1;
    }
    return 0;
}

static inline int64_t index_at(const tl_tensor *ind, int64_t d, int64_t i)
{
    return ((const int64_t *)tl_data(ind))[d * ind->strides[0] + i * ind->strides[1]];
}

/* The smallest (at most 0) and largest (at least -1) index of sparse dim d. */
static void index_range(const tl_tensor *ind, int64_t d, int64_t nse, int64_t *lo, int64_t *hi)
{
    *lo = 0;
    *hi = -1;
    for (int64_t i = 0; i < nse; i++) {
        int64_t v = index_at(ind, d, i);
        *lo = v < *lo ? v : *lo;
        *hi = v > *hi ? v : *hi;
    }
}

/* torch's dispatch-key name of a device type in the COO constructor's message. */
static const char *backend_cname(tl_device d)
{
    return d.type == TL_DEV_CPU ? "CPU" : d.type == TL_DEV_CUDA ? "CUDA" : d.type == TL_DEV_META ? "Meta"
                                                                                                  : tl_device_type_names[d.type];
}

int tl_sparse_host_data(const tl_tensor *t)
{
    if (t->device.type == TL_DEV_CPU) return 0;
    return tl_err(TL_ERR_RUNTIME, "tensorlib: sparse components on %s are validated from a host copy "
                  "(tensorlib/_sparse_device.py), not in place", tl_device_type_names[t->device.type]);
}

/* torch's refusal of COO components on two devices. */
static int coo_devices(const tl_tensor *indices, const tl_tensor *values)
{
    if (tl_device_eq(indices->device, values->device)) return 0;
    if (indices->device.type != values->device.type)
        return tl_err(TL_ERR_RUNTIME, "backend of indices (%s) must match backend of values (%s)",
                      backend_cname(indices->device), backend_cname(values->device));
    return tl_err(TL_ERR_RUNTIME, "device of indices (%d) must match device of values (%d)", indices->device.index,
                  values->device.index);
}

int tl_coo_check(const tl_tensor *indices, const tl_tensor *values, int ndim, const int64_t *size, bool bounds)
{
    char a[512], b[512];
    if (coo_devices(indices, values) < 0) return -1;
    if (indices->dtype != TL_INT64)
        return tl_err(TL_ERR_RUNTIME, "indices must be an int64 tensor");
    if (indices->ndim != 2)
        return tl_err(TL_ERR_RUNTIME, "indices must be sparse_dim x nnz, but got: %s",
                      tl_shape_str(indices->sizes, indices->ndim, a, sizeof a));
    if (values->ndim < 1)
        return tl_err(TL_ERR_RUNTIME, "values must have at least one dimension");
    int64_t sd = indices->sizes[0], nse = indices->sizes[1], dd = values->ndim - 1;
    if (values->sizes[0] != nse)
        return tl_err(TL_ERR_RUNTIME,
                      "indices and values must have same nnz, but got nnz from indices: %lld, nnz from values: %lld",
                      (long long)nse, (long long)values->sizes[0]);
    if (ndim != sd + dd)
        return tl_err(TL_ERR_RUNTIME,
                      "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = %d, sparse_dim = %lld, "
                      "dense_dim = %lld", ndim, (long long)sd, (long long)dd);
    if (tl_check_shape(size, ndim) < 0) return -1;
    if (memcmp(values->sizes + 1, size + sd, sizeof(int64_t) * dd) != 0) {
        int64_t want[TL_MAX_DIMS];
        want[0] = nse;
        memcpy(want + 1, size + sd, sizeof(int64_t) * dd);
        return tl_err(TL_ERR_RUNTIME, "values has incorrect size, expected %s, got %s",
                      tl_shape_str(want, (int)dd + 1, a, sizeof a),
                      tl_shape_str(values->sizes, values->ndim, b, sizeof b));
    }
    if (!bounds) return 0;
    if (tl_sparse_host_data(indices) < 0) return -1;
    for (int64_t d = 0; d < sd; d++) {
        int64_t lo, hi;
        index_range(indices, d, nse, &lo, &hi);
        if (lo < 0) return tl_err(TL_ERR_RUNTIME, "found negative index %lld for dim %lld", (long long)lo, (long long)d);
        if (hi >= size[d])
            return tl_err(TL_ERR_RUNTIME, "size is inconsistent with indices: for dim %lld, size is %lld but found index %lld",
                          (long long)d, (long long)size[d], (long long)hi);
    }
    return 0;
}

int tl_coo_infer_size(const tl_tensor *indices, const tl_tensor *values, int64_t *size, int *ndim)
{
    char a[512];
    if (coo_devices(indices, values) < 0 || tl_sparse_host_data(indices) < 0) return -1;
    if (indices->ndim != 2)
        return tl_err(TL_ERR_RUNTIME, "indices must be sparse_dim x nnz, but got: %s",
                      tl_shape_str(indices->sizes, indices->ndim, a, sizeof a));
    if (values->ndim < 1) return tl_err(TL_ERR_RUNTIME, "values must have at least one dimension");
    int64_t sd = indices->sizes[0], nse = indices->sizes[1], dd = values->ndim - 1;
    if (sd + dd > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "sparse tensors support at most %d dims", TL_MAX_DIMS);
    for (int64_t d = 0; d < sd; d++) {
        int64_t lo, hi;
        index_range(indices, d, nse, &lo, &hi);
        if (lo < 0) return tl_err(TL_ERR_RUNTIME, "found negative index %lld for dim %lld", (long long)lo, (long long)d);
        if (hi == INT64_MAX) return tl_err(TL_ERR_RUNTIME, "numel: integer multiplication overflow");
        size[d] = hi + 1;
    }
    memcpy(size + sd, values->sizes + 1, sizeof(int64_t) * dd);
    *ndim = (int)(sd + dd);
    return 0;
}
