// blas.cu - the CUDA dense-product entry (tl_backend_gemm_call, backend/backend.h) on cuBLAS:
// one cublasGemmStridedBatchedEx per call. libcublas is not linked: it is opened with dlopen
// on the first product (this build machine's toolkit has no cuBLAS, and a CPU-only user of
// the module never needs it), so the few prototypes and enum values used are written here
// (checked against cublas_api.h of CUDA 12/13; cudaDataType comes from library_types.h).
// One handle per device, created on first use and kept for the process (torch keeps its
// handles too), bound to the current stream before each call. float16/bfloat16 compute in
// float32 (CUBLAS_COMPUTE_32F) with reduced-precision split reductions unless
// tl.backends.cuda.matmul forbids them; float32 in float32, or TF32 tensor cores when
// allow_tf32; float64 and complex128 in float64. Never run on a GPU so far (docs/cuda.md).
#include <dlfcn.h>
#include <library_types.h>
#include <pthread.h>
#include <stdio.h>

#include "cuda/cuda_backend.h"
#include "cuda/lazy_library.h"

namespace {

typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;  // CUBLAS_STATUS_*: SUCCESS 0
constexpr int kOpN = 0, kOpC = 2;  // cublasOperation_t: N 0, T 1, C 2 (TL_BGEMM_OP_* are the same)
constexpr int kCompute32F = 68, kCompute32FFastTF32 = 77, kCompute64F = 70;  // cublasComputeType_t
constexpr int kDefaultMath = 0, kDisallowReducedReduction = 16;  // cublasMath_t
constexpr int kGemmDefault = -1;                                 // cublasGemmAlgo_t

typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*set_stream_fn)(cublasHandle_t, cudaStream_t);
typedef cublasStatus_t (*set_math_fn)(cublasHandle_t, int);
typedef cublasStatus_t (*gemm_fn)(cublasHandle_t, int, int, int, int, int, const void *, const void *, cudaDataType,
                                  int, long long, const void *, cudaDataType, int, long long, const void *, void *,
                                  cudaDataType, int, long long, int, int, int);


const char *status_name(cublasStatus_t s)
{
    switch (s) {
    case 1: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case 3: return "CUBLAS_STATUS_ALLOC_FAILED";
    case 7: return "CUBLAS_STATUS_INVALID_VALUE";
    case 8: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case 11: return "CUBLAS_STATUS_MAPPING_ERROR";
    case 13: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case 14: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case 15: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case 16: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}

int blas_error(cublasStatus_t s, const char *what)
{
    return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "CUDA error: %s when calling `%s`", status_name(s), what);
}

struct Fns {
    create_fn create;
    set_stream_fn set_stream;
    set_math_fn set_math;
    gemm_fn gemm;
    static constexpr const char *name = "cuBLAS", *soname = "libcublas", *need = "matrix products of CUDA tensors";
    static constexpr const char *functions = "cublasCreate_v2, cublasSetStream_v2, cublasSetMathMode, cublasGemmStridedBatchedEx";
    static constexpr const char *files[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
    bool resolve(void *so)
    {
        create = (create_fn)dlsym(so, "cublasCreate_v2");
        set_stream = (set_stream_fn)dlsym(so, "cublasSetStream_v2");
        set_math = (set_math_fn)dlsym(so, "cublasSetMathMode");
        gemm = (gemm_fn)dlsym(so, "cublasGemmStridedBatchedEx");
        return create && set_stream && set_math && gemm;
    }
    static int error(int s, const char *what) { return blas_error(s, what); }
};

LazyLibrary<cublasHandle_t, Fns> library;
Fns &lib = library.fns;

bool fits_int(int64_t v) { return v >= 0 && v <= 2147483647; }

}  // namespace

int tlc_gemm(const tl_backend_gemm_call *c)
{
    if (c->size != sizeof *c || !fits_int(c->m) || !fits_int(c->n) || !fits_int(c->k) || !fits_int(c->batch) ||
        !fits_int(c->lda) || !fits_int(c->ldb) || !fits_int(c->ldc) || c->transa < kOpN || c->transa > kOpC ||
        c->transb < kOpN || c->transb > kOpC)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed gemm call (tensorlib and _C_cuda differ?)");
    if (c->m == 0 || c->n == 0 || c->batch == 0) return 0;
    cudaDataType type;
    int compute, math = kDefaultMath;
    float af[2] = {(float)c->alpha[0], (float)c->alpha[1]}, bf[2] = {(float)c->beta[0], (float)c->beta[1]};
    const void *alpha = af, *beta = bf;  // float (complex) for 32F compute, double (complex) for 64F
    switch (c->dtype) {
    case TL_BDT_FLOAT16:
        type = CUDA_R_16F, compute = kCompute32F;
        if (c->flags & TL_BGEMM_NO_REDUCED_F16) math |= kDisallowReducedReduction;
        break;
    case TL_BDT_BFLOAT16:
        type = CUDA_R_16BF, compute = kCompute32F;
        if (c->flags & TL_BGEMM_NO_REDUCED_BF16) math |= kDisallowReducedReduction;
        break;
    case TL_BDT_FLOAT32:
        type = CUDA_R_32F, compute = c->flags & TL_BGEMM_ALLOW_TF32 ? kCompute32FFastTF32 : kCompute32F;
        break;
    case TL_BDT_FLOAT64: type = CUDA_R_64F, compute = kCompute64F, alpha = c->alpha, beta = c->beta; break;
    case TL_BDT_COMPLEX64: type = CUDA_C_32F, compute = kCompute32F; break;
    case TL_BDT_COMPLEX128: type = CUDA_C_64F, compute = kCompute64F, alpha = c->alpha, beta = c->beta; break;
    default:
        return tlc_error(TL_ERR_NOTIMPL, cudaSuccess, "tensorlib: cuBLAS has no products of this dtype");
    }
    int dev = c->device_index;
    DeviceGuard guard(dev);
    if (dev < 0) dev = tlc_current_device();
    if (dev < 0) return -1;
    cublasHandle_t h = library.handle_of(dev, "cublasCreate(handle)");
    if (!h) return -1;
    // The handle's stream and math mode are its state: threads (products release the GIL) take
    // turns from setting them to queueing the product (queueing is quick; the product runs later).
    pthread_mutex_lock(&library.call_locks[dev]);
    const char *what = "cublasSetStream(handle, stream)";
    cublasStatus_t s = lib.set_stream(h, tlc_current_stream(dev));
    if (s == 0) {
        what = "cublasSetMathMode(handle, mode)";
        s = lib.set_math(h, math);
    }
    if (s == 0) {
        what = "cublasGemmStridedBatchedEx(handle, opa, opb, m, n, k, &alpha, a, type, lda, stridea, b, type, ldb, "
               "strideb, &beta, c, type, ldc, stridec, num_batches, compute, algo)";
        s = lib.gemm(h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k, alpha, c->a, type, (int)c->lda,
                     (long long)c->stride_a, c->b, type, (int)c->ldb, (long long)c->stride_b, beta, c->c, type,
                     (int)c->ldc, (long long)c->stride_c, (int)c->batch, compute, kGemmDefault);
    }
    pthread_mutex_unlock(&library.call_locks[dev]);
    if (s != 0) return blas_error(s, what);
    return 0;
}
