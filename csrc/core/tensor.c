/* tensor.c - tensor construction, geometry predicates and names storage. */
#include "core/tensor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"

int tl_tensor_set_ndim(tl_tensor *t, int ndim)
{
    if (ndim > TL_MAX_DIMS)
        return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions, got %d", TL_MAX_DIMS, ndim);
    free(t->names);
    t->names = NULL;
    if (t->sizes && t->sizes != t->small) free(t->sizes);
    if (ndim <= TL_SMALL_DIMS) {
        t->sizes = t->small;
        t->strides = t->small + TL_SMALL_DIMS;
    } else {
        int64_t *p = malloc(2 * sizeof(int64_t) * ndim);
        if (!p) {
            t->sizes = t->small;
            t->strides = t->small + TL_SMALL_DIMS;
            t->ndim = 0;
            return tl_err(TL_ERR_MEMORY, "out of memory");
        }
        t->sizes = p;
        t->strides = p + ndim;
    }
    t->ndim = ndim;
    return 0;
}

/* t <- a strided view of `storage` with a geometry already validated against it; t takes
 * over one reference the caller holds (released when t cannot be resized). */
static int adopt(tl_tensor *t, tl_storage *storage, int64_t offset, int ndim, const int64_t *sizes,
                 const int64_t *strides, tl_dtype dtype)
{
    if (tl_tensor_set_ndim(t, ndim) < 0) { /* ndim <= TL_MAX_DIMS: only out of memory */
        tl_storage_release(storage);
        return -1;
    }
    if (ndim) {
        memmove(t->sizes, sizes, sizeof(int64_t) * ndim);
        memmove(t->strides, strides, sizeof(int64_t) * ndim);
    }
    tl_storage_release(t->storage);
    t->storage = storage;
    t->offset = offset;
    t->dtype = (uint8_t)dtype;
    t->layout = TL_LAYOUT_STRIDED;
    t->device = storage->device;
    return 0;
}

int tl_tensor_init(tl_tensor *t, tl_storage *storage, int64_t offset, int ndim, const int64_t *sizes,
                   const int64_t *strides, tl_dtype dtype)
{
    int64_t cs[TL_MAX_DIMS];
    if (!strides) {
        if (tl_check_shape(sizes, ndim) < 0) return -1;
        tl_contiguous_strides(sizes, ndim, cs);
        strides = cs;
    }
    /* validated before anything changes: a failed set_ leaves self as it was */
    if (tl_check_geometry(ndim, sizes, strides, offset, tl_dtype_itemsize(dtype), storage->nbytes, NULL) < 0) return -1;
    tl_storage_retain(storage);
    return adopt(t, storage, offset, ndim, sizes, strides, dtype);
}

void tl_tensor_clear(tl_tensor *t)
{
    tl_storage_release(t->storage);
    t->storage = NULL;
    free(t->names);
    t->names = NULL;
    if (t->sizes && t->sizes != t->small) free(t->sizes);
    t->sizes = t->small;
    t->strides = t->small + TL_SMALL_DIMS;
    t->ndim = 0;
    if (t->sparse) tl_sparse_free(t->sparse);
    t->sparse = NULL;
    t->layout = TL_LAYOUT_STRIDED;
}

static int storage_bytes(int ndim, const int64_t *sizes, const int64_t *strides, tl_dtype dtype, size_t *out)
{
    int64_t cs[TL_MAX_DIMS], bytes;
    for (int i = 0; strides && i < ndim; i++)
        if (strides[i] < 0)
            return tl_err(TL_ERR_RUNTIME, "as_strided: Negative strides are not supported at the moment, got strides: %s",
                          tl_shape_str(strides, ndim, (char[512]){0}, 512));
    if (!strides) {
        if (tl_check_shape(sizes, ndim) < 0) return -1;
        tl_contiguous_strides(sizes, ndim, cs);
        strides = cs;
    }
    if (tl_check_geometry(ndim, sizes, strides, 0, tl_dtype_itemsize(dtype), SIZE_MAX, &bytes) < 0) return -1;
    if (bytes > (int64_t)1 << 48)
        return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                      tl_shape_str(sizes, ndim, (char[512]){0}, 512));
    *out = (size_t)bytes;
    return 0;
}

int tl_tensor_empty_strided(tl_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
                            tl_dtype dtype, tl_device device)
{
    size_t nbytes;
    int64_t numel = 1, cs[TL_MAX_DIMS];
    for (int i = 0; i < ndim; i++) numel *= sizes[i] < 0 ? 1 : sizes[i];
    for (int i = 0; i < ndim; i++)
        if (strides[i] < 0 && sizes[i] >= 0) {
            /* torch: no storage size for negative strides, but an empty tensor gets contiguous ones */
            if (numel != 0) {
                char b1[512], b2[512];
                return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                              tl_shape_str(sizes, ndim, b1, sizeof b1), tl_shape_str(strides, ndim, b2, sizeof b2));
            }
            tl_contiguous_strides(sizes, ndim, cs);
            strides = cs;
            break;
        }
    if (tl_backend_check(device) < 0 || storage_bytes(ndim, sizes, strides, dtype, &nbytes) < 0) return -1;
    tl_storage *s = tl_storage_new(nbytes, device, false);
    if (!s) return -1;
    int rc = tl_tensor_init(t, s, 0, ndim, sizes, strides, dtype);
    tl_storage_release(s);
    return rc;
}

int tl_tensor_empty(tl_tensor *t, int ndim, const int64_t *sizes, tl_dtype dtype, tl_device device, bool zero)
{
    /* the shape is checked once, its contiguous strides made once, and the storage sized for
     * exactly them: the fresh geometry needs no second check (tl_tensor_init's) */
    size_t nbytes;
    int64_t cs[TL_MAX_DIMS], numel = 1, bytes;
    if (tl_backend_check(device) < 0 || tl_check_shape(sizes, ndim) < 0) return -1;
    tl_contiguous_strides(sizes, ndim, cs);
    for (int i = 0; i < ndim; i++) numel *= sizes[i]; /* tl_check_shape bounded it */
    if (numel == 0 || __builtin_mul_overflow(numel, (int64_t)tl_dtype_itemsize(dtype), &bytes) ||
        bytes > (int64_t)1 << 48) {
        /* the full check: an empty shape's strides can still overflow (zero-length dims count
         * as 1), and its messages */
        if (storage_bytes(ndim, sizes, cs, dtype, &nbytes) < 0) return -1;
    } else {
        nbytes = (size_t)bytes; /* contiguous, non-empty: every span is below numel */
    }
    tl_storage *s = tl_storage_new(nbytes, device, zero);
    return s ? adopt(t, s, 0, ndim, sizes, cs, dtype) : -1; /* t takes the new storage's reference */
}

/* Dims ordered innermost first by stride; stride-0 dims are ambiguous and keep their
 * place; equal strides order by size (torch's TensorIterator reorder rule). */
static void infer_dense_order(const tl_tensor *src, int *perm)
{
    int n = src->ndim;
    for (int i = 0; i < n; i++) perm[i] = n - 1 - i;
    for (int i = 1; i < n; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int a = perm[d0], b = perm[d1], cmp = 0;
            int64_t sa = src->strides[a], sb = src->strides[b];
            if (sa != 0 && sb != 0) cmp = sa < sb ? -1 : sa > sb ? 1 : src->sizes[a] > src->sizes[b] ? 1 : 0;
            if (cmp > 0) {
                perm[d0] = b;
                perm[d1] = a;
                d1 = d0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
}

int tl_tensor_empty_like(tl_tensor *t, const tl_tensor *src, tl_dtype dtype, tl_memory_format fmt)
{
    int64_t strides[TL_MAX_DIMS];
    int perm[TL_MAX_DIMS];
    int n = src->ndim;
    if (fmt == TL_MEMFMT_PRESERVE) {
        tl_contiguous_strides(src->sizes, n, strides);
        if (!memcmp(strides, src->strides, sizeof(int64_t) * n)) /* the common case: sized once */
            return tl_tensor_empty(t, n, src->sizes, dtype, src->device, false);
        if (tl_is_non_overlapping_and_dense(src) || tl_numel(src) == 0)
            return tl_tensor_empty_strided(t, n, src->sizes, src->strides, dtype, src->device);
        /* torch's infer_dense_strides: dense strides in the source's stride order */
        infer_dense_order(src, perm);
        int64_t s = 1;
        for (int k = 0; k < n; k++) {
            strides[perm[k]] = s;
            s *= src->sizes[perm[k]] > 1 ? src->sizes[perm[k]] : 1;
        }
        return tl_tensor_empty_strided(t, n, src->sizes, strides, dtype, src->device);
    }
    if (fmt == TL_MEMFMT_CHANNELS_LAST || fmt == TL_MEMFMT_CHANNELS_LAST_3D) {
        int want = fmt == TL_MEMFMT_CHANNELS_LAST ? 4 : 5;
        if (n != want)
            return tl_err(TL_ERR_RUNTIME, "required rank %d tensor to use %s format", want,
                          want == 4 ? "channels_last" : "channels_last_3d");
        perm[0] = 0;
        for (int i = 2; i < n; i++) perm[i - 1] = i;
        perm[n - 1] = 1;
        tl_strides_for_order(src->sizes, n, perm, strides);
        return tl_tensor_empty_strided(t, n, src->sizes, strides, dtype, src->device);
    }
    return tl_tensor_empty(t, n, src->sizes, dtype, src->device, false);
}

/* a view is strided even of a sparse tensor's shell, whose components it does not share */
static int as_view_of(tl_tensor *t, const tl_tensor *src)
{
    t->device = src->device;
    t->layout = TL_LAYOUT_STRIDED;
    return 0;
}

int tl_tensor_view_init(tl_tensor *t, const tl_tensor *src, int ndim, const int64_t *sizes,
                        const int64_t *strides, int64_t offset)
{
    if (tl_tensor_init(t, src->storage, offset, ndim, sizes, strides, (tl_dtype)src->dtype) < 0) return -1;
    return as_view_of(t, src);
}

int tl_tensor_view_within(tl_tensor *t, const tl_tensor *src, int ndim, const int64_t *sizes,
                          const int64_t *strides, int64_t offset)
{
    tl_storage_retain(src->storage);
    if (adopt(t, src->storage, offset, ndim, sizes, strides, (tl_dtype)src->dtype) < 0) return -1;
    return as_view_of(t, src);
}

int tl_tensor_alias(tl_tensor *t, const tl_tensor *src)
{
    if (t == src) return 0;
    if (tl_tensor_view_init(t, src, src->ndim, src->sizes, src->strides, src->offset) < 0) return -1;
    return tl_tensor_copy_names(t, src);
}

int tl_tensor_set_names(tl_tensor *t, const int32_t *names)
{
    bool any = false;
    for (int i = 0; names && i < t->ndim; i++) any |= names[i] != TL_NAME_NONE;
    if (!any) {
        free(t->names);
        t->names = NULL;
        return 0;
    }
    if (!t->names) {
        t->names = malloc(sizeof(int32_t) * (t->ndim ? t->ndim : 1));
        if (!t->names) return tl_err(TL_ERR_MEMORY, "out of memory");
    }
    memmove(t->names, names, sizeof(int32_t) * t->ndim);
    return 0;
}

int tl_tensor_copy_names(tl_tensor *t, const tl_tensor *src)
{
    return tl_tensor_set_names(t, src->names);
}

bool tl_is_contiguous(const tl_tensor *t)
{
    int64_t expected = 1;
    for (int i = 0; i < t->ndim; i++)
        if (t->sizes[i] == 0) return true;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->sizes[i] != 1) {
            if (t->strides[i] != expected) return false;
            expected *= t->sizes[i];
        }
    }
    return true;
}

bool tl_is_contiguous_format(const tl_tensor *t, tl_memory_format fmt)
{
    if (fmt == TL_MEMFMT_CONTIGUOUS || fmt == TL_MEMFMT_PRESERVE) return tl_is_contiguous(t);
    int want = fmt == TL_MEMFMT_CHANNELS_LAST ? 4 : 5;
    if (t->ndim != want) return false;
    /* C innermost, then W, H, (D), N outermost */
    static const int order4[] = {1, 3, 2, 0}, order5[] = {1, 4, 3, 2, 0};
    const int *order = want == 4 ? order4 : order5;
    int64_t expected = 1;
    for (int k = 0; k < want; k++) {
        int d = order[k];
        if (t->sizes[d] != 1 && t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

bool tl_is_non_overlapping_and_dense(const tl_tensor *t)
{
    if (t->ndim == 1) return t->sizes[0] < 2 || t->strides[0] == 1;
    int perm[TL_MAX_DIMS];
    int n = t->ndim;
    for (int i = 0; i < n; i++) perm[i] = i;
    /* sort ascending by stride (size-1 dims don't matter for density) */
    for (int i = 1; i < n; i++) {
        int p = perm[i], j = i - 1;
        while (j >= 0 && (t->sizes[perm[j]] != 1 && (t->sizes[p] == 1 || t->strides[perm[j]] > t->strides[p]))) {
            perm[j + 1] = perm[j];
            j--;
        }
        perm[j + 1] = p;
    }
    int64_t expected = 1;
    for (int k = 0; k < n; k++) {
        int d = perm[k];
        if (t->sizes[d] == 1) continue;
        if (t->sizes[d] == 0) return true;
        if (t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

/* torch's is_channels_last_strides_2d/3d: strides decrease in the order C innermost,
 * then W, H, (D), N; ambiguous cases fall back to NCHW. */
static bool channels_last_strides(const tl_tensor *t)
{
    static const int order4[] = {1, 3, 2, 0}, order5[] = {1, 4, 3, 2, 0};
    const int *order = t->ndim == 4 ? order4 : order5;
    int64_t min = 0;
    if (t->strides[1] == 0) return false;
    for (int k = 0; k < t->ndim; k++) {
        int d = order[k];
        if (t->sizes[d] == 0 || t->strides[d] < min) return false;
        if (d == 0 && min == t->strides[1]) return false;
        min = t->strides[d];
        if (t->sizes[d] > 1) min *= t->sizes[d];
    }
    return true;
}

tl_memory_format tl_suggest_memory_format(const tl_tensor *t)
{
    if (t->layout != TL_LAYOUT_STRIDED || (t->ndim != 4 && t->ndim != 5) || !channels_last_strides(t))
        return TL_MEMFMT_CONTIGUOUS;
    return t->ndim == 4 ? TL_MEMFMT_CHANNELS_LAST : TL_MEMFMT_CHANNELS_LAST_3D;
}

int tl_check_writable(const tl_tensor *t)
{
    if (t->storage && t->storage->readonly)
        return tl_err(TL_ERR_RUNTIME, "cannot write to a tensor that shares memory with a read-only buffer");
    return 0;
}
