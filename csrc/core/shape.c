/* shape.c - checked shape arithmetic. */
#include "core/shape.h"

#include <stdio.h>

#include "core/error.h"

int tl_mul_checked(int64_t a, int64_t b, int64_t *out)
{
    if (__builtin_mul_overflow(a, b, out))
        return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%lld*%lld",
                      (long long)a, (long long)b);
    return 0;
}

int tl_numel_checked(const int64_t *sizes, int ndim, int64_t *out)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0)
            return tl_err(TL_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                          (long long)sizes[i], tl_shape_str(sizes, ndim, (char[512]){0}, 512));
        if (__builtin_mul_overflow(n, sizes[i], &n))
            return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                          tl_shape_str(sizes, ndim, (char[512]){0}, 512));
    }
    *out = n;
    return 0;
}

int tl_check_shape(const int64_t *sizes, int ndim)
{
    if (ndim > TL_MAX_DIMS)
        return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions, got %d", TL_MAX_DIMS, ndim);
    int64_t n, s = 1;
    if (tl_numel_checked(sizes, ndim, &n) < 0) return -1;
    for (int i = ndim - 1; i > 0; i--)
        if (__builtin_mul_overflow(s, sizes[i] > 1 ? sizes[i] : 1, &s))
            return tl_err(TL_ERR_RUNTIME, "Stride calculation overflowed");
    return 0;
}

void tl_contiguous_strides(const int64_t *sizes, int ndim, int64_t *strides)
{
    uint64_t s = 1; /* unsigned: a caller's unchecked shape wraps instead of being undefined */
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = (int64_t)s;
        s *= (uint64_t)(sizes[i] > 1 ? sizes[i] : 1);
    }
}

void tl_strides_for_order(const int64_t *sizes, int ndim, const int *perm, int64_t *strides)
{
    int64_t s = 1;
    for (int k = ndim - 1; k >= 0; k--) {
        strides[perm[k]] = s;
        s *= sizes[perm[k]] > 1 ? sizes[perm[k]] : 1;
    }
}

void tl_extent(const int64_t *sizes, const int64_t *strides, int ndim, int64_t *lo, int64_t *hi)
{
    int64_t l = 0, h = 0;
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] == 0) { *lo = 0; *hi = 0; return; }
        int64_t span = (sizes[i] - 1) * strides[i];
        if (span < 0) l += span; else h += span;
    }
    *lo = l;
    *hi = h;
}

static int overflowed(const int64_t *sizes, const int64_t *strides, int ndim)
{
    return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                  tl_shape_str(sizes, ndim, (char[512]){0}, 512), tl_shape_str(strides, ndim, (char[512]){0}, 512));
}

int tl_extent_checked(const int64_t *sizes, const int64_t *strides, int ndim, int64_t *lo, int64_t *hi)
{
    int64_t l = 0, h = 0, span;
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0) return overflowed(sizes, strides, ndim);
        empty |= sizes[i] == 0;
    }
    for (int i = 0; i < ndim && !empty; i++) {
        if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) ||
            __builtin_add_overflow(span < 0 ? l : h, span, span < 0 ? &l : &h))
            return overflowed(sizes, strides, ndim);
    }
    *lo = l;
    *hi = h;
    return 0;
}

int tl_check_geometry(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset, int itemsize,
                      size_t nbytes, int64_t *need)
{
    int64_t numel, span, hi = 0, bytes;
    if (ndim > TL_MAX_DIMS)
        return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions, got %d", TL_MAX_DIMS, ndim);
    if (tl_numel_checked(sizes, ndim, &numel) < 0) return -1;
    if (offset < 0) return tl_err(TL_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
    /* The span is computed even for empty views (zero-length dims count as length 1), so
     * index * stride and offset arithmetic on any accepted geometry cannot overflow. */
    for (int i = 0; i < ndim; i++) {
        if (strides[i] < 0 || __builtin_mul_overflow(strides[i], (int64_t)itemsize, &bytes) ||
            __builtin_mul_overflow(sizes[i] > 1 ? sizes[i] - 1 : 0, strides[i], &span) ||
            __builtin_add_overflow(hi, span, &hi))
            return overflowed(sizes, strides, ndim);
    }
    if (__builtin_add_overflow(offset, hi, &span) || __builtin_add_overflow(span, 1, &span) ||
        __builtin_mul_overflow(span, (int64_t)itemsize, &bytes))
        return overflowed(sizes, strides, ndim);
    if (numel == 0) bytes = 0;
    else if ((uint64_t)bytes > nbytes)
        return tl_err(TL_ERR_RUNTIME,
                      "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %d requiring a storage size of "
                      "%lld are out of bounds for storage of size %zu",
                      tl_shape_str(sizes, ndim, (char[512]){0}, 512), tl_shape_str(strides, ndim, (char[512]){0}, 512),
                      (long long)offset, itemsize, (long long)bytes, nbytes);
    if (need) *need = bytes;
    return 0;
}

int tl_wrap_dim(int64_t dim, int ndim, int *out)
{
    int n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return tl_err(TL_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -n, n - 1, (long long)dim);
    *out = (int)(dim < 0 ? dim + n : dim);
    return 0;
}

int tl_broadcast_shapes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout)
{
    int n = na > nb ? na : nb;
    for (int i = n - 1, ia = na - 1, ib = nb - 1; i >= 0; i--, ia--, ib--) {
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa == sb || sb == 1) out[i] = sa;
        else if (sa == 1) out[i] = sb;
        else
            return tl_err(TL_ERR_RUNTIME,
                          "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                          (long long)sa, (long long)sb, i);
    }
    *nout = n;
    return 0;
}

const char *tl_shape_str(const int64_t *sizes, int ndim, char *buf, int buflen)
{
    int pos = snprintf(buf, buflen, "[");
    for (int i = 0; i < ndim && pos < buflen - 24; i++)
        pos += snprintf(buf + pos, buflen - pos, i ? ", %lld" : "%lld", (long long)sizes[i]);
    snprintf(buf + pos, buflen - pos, "]");
    return buf;
}
