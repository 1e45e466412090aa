/* fake_cublas.c - a stand-in for libcublas (the five functions tensorlib._C_cuda's blas.cu looks
 * up), so the module's cuBLAS host code (loading, handles, stream and math mode, the arguments of
 * cublasGemmStridedBatchedEx) runs on machines without a GPU, on the fake CUDA runtime
 * (fake_cudart.c, whose "device memory" is guarded host memory).
 *
 * tests/_fake_cudart.py compiles it into libcublas.so.13 beside the fake libcudart.so.N, linked
 * against that library (so it shares its registry of device allocations); blas.cu's dlopen finds
 * it through LD_LIBRARY_PATH. The gemm checks what cuBLAS checks (a live handle, the stream, the
 * operations, types and compute types it takes, m, n, k >= 0, leading dims at least the stored
 * rows) and that every matrix it reads or writes lies inside one live allocation of the current
 * device; then it computes on the host (accumulating in double, complex double) with the device
 * blocks opened for the time of the call. Counters and the last call's compute type and math mode
 * are readable for tests (tl_fake_cublas_*). */
#include <cuda_runtime_api.h>
#include <library_types.h>

#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_values.h"

#define EXPORT __attribute__((visibility("default")))

int tl_fake_cudart_device_range(const void *p, size_t n, int dev);
void tl_fake_cudart_open(const void *p, size_t n, int open);
int tl_fake_cudart_stream_ok(cudaStream_t s);

enum { SUCCESS = 0, NOT_INITIALIZED = 1, INVALID_VALUE = 7, EXECUTION_FAILED = 13, NOT_SUPPORTED = 15 };

typedef struct fake_handle {
    int magic, device, math;
    cudaStream_t stream;
} fake_handle;

static long gemms, creates;
static int last_compute = -1, last_math = -1;
static void *last_stream;

EXPORT long tl_fake_cublas_gemms(void) { return gemms; }
EXPORT long tl_fake_cublas_handles(void) { return creates; }
EXPORT int tl_fake_cublas_last_compute(void) { return last_compute; }
EXPORT int tl_fake_cublas_last_math(void) { return last_math; }
EXPORT void *tl_fake_cublas_last_stream(void) { return last_stream; }

static int live(const fake_handle *h) { return h && h->magic == 0x6b1a5; }

EXPORT int cublasCreate_v2(fake_handle **out)
{
    if (!out) return INVALID_VALUE;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return NOT_INITIALIZED;
    fake_handle *h = calloc(1, sizeof *h);
    if (!h) return 3;
    h->magic = 0x6b1a5;
    h->device = dev;
    *out = h;
    creates++;
    return SUCCESS;
}

EXPORT int cublasDestroy_v2(fake_handle *h)
{
    if (!live(h)) return NOT_INITIALIZED;
    h->magic = 0;
    free(h);
    return SUCCESS;
}

EXPORT int cublasSetStream_v2(fake_handle *h, cudaStream_t s)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!tl_fake_cudart_stream_ok(s)) return INVALID_VALUE;
    h->stream = s;
    return SUCCESS;
}

EXPORT int cublasSetMathMode(fake_handle *h, int mode)
{
    if (!live(h)) return NOT_INITIALIZED;
    if ((mode & ~16) < 0 || (mode & ~16) > 4) return INVALID_VALUE;
    h->math = mode;
    return SUCCESS;
}

static size_t type_size(int t)
{
    switch (t) {
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    case CUDA_R_32F: return 4;
    case CUDA_R_64F: case CUDA_C_32F: return 8;
    case CUDA_C_64F: return 16;
    default: return 0;
    }
}

/* The scalar type cuBLAS reads alpha and beta as for (type, compute). */
static double complex scalar(const void *p, int t, int compute)
{
    if (compute == 70) return t == CUDA_C_64F ? load(p, CUDA_C_64F) : load(p, CUDA_R_64F);
    return t == CUDA_C_32F ? load(p, CUDA_C_32F) : load(p, CUDA_R_32F);
}

/* Bytes from the first to one past the last element of a stored rows x cols matrix, ld apart. */
static size_t extent(long long rows, long long cols, long long ld, size_t isz)
{
    return rows == 0 || cols == 0 ? 0 : (size_t)((cols - 1) * ld + rows) * isz;
}

static int in_device(const void *p, size_t n, int dev) { return n == 0 || tl_fake_cudart_device_range(p, n, dev); }

EXPORT int cublasGemmStridedBatchedEx(fake_handle *h, int ta, int tb, int m, int n, int k, const void *alpha,
                                      const void *A, int atype, int lda, long long sa, const void *B, int btype,
                                      int ldb, long long sb, const void *beta, void *C, int ctype, int ldc,
                                      long long sc, int batch, int compute, int algo)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (ta < 0 || ta > 2 || tb < 0 || tb > 2 || m < 0 || n < 0 || k < 0 || batch < 0 || !alpha || !beta)
        return INVALID_VALUE;
    if (atype != btype || atype != ctype || !type_size(atype) || algo != -1) return NOT_SUPPORTED;
    int real16 = atype == CUDA_R_16F || atype == CUDA_R_16BF;
    int ok = (compute == 68 && (real16 || atype == CUDA_R_32F || atype == CUDA_C_32F)) ||
             (compute == 77 && atype == CUDA_R_32F) || (compute == 70 && (atype == CUDA_R_64F || atype == CUDA_C_64F));
    if (!ok) return NOT_SUPPORTED;
    long long arows = ta == 0 ? m : k, acols = ta == 0 ? k : m, brows = tb == 0 ? k : n, bcols = tb == 0 ? n : k;
    if (lda < (arows > 1 ? arows : 1) || ldb < (brows > 1 ? brows : 1) || ldc < (m > 1 ? m : 1)) return INVALID_VALUE;
    int dev = 0;
    cudaGetDevice(&dev);
    if (dev != h->device) return EXECUTION_FAILED;  /* a handle is bound to its device */
    size_t isz = type_size(atype);
    for (int i = 0; i < batch; i++) {
        if (!in_device((const char *)A + i * sa * (long long)isz, extent(arows, acols, lda, isz), dev) ||
            !in_device((const char *)B + i * sb * (long long)isz, extent(brows, bcols, ldb, isz), dev) ||
            !in_device((char *)C + i * sc * (long long)isz, extent(m, n, ldc, isz), dev))
            return EXECUTION_FAILED;  /* an illegal address on a device */
    }
    gemms++;
    last_compute = compute;
    last_math = h->math;
    last_stream = h->stream;
    double complex al = scalar(alpha, atype, compute), be = scalar(beta, atype, compute);
    for (int i = 0; i < batch; i++) {
        const char *a = (const char *)A + i * sa * (long long)isz, *b = (const char *)B + i * sb * (long long)isz;
        char *c = (char *)C + i * sc * (long long)isz;
        size_t ea = extent(arows, acols, lda, isz), eb = extent(brows, bcols, ldb, isz), ec = extent(m, n, ldc, isz);
        tl_fake_cudart_open(a, ea, 1);
        tl_fake_cudart_open(b, eb, 1);
        tl_fake_cudart_open(c, ec, 1);
        for (long long s = 0; s < n; s++)
            for (long long r = 0; r < m; r++) {
                double complex acc = 0;
                for (long long q = 0; q < k; q++) {
                    double complex x = ta == 0 ? load(a + (r + q * lda) * isz, atype) : load(a + (q + r * lda) * isz, atype);
                    double complex y = tb == 0 ? load(b + (q + s * ldb) * isz, btype) : load(b + (s + q * ldb) * isz, btype);
                    acc += (ta == 2 ? conj(x) : x) * (tb == 2 ? conj(y) : y);
                }
                char *dst = c + (r + s * ldc) * isz;
                store(dst, ctype, al * acc + (be == 0 ? 0 : be * load(dst, ctype)));
            }
        tl_fake_cudart_open(c, ec, 0);
        tl_fake_cudart_open(b, eb, 0);
        tl_fake_cudart_open(a, ea, 0);
    }
    return SUCCESS;
}
