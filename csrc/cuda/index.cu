// index.cu - the CUDA index entry (tl_backend_index_call, backend/backend.h): gathers, puts,
// accumulating puts, offset sums and range checks over one strided iteration, one element per
// thread of a grid-stride loop with the element steps of kernels/hd_index.h (the ones the CPU
// suite runs through the core's host runner, backend/index.c). The addition of PUT_ADD is
// atomic: atomicAdd for 32- and 64-bit types (complex: per part), a compare-and-swap loop on
// the enclosing 32-bit word for 1- and 2-byte types (the core's allocations are 4-byte
// aligned and padded). Never run on a GPU so far (docs/cuda.md).
#include "cuda/cuda_backend.h"
#include "kernels/hd_index.h"

namespace {

constexpr int kIndexThreads = 256;

__device__ void atomic_add_into(char *d, const char *s, int dt)
{
    switch (dt) {
    case TL_BDT_FLOAT32: atomicAdd((float *)d, *(const float *)s); return;
    case TL_BDT_FLOAT64: atomicAdd((double *)d, *(const double *)s); return;
    case TL_BDT_INT32: atomicAdd((int *)d, *(const int *)s); return;
    case TL_BDT_INT64: atomicAdd((unsigned long long *)d, (unsigned long long)*(const long long *)s); return;
    case TL_BDT_COMPLEX64:
        atomicAdd((float *)d, ((const float *)s)[0]);
        atomicAdd((float *)d + 1, ((const float *)s)[1]);
        return;
    case TL_BDT_COMPLEX128:
        atomicAdd((double *)d, ((const double *)s)[0]);
        atomicAdd((double *)d + 1, ((const double *)s)[1]);
        return;
    default: {
        uintptr_t a = (uintptr_t)d;
        unsigned int *w = (unsigned int *)(a & ~(uintptr_t)3);
        unsigned int old = *w, assumed;
        do {
            assumed = old;
            char bytes[4];
            memcpy(bytes, &assumed, 4);
            tl_hd_add_into(bytes + (a & 3), s, dt);
            unsigned int next;
            memcpy(&next, bytes, 4);
            old = atomicCAS(w, assumed, next);
        } while (assumed != old);
    }
    }
}

__global__ void index_pass(tl_backend_index_call c)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < c.numel; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t r = i, o0 = 0, o1 = 0, o2 = 0, off = 0;
        for (int d = 0; d < c.ndim; d++) {
            int64_t q = r / c.shape[d], k = r - q * c.shape[d];
            r = q;
            o0 += k * c.strides[0][d];
            o1 += k * c.strides[1][d];
            o2 += k * c.strides[2][d];
        }
        if (!tl_hd_index_offset(c.index + o2, c.flags, c.step, c.bound, &off)) {
            if (c.bad) *c.bad = 1;
            continue;
        }
        char *d = c.data + o0;
        const char *s = c.src + o1;
        switch (c.mode) {
        case TL_BIX_GATHER: tl_hd_move(d, s + off, c.elsize); break;
        case TL_BIX_PUT: tl_hd_move(d + off, s, c.elsize); break;
        case TL_BIX_PUT_ADD: atomic_add_into(d + off, s, c.dtype); break;
        case TL_BIX_OFFSET: *(int64_t *)d = ((c.flags & TL_BIX_ACC) ? *(int64_t *)d : 0) + off; break;
        default: break;
        }
    }
}

}  // namespace

int tlc_index(const tl_backend_index_call *c)
{
    if (c->size != sizeof *c || c->ndim < 1 || c->ndim > TL_BACKEND_EW_MAX_DIMS || c->mode < TL_BIX_GATHER ||
        c->mode > TL_BIX_CHECK)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed index call (tensorlib and _C_cuda differ?)");
    if (c->numel <= 0) return 0;
    int dev = c->device_index;
    if (dev >= 0) cudaSetDevice(dev);
    int64_t blocks = (c->numel + kIndexThreads - 1) / kIndexThreads;
    index_pass<<<(unsigned)(blocks < 65535 * 8 ? blocks : 65535 * 8), kIndexThreads, 0, tlc_current_stream(dev)>>>(*c);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "index kernel launch failed on cuda:%d", dev);
}
