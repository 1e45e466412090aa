/* ew.c - the core's side of a backend's strided element-wise entry: after the element-wise
 * driver (ops/elementwise.c) has checked the operands, promoted, allocated or checked the
 * destination, this builds the index calculator (broadcast shape and per-operand byte strides
 * from the CPU iterator's own geometry: size-1 dims dropped, dims ordered by the output's
 * strides, mergeable dims merged) and hands one tl_backend_ew_call to the backend. */
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/ew_core.h"
#include "core/error.h"
#include "core/iter.h"
#include "core/tensor.h"
#include "kernels/hd_ewp.h"

/* The backend op code of a registry op name ("div_floor" -> TL_BOP_DIV_FLOOR), -1 if none;
 * *xop is set when it is one of the xop list (clamp_s -> TL_XOP_CLAMP, where, addcmul). */
static int op_code(const char *name, int nin, int *xop)
{
    int op = nin == 1 || nin == 2 ? tl_backend_op_code(name, nin == 2) : -1;
    *xop = 0;
    if (op < 0 && (op = tl_backend_xop_code(name)) >= 0) *xop = 1;
    return op;
}

static int op_defined(int op, int xop, int nin, int bdt)
{
    if (xop) return tl_hd_xop_ok(op, bdt);
#define TL_X_OK(S, ID, ...) \
    if (bdt == TL_BDT_##ID) return nin == 2 ? tl_hd_binary_ok_##S(op) : tl_hd_unary_ok_##S(op);
    TL_HD_DTYPES(TL_X_OK)
#undef TL_X_OK
    return 0;
}

/* The backend's refusal, the op named as the user wrote it (clamp_s -> clamp, "add with alpha"). */
static int refuse(const char *kname, const char *name, tl_device dev, int dtype)
{
    char shown[96];
    size_t n = strlen(name);
    int len = n > 2 && strcmp(name + n - 2, "_s") == 0 ? (int)n - 2 : (int)n;
    snprintf(shown, sizeof shown, "%.*s%s", len, name, strcmp(kname, "add_alpha") == 0 ? " with alpha" : "");
    return tl_backend_refuse(shown, dev, dtype);
}

int tl_backend_ew_supported(const char *kname, const char *name, int nin, int compute, int out_dtype,
                            const int *in_dtypes, tl_device dev)
{
    const tl_device_backend *b = tl_backend_get(dev.type);
    int xop, op = op_code(kname, nin, &xop);
    if (op < 0 || !b || !b->elementwise) return refuse(kname, name, dev, -1);
    int bad = tl_backend_dtype_code(compute) < 0 ? compute : tl_backend_dtype_code(out_dtype) < 0 ? out_dtype : -1;
    for (int k = 0; k < nin && bad < 0; k++)
        if (tl_backend_dtype_code(in_dtypes[k]) < 0) bad = in_dtypes[k];
    if (bad < 0 && !op_defined(op, xop, nin, tl_backend_dtype_code(compute))) bad = compute;
    return bad >= 0 ? refuse(kname, name, dev, bad) : 0;
}

int tl_backend_elementwise(const char *kname, const char *name, int nin, int compute, const tl_tensor *const *ops,
                           const bool *scalar, const int64_t *shape, int ndim, const tl_backend_ew_params *prm)
{
    tl_device dev = ops[0]->device;
    int idt[3];
    for (int k = 0; k < nin && k < 3; k++) idt[k] = scalar[k] ? compute : ops[k + 1]->dtype;
    if (nin < 1 || nin > 3 || tl_backend_ew_supported(kname, name, nin, compute, ops[0]->dtype, idt, dev) < 0) return -1;
    const tl_device_backend *b = tl_backend_get(dev.type);
    int xop, op = op_code(kname, nin, &xop), cb = tl_backend_dtype_code(compute);
    tl_iter it;
    if (tl_iter_init(&it, nin + 1, ops, shape, ndim, TL_ITER_GEOMETRY) < 0) return -1;
    if (it.numel == 0) return 0;
    if (it.ndim > TL_BACKEND_EW_MAX_DIMS) return refuse(kname, name, dev, TL_BACKEND_REFUSE_DIMS);
    tl_backend_ew_call call;
    memset(&call, 0, sizeof call);
    call.size = sizeof call;
    call.op = op;
    call.nin = nin;
    call.xop = xop;
    if (prm) call.prm = *prm;
    call.compute = cb;
    call.device_index = dev.index;
    call.ndim = it.ndim;
    call.numel = it.numel;
    for (int d = 0; d < it.ndim; d++) call.shape[d] = it.shape[d];
    for (int k = 0; k <= nin; k++) {
        tl_backend_ew_operand *o = &call.ops[k];
        if (k > 0 && scalar[k - 1]) {
            /* a host value in the compute dtype: the kernel reads it from the call */
            o->data = NULL;
            o->dtype = cb;
            memcpy(o->value, it.data[k], (size_t)tl_dtype_itemsize((tl_dtype)compute));
            continue;
        }
        o->data = it.data[k];
        o->dtype = tl_backend_dtype_code(ops[k]->dtype);
        for (int d = 0; d < it.ndim; d++) o->strides[d] = it.strides[d][k];
    }
    return b->elementwise(&call);
}
