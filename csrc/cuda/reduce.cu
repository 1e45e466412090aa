// reduce.cu - the CUDA reduce entry (tl_backend_reduce_call, backend/backend.h): the steps,
// combine and store of kernels/hd_reduce.h (the functions the CPU suite runs through the
// core's host runner, backend/reduce.c) in a block-reduce kernel: each block reduces one
// stretch of one output's elements (its threads step over positions spaced by the block
// size, an index calculator over the reduced dims finding each element's byte offset),
// cub::BlockReduce combines the threads' accumulators, and the block stores the result, or,
// when an output's elements are split over several blocks (few outputs, many elements each),
// its partial accumulator, which a second kernel combines (one block per output). Positions
// travel in the accumulators, so max/min/argmax/argmin find the first occurrence whatever the
// order of combination. Never run on a GPU so far (docs/cuda.md).
#include <cub/cub.cuh>

#include "cuda/cuda_backend.h"
#include "kernels/hd_reduce.h"

namespace {

constexpr int kRedThreads = 256;
// elements per thread of a stretch before an output is split over several blocks
constexpr int64_t kPerThread = 16;
constexpr int64_t kMaxBlocks = 65535;

struct Combine {
    int op, k, single;
    double p;
    __device__ tl_hd_racc operator()(const tl_hd_racc &a, const tl_hd_racc &b) const
    {
        tl_hd_racc r = a;
        tl_hd_rcombine(op, p, &r, &b, k, single);
        return r;
    }
};

__device__ int64_t kept_offset(const tl_backend_reduce_call &c, int64_t o, int64_t *ko, int64_t *kx)
{
    int64_t r = o, ki = 0;
    *ko = 0;
    *kx = 0;
    for (int d = 0; d < c.nkept; d++) {
        int64_t q = r / c.kept_sizes[d], idx = r - q * c.kept_sizes[d];
        r = q;
        ki += idx * c.kin_strides[d];
        *ko += idx * c.kout_strides[d];
        *kx += idx * c.kidx_strides[d];
    }
    return ki;
}

// Block b reduces stretch (b % split) of output (b / split); with split == 1 it stores the
// result, else its partial accumulator into part[b].
__global__ void reduce_stretch(const tl_backend_reduce_call c, int64_t split, int64_t stretch, tl_hd_racc *part)
{
    typedef cub::BlockReduce<tl_hd_racc, kRedThreads> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    const int cast = tl_hd_rcast(&c), k = cast ? TL_HD_RK_INT : tl_hd_rkind(c.in_dtype);
    const int kin = tl_hd_rkind(c.in_dtype);
    const int single = c.acc_dtype == TL_BDT_FLOAT32 || c.acc_dtype == TL_BDT_COMPLEX64;
    const Combine comb{c.op, k, single, c.param};
    for (int64_t b = blockIdx.x; b < c.nout * split; b += gridDim.x) {
        int64_t o = b / split, g = b - o * split;
        int64_t ko, kx, ki = kept_offset(c, o, &ko, &kx);
        int64_t j0 = g * stretch, j1 = j0 + stretch < c.nelem ? j0 + stretch : c.nelem;
        tl_hd_racc acc = tl_hd_rinit(c.op, c.param);
        for (int64_t j = j0 + threadIdx.x; j < j1; j += kRedThreads) {
            int64_t s = j, off = ki;
            for (int d = 0; d < c.nred; d++) {
                int64_t q = s / c.red_sizes[d], idx = s - q * c.red_sizes[d];
                s = q;
                off += idx * c.rin_strides[d];
            }
            tl_hd_rfeed(&c, &acc, c.in + off, kin, cast, single, j);
        }
        tl_hd_racc all = Reduce(tmp).Reduce(acc, comb);
        if (threadIdx.x == 0) {
            if (split > 1) part[b] = all;
            else tl_hd_rstore(c.op, c.param, &all, k, c.nelem, c.out ? c.out + ko : nullptr, c.out_dtype,
                              c.indices ? (int64_t *)(c.indices + kx) : nullptr);
        }
        __syncthreads();  // tmp is reused by the next output
    }
}

// One block per output: combines its `split` partial accumulators and stores the result.
__global__ void reduce_parts(const tl_backend_reduce_call c, int64_t split, const tl_hd_racc *part)
{
    typedef cub::BlockReduce<tl_hd_racc, kRedThreads> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    const int k = tl_hd_rcast(&c) ? TL_HD_RK_INT : tl_hd_rkind(c.in_dtype);
    const int single = c.acc_dtype == TL_BDT_FLOAT32 || c.acc_dtype == TL_BDT_COMPLEX64;
    const Combine comb{c.op, k, single, c.param};
    for (int64_t o = blockIdx.x; o < c.nout; o += gridDim.x) {
        tl_hd_racc acc = tl_hd_rinit(c.op, c.param);
        for (int64_t g = threadIdx.x; g < split; g += kRedThreads) tl_hd_rcombine(c.op, c.param, &acc, &part[o * split + g], k, single);
        tl_hd_racc all = Reduce(tmp).Reduce(acc, comb);
        if (threadIdx.x == 0) {
            int64_t ko, kx;
            kept_offset(c, o, &ko, &kx);
            tl_hd_rstore(c.op, c.param, &all, k, c.nelem, c.out ? c.out + ko : nullptr, c.out_dtype,
                         c.indices ? (int64_t *)(c.indices + kx) : nullptr);
        }
        __syncthreads();
    }
}

int launched(int dev)
{
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "reduction kernel launch failed on cuda:%d", dev);
}

}  // namespace

int tlc_reduce(const tl_backend_reduce_call *c)
{
    if (c->size != sizeof *c || c->op < 0 || c->op >= TL_BACKEND_NUM_ROPS || c->nkept < 0 ||
        c->nkept > TL_BACKEND_RED_MAX_DIMS || c->nred < 0 || c->nred > TL_BACKEND_RED_MAX_DIMS)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed reduction call (tensorlib and _C_cuda differ?)");
    if (c->nout <= 0) return 0;
    int dev = c->device_index;
    DeviceGuard guard(dev);
    cudaStream_t s = tlc_current_stream(dev);
    // split an output over several blocks when there are too few outputs to fill the device
    int64_t per_block = kRedThreads * kPerThread, split = 1;
    if (c->nout < 1024 && c->nelem > per_block) {
        split = (c->nelem + per_block - 1) / per_block;
        int64_t most = 4096 / c->nout > 1 ? 4096 / c->nout : 1;
        if (split > most) split = most;
    }
    int64_t stretch = (c->nelem + split - 1) / split;
    if (stretch == 0) stretch = 1;
    int64_t nb = c->nout * split;
    unsigned grid = (unsigned)(nb < kMaxBlocks ? nb : kMaxBlocks);
    if (split == 1) {
        reduce_stretch<<<grid, kRedThreads, 0, s>>>(*c, 1, stretch, nullptr);
        return launched(dev);
    }
    size_t bytes = sizeof(tl_hd_racc) * (size_t)nb;
    tl_hd_racc *part = (tl_hd_racc *)tlc_alloc(bytes, dev);
    if (!part) return -1;
    reduce_stretch<<<grid, kRedThreads, 0, s>>>(*c, split, stretch, part);
    int rc = launched(dev);
    if (rc == 0) {
        unsigned g2 = (unsigned)(c->nout < kMaxBlocks ? c->nout : kMaxBlocks);
        reduce_parts<<<g2, kRedThreads, 0, s>>>(*c, split, part);
        rc = launched(dev);
    }
    tlc_free(part, bytes, dev);  // stream-ordered: reused only by later work on this stream
    return rc;
}
