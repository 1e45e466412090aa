// sparse.cu - the CUDA sparse-product entry (tl_backend_spmm_call, backend/backend.h) on cuSPARSE's
// generic API: one cusparseSpMV (n == 0) or cusparseSpMM per call, with CUSPARSE_*_ALG_DEFAULT.
// libcusparse is not linked: it is opened with dlopen on the first product (this build
// machine's toolkit has no cuSPARSE, and a CPU-only user of the module never needs it), so the
// few prototypes and enum values used are written here. They are those of cusparse.h of
// cuSPARSE 12.5.4 (CUDA 12.6) and 12.6.2 (CUDA 13.0), identical in both; CUDA 12 and 13 both
// ship the library as libcusparse.so.12. cudaDataType comes from library_types.h.
// A is described as stored: CSR by cusparseCreateCsr, COO by cusparseCreateCoo (coalesced,
// so sorted by row as the COO algorithms need); CSC as the CSR matrix of A^T (offsets over
// A's columns, A's row indices) with the operation flipped, which is the same product without
// relying on CSC support in the routines. One handle per device, created on first use and kept
// for the process (torch keeps its handles too), bound to the current stream before each call;
// the workspace cusparseSpMV/SpMM_bufferSize asks for comes from the caching allocator and
// goes back to it, stream-ordered, once the product is queued. float16/bfloat16 compute in
// float32 (CUDA_R_32F), float32 in float32, float64 in float64, complex64/128 in C_32F/C_64F;
// alpha and beta are host scalars of the compute type (CUSPARSE_POINTER_MODE_HOST, the
// handle's default). Never run on a GPU so far (docs/cuda.md).
#include <dlfcn.h>
#include <library_types.h>
#include <pthread.h>
#include <stdio.h>

#include "cuda/cuda_backend.h"
#include "cuda/lazy_library.h"

namespace {

typedef struct cusparseContext *cusparseHandle_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef int cusparseStatus_t;  // CUSPARSE_STATUS_*: SUCCESS 0

// cusparse.h (12.5.4 / 12.6.2) enum values
constexpr int kOpNonTranspose = 0, kOpTranspose = 1;     // cusparseOperation_t
constexpr int kIndex32I = 2, kIndex64I = 3;              // cusparseIndexType_t (16U is 1)
constexpr int kIndexBaseZero = 0;                        // cusparseIndexBase_t
constexpr int kOrderCol = 1, kOrderRow = 2;              // cusparseOrder_t
constexpr int kSpMVAlgDefault = 0;                       // cusparseSpMVAlg_t: CUSPARSE_SPMV_ALG_DEFAULT
constexpr int kSpMMAlgDefault = 0;                       // cusparseSpMMAlg_t: CUSPARSE_SPMM_ALG_DEFAULT

// Prototypes as in cusparse.h (the Const descriptor types of CUDA 12 are the same pointers;
// enum parameters are ints in the C ABI).
typedef cusparseStatus_t (*create_fn)(cusparseHandle_t *);
typedef cusparseStatus_t (*set_stream_fn)(cusparseHandle_t, cudaStream_t);
typedef cusparseStatus_t (*create_csr_fn)(cusparseSpMatDescr_t *, int64_t rows, int64_t cols, int64_t nnz,
                                          void *offsets, void *indices, void *values, int offsets_type,
                                          int indices_type, int base, cudaDataType value_type);
typedef cusparseStatus_t (*create_coo_fn)(cusparseSpMatDescr_t *, int64_t rows, int64_t cols, int64_t nnz,
                                          void *row_ind, void *col_ind, void *values, int idx_type, int base,
                                          cudaDataType value_type);
typedef cusparseStatus_t (*create_dnmat_fn)(cusparseDnMatDescr_t *, int64_t rows, int64_t cols, int64_t ld,
                                            void *values, cudaDataType value_type, int order);
typedef cusparseStatus_t (*create_dnvec_fn)(cusparseDnVecDescr_t *, int64_t size, void *values,
                                            cudaDataType value_type);
typedef cusparseStatus_t (*destroy_spmat_fn)(cusparseSpMatDescr_t);
typedef cusparseStatus_t (*destroy_dnmat_fn)(cusparseDnMatDescr_t);
typedef cusparseStatus_t (*destroy_dnvec_fn)(cusparseDnVecDescr_t);
typedef cusparseStatus_t (*spmv_size_fn)(cusparseHandle_t, int op_a, const void *alpha, cusparseSpMatDescr_t a,
                                         cusparseDnVecDescr_t x, const void *beta, cusparseDnVecDescr_t y,
                                         cudaDataType compute, int alg, size_t *size);
typedef cusparseStatus_t (*spmv_fn)(cusparseHandle_t, int op_a, const void *alpha, cusparseSpMatDescr_t a,
                                    cusparseDnVecDescr_t x, const void *beta, cusparseDnVecDescr_t y,
                                    cudaDataType compute, int alg, void *buffer);
typedef cusparseStatus_t (*spmm_size_fn)(cusparseHandle_t, int op_a, int op_b, const void *alpha,
                                         cusparseSpMatDescr_t a, cusparseDnMatDescr_t b, const void *beta,
                                         cusparseDnMatDescr_t c, cudaDataType compute, int alg, size_t *size);
typedef cusparseStatus_t (*spmm_fn)(cusparseHandle_t, int op_a, int op_b, const void *alpha, cusparseSpMatDescr_t a,
                                    cusparseDnMatDescr_t b, const void *beta, cusparseDnMatDescr_t c,
                                    cudaDataType compute, int alg, void *buffer);


const char *status_name(cusparseStatus_t s)
{
    switch (s) {
    case 1: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case 2: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case 3: return "CUSPARSE_STATUS_INVALID_VALUE";
    case 4: return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case 5: return "CUSPARSE_STATUS_MAPPING_ERROR";
    case 6: return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case 7: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case 8: return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case 9: return "CUSPARSE_STATUS_ZERO_PIVOT";
    case 10: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case 11: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    default: return "CUSPARSE_STATUS_UNKNOWN";
    }
}

int sparse_error(cusparseStatus_t s, const char *what)
{
    return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "CUDA error: %s when calling `%s`", status_name(s), what);
}

struct Fns {
    create_fn create;
    set_stream_fn set_stream;
    create_csr_fn create_csr;
    create_coo_fn create_coo;
    create_dnmat_fn create_dnmat;
    create_dnvec_fn create_dnvec;
    destroy_spmat_fn destroy_spmat;
    destroy_dnmat_fn destroy_dnmat;
    destroy_dnvec_fn destroy_dnvec;
    spmv_size_fn spmv_size;
    spmv_fn spmv;
    spmm_size_fn spmm_size;
    spmm_fn spmm;
    static constexpr const char *name = "cuSPARSE", *soname = "libcusparse", *need = "products of sparse CUDA tensors";
    static constexpr const char *functions = "cusparseCreate, cusparseSetStream, cusparseCreateCsr/Coo/DnMat/DnVec, their Destroy functions, cusparseSpMV, cusparseSpMM and their _bufferSize";
    static constexpr const char *files[] = {"libcusparse.so.12", "libcusparse.so"};
    bool resolve(void *so)
    {
        create = (create_fn)dlsym(so, "cusparseCreate");
        set_stream = (set_stream_fn)dlsym(so, "cusparseSetStream");
        create_csr = (create_csr_fn)dlsym(so, "cusparseCreateCsr");
        create_coo = (create_coo_fn)dlsym(so, "cusparseCreateCoo");
        create_dnmat = (create_dnmat_fn)dlsym(so, "cusparseCreateDnMat");
        create_dnvec = (create_dnvec_fn)dlsym(so, "cusparseCreateDnVec");
        destroy_spmat = (destroy_spmat_fn)dlsym(so, "cusparseDestroySpMat");
        destroy_dnmat = (destroy_dnmat_fn)dlsym(so, "cusparseDestroyDnMat");
        destroy_dnvec = (destroy_dnvec_fn)dlsym(so, "cusparseDestroyDnVec");
        spmv_size = (spmv_size_fn)dlsym(so, "cusparseSpMV_bufferSize");
        spmv = (spmv_fn)dlsym(so, "cusparseSpMV");
        spmm_size = (spmm_size_fn)dlsym(so, "cusparseSpMM_bufferSize");
        spmm = (spmm_fn)dlsym(so, "cusparseSpMM");
        return create && set_stream && create_csr && create_coo && create_dnmat && create_dnvec && destroy_spmat && destroy_dnmat && destroy_dnvec && spmv_size && spmv && spmm_size && spmm;
    }
    static int error(int s, const char *what) { return sparse_error(s, what); }
};

LazyLibrary<cusparseHandle_t, Fns> library;
Fns &lib = library.fns;

// The descriptors of one call, destroyed together.
struct Descrs {
    cusparseSpMatDescr_t a = nullptr;
    cusparseDnMatDescr_t bm = nullptr, cm = nullptr;
    cusparseDnVecDescr_t bv = nullptr, cv = nullptr;
    ~Descrs()
    {
        if (a) lib.destroy_spmat(a);
        if (bm) lib.destroy_dnmat(bm);
        if (cm) lib.destroy_dnmat(cm);
        if (bv) lib.destroy_dnvec(bv);
        if (cv) lib.destroy_dnvec(cv);
    }
};

// Describes the call's operands and queues the product on the handle's stream (call lock held).
// Returns the failing status with *what naming the call, or 0.
cusparseStatus_t run_locked(cusparseHandle_t h, const tl_backend_spmm_call *c, int dev, cudaDataType type,
                            cudaDataType compute, const void *alpha, const void *beta, const char **what)
{
    *what = "cusparseSetStream(handle, stream)";
    cusparseStatus_t s = lib.set_stream(h, tlc_current_stream(dev));
    if (s != 0) return s;
    Descrs d;
    int itype = c->index_dtype == TL_BDT_INT32 ? kIndex32I : kIndex64I;
    int op = c->op_a == TL_BGEMM_OP_T ? kOpTranspose : kOpNonTranspose;
    void *values = const_cast<char *>(c->values);
    int64_t m = c->op_a == TL_BGEMM_OP_T ? c->cols : c->rows, k = c->op_a == TL_BGEMM_OP_T ? c->rows : c->cols;
    if (c->format == TL_BSP_COO) {
        *what = "cusparseCreateCoo(&descA, rows, cols, nnz, rowInd, colInd, values, idxType, "
                "CUSPARSE_INDEX_BASE_ZERO, valueType)";
        s = lib.create_coo(&d.a, c->rows, c->cols, c->nnz, const_cast<void *>(c->offsets),
                           const_cast<void *>(c->indices), values, itype, kIndexBaseZero, type);
    } else if (c->format == TL_BSP_CSR) {
        *what = "cusparseCreateCsr(&descA, rows, cols, nnz, rowOffsets, colInd, values, idxType, idxType, "
                "CUSPARSE_INDEX_BASE_ZERO, valueType)";
        s = lib.create_csr(&d.a, c->rows, c->cols, c->nnz, const_cast<void *>(c->offsets),
                           const_cast<void *>(c->indices), values, itype, itype, kIndexBaseZero, type);
    } else {  // CSC of A (rows x cols) = CSR of A^T (cols x rows); op(A) = op'(A^T) with op flipped
        *what = "cusparseCreateCsr(&descAt, cols, rows, nnz, colOffsets, rowInd, values, idxType, idxType, "
                "CUSPARSE_INDEX_BASE_ZERO, valueType)";
        s = lib.create_csr(&d.a, c->cols, c->rows, c->nnz, const_cast<void *>(c->offsets),
                           const_cast<void *>(c->indices), values, itype, itype, kIndexBaseZero, type);
        op = op == kOpTranspose ? kOpNonTranspose : kOpTranspose;
    }
    if (s != 0) return s;
    size_t size = 0;
    if (c->n == 0) {
        *what = "cusparseCreateDnVec(&descX, k, x, valueType)";
        s = lib.create_dnvec(&d.bv, k, const_cast<char *>(c->b), type);
        if (s == 0) {
            *what = "cusparseCreateDnVec(&descY, m, y, valueType)";
            s = lib.create_dnvec(&d.cv, m, c->c, type);
        }
        if (s == 0) {
            *what = "cusparseSpMV_bufferSize(handle, opA, &alpha, descA, descX, &beta, descY, computeType, "
                    "CUSPARSE_SPMV_ALG_DEFAULT, &bufferSize)";
            s = lib.spmv_size(h, op, alpha, d.a, d.bv, beta, d.cv, compute, kSpMVAlgDefault, &size);
        }
    } else {
        int order = c->order == TL_BSP_ROW_MAJOR ? kOrderRow : kOrderCol;
        *what = "cusparseCreateDnMat(&descB, k, n, ldb, b, valueType, order)";
        s = lib.create_dnmat(&d.bm, k, c->n, c->ldb, const_cast<char *>(c->b), type, order);
        if (s == 0) {
            *what = "cusparseCreateDnMat(&descC, m, n, ldc, c, valueType, order)";
            s = lib.create_dnmat(&d.cm, m, c->n, c->ldc, c->c, type, order);
        }
        if (s == 0) {
            *what = "cusparseSpMM_bufferSize(handle, opA, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, descA, descB, "
                    "&beta, descC, computeType, CUSPARSE_SPMM_ALG_DEFAULT, &bufferSize)";
            s = lib.spmm_size(h, op, kOpNonTranspose, alpha, d.a, d.bm, beta, d.cm, compute, kSpMMAlgDefault, &size);
        }
    }
    if (s != 0) return s;
    void *work = nullptr;
    if (size > 0 && !(work = tlc_alloc(size, dev))) {
        *what = nullptr;  // the allocator's error is set
        return 2;
    }
    if (c->n == 0) {
        *what = "cusparseSpMV(handle, opA, &alpha, descA, descX, &beta, descY, computeType, "
                "CUSPARSE_SPMV_ALG_DEFAULT, buffer)";
        s = lib.spmv(h, op, alpha, d.a, d.bv, beta, d.cv, compute, kSpMVAlgDefault, work);
    } else {
        *what = "cusparseSpMM(handle, opA, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, descA, descB, &beta, descC, "
                "computeType, CUSPARSE_SPMM_ALG_DEFAULT, buffer)";
        s = lib.spmm(h, op, kOpNonTranspose, alpha, d.a, d.bm, beta, d.cm, compute, kSpMMAlgDefault, work);
    }
    if (work) tlc_free(work, size, dev);  // stream-ordered: reused only by later work on this stream
    return s;
}

// The product on device dev (current): its handle, then the call under the device's lock.
int run_on(const tl_backend_spmm_call *c, int dev, cudaDataType type, cudaDataType compute, const void *alpha,
           const void *beta)
{
    cusparseHandle_t h = library.handle_of(dev, "cusparseCreate(&handle)");
    if (!h) return -1;
    // The handle's stream is its state: threads (products release the GIL) take turns from
    // setting it to queueing the product (queueing is quick; the product runs later).
    pthread_mutex_lock(&library.call_locks[dev]);
    const char *what = nullptr;
    cusparseStatus_t s = run_locked(h, c, dev, type, compute, alpha, beta, &what);
    pthread_mutex_unlock(&library.call_locks[dev]);
    if (s != 0) return what ? sparse_error(s, what) : -1;
    return 0;
}

}  // namespace

int tlc_spmm(const tl_backend_spmm_call *c)
{
    bool trans = c->op_a == TL_BGEMM_OP_T;
    int64_t k = trans ? c->rows : c->cols, m = trans ? c->cols : c->rows;
    if (c->size != sizeof *c || c->rows < 1 || c->cols < 1 || c->nnz < 1 || c->n < 0 ||
        (c->op_a != TL_BGEMM_OP_N && !trans) || c->format < TL_BSP_CSR || c->format > TL_BSP_COO ||
        (c->index_dtype != TL_BDT_INT32 && c->index_dtype != TL_BDT_INT64) ||
        (c->n > 0 && c->order != TL_BSP_ROW_MAJOR && c->order != TL_BSP_COL_MAJOR) ||
        (c->n > 0 && (c->order == TL_BSP_ROW_MAJOR ? c->ldb < c->n || c->ldc < c->n : c->ldb < k || c->ldc < m)))
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed spmm call (tensorlib and _C_cuda differ?)");
    cudaDataType type, compute;
    float af[2] = {(float)c->alpha[0], (float)c->alpha[1]}, bf[2] = {(float)c->beta[0], (float)c->beta[1]};
    const void *alpha = af, *beta = bf;  // float (complex) for 32F compute, double (complex) for 64F
    switch (c->dtype) {
    case TL_BDT_FLOAT16: type = CUDA_R_16F, compute = CUDA_R_32F; break;
    case TL_BDT_BFLOAT16: type = CUDA_R_16BF, compute = CUDA_R_32F; break;
    case TL_BDT_FLOAT32: type = compute = CUDA_R_32F; break;
    case TL_BDT_FLOAT64: type = compute = CUDA_R_64F, alpha = c->alpha, beta = c->beta; break;
    case TL_BDT_COMPLEX64: type = compute = CUDA_C_32F; break;
    case TL_BDT_COMPLEX128: type = compute = CUDA_C_64F, alpha = c->alpha, beta = c->beta; break;
    default:
        return tlc_error(TL_ERR_NOTIMPL, cudaSuccess, "tensorlib: cuSPARSE has no products of this dtype");
    }
    int dev = c->device_index;
    if (dev < 0) dev = tlc_current_device();
    if (dev < 0) return -1;
    DeviceGuard guard(dev);  // the call's device for the handle and the queueing
    return run_on(c, dev, type, compute, alpha, beta);
}
