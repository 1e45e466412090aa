// index.cu - the CUDA index entry (tl_backend_index_call, backend/backend.h): gathers, puts,
// combining puts, offset sums and range checks over one strided iteration, one element per
// thread of a grid-stride loop with the element steps of kernels/hd_index.h (the ones the CPU
// suite runs through the core's host runner, backend/index.c). The combining puts are atomic:
// PUT_ADD with atomicAdd for 32- and 64-bit types (complex: per part); every other case (the
// products, maxima and minima of PUT_MUL/_MAX/_MIN, the additions of 1- and 2-byte types) a
// compare-and-swap loop on the element's 64-bit word (8-byte types) or on its enclosing 32-bit
// word (the core's allocations are 4-byte aligned and padded; 16-byte types are refused by the
// core). Never run on a GPU so far (docs/cuda.md).
#include "cuda/cuda_backend.h"
#include "kernels/hd_index.h"

namespace {

constexpr int kIndexThreads = 256;

// d = d op s by compare-and-swap of the word holding d.
__device__ void cas_combine_into(char *d, const char *s, int dt, int mode, int elsize)
{
    if (elsize == 8) {
        unsigned long long *w = (unsigned long long *)d, old = *w, assumed;
        do {
            assumed = old;
            unsigned long long next = assumed;
            tl_hd_combine_into((char *)&next, s, dt, mode);
            old = atomicCAS(w, assumed, next);
        } while (assumed != old);
        return;
    }
    uintptr_t a = (uintptr_t)d;
    unsigned int *w = (unsigned int *)(a & ~(uintptr_t)3);
    unsigned int old = *w, assumed;
    do {
        assumed = old;
        char bytes[4];
        memcpy(bytes, &assumed, 4);
        tl_hd_combine_into(bytes + (a & 3), s, dt, mode);
        unsigned int next;
        memcpy(&next, bytes, 4);
        old = atomicCAS(w, assumed, next);
    } while (assumed != old);
}

__device__ void atomic_add_into(char *d, const char *s, int dt, int elsize)
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
    default: cas_combine_into(d, s, dt, TL_BIX_PUT_ADD, elsize);
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
        case TL_BIX_PUT_ADD: atomic_add_into(d + off, s, c.dtype, c.elsize); break;
        case TL_BIX_OFFSET: *(int64_t *)d = ((c.flags & TL_BIX_ACC) ? *(int64_t *)d : 0) + off; break;
        case TL_BIX_CHECK: break;
        default: cas_combine_into(d + off, s, c.dtype, c.mode, c.elsize); break;
        }
    }
}

}  // namespace

int tlc_index(const tl_backend_index_call *c)
{
    if (c->size != sizeof *c || c->ndim < 1 || c->ndim > TL_BACKEND_EW_MAX_DIMS || c->mode < TL_BIX_GATHER ||
        c->mode > TL_BIX_PUT_MIN || (c->mode >= TL_BIX_PUT_MUL && c->elsize > 8))
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed index call (tensorlib and _C_cuda differ?)");
    if (c->numel <= 0) return 0;
    int dev = c->device_index;
    DeviceGuard guard(dev);
    int64_t blocks = (c->numel + kIndexThreads - 1) / kIndexThreads;
    index_pass<<<(unsigned)(blocks < 65535 * 8 ? blocks : 65535 * 8), kIndexThreads, 0, tlc_current_stream(dev)>>>(*c);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "index kernel launch failed on cuda:%d", dev);
}
