/* hd_check.c - runs the host/device element math of kernels/hd_math.h on the CPU over
 * contiguous tensors of one dtype, with the same contract as a backend's binary/unary
 * entries, so the test suite checks the formulas the CUDA launcher runs on a GPU. Operands
 * on a device go to that device's backend (the CUDA launcher), so the same entry compares
 * the two. */
#include "backend/hd_check.h"

#include <string.h>

#include "core/error.h"
#include "kernels/hd_ewp.h"

int tl_hd_op_code(const char *name, bool binary)
{
    int op = tl_backend_op_code(name, binary);
    if (op >= 0) return op;
    return tl_err(TL_ERR_VALUE, "tensorlib: unknown backend %s op '%s'", binary ? "binary" : "unary", name);
}

int tl_hd_apply(tl_tensor *out, int op, const tl_tensor *a, const tl_tensor *b)
{
    if (!tl_is_contiguous(a) || (b && (!tl_is_contiguous(b) || b->dtype != a->dtype || tl_numel(b) != tl_numel(a))))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element ops take contiguous operands of one dtype and size");
    int64_t n = tl_numel(a);
    int kind = b ? tl_hd_binary_kind(op) : tl_hd_unary_kind(op);
    int odt = -1, ok = 0;
    /* the result dtype of the op (its OUT in backend/backend.h), -1 for an unlisted dtype */
#define TL_X_OUT(S, ID, NAME, ST, T, W, CAT, LOAD, STORE, RT, RST, RSTORE, RID)                   \
    if (a->dtype == TL_##ID) {                                                                     \
        odt = kind == TL_HD_OUT_BOOL_K ? TL_BOOL : kind == TL_HD_OUT_REAL_K ? TL_##RID : TL_##ID;  \
        ok = b ? tl_hd_binary_ok_##S(op) : tl_hd_unary_ok_##S(op);                                 \
    }
    TL_HD_DTYPES(TL_X_OUT)
#undef TL_X_OUT
    if (odt < 0)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element ops support bool, integer, float and complex dtypes, not %s",
                      tl_dtype_infos[a->dtype].name);
    if (!ok)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: backend %s op %s not defined for %s", b ? "binary" : "unary",
                      tl_backend_op_name(op, b != NULL), tl_dtype_infos[a->dtype].name);
    if (a->device.type != TL_DEV_CPU || (b && b->device.type != TL_DEV_CPU)) {
        const tl_device_backend *be = tl_backend_get(a->device.type);
        if (!be || (b && !tl_device_eq(a->device, b->device)))
            return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element ops need both operands on one device");
        if (tl_tensor_empty(out, a->ndim, a->sizes, (tl_dtype)odt, a->device, false) < 0) return -1;
        int rc = b ? be->binary(op, a->dtype, tl_data(out), tl_data(a), tl_data(b), n, a->device.index)
                   : be->unary(op, a->dtype, tl_data(out), tl_data(a), n, a->device.index);
        if (rc < 0) tl_tensor_clear(out);
        return rc;
    }
    if (tl_tensor_empty(out, a->ndim, a->sizes, (tl_dtype)odt, a->device, false) < 0) return -1;
    void *o = tl_data(out);
#define TL_X_RUN(S, ID, NAME, ST, T, W, CAT, LOAD, STORE, RT, RST, RSTORE, RID)                   \
    if (a->dtype == TL_##ID) {                                                                     \
        const ST *x = (const ST *)tl_data(a), *y = b ? (const ST *)tl_data(b) : NULL;              \
        if (y) for (int64_t i = 0; i < n; i++) tl_hd_binary_##S(op, o, i, x[i], y[i]);             \
        else for (int64_t i = 0; i < n; i++) tl_hd_unary_##S(op, o, i, x[i]);                      \
    }
    TL_HD_DTYPES(TL_X_RUN)
#undef TL_X_RUN
    return 0;
}

/* The host runner of the strided element-wise entry: the index calculator with int64
 * offsets, and per element the same tl_hd_ew_S the CUDA kernel calls. tests/_fake_cuda.py
 * registers it as its backend's elementwise entry, so the core's whole device path runs in
 * the CPU suite. */
int tl_backend_ew_host(const tl_backend_ew_call *c)
{
    if (c->size != sizeof *c || c->nin < 1 || c->nin > (c->xop ? 3 : 2) || c->ndim < 1 ||
        c->ndim > TL_BACKEND_EW_MAX_DIMS)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend element-wise call");
    const tl_backend_ew_operand *o = c->ops;
    const char *in[3];
    for (int k = 1; k <= 3; k++) in[k - 1] = k > c->nin ? in[0] : o[k].data ? o[k].data : (const char *)o[k].value;
    int dt[3];
    for (int k = 1; k <= 3; k++) dt[k - 1] = k > c->nin ? o[1].dtype : o[k].dtype;
    for (int64_t i = 0; i < c->numel; i++) {
        int64_t r = i, off[4] = {0, 0, 0, 0};
        for (int d = 0; d < c->ndim; d++) {
            int64_t q = r / c->shape[d], idx = r - q * c->shape[d];
            r = q;
            for (int k = 0; k <= c->nin; k++) off[k] += idx * o[k].strides[d];
        }
        if (c->xop) {
            tl_hd_ewp(c->op, c->nin, c->compute, o[0].data + off[0], o[0].dtype, in[0] + off[1], dt[0], in[1] + off[2],
                      dt[1], in[2] + off[3], dt[2], &c->prm);
            continue;
        }
        switch (c->compute) {
#define TL_X_RUN(S, ID, ...)                                                                         \
        case TL_BDT_##ID:                                                                            \
            tl_hd_ew_##S(c->op, c->nin, o[0].data + off[0], o[0].dtype, in[0] + off[1], dt[0], in[1] + off[2], dt[1]); \
            break;
            TL_HD_DTYPES(TL_X_RUN)
#undef TL_X_RUN
        default: return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element-wise call with compute dtype %d", c->compute);
        }
    }
    return 0;
}
