// semi.cu - the CUDA 2:4 semi-structured entry (tl_backend_semi_call, backend/backend.h) on
// cuSPARSELt (0.6 or later: the *2 compression functions, CUSPARSE_COMPUTE_32F). libcusparseLt
// is not linked: it is opened with dlopen on the first call (this build machine has neither
// the library nor its header), so the prototypes, the opaque structs and the enum values used
// are written here from cuSPARSELt's documentation (cudaDataType comes from library_types.h).
// One handle per device, created on first use and kept for the process. The structured
// matrix is S of the call (matA for S @ B, matB for B @ S); every matrix is row-major. Every
// dimension is padded to a multiple of 32 (cuSPARSELt's size rules differ by type and
// version; 32 meets all of them): an operand whose dims are not multiples of 32 or whose
// address is not 16-byte aligned is copied into a zero-filled padded buffer of the caching
// allocator (cudaMemcpy2DAsync), the product comes back the same way; the compressed buffer
// is that of the padded S. Plans are cached per (device, dtype, side, padded shape), with
// their descriptors, in a small table (LRU replacement). float16 and bfloat16 compute in
// float32 (CUSPARSE_COMPUTE_32F), int8 in int32 with an int32 result (CUSPARSE_COMPUTE_32I).
// Workspaces come from the caching allocator; everything is queued on the current stream.
// Never run on a GPU so far (docs/cuda.md).
#include <dlfcn.h>
#include <library_types.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_backend.h"

namespace {

// cuSPARSELt's opaque structs are `struct { uint8_t data[N]; }`, the caller's memory: N was 1024
// in the first versions and 11024 later (MLIR's CUDA runtime wrappers static_assert
// sizeof(cusparseLtHandle_t) == 11024, the matrix descriptor the same); 16 KiB here leaves room
// (they are only ever passed by address; the plan table holds 6 per plan).
struct alignas(16) Opaque {
    unsigned char data[16384];
};
typedef int status_t;  // cusparseStatus_t: SUCCESS 0
constexpr int kOpN = 0;                                    // cusparseOperation_t NON_TRANSPOSE
constexpr int kOrderRow = 2;                               // cusparseOrder_t: COL 1, ROW 2
constexpr int kSparsity50 = 0;                             // CUSPARSELT_SPARSITY_50_PERCENT
constexpr int kCompute32I = 0, kCompute32F = 2;            // cusparseComputeType (0.6+: 32I 0, 16F 1, 32F 2)
constexpr int kAlgDefault = 0;                             // CUSPARSELT_MATMUL_ALG_DEFAULT
constexpr unsigned kAlign = 16;                            // bytes, the alignment declared to descriptors
constexpr int64_t kPad = 32;

typedef status_t (*init_fn)(Opaque *);
typedef status_t (*dense_fn)(const Opaque *, Opaque *, int64_t, int64_t, int64_t, uint32_t, cudaDataType, int);
typedef status_t (*structured_fn)(const Opaque *, Opaque *, int64_t, int64_t, int64_t, uint32_t, cudaDataType, int,
                                  int);
typedef status_t (*destroy_fn)(const Opaque *);
typedef status_t (*mm_desc_fn)(const Opaque *, Opaque *, int, int, const Opaque *, const Opaque *, const Opaque *,
                               const Opaque *, int);
typedef status_t (*alg_fn)(const Opaque *, Opaque *, const Opaque *, int);
typedef status_t (*plan_fn)(const Opaque *, Opaque *, const Opaque *, const Opaque *);
typedef status_t (*workspace_fn)(const Opaque *, const Opaque *, size_t *);
typedef status_t (*matmul_fn)(const Opaque *, const Opaque *, const void *, const void *, const void *, const void *,
                              const void *, void *, void *, cudaStream_t *, int32_t);
typedef status_t (*csize_fn)(const Opaque *, const Opaque *, size_t *, size_t *);
typedef status_t (*compress_fn)(const Opaque *, const Opaque *, int, int, const void *, void *, void *, cudaStream_t);

struct Lib {
    init_fn init;
    dense_fn dense_init;
    structured_fn structured_init;
    destroy_fn mat_destroy;
    mm_desc_fn matmul_init;
    alg_fn alg_init;
    plan_fn plan_init;
    destroy_fn plan_destroy;
    workspace_fn workspace;
    matmul_fn matmul;
    csize_fn compressed_size;
    compress_fn compress;
};

constexpr int kMaxDevices = 64;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;  // loading, handles, the plan table
Lib lib;
bool loaded;
char load_error[384];
Opaque *handles[kMaxDevices];

const char *status_name(status_t s)
{
    switch (s) {
    case 1: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case 2: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case 3: return "CUSPARSE_STATUS_INVALID_VALUE";
    case 4: return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case 6: return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case 7: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case 10: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case 11: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    default: return "CUSPARSE_STATUS_UNKNOWN";
    }
}

// NotImplementedError for what this device or library version cannot do (ARCH_MISMATCH: before
// sm_80; NOT_SUPPORTED: a type or layout combination), so that the Python layer falls back to the
// host round trip; RuntimeError otherwise.
int lt_error(status_t s, const char *what)
{
    return tlc_error(s == 4 || s == 10 ? TL_ERR_NOTIMPL : TL_ERR_RUNTIME, cudaSuccess,
                     "CUDA error: %s when calling `%s`", status_name(s), what);
}

template <typename F> bool sym(void *h, const char *name, F *out)
{
    *out = (F)dlsym(h, name);
    return *out != nullptr;
}

// Opens libcusparseLt once (lock held); false with load_error set when it or a symbol is missing.
bool load_locked(void)
{
    if (loaded) return true;
    if (load_error[0]) return false;
    void *h = dlopen("libcusparseLt.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(load_error, sizeof load_error, "tensorlib: 2:4 semi-structured products of CUDA tensors need "
                 "cuSPARSELt, and libcusparseLt.so.0 could not be loaded (%s)", e ? e : "not found");
        return false;
    }
    bool ok = sym(h, "cusparseLtInit", &lib.init) && sym(h, "cusparseLtDenseDescriptorInit", &lib.dense_init) &&
              sym(h, "cusparseLtStructuredDescriptorInit", &lib.structured_init) &&
              sym(h, "cusparseLtMatDescriptorDestroy", &lib.mat_destroy) &&
              sym(h, "cusparseLtMatmulDescriptorInit", &lib.matmul_init) &&
              sym(h, "cusparseLtMatmulAlgSelectionInit", &lib.alg_init) &&
              sym(h, "cusparseLtMatmulPlanInit", &lib.plan_init) &&
              sym(h, "cusparseLtMatmulPlanDestroy", &lib.plan_destroy) &&
              sym(h, "cusparseLtMatmulGetWorkspace", &lib.workspace) && sym(h, "cusparseLtMatmul", &lib.matmul) &&
              sym(h, "cusparseLtSpMMACompressedSize2", &lib.compressed_size) &&
              sym(h, "cusparseLtSpMMACompress2", &lib.compress);
    if (!ok) {
        snprintf(load_error, sizeof load_error, "tensorlib: libcusparseLt.so.0 lacks a function tensorlib uses "
                 "(cuSPARSELt 0.6 or later is needed)");
        dlclose(h);
        return false;
    }
    loaded = true;
    return true;
}

// The handle of device dev (lock held; created on first use); nullptr after the error is set.
const Opaque *handle_locked(int dev)
{
    // NotImplementedError: without the library the products run on host copies
    if (!load_locked()) return tlc_error(TL_ERR_NOTIMPL, cudaSuccess, "%s", load_error), nullptr;
    if (!handles[dev]) {
        Opaque *h = new Opaque();
        status_t s = lib.init(h);
        if (s != 0) {
            delete h;
            return lt_error(s, "cusparseLtInit(&handle)"), nullptr;
        }
        handles[dev] = h;
    }
    return handles[dev];
}

int64_t pad(int64_t v) { return (v + kPad - 1) / kPad * kPad; }

cudaDataType in_type(int dt) { return dt == TL_BDT_FLOAT16 ? CUDA_R_16F : dt == TL_BDT_BFLOAT16 ? CUDA_R_16BF : CUDA_R_8I; }
cudaDataType out_type(int dt) { return dt == TL_BDT_INT8 ? CUDA_R_32I : in_type(dt); }
int64_t in_size(int dt) { return dt == TL_BDT_INT8 ? 1 : 2; }
int64_t out_size(int dt) { return dt == TL_BDT_INT8 ? 4 : 2; }

// The structured descriptor of the padded S (R x K row-major); status.
status_t structured(const Opaque *h, Opaque *d, int64_t r, int64_t k, int dt)
{
    return lib.structured_init(h, d, r, k, k, kAlign, in_type(dt), kOrderRow, kSparsity50);
}

// A cached plan: its key, descriptors, plan and workspace size.
struct Plan {
    int dev, dtype, left;
    int64_t r, k, n;  // padded S (r x k) and the dense operand's free dim
    unsigned long long used;
    size_t workspace;
    Opaque mat[3], matmul, alg, plan;
};
constexpr int kPlans = 16;
Plan *plans[kPlans];
unsigned long long clock_ticks;

void destroy_plan(Plan *p)
{
    lib.plan_destroy(&p->plan);
    for (Opaque &m : p->mat) lib.mat_destroy(&m);
    delete p;
}

// The plan of a padded product (lock held); nullptr after the error is set.
Plan *plan_locked(const Opaque *h, int dev, int dt, int left, int64_t r, int64_t k, int64_t n)
{
    int slot = 0;
    for (int i = 0; i < kPlans; i++) {
        Plan *p = plans[i];
        if (p && p->dev == dev && p->dtype == dt && p->left == left && p->r == r && p->k == k && p->n == n) {
            p->used = ++clock_ticks;
            return p;
        }
        if (!plans[slot]) continue;
        if (!p || p->used < plans[slot]->used) slot = i;
    }
    Plan *p = new Plan();
    p->dev = dev, p->dtype = dt, p->left = left, p->r = r, p->k = k, p->n = n;
    // left: D (r x n) = S (r x k) @ B (k x n); else D (n x k) = B (n x r) @ S (r x k)
    int made = 0;
    const char *what = "cusparseLtStructuredDescriptorInit(handle, &matS, ...)";
    status_t s = structured(h, &p->mat[left ? 0 : 1], r, k, dt);
    if (s == 0) {
        made = 1;
        what = "cusparseLtDenseDescriptorInit(handle, &matB, ...)";
        s = left ? lib.dense_init(h, &p->mat[1], k, n, n, kAlign, in_type(dt), kOrderRow)
                 : lib.dense_init(h, &p->mat[0], n, r, r, kAlign, in_type(dt), kOrderRow);
    }
    if (s == 0) {
        made = 2;
        what = "cusparseLtDenseDescriptorInit(handle, &matC, ...)";
        s = lib.dense_init(h, &p->mat[2], left ? r : n, left ? n : k, left ? n : k, kAlign, out_type(dt), kOrderRow);
    }
    if (s == 0) {
        made = 3;
        what = "cusparseLtMatmulDescriptorInit(handle, &matmul, opA, opB, &matA, &matB, &matC, &matC, compute)";
        s = lib.matmul_init(h, &p->matmul, kOpN, kOpN, &p->mat[0], &p->mat[1], &p->mat[2], &p->mat[2],
                            dt == TL_BDT_INT8 ? kCompute32I : kCompute32F);
    }
    if (s == 0) {
        what = "cusparseLtMatmulAlgSelectionInit(handle, &alg, &matmul, CUSPARSELT_MATMUL_ALG_DEFAULT)";
        s = lib.alg_init(h, &p->alg, &p->matmul, kAlgDefault);
    }
    if (s == 0) {
        what = "cusparseLtMatmulPlanInit(handle, &plan, &matmul, &alg)";
        s = lib.plan_init(h, &p->plan, &p->matmul, &p->alg);
    }
    if (s == 0) {
        what = "cusparseLtMatmulGetWorkspace(handle, &plan, &size)";
        s = lib.workspace(h, &p->plan, &p->workspace);
        if (s != 0) lib.plan_destroy(&p->plan);
    }
    if (s != 0) {
        // the descriptors made so far: S first (its index depends on the side), then B, then C
        int order[3] = {left ? 0 : 1, left ? 1 : 0, 2};
        for (int i = 0; i < made; i++) lib.mat_destroy(&p->mat[order[i]]);
        delete p;
        lt_error(s, what);
        return nullptr;
    }
    if (plans[slot]) destroy_plan(plans[slot]);
    p->used = ++clock_ticks;
    plans[slot] = p;
    return p;
}

bool aligned(const void *p) { return ((uintptr_t)p & (kAlign - 1)) == 0; }

// dst (dr x dc elements of esz bytes, row-major, zero outside src) = src (sr x sc, row-major).
cudaError_t copy_padded(void *dst, int64_t dc, const void *src, int64_t sr, int64_t sc, int64_t esz, int64_t dr,
                        cudaStream_t st)
{
    cudaError_t e = cudaSuccess;
    if (sr != dr || sc != dc) e = cudaMemsetAsync(dst, 0, (size_t)(dr * dc * esz), st);
    if (e == cudaSuccess)
        e = cudaMemcpy2DAsync(dst, (size_t)(dc * esz), src, (size_t)(sc * esz), (size_t)(sc * esz), (size_t)sr,
                              cudaMemcpyDeviceToDevice, st);
    return e;
}

// A device operand of rows x cols elements as cuSPARSELt gets it: itself when its dims are
// the padded ones and it is aligned, else a padded copy from the caching allocator.
struct Operand {
    void *p = nullptr;
    size_t bytes = 0;  // of the padded copy; 0: none
    int dev = 0;
    ~Operand()
    {
        if (bytes) tlc_free(p, bytes, dev);  // stream-ordered: reused only by later work on this stream
    }
};

int operand(Operand *o, const void *src, int64_t r, int64_t c, int64_t pr, int64_t pc, int64_t esz, int dev,
            cudaStream_t st, bool fill)
{
    o->dev = dev;
    if (r == pr && c == pc && aligned(src)) {
        o->p = (void *)src;
        return 0;
    }
    o->bytes = (size_t)(pr * pc * esz);
    o->p = tlc_alloc(o->bytes, dev);
    if (!o->p) return o->bytes = 0, -1;
    if (!fill) return 0;
    cudaError_t e = copy_padded(o->p, pc, src, r, c, esz, pr, st);
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "CUDA error");
}

}  // namespace

int tlc_semi(tl_backend_semi_call *c)
{
    int dt = c->dtype;
    if (c->size != sizeof *c || (dt != TL_BDT_FLOAT16 && dt != TL_BDT_BFLOAT16 && dt != TL_BDT_INT8) ||
        c->rows < 1 || c->cols < 1 || c->mode < TL_BSEMI_SIZE || c->mode > TL_BSEMI_MM ||
        (c->mode == TL_BSEMI_MM && c->n < 1))
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed semi call (tensorlib and _C_cuda differ?)");
    int dev = c->device_index;
    DeviceGuard guard(dev);
    if (dev < 0) dev = tlc_current_device();
    if (dev < 0) return -1;
    if (dev >= kMaxDevices)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "tensorlib: cuSPARSELt on cuda:%d is not supported", dev);
    cudaStream_t st = tlc_current_stream(dev);
    int64_t r = pad(c->rows), k = pad(c->cols), esz = in_size(dt);
    int left = c->left ? 1 : 0;
    pthread_mutex_lock(&lock);
    const Opaque *h = handle_locked(dev);
    int rc = -1;
    if (!h) goto out;
    if (c->mode != TL_BSEMI_MM) {
        Opaque d;
        status_t s = structured(h, &d, r, k, dt);
        if (s != 0) {
            lt_error(s, "cusparseLtStructuredDescriptorInit(handle, &matS, ...)");
            goto out;
        }
        size_t size = 0, buffer = 0;
        s = lib.compressed_size(h, &d, &size, &buffer);
        if (s != 0) {
            lib.mat_destroy(&d);
            lt_error(s, "cusparseLtSpMMACompressedSize2(handle, &matS, &size, &buffer_size)");
            goto out;
        }
        if (c->mode == TL_BSEMI_SIZE) {
            c->compressed_size = (int64_t)size;
            rc = 0;
        } else if (c->compressed_size != (int64_t)size) {
            tlc_error(TL_ERR_RUNTIME, cudaSuccess, "tensorlib: the compressed buffer has %lld bytes, cuSPARSELt "
                      "needs %zu", (long long)c->compressed_size, size);
        } else {
            Operand a;
            void *tmp = buffer ? tlc_alloc(buffer, dev) : nullptr;
            if ((!buffer || tmp) && operand(&a, c->dense, c->rows, c->cols, r, k, esz, dev, st, true) == 0) {
                s = lib.compress(h, &d, left, kOpN, a.p, c->compressed, tmp, st);
                rc = s == 0 ? 0 : lt_error(s, "cusparseLtSpMMACompress2(handle, &matS, isSparseA, op, dense, "
                                              "compressed, buffer, stream)");
            }
            if (tmp) tlc_free(tmp, buffer, dev);
        }
        lib.mat_destroy(&d);
        goto out;
    }
    {
        int64_t n = pad(c->n);
        Plan *p = plan_locked(h, dev, dt, left, r, k, n);
        if (!p) goto out;
        // left: B is cols x n, C rows x n; else B is n x rows, C n x cols
        int64_t br = left ? c->cols : c->n, bc = left ? c->n : c->rows, pbr = left ? k : n, pbc = left ? n : r;
        int64_t cr = left ? c->rows : c->n, cc = left ? c->n : c->cols, pcr = left ? r : n, pcc = left ? n : k;
        Operand b, out;
        void *ws = p->workspace ? tlc_alloc(p->workspace, dev) : nullptr;
        float alpha = 1, beta = 0;
        if ((p->workspace && !ws) || operand(&b, c->b, br, bc, pbr, pbc, esz, dev, st, true) < 0 ||
            operand(&out, c->c, cr, cc, pcr, pcc, out_size(dt), dev, st, false) < 0) {
            if (ws) tlc_free(ws, p->workspace, dev);
            goto out;
        }
        const void *ma = left ? (const void *)c->compressed : b.p, *mb = left ? b.p : (const void *)c->compressed;
        status_t s = lib.matmul(h, &p->plan, &alpha, ma, mb, &beta, out.p, out.p, ws, &st, 1);
        if (ws) tlc_free(ws, p->workspace, dev);
        if (s != 0) {
            lt_error(s, "cusparseLtMatmul(handle, &plan, &alpha, A, B, &beta, C, D, workspace, &stream, 1)");
            goto out;
        }
        rc = 0;
        if (out.bytes) {  // the rows x n (n x cols) corner of the padded product
            cudaError_t e = cudaMemcpy2DAsync(c->c, (size_t)(cc * out_size(dt)), out.p, (size_t)(pcc * out_size(dt)),
                                              (size_t)(cc * out_size(dt)), (size_t)cr, cudaMemcpyDeviceToDevice, st);
            if (e != cudaSuccess) rc = tlc_error(TL_ERR_RUNTIME, e, "CUDA error");
        }
    }
out:
    pthread_mutex_unlock(&lock);
    return rc;
}
