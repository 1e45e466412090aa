// random.cu - the CUDA random entry: fills a tensor with one sampler's values from the
// Philox4x32-10 counter blocks the core reserved, with the per-block function of
// kernels/hd_random.h (the one the CPU's Philox generator and the host runner use), so a
// seed gives the CPU's numbers. Stateless: a grid-stride loop over counter blocks, each
// thread computing its own blocks and storing their values through the call's row-major
// geometry, on the current stream of the device. Compiled with -fmad=false (setup.py): no
// multiply-add contraction, so the float32 formulas round as on the CPU.
#include "cuda/cuda_backend.h"
#include "kernels/hd_random.h"

namespace {

constexpr int kThreads = 256;

__global__ void random_blocks(tl_backend_random_call c, int64_t nblocks)
{
    for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < nblocks; b += (int64_t)gridDim.x * blockDim.x)
        tl_hd_random_block(&c, b);
}

}  // namespace

int tlc_random(const tl_backend_random_call *c)
{
    if (c->size != sizeof *c || c->ndim < 0 || c->ndim > TL_BACKEND_EW_MAX_DIMS || c->mode < TL_BRM_F32 ||
        c->mode > TL_BRM_U64 || c->dtype < 0 || c->dtype >= TL_NUM_BDTS)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed random call (tensorlib and _C_cuda differ?)");
    if (c->numel <= 0) return 0;
    int dev = c->device_index;
    DeviceGuard guard(dev);
    int64_t nvals = !c->nin && (c->dtype == TL_BDT_COMPLEX64 || c->dtype == TL_BDT_COMPLEX128) ? 2 * c->numel : c->numel;
    int64_t vpb = c->mode == TL_BRM_F32 ? 4 : 2, nblocks = (nvals + vpb - 1) / vpb;
    int64_t grid = (nblocks + kThreads - 1) / kThreads;
    if (grid > 65535 * 8) grid = 65535 * 8;
    random_blocks<<<(unsigned)grid, kThreads, 0, tlc_current_stream(dev)>>>(*c, nblocks);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "random kernel launch failed on cuda:%d", dev);
}
