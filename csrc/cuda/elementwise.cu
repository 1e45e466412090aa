// elementwise.cu - the CUDA element-wise launcher: a grid-stride loop over contiguous
// operands of one dtype that applies the host/device formulas of kernels/hd_math.h (the
// same functions the CPU test suite checks through tensorlib._C._hd_apply), on the current
// stream of the device (tensorlib.cuda.stream / set_stream; the legacy default stream
// unless one was selected).
#include "cuda/cuda_backend.h"
#include "kernels/hd_ewp.h"

namespace {

constexpr int kThreads = 256;

// One kernel per dtype and arity; the op is a uniform switch inside the element function.
#define TLC_KERNELS(S, ID, NAME, ST, T, W, CAT, LOAD, STORE, RT, RST, RSTORE, RID)              \
    __global__ void binary_##S(int op, void *out, const ST *a, const ST *b, int64_t n)         \
    {                                                                                          \
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;                \
             i += (int64_t)gridDim.x * blockDim.x)                                             \
            tl_hd_binary_##S(op, out, i, a[i], b[i]);                                          \
    }                                                                                          \
    __global__ void unary_##S(int op, void *out, const ST *a, int64_t n)                       \
    {                                                                                          \
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;                \
             i += (int64_t)gridDim.x * blockDim.x)                                             \
            tl_hd_unary_##S(op, out, i, a[i]);                                                 \
    }
TL_HD_DTYPES(TLC_KERNELS)
#undef TLC_KERNELS

unsigned blocks_for(int64_t n)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    return (unsigned)(b < 65535 * 8 ? b : 65535 * 8);
}

int launched(int dev)
{
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "element-wise kernel launch failed on cuda:%d", dev);
}

int unsupported(int op, int dtype)
{
    return tlc_error(TL_ERR_NOTIMPL, cudaSuccess, "CUDA element-wise op %d is not implemented for dtype %d", op, dtype);
}

}  // namespace

int tlc_binary(int op, int dtype, void *out, const void *a, const void *b, int64_t n, int dev)
{
    if (n == 0) return 0;
    DeviceGuard guard(dev);
#define TLC_LAUNCH(S, ID, NAME, ST, ...)                                                       \
    if (dtype == tlc_##S && tl_hd_binary_ok_##S(op)) {                                         \
        binary_##S<<<blocks_for(n), kThreads, 0, tlc_current_stream(dev)>>>(op, out, (const ST *)a, (const ST *)b, n); \
        return launched(dev);                                                                  \
    }
    TL_HD_DTYPES(TLC_LAUNCH)
#undef TLC_LAUNCH
    return unsupported(op, dtype);
}

int tlc_unary(int op, int dtype, void *out, const void *a, int64_t n, int dev)
{
    if (n == 0) return 0;
    DeviceGuard guard(dev);
#define TLC_LAUNCH(S, ID, NAME, ST, ...)                                                       \
    if (dtype == tlc_##S && tl_hd_unary_ok_##S(op)) {                                          \
        unary_##S<<<blocks_for(n), kThreads, 0, tlc_current_stream(dev)>>>(op, out, (const ST *)a, n); \
        return launched(dev);                                                                  \
    }
    TL_HD_DTYPES(TLC_LAUNCH)
#undef TLC_LAUNCH
    return unsupported(op, dtype);
}

// ---------------------------------------------------------------- strided element-wise entry
// One grid-stride kernel per compute dtype and index width: each thread splits its linear
// index over the call's shape (the index calculator, passed by value) into the byte offset
// of every operand, and tl_hd_ew_S (kernels/hd_math.h) loads, converts, computes and stores.
// 32-bit index math when the element count and every operand's offsets fit.
namespace {

template <typename I>
struct EwArgs {
    int op, nin, ndim, xop, dt[4];
    char *data[4];
    double value[3][2];  // scalar inputs
    tl_backend_ew_params prm;
    I shape[TL_BACKEND_EW_MAX_DIMS];
    I strides[TL_BACKEND_EW_MAX_DIMS][4];
};

// (xop calls, the parameterised and three-input ops, go through kernels/hd_ewp.h.)
#define TLC_EW_KERNEL(S, ID, ...)                                                              \
    template <typename I>                                                                      \
    __global__ void ew_##S(EwArgs<I> g, I n)                                                   \
    {                                                                                          \
        const char *in0 = g.data[1] ? g.data[1] : (const char *)g.value[0];                    \
        const char *in1 = g.nin > 1 && g.data[2] ? g.data[2] : (const char *)g.value[1];       \
        const char *in2 = g.nin > 2 && g.data[3] ? g.data[3] : (const char *)g.value[2];       \
        for (I i = (I)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (I)(gridDim.x * blockDim.x)) { \
            I r = i, o0 = 0, o1 = 0, o2 = 0, o3 = 0;                                           \
            int d = 0;                                                                         \
            for (; d < g.ndim - 1; d++) {                                                      \
                I q = r / g.shape[d], idx = r - q * g.shape[d];                                \
                r = q;                                                                         \
                o0 += idx * g.strides[d][0];                                                   \
                o1 += idx * g.strides[d][1];                                                   \
                o2 += idx * g.strides[d][2];                                                   \
                o3 += idx * g.strides[d][3];                                                   \
            }                                                                                  \
            /* the outermost dim takes what is left: no division (none at all for one dim,  \
             * the contiguous case) */                                                    \
            o0 += r * g.strides[d][0];                                                         \
            o1 += r * g.strides[d][1];                                                         \
            o2 += r * g.strides[d][2];                                                         \
            o3 += r * g.strides[d][3];                                                         \
            if (g.xop)                                                                         \
                tl_hd_ewp(g.op, g.nin, TL_BDT_##ID, g.data[0] + o0, g.dt[0], in0 + o1, g.dt[1], in1 + o2, g.dt[2], \
                          in2 + o3, g.dt[3], &g.prm);                                          \
            else                                                                               \
                tl_hd_ew_##S(g.op, g.nin, g.data[0] + o0, g.dt[0], in0 + o1, g.dt[1], in1 + o2, g.dt[2]); \
        }                                                                                      \
    }
TL_HD_DTYPES(TLC_EW_KERNEL)
#undef TLC_EW_KERNEL

template <typename I>
int ew_launch(const tl_backend_ew_call *c, int dev)
{
    EwArgs<I> g;
    memset(&g, 0, sizeof g);
    g.op = c->op;
    g.nin = c->nin;
    g.ndim = c->ndim;
    g.xop = c->xop;
    g.prm = c->prm;
    for (int k = 0; k < 4; k++) {
        const tl_backend_ew_operand *o = &c->ops[k];
        bool used = k <= c->nin;
        g.dt[k] = used ? o->dtype : c->ops[1].dtype;
        g.data[k] = used ? o->data : nullptr;
        if (k > 0 && used && !o->data) memcpy(g.value[k - 1], o->value, sizeof o->value);
        for (int d = 0; d < c->ndim; d++) g.strides[d][k] = used ? (I)o->strides[d] : 0;
    }
    for (int d = 0; d < c->ndim; d++) g.shape[d] = (I)c->shape[d];
    I n = (I)c->numel;
    cudaStream_t s = tlc_current_stream(dev);
    switch (c->compute) {
#define TLC_EW_CASE(S, ID, ...)                                                                \
    case TL_BDT_##ID: ew_##S<I><<<blocks_for(c->numel), kThreads, 0, s>>>(g, n); return launched(dev);
        TL_HD_DTYPES(TLC_EW_CASE)
#undef TLC_EW_CASE
    default: return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "element-wise call with compute dtype code %d", c->compute);
    }
}

// Whether every offset and the grid-stride loop's indices stay below 2^31.
bool fits_32bit(const tl_backend_ew_call *c)
{
    const int64_t lim = INT32_MAX;
    if (c->numel > lim - (int64_t)65535 * 8 * kThreads) return false;
    for (int k = 0; k <= c->nin; k++) {
        int64_t reach = 0;
        for (int d = 0; d < c->ndim; d++) {
            int64_t s = c->ops[k].strides[d];
            reach += (s < 0 ? -s : s) * (c->shape[d] - 1);
            if (reach > lim) return false;
        }
    }
    return true;
}

}  // namespace

int tlc_elementwise(const tl_backend_ew_call *c)
{
    if (c->size != sizeof *c || c->nin < 1 || c->nin > (c->xop ? 3 : 2) || c->ndim < 1 || c->ndim > TL_BACKEND_EW_MAX_DIMS)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed element-wise call (tensorlib and _C_cuda differ?)");
    if (c->numel <= 0) return 0;
    int dev = c->device_index;
    DeviceGuard guard(dev);
    return fits_32bit(c) ? ew_launch<int32_t>(c, dev) : ew_launch<int64_t>(c, dev);
}
