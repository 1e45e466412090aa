/* reduce.c (backend) - the core's side of a backend's reduce entry: after the reduction
 * driver (ops/reduce.c, or sort.c for max/min with a dim) has applied torch's rules (dims,
 * dtypes, emptiness, result shape) and allocated the results on the device, this builds one
 * tl_backend_reduce_call from the same dim split the CPU plan uses (tl_rplan_dims: kept dims,
 * reduced dims) with byte strides, size-1 dims dropped and mergeable dims merged, and hands it
 * to the backend. Also the host runner of the call (kernels/hd_reduce.h), the entry of the
 * tests' stand-in backend. */
#include "backend/reduce_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernels/hd_reduce.h"
#include "ops/reduce.h"
#include "ops/reduce_plan.h"

static const bool rop_complex[TL_BACKEND_NUM_ROPS] = {
#define TL_X_C(N, C) C,
    TL_BACKEND_REDUCE_LIST(TL_X_C)
#undef TL_X_C
};

/* The backend op of a tl_red_op. */
static int rop_of(int op)
{
    switch (op) {
    case TL_RED_SUM: return TL_ROP_SUM;
    case TL_RED_NANSUM: return TL_ROP_NANSUM;
    case TL_RED_PROD: return TL_ROP_PROD;
    case TL_RED_MEAN: return TL_ROP_MEAN;
    case TL_RED_NANMEAN: return TL_ROP_NANMEAN;
    case TL_RED_VAR: return TL_ROP_VAR;
    case TL_RED_STD: return TL_ROP_STD;
    case TL_RED_MAX: case TL_RED_AMAX: case TL_RED_ARGMAX: case TL_RED_AMINMAX_MAX: return TL_ROP_MAX;
    case TL_RED_MIN: case TL_RED_AMIN: case TL_RED_ARGMIN: case TL_RED_AMINMAX_MIN: return TL_ROP_MIN;
    case TL_RED_ALL: return TL_ROP_ALL;
    case TL_RED_ANY: return TL_ROP_ANY;
    case TL_RED_COUNT_NONZERO: return TL_ROP_COUNT_NONZERO;
    case TL_RED_NORM: return TL_ROP_NORM;
    case TL_RED_LOGSUMEXP: return TL_ROP_LOGSUMEXP;
    default: return -1;
    }
}

int tl_backend_reduce_supported(const char *name, int op, int in_dtype, int out_dtype, tl_device dev)
{
    const tl_device_backend *b = tl_backend_get(dev.type);
    int rop = rop_of(op);
    if (!b || !b->reduce || rop < 0) return tl_backend_refuse(name, dev, -1);
    int bad = tl_backend_dtype_code(in_dtype) < 0 ? in_dtype : out_dtype >= 0 && tl_backend_dtype_code(out_dtype) < 0 ? out_dtype : -1;
    if (bad < 0 && tl_dtype_is_complex((tl_dtype)in_dtype) && !rop_complex[rop]) bad = in_dtype;
    return bad >= 0 ? tl_backend_refuse(name, dev, bad) : 0;
}

/* The accumulation dtype of an input dtype (backend.h: torch's CUDA choices). */
static int acc_of(int bdt)
{
    switch (bdt) {
    case TL_BDT_FLOAT16: case TL_BDT_BFLOAT16: case TL_BDT_FLOAT32: return TL_BDT_FLOAT32;
    case TL_BDT_FLOAT64: case TL_BDT_COMPLEX64: case TL_BDT_COMPLEX128: return bdt;
    default: return TL_BDT_INT64;
    }
}

int tl_backend_reduce(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int op, uint64_t mask,
                      bool keepdim, double param, const char *name)
{
    const tl_tensor *res = values ? values : indices;
    int rop = rop_of(op);
    if (tl_backend_reduce_supported(name, op, x->dtype, values ? values->dtype : -1, x->device) < 0) return -1;
    if (tl_numel(res) == 0) return 0;
    const tl_device_backend *b = tl_backend_get(x->device.type);
    tl_backend_reduce_call c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.op = rop;
    c.device_index = x->device.index;
    c.in_dtype = tl_backend_dtype_code(x->dtype);
    c.acc_dtype = acc_of(c.in_dtype);
    c.out_dtype = values ? tl_backend_dtype_code(values->dtype) : TL_BDT_INT64;
    if (rop == TL_ROP_NANSUM && values && tl_hd_rkind(c.in_dtype) == TL_HD_RK_FLT &&
        tl_hd_rkind(c.out_dtype) == TL_HD_RK_INT)
        c.acc_dtype = TL_BDT_INT64; /* nansum(float, dtype=int): NaNs skipped, the rest cast, summed as integers */
    c.param = param;
    c.in = tl_data(x);
    c.out = values ? tl_data(values) : NULL;
    c.indices = indices ? tl_data(indices) : NULL;
    c.nout = 1;
    c.nelem = 1;
    /* the CPU plan's split of x's dims, walked innermost first */
    tl_rplan p;
    memset(&p, 0, sizeof p);
    tl_rplan_dims(&p, x, mask);
    int64_t isz = tl_itemsize(x), osz = values ? tl_itemsize(values) : 0;
    int nk = 0, nr = 0;
    /* reduced dims innermost first; without positions to report, by increasing stride (a full
     * reduction of a transposed tensor is one dim) */
    int rd[TL_MAX_DIMS];
    for (int i = 0; i < p.nr; i++) rd[i] = p.rdims[p.nr - 1 - i];
    for (int i = 1; !indices && i < p.nr; i++)
        for (int j = i; j > 0 && labs(x->strides[rd[j]]) < labs(x->strides[rd[j - 1]]); j--) {
            int t = rd[j];
            rd[j] = rd[j - 1];
            rd[j - 1] = t;
        }
    for (int i = 0; i < p.nr; i++) {
        int d = rd[i];
        if (x->sizes[d] == 1) continue;
        int64_t st = x->strides[d] * isz;
        if (nr > 0 && c.rin_strides[nr - 1] * c.red_sizes[nr - 1] == st) { /* merges with the inner one */
            c.red_sizes[nr - 1] *= x->sizes[d];
        } else {
            if (nr == TL_BACKEND_RED_MAX_DIMS) return tl_backend_refuse(name, x->device, TL_BACKEND_REFUSE_DIMS);
            c.red_sizes[nr] = x->sizes[d];
            c.rin_strides[nr++] = st;
        }
        c.nelem *= x->sizes[d];
    }
    for (int i = p.nk - 1; i >= 0; i--) {
        int d = p.kdims[i];
        if (x->sizes[d] == 1) continue;
        int od = keepdim ? d : i; /* the output dim of x's dim d */
        int64_t si = x->strides[d] * isz, so = values ? values->strides[od] * osz : 0,
                sx = indices ? indices->strides[od] * 8 : 0;
        int j = nk - 1;
        if (nk > 0 && c.kin_strides[j] * c.kept_sizes[j] == si && c.kout_strides[j] * c.kept_sizes[j] == so &&
            c.kidx_strides[j] * c.kept_sizes[j] == sx) {
            c.kept_sizes[j] *= x->sizes[d];
        } else {
            if (nk == TL_BACKEND_RED_MAX_DIMS) return tl_backend_refuse(name, x->device, TL_BACKEND_REFUSE_DIMS);
            c.kept_sizes[nk] = x->sizes[d];
            c.kin_strides[nk] = si;
            c.kout_strides[nk] = so;
            c.kidx_strides[nk++] = sx;
        }
        c.nout *= x->sizes[d];
    }
    c.nkept = nk;
    c.nred = nr;
    return b->reduce(&c);
}

/* ---- the host runner ---- */

/* Partial accumulators per output, elements dealt round-robin as a GPU's threads take them, so
 * the tests run the combine step too. */
#define HOST_LANES 3

int tl_backend_reduce_host(const tl_backend_reduce_call *c)
{
    if (c->size != sizeof *c || c->op < 0 || c->op >= TL_BACKEND_NUM_ROPS || c->nkept < 0 ||
        c->nkept > TL_BACKEND_RED_MAX_DIMS || c->nred < 0 || c->nred > TL_BACKEND_RED_MAX_DIMS)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend reduction call");
    int k = tl_hd_rkind(c->in_dtype), cast = tl_hd_rcast(c);
    int single = c->acc_dtype == TL_BDT_FLOAT32 || c->acc_dtype == TL_BDT_COMPLEX64;
    for (int64_t o = 0; o < c->nout; o++) {
        int64_t r = o, ki = 0, ko = 0, kx = 0;
        for (int d = 0; d < c->nkept; d++) {
            int64_t q = r / c->kept_sizes[d], idx = r - q * c->kept_sizes[d];
            r = q;
            ki += idx * c->kin_strides[d];
            ko += idx * c->kout_strides[d];
            kx += idx * c->kidx_strides[d];
        }
        tl_hd_racc lane[HOST_LANES];
        for (int l = 0; l < HOST_LANES; l++) lane[l] = tl_hd_rinit(c->op, c->param);
        for (int64_t j = 0; j < c->nelem; j++) {
            int64_t s = j, off = ki;
            for (int d = 0; d < c->nred; d++) {
                int64_t q = s / c->red_sizes[d], idx = s - q * c->red_sizes[d];
                s = q;
                off += idx * c->rin_strides[d];
            }
            tl_hd_rfeed(c, &lane[j % HOST_LANES], c->in + off, k, cast, single, j);
        }
        for (int l = HOST_LANES - 1; l > 0; l--)
            tl_hd_rcombine(c->op, c->param, &lane[l - 1], &lane[l], cast ? TL_HD_RK_INT : k, single);
        tl_hd_rstore(c->op, c->param, &lane[0], cast ? TL_HD_RK_INT : k, c->nelem, c->out ? c->out + ko : NULL, c->out_dtype,
                     c->indices ? (int64_t *)(c->indices + kx) : NULL);
    }
    return 0;
}
