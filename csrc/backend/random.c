/* random.c (backend) - the core's side of a backend's random entry and its host runner.
 * The samplers (ops/random.c) validate, pick the value mode and the generator; this builds
 * the call (geometry, counter range) exactly as the CPU's Philox path consumes counters, so
 * a seed gives the same values on either device; tl_backend_random_host runs the call on
 * host memory with the same per-block function (kernels/hd_random.h) as the CUDA kernel,
 * for the tests' stand-in backend. */
#include <stdbool.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/random_core.h"
#include "core/error.h"
#include "kernels/hd_random.h"

static int random_call(tl_tensor *t, tl_generator *g, int sampler, int mode, double a, double b, uint64_t int_from,
                       uint64_t int_range, const tl_tensor *const *ins, const char *op)
{
    const tl_device_backend *be = tl_backend_get(t->device.type);
    int bdt = tl_backend_dtype_code(t->dtype);
    if (!be || !be->random) return tl_backend_refuse(op, t->device, -1);
    if (bdt < 0) return tl_backend_refuse(op, t->device, t->dtype);
    int64_t n = tl_numel(t);
    if (n == 0) return 0;
    tl_backend_random_call c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.sampler = sampler;
    c.mode = mode;
    c.dtype = bdt;
    c.device_index = t->device.index;
    c.numel = n;
    c.a = a;
    c.b = b;
    c.int_from = int_from;
    c.int_range = int_range;
    c.data = (char *)tl_data(t);
    for (int k = 0; k < 2; k++) {
        if (!ins || !ins[k]) continue;
        int idt = tl_backend_dtype_code(ins[k]->dtype);
        if (idt < 0) return tl_backend_refuse(op, t->device, ins[k]->dtype);
        c.in[k] = tl_data(ins[k]);
        c.in_dtype[k] = idt;
        c.nin = 1;
    }
    /* row-major order, innermost first: size-1 dims dropped, a dim merged into the one inside
     * it when it steps over it exactly (in every operand) */
    int64_t isz = tl_itemsize(t);
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1) continue;
        int64_t st = t->strides[d] * isz, ist[2] = {0, 0};
        bool merge = c.ndim > 0 && st == c.strides[c.ndim - 1] * c.shape[c.ndim - 1];
        for (int k = 0; k < 2; k++) {
            if (!c.in[k]) continue;
            ist[k] = ins[k]->strides[d] * tl_itemsize(ins[k]);
            merge = merge && ist[k] == c.in_strides[k][c.ndim - 1] * c.shape[c.ndim - 1];
        }
        if (merge) {
            c.shape[c.ndim - 1] *= t->sizes[d];
            continue;
        }
        if (c.ndim == TL_BACKEND_EW_MAX_DIMS) return tl_backend_refuse(op, t->device, TL_BACKEND_REFUSE_DIMS);
        c.shape[c.ndim] = t->sizes[d];
        c.strides[c.ndim] = st;
        c.in_strides[0][c.ndim] = ist[0];
        c.in_strides[1][c.ndim] = ist[1];
        c.ndim++;
    }
    int64_t nvals = !c.nin && tl_dtype_is_complex((tl_dtype)t->dtype) ? 2 * n : n, vpb = mode == TL_BRM_F32 ? 4 : 2;
    c.seed = g->seed;
    c.first = tl_generator_reserve(g, (uint64_t)((nvals + vpb - 1) / vpb));
    return be->random(&c);
}

int tl_backend_random(tl_tensor *t, tl_generator *g, int sampler, int mode, double a, double b, uint64_t int_from,
                      uint64_t int_range, const char *op)
{
    return random_call(t, g, sampler, mode, a, b, int_from, int_range, NULL, op);
}

int tl_backend_random_params(tl_tensor *t, tl_generator *g, int sampler, double a, double b,
                             const tl_tensor *const *ins, const char *op)
{
    return random_call(t, g, sampler, TL_BRM_F64, a, b, 0, 0, ins, op);
}

int tl_backend_random_host(const tl_backend_random_call *c)
{
    if (c->size != sizeof *c || c->ndim < 0 || c->ndim > TL_BACKEND_EW_MAX_DIMS || c->mode < TL_BRM_F32 ||
        c->mode > TL_BRM_U64 || c->dtype < 0 || c->dtype >= TL_NUM_BDTS)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend random call");
    int64_t nvals = !c->nin && (c->dtype == TL_BDT_COMPLEX64 || c->dtype == TL_BDT_COMPLEX128) ? 2 * c->numel : c->numel;
    int64_t vpb = c->mode == TL_BRM_F32 ? 4 : 2, nblocks = (nvals + vpb - 1) / vpb;
    for (int64_t blk = 0; blk < nblocks; blk++) tl_hd_random_block(c, blk);
    return 0;
}
