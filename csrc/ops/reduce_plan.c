/* reduce_plan.c - rows over the reduced dims: layout analysis, materialization, scatter. */
#include "ops/reduce_plan.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "ops/copy.h"

tl_dtype tl_rplan_buffer_dtype(tl_dtype d)
{
    switch (tl_dtype_kind(d)) {
    case TL_KIND_BOOL:
    case TL_KIND_INT: /* unsigned 64-bit values do not fit int64: a uint64 buffer */
        return !tl_dtype_infos[d].is_signed && tl_dtype_itemsize(d) == 8 ? TL_UINT64 : TL_INT64;
    case TL_KIND_FLOAT: return d == TL_FLOAT64 ? TL_FLOAT64 : TL_FLOAT32;
    default: return d == TL_COMPLEX128 ? TL_COMPLEX128 : TL_COMPLEX64;
    }
}

/* True when the dims `dims` (outermost first) of x are laid out row-major with innermost
 * stride `inner` (size-1 dims ignored). */
static bool dims_chain(const tl_tensor *x, const int *dims, int n, int64_t inner)
{
    int64_t expect = inner;
    for (int i = n - 1; i >= 0; i--) {
        int d = dims[i];
        if (x->sizes[d] == 1) continue;
        if (x->strides[d] != expect) return false;
        expect *= x->sizes[d];
    }
    return true;
}

void tl_rplan_dims(tl_rplan *p, const tl_tensor *x, uint64_t mask)
{
    memset(p, 0, sizeof(*p));
    p->ndim = x->ndim;
    p->M = 1;
    p->N = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (mask >> d & 1) {
            p->rdims[p->nr++] = d;
            p->N *= x->sizes[d];
        } else {
            p->kdims[p->nk++] = d;
            p->M *= x->sizes[d];
        }
    }
}

int tl_rplan_init(tl_rplan *p, const tl_tensor *x, uint64_t mask, tl_dtype bt, bool any_order)
{
    tl_rplan_dims(p, x, mask);
    p->bt = bt;
    int64_t total = p->M * p->N;
    if (x->dtype == bt && total > 0) {
        if (any_order && p->nk == 0 && tl_is_non_overlapping_and_dense(x)) {
            bool pos = true;
            for (int d = 0; d < x->ndim; d++) pos &= x->strides[d] >= 0 || x->sizes[d] == 1;
            if (pos) {
                p->base = tl_data(x);
                return 0;
            }
        }
        if (dims_chain(x, p->rdims, p->nr, 1)) {
            p->base = tl_data(x);
            if (dims_chain(x, p->kdims, p->nk, p->N)) return 0;
            p->offs = malloc(sizeof(int64_t) * (size_t)p->M);
            if (!p->offs) return tl_err(TL_ERR_MEMORY, "out of memory");
            int64_t idx[TL_MAX_DIMS] = {0}, off = 0;
            for (int64_t i = 0; i < p->M; i++) {
                p->offs[i] = off;
                for (int j = p->nk - 1; j >= 0; j--) {
                    int d = p->kdims[j];
                    off += x->strides[d];
                    if (++idx[j] < x->sizes[d]) break;
                    off -= x->strides[d] * x->sizes[d];
                    idx[j] = 0;
                }
            }
            return 0;
        }
    }
    /* Materialize: a contiguous copy in (kept..., reduced...) order and the buffer dtype. */
    int64_t sizes[TL_MAX_DIMS], strides[TL_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < p->nk; i++, n++) sizes[n] = x->sizes[p->kdims[i]], strides[n] = x->strides[p->kdims[i]];
    for (int i = 0; i < p->nr; i++, n++) sizes[n] = x->sizes[p->rdims[i]], strides[n] = x->strides[p->rdims[i]];
    tl_tensor v = {0};
    if (tl_tensor_view_init(&v, x, n, sizes, strides, x->offset) < 0) return -1;
    int rc = tl_tensor_empty(&p->tmp, n, sizes, bt, x->device, false);
    if (rc == 0) rc = tl_copy_(&p->tmp, &v);
    tl_tensor_clear(&v);
    if (rc < 0) {
        tl_tensor_clear(&p->tmp);
        return -1;
    }
    p->base = tl_data(&p->tmp);
    return 0;
}

void tl_rplan_free(tl_rplan *p)
{
    free(p->offs);
    p->offs = NULL;
    if (p->tmp.storage) tl_tensor_clear(&p->tmp);
}

int tl_rplan_scatter(const tl_rplan *p, tl_tensor *out, const tl_tensor *res)
{
    int64_t sizes[TL_MAX_DIMS], strides[TL_MAX_DIMS], cs[TL_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < p->nk; i++, n++) sizes[n] = out->sizes[p->kdims[i]], strides[n] = out->strides[p->kdims[i]];
    for (int i = 0; i < p->nr; i++, n++) sizes[n] = out->sizes[p->rdims[i]], strides[n] = out->strides[p->rdims[i]];
    tl_contiguous_strides(sizes, n, cs);
    tl_tensor dv = {0}, sv = {0};
    int rc = tl_tensor_view_init(&dv, out, n, sizes, strides, out->offset);
    if (rc == 0) rc = tl_tensor_view_init(&sv, res, n, sizes, cs, res->offset);
    if (rc == 0) rc = tl_copy_(&dv, &sv);
    tl_tensor_clear(&dv);
    tl_tensor_clear(&sv);
    return rc;
}

int tl_rplan_keepdim_view(tl_tensor *view, const tl_tensor *out, const tl_tensor *x, uint64_t mask)
{
    int64_t sizes[TL_MAX_DIMS], strides[TL_MAX_DIMS];
    int j = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (mask >> d & 1) {
            sizes[d] = 1;
            strides[d] = 0;
        } else {
            sizes[d] = out->sizes[j];
            strides[d] = out->strides[j];
            j++;
        }
    }
    return tl_tensor_view_init(view, out, x->ndim, sizes, strides, out->offset);
}

void tl_reduce_shape(const tl_tensor *x, uint64_t mask, bool keepdim, int64_t *sizes, int32_t *names, int *ndim)
{
    int n = 0;
    for (int d = 0; d < x->ndim; d++) {
        bool red = mask >> d & 1;
        if (red && !keepdim) continue;
        sizes[n] = red ? 1 : x->sizes[d];
        names[n] = x->names ? x->names[d] : TL_NAME_NONE;
        n++;
    }
    *ndim = n;
}
