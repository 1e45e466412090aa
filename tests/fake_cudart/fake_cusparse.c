/* fake_cusparse.c - a stand-in for libcusparse (the generic-API functions tensorlib._C_cuda's
 * sparse.cu looks up), so the module's cuSPARSE host code (loading, handles, the stream, the
 * descriptors of A, B and C, the workspace size and buffer, the arguments of cusparseSpMV and
 * cusparseSpMM) runs on machines without a GPU, on the fake CUDA runtime (fake_cudart.c, whose
 * "device memory" is guarded host memory).
 *
 * tests/_fake_cudart.py compiles it into libcusparse.so.12 beside the fake libcudart.so.N, linked
 * against that library (so it shares its registry of device allocations); sparse.cu's dlopen
 * finds it through LD_LIBRARY_PATH. Enum values as in cusparse.h of cuSPARSE 12.5/12.6 (sparse.cu
 * cites them). It checks what cuSPARSE checks: a live handle bound to the current device, live
 * descriptors of the right kind, valid enums (operations, index types and base, orders,
 * algorithms: only the ALG_DEFAULTs are taken), value types equal across A, B and C and a compute
 * type cuSPARSE pairs with them (R_32F for R_16F/R_16BF/R_32F, R_64F, C_32F, C_64F), sizes that
 * match op(A) (m x k) and leading dims at least the stored rows (column-major) or columns
 * (row-major), B and C in one order, 32-bit indices only for sizes that fit; at execution, that
 * every array it reads or writes (offsets, indices, values, B, C, the workspace of the size its
 * _bufferSize reported) lies inside one live device allocation of the current device, and that
 * the sparse structure is valid (CSR/CSC offsets from 0 to nnz, non-decreasing, indices in range;
 * COO sorted by row): EXECUTION_FAILED otherwise, as an illegal address would be. Then it
 * computes on the host (accumulating in double, complex double; beta == 0 never reads C) with the
 * device blocks opened for the time of the call. Counters, the live descriptors and the last
 * call's operation, order, compute type, format, stream and workspace are readable for tests
 * (tl_fake_cusparse_*). */
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

enum { SUCCESS = 0, NOT_INITIALIZED = 1, ALLOC_FAILED = 2, INVALID_VALUE = 3, EXECUTION_FAILED = 6,
       NOT_SUPPORTED = 10 };
enum { FMT_CSR = 1, FMT_CSC = 2, FMT_COO = 3 };   /* cusparseFormat_t */
enum { ORDER_COL = 1, ORDER_ROW = 2 };            /* cusparseOrder_t */
enum { IDX_32I = 2, IDX_64I = 3 };                /* cusparseIndexType_t */
enum { MAGIC_HANDLE = 0x5ba25e, MAGIC_SP = 0x5ba2, MAGIC_DM = 0xd3a7, MAGIC_DV = 0xd3ec };

typedef struct fake_handle {
    int magic, device;
    cudaStream_t stream;
} fake_handle;

typedef struct fake_sp {
    int magic, format, offsets_type, indices_type, base;
    int64_t rows, cols, nnz;
    const void *offsets, *indices, *values;
    cudaDataType type;
} fake_sp;

typedef struct fake_dn {  /* a dense matrix, or a vector (cols 1, ld = size, column-major) */
    int magic, order;
    int64_t rows, cols, ld;
    void *values;
    cudaDataType type;
} fake_dn;

static long spmvs, spmms, creates, size_queries, live_descrs;
static int last_op = -1, last_order = -1, last_compute = -1, last_format = -1;
static void *last_stream, *last_buffer;
static size_t last_buffer_size;

EXPORT long tl_fake_cusparse_spmvs(void) { return spmvs; }
EXPORT long tl_fake_cusparse_spmms(void) { return spmms; }
EXPORT long tl_fake_cusparse_handles(void) { return creates; }
EXPORT long tl_fake_cusparse_size_queries(void) { return size_queries; }
EXPORT long tl_fake_cusparse_live_descriptors(void) { return live_descrs; }
EXPORT int tl_fake_cusparse_last_op(void) { return last_op; }
EXPORT int tl_fake_cusparse_last_order(void) { return last_order; }
EXPORT int tl_fake_cusparse_last_compute(void) { return last_compute; }
EXPORT int tl_fake_cusparse_last_format(void) { return last_format; }
EXPORT void *tl_fake_cusparse_last_stream(void) { return last_stream; }
EXPORT void *tl_fake_cusparse_last_buffer(void) { return last_buffer; }
EXPORT size_t tl_fake_cusparse_last_buffer_size(void) { return last_buffer_size; }

static int live(const fake_handle *h) { return h && h->magic == MAGIC_HANDLE; }

EXPORT int cusparseCreate(fake_handle **out)
{
    if (!out) return INVALID_VALUE;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return NOT_INITIALIZED;
    fake_handle *h = calloc(1, sizeof *h);
    if (!h) return ALLOC_FAILED;
    h->magic = MAGIC_HANDLE;
    h->device = dev;
    *out = h;
    creates++;
    return SUCCESS;
}

EXPORT int cusparseDestroy(fake_handle *h)
{
    if (!live(h)) return NOT_INITIALIZED;
    h->magic = 0;
    free(h);
    return SUCCESS;
}

EXPORT int cusparseSetStream(fake_handle *h, cudaStream_t s)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!tl_fake_cudart_stream_ok(s)) return INVALID_VALUE;
    h->stream = s;
    return SUCCESS;
}

EXPORT const char *cusparseGetErrorString(int status)
{
    return status == SUCCESS ? "success" : "fake cuSPARSE error";
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

static int fits32(int64_t v) { return v >= 0 && v <= INT32_MAX; }

/* ---- descriptors ---- */

static int create_sp(fake_sp **out, int format, int64_t rows, int64_t cols, int64_t nnz, const void *offsets,
                     const void *indices, const void *values, int otype, int itype, int base, cudaDataType type)
{
    if (!out || rows < 0 || cols < 0 || nnz < 0) return INVALID_VALUE;
    if ((otype != IDX_32I && otype != IDX_64I) || (itype != IDX_32I && itype != IDX_64I) || (base != 0 && base != 1))
        return INVALID_VALUE;
    if (!type_size(type)) return NOT_SUPPORTED;
    if ((otype == IDX_32I || itype == IDX_32I) && (!fits32(rows) || !fits32(cols) || !fits32(nnz))) return INVALID_VALUE;
    if (nnz > 0 && (!indices || !values)) return INVALID_VALUE;
    if (!offsets && (format != FMT_COO || nnz > 0)) return INVALID_VALUE;
    fake_sp *d = calloc(1, sizeof *d);
    if (!d) return ALLOC_FAILED;
    *d = (fake_sp){MAGIC_SP, format, otype, itype, base, rows, cols, nnz, offsets, indices, values, type};
    *out = d;
    live_descrs++;
    return SUCCESS;
}

EXPORT int cusparseCreateCsr(fake_sp **out, int64_t rows, int64_t cols, int64_t nnz, void *offsets, void *indices,
                             void *values, int otype, int itype, int base, cudaDataType type)
{
    return create_sp(out, FMT_CSR, rows, cols, nnz, offsets, indices, values, otype, itype, base, type);
}

EXPORT int cusparseCreateCsc(fake_sp **out, int64_t rows, int64_t cols, int64_t nnz, void *offsets, void *indices,
                             void *values, int otype, int itype, int base, cudaDataType type)
{
    return create_sp(out, FMT_CSC, rows, cols, nnz, offsets, indices, values, otype, itype, base, type);
}

EXPORT int cusparseCreateCoo(fake_sp **out, int64_t rows, int64_t cols, int64_t nnz, void *row_ind, void *col_ind,
                             void *values, int itype, int base, cudaDataType type)
{
    return create_sp(out, FMT_COO, rows, cols, nnz, row_ind, col_ind, values, itype, itype, base, type);
}

EXPORT int cusparseDestroySpMat(fake_sp *d)
{
    if (!d) return SUCCESS;  /* cuSPARSE accepts NULL */
    if (d->magic != MAGIC_SP) return INVALID_VALUE;
    d->magic = 0;
    free(d);
    live_descrs--;
    return SUCCESS;
}

EXPORT int cusparseCreateDnMat(fake_dn **out, int64_t rows, int64_t cols, int64_t ld, void *values, cudaDataType type,
                               int order)
{
    if (!out || rows < 0 || cols < 0) return INVALID_VALUE;
    if (order != ORDER_COL && order != ORDER_ROW) return INVALID_VALUE;
    int64_t need = order == ORDER_COL ? rows : cols;
    if (ld < (need > 1 ? need : 1)) return INVALID_VALUE;
    if (!type_size(type)) return NOT_SUPPORTED;
    if (!values && rows > 0 && cols > 0) return INVALID_VALUE;
    fake_dn *d = calloc(1, sizeof *d);
    if (!d) return ALLOC_FAILED;
    *d = (fake_dn){MAGIC_DM, order, rows, cols, ld, values, type};
    *out = d;
    live_descrs++;
    return SUCCESS;
}

EXPORT int cusparseCreateDnVec(fake_dn **out, int64_t size, void *values, cudaDataType type)
{
    if (!out || size < 0) return INVALID_VALUE;
    if (!type_size(type)) return NOT_SUPPORTED;
    if (!values && size > 0) return INVALID_VALUE;
    fake_dn *d = calloc(1, sizeof *d);
    if (!d) return ALLOC_FAILED;
    *d = (fake_dn){MAGIC_DV, ORDER_COL, size, 1, size > 1 ? size : 1, values, type};
    *out = d;
    live_descrs++;
    return SUCCESS;
}

static int destroy_dn(fake_dn *d, int magic)
{
    if (!d) return SUCCESS;
    if (d->magic != magic) return INVALID_VALUE;
    d->magic = 0;
    free(d);
    live_descrs--;
    return SUCCESS;
}

EXPORT int cusparseDestroyDnMat(fake_dn *d) { return destroy_dn(d, MAGIC_DM); }
EXPORT int cusparseDestroyDnVec(fake_dn *d) { return destroy_dn(d, MAGIC_DV); }

/* ---- host arithmetic ---- */

static int64_t index_at(const void *p, int t, int64_t i)
{
    return t == IDX_32I ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
}

/* ---- the products ---- */

/* The checks cuSPARSE makes before anything runs; 0 or the status. */
static int check_call(const fake_handle *h, int op_a, int op_b, const void *alpha, const void *beta, const fake_sp *a,
                      const fake_dn *b, const fake_dn *c, int compute, int alg, int vec)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!a || a->magic != MAGIC_SP || !b || !c || b->magic != (vec ? MAGIC_DV : MAGIC_DM) ||
        c->magic != (vec ? MAGIC_DV : MAGIC_DM) || !alpha || !beta)
        return INVALID_VALUE;
    if (op_a < 0 || op_a > 2 || op_b < 0 || op_b > 2) return INVALID_VALUE;
    if (alg != 0) return NOT_SUPPORTED;  /* the fake knows the ALG_DEFAULTs only */
    if (a->format != FMT_CSR && a->format != FMT_CSC && a->format != FMT_COO) return NOT_SUPPORTED;
    if (a->type != b->type || a->type != c->type) return NOT_SUPPORTED;
    int t = a->type, ok = (compute == CUDA_R_32F && (t == CUDA_R_16F || t == CUDA_R_16BF || t == CUDA_R_32F)) ||
                          (compute == CUDA_R_64F && t == CUDA_R_64F) || (compute == CUDA_C_32F && t == CUDA_C_32F) ||
                          (compute == CUDA_C_64F && t == CUDA_C_64F);
    if (!ok) return NOT_SUPPORTED;
    int64_t m = op_a == 0 ? a->rows : a->cols, k = op_a == 0 ? a->cols : a->rows;
    int64_t brows = op_b == 0 ? b->rows : b->cols, bcols = op_b == 0 ? b->cols : b->rows;
    if (brows != k || c->rows != m || bcols != c->cols) return INVALID_VALUE;
    if (!vec && b->order != c->order) return NOT_SUPPORTED;  /* B and C in one layout */
    return SUCCESS;
}

static size_t workspace(const fake_sp *a) { return 1000 + (size_t)a->nnz * 8; }  /* any size > 0 */

static int in_device(const void *p, size_t n, int dev) { return n == 0 || tl_fake_cudart_device_range(p, n, dev); }

/* Bytes from the first to one past the last element of a dense operand. */
static size_t dn_extent(const fake_dn *d)
{
    if (d->rows == 0 || d->cols == 0) return 0;
    int64_t inner = d->order == ORDER_COL ? d->rows : d->cols, outer = d->order == ORDER_COL ? d->cols : d->rows;
    return (size_t)((outer - 1) * d->ld + inner) * type_size(d->type);
}

static char *dn_at(const fake_dn *d, int64_t r, int64_t s)
{
    return (char *)d->values + (d->order == ORDER_COL ? r + s * d->ld : r * d->ld + s) * (int64_t)type_size(d->type);
}

static size_t offsets_bytes(const fake_sp *a)
{
    int64_t n = a->format == FMT_CSR ? a->rows + 1 : a->format == FMT_CSC ? a->cols + 1 : a->nnz;
    return (size_t)n * (a->offsets_type == IDX_32I ? 4 : 8);
}

/* The structure cuSPARSE assumes (its kernels would read out of bounds otherwise); open ranges. */
static int valid_structure(const fake_sp *a)
{
    int64_t nseg = a->format == FMT_CSR ? a->rows : a->cols, bound = a->format == FMT_CSR ? a->cols : a->rows;
    if (a->format == FMT_COO) {
        for (int64_t i = 0; i < a->nnz; i++) {
            int64_t r = index_at(a->offsets, a->indices_type, i) - a->base, s = index_at(a->indices, a->indices_type, i) - a->base;
            if (r < 0 || r >= a->rows || s < 0 || s >= a->cols) return 0;
            if (i > 0 && r < index_at(a->offsets, a->indices_type, i - 1) - a->base) return 0;  /* sorted by row */
        }
        return 1;
    }
    if (index_at(a->offsets, a->offsets_type, 0) != a->base || index_at(a->offsets, a->offsets_type, nseg) - a->base != a->nnz)
        return 0;
    for (int64_t o = 0; o < nseg; o++)
        if (index_at(a->offsets, a->offsets_type, o + 1) < index_at(a->offsets, a->offsets_type, o)) return 0;
    for (int64_t i = 0; i < a->nnz; i++) {
        int64_t s = index_at(a->indices, a->indices_type, i) - a->base;
        if (s < 0 || s >= bound) return 0;
    }
    return 1;
}

static double complex scalar(const void *p, int compute) { return load(p, compute); }

/* C = alpha op(A) op(B) + beta C on the host, after the device checks. */
static int run(const fake_handle *h, int op_a, int op_b, const void *alpha, const fake_sp *a, const fake_dn *b,
               const void *beta, const fake_dn *c, int compute, void *buffer, int vec)
{
    int dev = 0;
    cudaGetDevice(&dev);
    if (dev != h->device) return EXECUTION_FAILED;  /* a handle is bound to its device */
    size_t vsz = type_size(a->type), need = workspace(a);
    size_t ob = offsets_bytes(a), ib = (size_t)a->nnz * (a->indices_type == IDX_32I ? 4 : 8), vb = (size_t)a->nnz * vsz;
    size_t be = dn_extent(b), ce = dn_extent(c);
    if (!in_device(a->offsets, ob, dev) || !in_device(a->indices, ib, dev) || !in_device(a->values, vb, dev) ||
        !in_device(b->values, be, dev) || !in_device(c->values, ce, dev) || !buffer || !in_device(buffer, need, dev))
        return EXECUTION_FAILED;  /* an illegal address on a device, or too small a workspace */
    const void *ranges[6] = {a->offsets, a->indices, a->values, b->values, c->values, buffer};
    size_t sizes[6] = {ob, ib, vb, be, ce, need};
    for (int i = 0; i < 6; i++) tl_fake_cudart_open(ranges[i], sizes[i], 1);
    int st = SUCCESS;
    if (!valid_structure(a)) {
        st = EXECUTION_FAILED;
        goto done;
    }
    memset(buffer, 0xa5, need);  /* the workspace is scratch: nothing may depend on its contents */
    double complex al = scalar(alpha, compute), be_ = scalar(beta, compute);
    int64_t m = c->rows, n = c->cols;
    double complex *acc = calloc((size_t)(m * n > 0 ? m * n : 1), sizeof *acc);
    if (!acc) {
        st = ALLOC_FAILED;
        goto done;
    }
    int64_t nseg = a->format == FMT_CSR ? a->rows : a->format == FMT_CSC ? a->cols : 0;
    for (int64_t i = 0, o = 0; i < a->nnz; i++) {
        int64_t r, s;  /* A's (row, column) of element i */
        if (a->format == FMT_COO) {
            r = index_at(a->offsets, a->indices_type, i) - a->base;
            s = index_at(a->indices, a->indices_type, i) - a->base;
        } else {
            while (o < nseg && index_at(a->offsets, a->offsets_type, o + 1) - a->base <= i) o++;
            r = a->format == FMT_CSR ? o : index_at(a->indices, a->indices_type, i) - a->base;
            s = a->format == FMT_CSR ? index_at(a->indices, a->indices_type, i) - a->base : o;
        }
        double complex v = load((const char *)a->values + i * (int64_t)vsz, a->type);
        if (op_a == 2) v = conj(v);
        int64_t dr = op_a == 0 ? r : s, br = op_a == 0 ? s : r;  /* C's row dr gets v * op(B)'s row br */
        for (int64_t j = 0; j < n; j++) {
            double complex x = op_b == 0 ? load(dn_at(b, br, j), b->type) : load(dn_at(b, j, br), b->type);
            acc[dr * n + j] += v * (op_b == 2 ? conj(x) : x);
        }
    }
    for (int64_t r = 0; r < m; r++)
        for (int64_t j = 0; j < n; j++) {
            char *dst = dn_at(c, r, j);
            store(dst, c->type, al * acc[r * n + j] + (be_ == 0 ? 0 : be_ * load(dst, c->type)));
        }
    free(acc);
    if (vec) spmvs++;
    else spmms++;
    last_op = op_a;
    last_order = vec ? -1 : c->order;
    last_compute = compute;
    last_format = a->format;
    last_stream = h->stream;
    last_buffer = buffer;
    last_buffer_size = need;
done:
    for (int i = 5; i >= 0; i--) tl_fake_cudart_open(ranges[i], sizes[i], 0);
    return st;
}

EXPORT int cusparseSpMV_bufferSize(fake_handle *h, int op_a, const void *alpha, fake_sp *a, fake_dn *x,
                                   const void *beta, fake_dn *y, int compute, int alg, size_t *size)
{
    int st = check_call(h, op_a, 0, alpha, beta, a, x, y, compute, alg, 1);
    if (st != SUCCESS) return st;
    if (!size) return INVALID_VALUE;
    *size = workspace(a);
    size_queries++;
    return SUCCESS;
}

EXPORT int cusparseSpMV(fake_handle *h, int op_a, const void *alpha, fake_sp *a, fake_dn *x, const void *beta,
                        fake_dn *y, int compute, int alg, void *buffer)
{
    int st = check_call(h, op_a, 0, alpha, beta, a, x, y, compute, alg, 1);
    return st != SUCCESS ? st : run(h, op_a, 0, alpha, a, x, beta, y, compute, buffer, 1);
}

EXPORT int cusparseSpMM_bufferSize(fake_handle *h, int op_a, int op_b, const void *alpha, fake_sp *a, fake_dn *b,
                                   const void *beta, fake_dn *c, int compute, int alg, size_t *size)
{
    int st = check_call(h, op_a, op_b, alpha, beta, a, b, c, compute, alg, 0);
    if (st != SUCCESS) return st;
    if (!size) return INVALID_VALUE;
    *size = workspace(a);
    size_queries++;
    return SUCCESS;
}

EXPORT int cusparseSpMM(fake_handle *h, int op_a, int op_b, const void *alpha, fake_sp *a, fake_dn *b,
                        const void *beta, fake_dn *c, int compute, int alg, void *buffer)
{
    int st = check_call(h, op_a, op_b, alpha, beta, a, b, c, compute, alg, 0);
    return st != SUCCESS ? st : run(h, op_a, op_b, alpha, a, b, beta, c, compute, buffer, 0);
}
