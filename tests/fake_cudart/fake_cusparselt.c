/* fake_cusparselt.c - a stand-in for libcusparseLt.so.0 (the functions tensorlib._C_cuda's
 * semi.cu looks up), so the module's cuSPARSELt host code (loading, handles, descriptors, plans
 * and their cache, compression, padding, workspaces, streams) runs on machines without a GPU, on
 * the fake CUDA runtime (fake_cudart.c, whose "device memory" is guarded host memory).
 *
 * tests/_fake_cudart.py compiles it into libcusparseLt.so.0 beside the fake libcudart.so.N,
 * linked against that library (so it shares its registry of device allocations). It checks
 * what cuSPARSELt documents and checks: a live handle bound to the current device, initialised
 * descriptors (rows, cols >= 1, ld at least the stored row, alignment a multiple of 16, the
 * structured matrix's dims multiples of 16 for 16-bit and 32 for 8-bit types), a matmul with
 * exactly one structured operand, op(A) op(B) C D shapes agreeing, C and D alike, the
 * (input, output, compute) combinations it supports (16F and 16BF with 32F compute, 8I to 8I or
 * 32I with 32I), a plan made from a live matmul descriptor, one valid stream, and that every
 * pointer read or written lies inside one live allocation of the current device (the compressed
 * buffer, the temporary compression buffer and the workspace at their reported sizes). Compress
 * refuses a dense matrix that breaks the 2:4 pattern (the real library does not check; it leaves
 * undefined values). The compressed buffer is this fake's own format: a header (rows, cols,
 * type, side) then the dense matrix. Products are computed on the host: float32 accumulation
 * rounded once for 16-bit types, int32 wrapping for int8. Counters for tests
 * (tl_fake_cusparselt_*). Signatures of cuSPARSELt 0.6+ (the *2 compression functions). */
#include <cuda_runtime_api.h>
#include <library_types.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_values.h"

#define EXPORT __attribute__((visibility("default")))

int tl_fake_cudart_device_range(const void *p, size_t n, int dev);
void tl_fake_cudart_open(const void *p, size_t n, int open);
int tl_fake_cudart_stream_ok(cudaStream_t s);

enum { SUCCESS = 0, NOT_INITIALIZED = 1, INVALID_VALUE = 3, EXECUTION_FAILED = 6, NOT_SUPPORTED = 10 };
enum { COMPUTE_32I = 0, COMPUTE_16F = 1, COMPUTE_32F = 2 };
enum { ORDER_COL = 1, ORDER_ROW = 2 };
#define OPAQUE 11024 /* cuSPARSELt's opaque structs: uint8_t data[11024] (0.4+; 1024 before) */
#define WORKSPACE 256
#define COMPRESS_BUFFER 128
#define HEADER 32

typedef struct { int magic, device; } handle_t;
typedef struct {
    int magic, structured, type, order;
    int64_t rows, cols, ld;
} mat_t;
typedef struct {
    int magic, device, opa, opb, compute;
    mat_t a, b, c;
} matmul_t;
typedef struct { int magic; matmul_t mm; } alg_t;
typedef struct { int magic; matmul_t mm; } plan_t;
typedef char check_sizes[sizeof(matmul_t) <= OPAQUE && sizeof(plan_t) <= OPAQUE ? 1 : -1];

enum { M_HANDLE = 0x17a1, M_MAT = 0x17a2, M_MATMUL = 0x17a3, M_ALG = 0x17a4, M_PLAN = 0x17a5, M_BUF = 0x17a6 };

static long handles, compresses, matmuls, plans;
static int last_compute = -1, last_side = -1;
static void *last_stream;

EXPORT long tl_fake_cusparselt_handles(void) { return handles; }
EXPORT long tl_fake_cusparselt_compresses(void) { return compresses; }
EXPORT long tl_fake_cusparselt_matmuls(void) { return matmuls; }
EXPORT long tl_fake_cusparselt_plans(void) { return plans; }
EXPORT int tl_fake_cusparselt_last_compute(void) { return last_compute; }
EXPORT int tl_fake_cusparselt_last_side(void) { return last_side; }
EXPORT void *tl_fake_cusparselt_last_stream(void) { return last_stream; }

static int current(void)
{
    int d = -1;
    return cudaGetDevice(&d) == cudaSuccess ? d : -1;
}

static int live(const handle_t *h) { return h && h->magic == M_HANDLE && h->device == current(); }

static size_t type_size(int t)
{
    switch (t) {
    case CUDA_R_8I: return 1;
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    case CUDA_R_32F: case CUDA_R_32I: return 4;
    default: return 0;
    }
}

static int in_device(const void *p, size_t n) { return p && (n == 0 || tl_fake_cudart_device_range(p, n, current())); }

EXPORT int cusparseLtInit(handle_t *h)
{
    if (!h || current() < 0) return NOT_INITIALIZED;
    memset(h, 0, OPAQUE);
    h->magic = M_HANDLE;
    h->device = current();
    handles++;
    return SUCCESS;
}

EXPORT int cusparseLtDestroy(handle_t *h)
{
    if (!live(h)) return NOT_INITIALIZED;
    h->magic = 0;
    return SUCCESS;
}

static int mat_init(const handle_t *h, mat_t *m, int64_t rows, int64_t cols, int64_t ld, uint32_t alignment, int type,
                    int order, int structured)
{
    if (!live(h)) return NOT_INITIALIZED;
    size_t isz = type_size(type);
    if (!m || rows < 1 || cols < 1 || alignment == 0 || alignment % 16 || !isz ||
        (order != ORDER_ROW && order != ORDER_COL) || ld < (order == ORDER_ROW ? cols : rows))
        return INVALID_VALUE;
    if (structured) {
        int64_t g = isz == 1 ? 32 : 16;
        if (rows % g || cols % g || ld % g || type == CUDA_R_32I) return INVALID_VALUE;
    }
    memset(m, 0, OPAQUE);
    *m = (mat_t){M_MAT, structured, type, order, rows, cols, ld};
    return SUCCESS;
}

EXPORT int cusparseLtDenseDescriptorInit(const handle_t *h, mat_t *m, int64_t rows, int64_t cols, int64_t ld,
                                         uint32_t alignment, int type, int order)
{
    return mat_init(h, m, rows, cols, ld, alignment, type, order, 0);
}

EXPORT int cusparseLtStructuredDescriptorInit(const handle_t *h, mat_t *m, int64_t rows, int64_t cols, int64_t ld,
                                              uint32_t alignment, int type, int order, int sparsity)
{
    if (sparsity != 0) return INVALID_VALUE;
    return mat_init(h, m, rows, cols, ld, alignment, type, order, 1);
}

EXPORT int cusparseLtMatDescriptorDestroy(mat_t *m)
{
    if (!m || m->magic != M_MAT) return INVALID_VALUE;
    m->magic = 0;
    return SUCCESS;
}

EXPORT int cusparseLtMatmulDescriptorInit(const handle_t *h, matmul_t *mm, int opa, int opb, const mat_t *a,
                                          const mat_t *b, const mat_t *c, const mat_t *d, int compute)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!mm || !a || !b || !c || !d || a->magic != M_MAT || b->magic != M_MAT || c->magic != M_MAT ||
        d->magic != M_MAT || (opa != 0 && opa != 1) || (opb != 0 && opb != 1))
        return INVALID_VALUE;
    if (a->structured + b->structured != 1 || c->structured || memcmp(c, d, sizeof *c)) return INVALID_VALUE;
    int64_t m = opa ? a->cols : a->rows, k = opa ? a->rows : a->cols, kb = opb ? b->cols : b->rows,
            n = opb ? b->rows : b->cols;
    if (k != kb || c->rows != m || c->cols != n) return INVALID_VALUE;
    int ok = a->type == b->type &&
             (((a->type == CUDA_R_16F || a->type == CUDA_R_16BF) && c->type == a->type && compute == COMPUTE_32F) ||
              (a->type == CUDA_R_16F && c->type == a->type && compute == COMPUTE_16F) ||
              (a->type == CUDA_R_8I && (c->type == CUDA_R_8I || c->type == CUDA_R_32I) && compute == COMPUTE_32I));
    if (!ok) return NOT_SUPPORTED;
    memset(mm, 0, OPAQUE);
    *mm = (matmul_t){M_MATMUL, h->device, opa, opb, compute, *a, *b, *c};
    return SUCCESS;
}

EXPORT int cusparseLtMatmulAlgSelectionInit(const handle_t *h, alg_t *alg, const matmul_t *mm, int which)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!alg || !mm || mm->magic != M_MATMUL || which != 0) return INVALID_VALUE;
    memset(alg, 0, OPAQUE);
    alg->magic = M_ALG;
    alg->mm = *mm;
    return SUCCESS;
}

EXPORT int cusparseLtMatmulPlanInit(const handle_t *h, plan_t *plan, const matmul_t *mm, const alg_t *alg)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!plan || !mm || !alg || mm->magic != M_MATMUL || alg->magic != M_ALG || memcmp(&alg->mm, mm, sizeof *mm))
        return INVALID_VALUE;
    memset(plan, 0, OPAQUE);
    plan->magic = M_PLAN;
    plan->mm = *mm;
    plans++;
    return SUCCESS;
}

EXPORT int cusparseLtMatmulPlanDestroy(plan_t *plan)
{
    if (!plan || plan->magic != M_PLAN) return INVALID_VALUE;
    plan->magic = 0;
    plans--;
    return SUCCESS;
}

EXPORT int cusparseLtMatmulGetWorkspace(const handle_t *h, const plan_t *plan, size_t *size)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!plan || plan->magic != M_PLAN || !size) return INVALID_VALUE;
    *size = WORKSPACE;
    return SUCCESS;
}

static size_t compressed_bytes(const mat_t *m) { return HEADER + (size_t)(m->rows * m->cols) * type_size(m->type); }

EXPORT int cusparseLtSpMMACompressedSize2(const handle_t *h, const mat_t *m, size_t *size, size_t *buffer)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!m || m->magic != M_MAT || !m->structured || !size || !buffer) return INVALID_VALUE;
    *size = compressed_bytes(m);
    *buffer = COMPRESS_BUFFER;
    return SUCCESS;
}

static int nonzero(const char *p, size_t isz)
{
    uint32_t v = 0;
    memcpy(&v, p, isz);
    return isz == 1 ? (v & 0xff) != 0 : (v & 0x7fff) != 0; /* 16-bit: -0 is zero */
}

EXPORT int cusparseLtSpMMACompress2(const handle_t *h, const mat_t *m, int sparse_a, int op, const void *dense,
                                    void *compressed, void *buffer, cudaStream_t stream)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!m || m->magic != M_MAT || !m->structured || (sparse_a != 0 && sparse_a != 1) || op != 0 ||
        m->order != ORDER_ROW || !tl_fake_cudart_stream_ok(stream))
        return INVALID_VALUE;
    size_t isz = type_size(m->type), bytes = (size_t)(m->rows * m->ld) * isz, out = compressed_bytes(m);
    if (!in_device(dense, bytes) || !in_device(compressed, out) || !in_device(buffer, COMPRESS_BUFFER))
        return EXECUTION_FAILED; /* an illegal address on the device */
    tl_fake_cudart_open(dense, bytes, 1);
    int ok = 1;
    for (int64_t r = 0; ok && r < m->rows; r++)
        for (int64_t g = 0; ok && g < m->cols; g += 4) {
            int n = 0;
            for (int e = 0; e < 4; e++) n += nonzero((const char *)dense + (r * m->ld + g + e) * isz, isz);
            ok = n <= 2;
        }
    if (ok) {
        tl_fake_cudart_open(compressed, out, 1);
        int64_t hdr[4] = {M_BUF, m->rows, m->cols, (int64_t)m->type * 2 + sparse_a};
        memcpy(compressed, hdr, sizeof hdr);
        for (int64_t r = 0; r < m->rows; r++)
            memcpy((char *)compressed + HEADER + r * m->cols * isz, (const char *)dense + r * m->ld * isz,
                   (size_t)m->cols * isz);
        tl_fake_cudart_open(compressed, out, 0);
        compresses++;
    }
    tl_fake_cudart_open(dense, bytes, 0);
    return ok ? SUCCESS : INVALID_VALUE;
}

/* A float16/bfloat16 element as a float (fake_values.h). */
static float loadf(const char *p, int t) { return (float)creal(load(p, t)); }

/* Element (r, s) of the stored matrix m at base. */
static const char *at(const char *base, const mat_t *m, int64_t r, int64_t s)
{
    int64_t i = m->order == ORDER_ROW ? r * m->ld + s : r + s * m->ld;
    return base + i * (int64_t)type_size(m->type);
}

static size_t extent(const mat_t *m)
{
    return (size_t)((m->order == ORDER_ROW ? (m->rows - 1) * m->ld + m->cols : (m->cols - 1) * m->ld + m->rows) *
                    (int64_t)type_size(m->type));
}

EXPORT int cusparseLtMatmul(const handle_t *h, const plan_t *plan, const void *alpha, const void *A, const void *B,
                            const void *beta, const void *C, void *D, void *workspace, cudaStream_t *streams,
                            int32_t nstreams)
{
    if (!live(h)) return NOT_INITIALIZED;
    if (!plan || plan->magic != M_PLAN || !alpha || !beta || nstreams < 0 || (nstreams > 0 && !streams))
        return INVALID_VALUE;
    for (int i = 0; i < nstreams; i++)
        if (!tl_fake_cudart_stream_ok(streams[i])) return INVALID_VALUE;
    const matmul_t *mm = &plan->mm;
    const mat_t *ma = &mm->a, *mb = &mm->b, *mc = &mm->c, *ms = ma->structured ? ma : mb;
    const void *S = ma->structured ? A : B;
    if (!in_device(S, compressed_bytes(ms)) || !in_device(ma->structured ? B : A, extent(ma->structured ? mb : ma)) ||
        !in_device(C, extent(mc)) || !in_device(D, extent(mc)) || !in_device(workspace, WORKSPACE))
        return EXECUTION_FAILED;
    tl_fake_cudart_open(S, compressed_bytes(ms), 1);
    int64_t hdr[4];
    memcpy(hdr, S, sizeof hdr);
    tl_fake_cudart_open(S, compressed_bytes(ms), 0);
    if (hdr[0] != M_BUF || hdr[1] != ms->rows || hdr[2] != ms->cols || hdr[3] != (int64_t)ms->type * 2 + ma->structured)
        return INVALID_VALUE; /* not this matrix's compressed form (shape, type or side) */
    /* the structured operand read as the dense rows x cols row-major matrix stored after the header */
    mat_t plain = *ms;
    plain.order = ORDER_ROW;
    plain.ld = ms->cols;
    const mat_t *va = ma->structured ? &plain : ma, *vb = mb->structured ? &plain : mb;
    const char *pa = ma->structured ? (const char *)A + HEADER : A, *pb = mb->structured ? (const char *)B + HEADER : B;
    size_t ea = ma->structured ? compressed_bytes(ms) : extent(ma), eb = mb->structured ? compressed_bytes(ms) : extent(mb);
    int64_t m = mc->rows, n = mc->cols, k = mm->opa ? ma->rows : ma->cols;
    float al, be;
    memcpy(&al, alpha, 4);
    memcpy(&be, beta, 4);
    tl_fake_cudart_open(A, ea, 1);
    tl_fake_cudart_open(B, eb, 1);
    tl_fake_cudart_open(C, extent(mc), 1);
    tl_fake_cudart_open(D, extent(mc), 1);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            const char *cin = at(C, mc, i, j);
            char *dst = (char *)at(D, mc, i, j);
            if (ma->type == CUDA_R_8I) {
                uint32_t acc = 0;
                for (int64_t p = 0; p < k; p++) {
                    int8_t x = *(const int8_t *)(mm->opa ? at(pa, va, p, i) : at(pa, va, i, p));
                    int8_t y = *(const int8_t *)(mm->opb ? at(pb, vb, j, p) : at(pb, vb, p, j));
                    acc += (uint32_t)((int32_t)x * (int32_t)y);
                }
                float v = al * (float)(int32_t)acc;
                if (be != 0) v += be * (float)(mc->type == CUDA_R_32I ? *(const int32_t *)cin : *(const int8_t *)cin);
                if (mc->type == CUDA_R_32I) {
                    int32_t o = al == 1 && be == 0 ? (int32_t)acc : (int32_t)v;
                    memcpy(dst, &o, 4);
                } else {
                    *(int8_t *)dst = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v); /* saturated */
                }
            } else {
                float acc = 0;
                for (int64_t p = 0; p < k; p++)
                    acc += loadf(mm->opa ? at(pa, va, p, i) : at(pa, va, i, p), ma->type) *
                           loadf(mm->opb ? at(pb, vb, j, p) : at(pb, vb, p, j), mb->type);
                float v = al * acc + (be != 0 ? be * loadf(cin, mc->type) : 0);
                store(dst, mc->type, v);
            }
        }
    tl_fake_cudart_open(D, extent(mc), 0);
    tl_fake_cudart_open(C, extent(mc), 0);
    tl_fake_cudart_open(B, eb, 0);
    tl_fake_cudart_open(A, ea, 0);
    matmuls++;
    last_compute = mm->compute;
    last_side = ma->structured;
    last_stream = nstreams > 0 ? streams[0] : NULL;
    return SUCCESS;
}
