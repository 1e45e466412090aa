// select.cu - the CUDA select entry (tl_backend_select_call, backend/backend.h): the positions
// of the set flags, in order, by CUB's DeviceSelect::Flagged over the positions 0..n-1, and
// their count; the temporaries from the caching allocator, freed stream-ordered. Never run on a
// GPU so far (docs/cuda.md).
#include <cub/device/device_select.cuh>

#include "cuda/cuda_backend.h"

namespace {

constexpr int kSelThreads = 256;

__global__ void positions(int64_t *pos, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        pos[i] = i;
}

}  // namespace

int tlc_select(const tl_backend_select_call *c)
{
    if (c->size != sizeof *c || c->numel < 0)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed select call (tensorlib and _C_cuda differ?)");
    if (c->numel > INT32_MAX)
        return tlc_error(TL_ERR_NOTIMPL, cudaSuccess, "selection over more than 2^31 - 1 elements on CUDA is not supported yet");
    int dev = c->device_index;
    DeviceGuard guard(dev);
    cudaStream_t s = tlc_current_stream(dev);
    int n = (int)c->numel;
    size_t temp = 0;
    cudaError_t e = cub::DeviceSelect::Flagged(nullptr, temp, (const int64_t *)nullptr, c->flags, c->out, c->count, n, s);
    if (e != cudaSuccess) return tlc_error(TL_ERR_RUNTIME, e, "select: CUB's temporary size query failed on cuda:%d", dev);
    size_t pos_bytes = (size_t)n * 8, total = pos_bytes + temp;
    char *blk = (char *)tlc_alloc(total, dev);
    if (!blk) return -1;
    int64_t blocks = (c->numel + kSelThreads - 1) / kSelThreads;
    positions<<<(unsigned)(blocks < 65535 * 8 ? blocks : 65535 * 8), kSelThreads, 0, s>>>((int64_t *)blk, c->numel);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cub::DeviceSelect::Flagged(blk + pos_bytes, temp, (const int64_t *)blk, c->flags, c->out, c->count, n, s);
    tlc_free(blk, total, dev);  // stream-ordered: reused only by later work on this stream
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "select kernels failed on cuda:%d", dev);
}
