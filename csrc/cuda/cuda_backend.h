// cuda_backend.h - internals shared by the files of tensorlib._C_cuda (csrc/cuda/). The
// module sees the core only through backend/backend.h (the capsule's tables).
#ifndef TL_CUDA_BACKEND_H
#define TL_CUDA_BACKEND_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/error.h"
#include "kernels/hd_math.h"

extern const tl_core_api *tlc_api;  // set at registration; NULL before
// Dtype ids of the core, looked up by name at registration (tlc_b8, tlc_f32, ... for each
// dtype of kernels/hd_math.h).
#define TLC_DTYPE_DECL(S, ...) extern int tlc_##S;
TL_HD_DTYPES(TLC_DTYPE_DECL)
#undef TLC_DTYPE_DECL

int tlc_current_device(void);  // -1 (error set) when CUDA cannot be used
// Sets the core's error to "<message>: <CUDA error string>"; returns -1.
int tlc_error(int kind, cudaError_t e, const char *fmt, ...);

void *tlc_alloc(size_t nbytes, int dev);
void tlc_free(void *p, size_t nbytes, int dev);
void tlc_empty_cache(void);
int tlc_memory_stat(const char *name, int dev, size_t *out);
void tlc_reset_peak(int dev);
int tlc_copy(void *dst, tl_device dd, const void *src, tl_device sd, size_t nbytes);
int tlc_memset_zero(void *dst, size_t nbytes, int dev);
int tlc_copy_async(void *dst, tl_device dd, const void *src, tl_device sd, size_t nbytes);  // current stream
void *tlc_host_alloc(size_t nbytes);  // pinned host memory (cudaHostAlloc, cached)
void tlc_host_free(void *p);         // cached; reused once the copies queued on it are done
void tlc_host_empty_cache(void);     // frees the cached pinned blocks (tlc_empty_cache does too)
int tlc_record_stream(void *p, int dev, uintptr_t stream);

// Makes device `dev` (>= 0) current for a scope and gives the caller's current device back at its
// end (torch's CUDAGuard): an entry working for a tensor on cuda:1 leaves cuda:0 current.
struct DeviceGuard {
    int prev = -1;
    explicit DeviceGuard(int dev)
    {
        if (dev >= 0 && cudaGetDevice(&prev) == cudaSuccess && prev != dev) cudaSetDevice(dev);
        else prev = -1;
    }
    ~DeviceGuard() { if (prev >= 0) cudaSetDevice(prev); }
    DeviceGuard(const DeviceGuard &) = delete;
    DeviceGuard &operator=(const DeviceGuard &) = delete;
};

// The stream the element-wise kernels of a device are launched on: the one selected by
// set_stream, or the legacy default stream (nullptr). Copies and cudaMemset stay
// synchronous on the legacy default stream (created streams are blocking streams).
cudaStream_t tlc_current_stream(int dev);

int tlc_binary(int op, int dtype, void *out, const void *a, const void *b, int64_t n, int dev);
int tlc_unary(int op, int dtype, void *out, const void *a, int64_t n, int dev);
int tlc_elementwise(const tl_backend_ew_call *call);
// random (random.cu)
int tlc_random(const tl_backend_random_call *call);
// reductions (reduce.cu)
int tlc_reduce(const tl_backend_reduce_call *call);
// scans (scan.cu)
int tlc_scan(const tl_backend_scan_call *call);
// indexing (index.cu)
int tlc_index(const tl_backend_index_call *call);
// sorting (sort.cu)
int tlc_sort(const tl_backend_sort_call *call);
// dense products (blas.cu, cuBLAS opened with dlopen on first use)
int tlc_gemm(const tl_backend_gemm_call *call);
// selection (select.cu)
int tlc_select(const tl_backend_select_call *call);
// sparse products (sparse.cu, cuSPARSE opened with dlopen on first use); C linkage, so tests can
// call it through ctypes on the fake runtime without the core's side
extern "C" int tlc_spmm(const tl_backend_spmm_call *call);
// 2:4 semi-structured products (semi.cu, cuSPARSELt opened with dlopen on first use)
int tlc_semi(tl_backend_semi_call *call);

#endif
