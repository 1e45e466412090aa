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
    int64_t n;
    return tl_numel_checked(sizes, ndim, &n);
}

void tl_contiguous_strides(const int64_t *sizes, int ndim, int64_t *strides)
{
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= sizes[i] > 1 ? sizes[i] : 1;
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
