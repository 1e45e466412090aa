/* hd_check.c - runs the host/device element math of kernels/hd_math.h on the CPU over
 * contiguous tensors of one dtype, with the same contract as a backend's binary/unary
 * entries, so the test suite checks the formulas the CUDA launcher runs on a GPU. Operands
 * on a device go to that device's backend (the CUDA launcher), so the same entry compares
 * the two. */
#include "backend/hd_check.h"

#include <string.h>

#include "core/error.h"
#include "kernels/hd_math.h"

static const char *const binary_names[] = {
#define TL_X_OP(N) #N,
    TL_BACKEND_BINARY_LIST(TL_X_OP)
#undef TL_X_OP
};
static const char *const unary_names[] = {
#define TL_X_OP(N) #N,
    TL_BACKEND_UNARY_LIST(TL_X_OP)
#undef TL_X_OP
};

int tl_hd_op_code(const char *name, bool binary)
{
    const char *const *names = binary ? binary_names : unary_names;
    int n = binary ? TL_NUM_BOPS : TL_NUM_UOPS;
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return tl_err(TL_ERR_VALUE, "tensorlib: unknown backend %s op '%s'", binary ? "binary" : "unary", name);
}

int tl_hd_apply(tl_tensor *out, int op, const tl_tensor *a, const tl_tensor *b)
{
    if (!tl_is_contiguous(a) || (b && (!tl_is_contiguous(b) || b->dtype != a->dtype || tl_numel(b) != tl_numel(a))))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element ops take contiguous operands of one dtype and size");
    int64_t n = tl_numel(a);
    if (a->device.type != TL_DEV_CPU || (b && b->device.type != TL_DEV_CPU)) {
        const tl_device_backend *be = tl_backend_get(a->device.type);
        if (!be || (b && !tl_device_eq(a->device, b->device)))
            return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element ops need both operands on one device");
        if (tl_tensor_empty(out, a->ndim, a->sizes, a->dtype, a->device, false) < 0) return -1;
        int rc = b ? be->binary(op, a->dtype, tl_data(out), tl_data(a), tl_data(b), n, a->device.index)
                   : be->unary(op, a->dtype, tl_data(out), tl_data(a), n, a->device.index);
        if (rc < 0) tl_tensor_clear(out);
        return rc;
    }
#define TL_X_RUN(S, T, FLT)                                                                   \
    if (a->dtype == TL_##S##_DTYPE) {                                                         \
        if (b ? !tl_hd_binary_ok_##S(op) : !tl_hd_unary_ok_##S(op))                           \
            return tl_err(TL_ERR_RUNTIME, "tensorlib: backend op %d not defined for %s", op,  \
                          tl_dtype_infos[a->dtype].name);                                           \
        if (tl_tensor_empty(out, a->ndim, a->sizes, a->dtype, a->device, false) < 0) return -1; \
        T *o = (T *)tl_data(out);                                                             \
        const T *x = (const T *)tl_data(a), *y = b ? (const T *)tl_data(b) : NULL;            \
        for (int64_t i = 0; i < n; i++) o[i] = y ? tl_hd_binary_##S(op, x[i], y[i]) : tl_hd_unary_##S(op, x[i]); \
        return 0;                                                                             \
    }
#define TL_f32_DTYPE TL_FLOAT32
#define TL_f64_DTYPE TL_FLOAT64
#define TL_i64_DTYPE TL_INT64
    TL_HD_DTYPES(TL_X_RUN)
#undef TL_X_RUN
    return tl_err(TL_ERR_RUNTIME, "tensorlib: backend element ops support float32, float64 and int64, not %s",
                  tl_dtype_infos[a->dtype].name);
}
