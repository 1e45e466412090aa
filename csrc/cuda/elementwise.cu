// elementwise.cu - the CUDA element-wise launcher: a grid-stride loop over contiguous
// operands of one dtype that applies the host/device formulas of kernels/hd_math.h (the
// same functions the CPU test suite checks through tensorlib._C._hd_apply), on the current
// stream of the device (tensorlib.cuda.stream / set_stream; the legacy default stream
// unless one was selected).
#include "cuda/cuda_backend.h"
#include "kernels/hd_math.h"

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
    if (dev >= 0) cudaSetDevice(dev);
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
    if (dev >= 0) cudaSetDevice(dev);
#define TLC_LAUNCH(S, ID, NAME, ST, ...)                                                       \
    if (dtype == tlc_##S && tl_hd_unary_ok_##S(op)) {                                          \
        unary_##S<<<blocks_for(n), kThreads, 0, tlc_current_stream(dev)>>>(op, out, (const ST *)a, n); \
        return launched(dev);                                                                  \
    }
    TL_HD_DTYPES(TLC_LAUNCH)
#undef TLC_LAUNCH
    return unsupported(op, dtype);
}
