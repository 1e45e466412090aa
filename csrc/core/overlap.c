/* overlap.c - memory overlap tests (see overlap.h for the policy). */
#include "core/overlap.h"

#include <string.h>

#include "core/error.h"

static void byte_range(const tl_tensor *t, int64_t *lo, int64_t *hi)
{
    int64_t l, h;
    tl_extent(t->sizes, t->strides, t->ndim, &l, &h);
    *lo = (t->offset + l) * tl_itemsize(t);
    *hi = (t->offset + h + 1) * tl_itemsize(t);
}

bool tl_may_overlap(const tl_tensor *a, const tl_tensor *b)
{
    if (a->storage != b->storage || tl_numel(a) == 0 || tl_numel(b) == 0) return false;
    int64_t a0, a1, b0, b1;
    byte_range(a, &a0, &a1);
    byte_range(b, &b0, &b1);
    return a0 < b1 && b0 < a1;
}

tl_overlap tl_overlap_status(const tl_tensor *a, const tl_tensor *b)
{
    if (a == b) return TL_OVERLAP_FULL;
    if (tl_numel(a) == 0 || tl_numel(b) == 0) return TL_OVERLAP_NO;
    if (!tl_is_non_overlapping_and_dense(a) || !tl_is_non_overlapping_and_dense(b)) return TL_OVERLAP_TOO_HARD;
    if (a->storage != b->storage) return TL_OVERLAP_NO;
    int64_t a0 = a->offset * tl_itemsize(a), a1 = a0 + tl_numel(a) * tl_itemsize(a);
    int64_t b0 = b->offset * tl_itemsize(b), b1 = b0 + tl_numel(b) * tl_itemsize(b);
    if (a0 == b0 && a1 == b1)
        return a->ndim == b->ndim && !memcmp(a->strides, b->strides, sizeof(int64_t) * a->ndim) ? TL_OVERLAP_FULL
                                                                                                : TL_OVERLAP_PARTIAL;
    return a0 < b1 && b0 < a1 ? TL_OVERLAP_PARTIAL : TL_OVERLAP_NO;
}

int tl_check_internal_overlap(const tl_tensor *out)
{
    if (tl_numel(out) == 0) return 0;
    for (int i = 0; i < out->ndim; i++)
        if (out->strides[i] == 0 && out->sizes[i] > 1)
            return tl_err(TL_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor refers to a "
                                          "single memory location. Please clone() the tensor before performing the operation.");
    return 0;
}

int tl_check_partial_overlap(const tl_tensor *out, const tl_tensor *in)
{
    if (tl_overlap_status(out, in) == TL_OVERLAP_PARTIAL)
        return tl_err(TL_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to tensor "
                                      "refer to a single memory location. Please clone() the tensor before performing the "
                                      "operation.");
    return 0;
}
