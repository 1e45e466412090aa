/* gemm.c - the batched matrix-multiply engine every linalg op ends in.
 *
 * c[b] = beta * c[b] + alpha * a[b] @ b[b] over broadcast batch dims.
 * float32/64 and complex64/128 go to OpenBLAS gemm; a matrix whose last two strides
 * fit BLAS (one of them 1, the other at least the dim size) is passed as a (possibly
 * transposed) BLAS operand without a copy; anything else is copied contiguous first.
 * float16/bfloat16 are widened to float32, multiplied there and rounded once.
 * Integer dtypes use exact int64-accumulating cache-blocked loops. */
#include "ops/linalg.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/parallel.h"
#include "ops/blas.h"
#include "ops/copy.h"

/* One thread budget for tensorlib and OpenBLAS: OpenBLAS gets tl_get_num_threads() for
 * single products, and one thread while a batch is split across tensorlib's workers. The
 * bundled OpenBLAS has no per-call thread count, so the setting is global, and changing it
 * while another Python thread (the GIL is released around products) is inside a product
 * breaks that product's partition (results off by rounding, seen under concurrency). So the
 * setting only changes when no product is in flight: the first caller in sets it, the
 * last one out restores tl.set_num_threads's value, and callers that find others in flight
 * run at the current setting (a matter of speed, never of results). */
static pthread_mutex_t blas_lock = PTHREAD_MUTEX_INITIALIZER;
static int blas_users;    /* products in flight */
static int blas_now = -1; /* OpenBLAS's current thread count */
static int blas_want = 1; /* tl_get_num_threads() as last set */

static void blas_apply(int n) /* blas_lock held */
{
    if (n != blas_now) TL_BLAS(openblas_set_num_threads)(n);
    blas_now = n;
}

static void blas_set_threads(int n)
{
    pthread_mutex_lock(&blas_lock);
    blas_want = n;
    if (blas_users == 0) blas_apply(n);
    pthread_mutex_unlock(&blas_lock);
}

static void blas_enter(bool split_batch)
{
    pthread_mutex_lock(&blas_lock);
    if (blas_users++ == 0) blas_apply(split_batch ? 1 : blas_want);
    pthread_mutex_unlock(&blas_lock);
}

static void blas_leave(void)
{
    pthread_mutex_lock(&blas_lock);
    if (--blas_users == 0) blas_apply(blas_want);
    pthread_mutex_unlock(&blas_lock);
}

void tl_linalg_init(void)
{
    tl_blas_set_threads_hook = blas_set_threads;
    blas_set_threads(tl_get_num_threads());
}

bool tl_gemm_dtype_ok(tl_dtype d)
{
    switch (d) {
    case TL_FLOAT32: case TL_FLOAT64: case TL_COMPLEX64: case TL_COMPLEX128:
    case TL_FLOAT16: case TL_BFLOAT16:
    case TL_UINT8: case TL_INT8: case TL_INT16: case TL_INT32: case TL_INT64:
        return true;
    default:
        return false;
    }
}

/* Row-major (1), column-major (2) or neither (0) for an R x C matrix with strides rs, cs;
 * *ld receives the leading dimension. Size-1 dims have no meaningful stride. */
static int mat_layout(int64_t R, int64_t C, int64_t rs, int64_t cs, int64_t *ld)
{
    int64_t r1 = R > 1 ? R : 1, c1 = C > 1 ? C : 1;
    if ((C == 1 || cs == 1) && (R == 1 || rs >= c1)) {
        *ld = R == 1 ? c1 : rs;
        if (*ld <= TL_BLAS_INT_MAX) return 1;
    }
    if ((R == 1 || rs == 1) && (C == 1 || cs >= r1)) {
        *ld = C == 1 ? r1 : cs;
        if (*ld <= TL_BLAS_INT_MAX) return 2;
    }
    return 0;
}

static int mat_layout_of(const tl_tensor *t, int64_t *ld)
{
    int n = t->ndim;
    return mat_layout(t->sizes[n - 2], t->sizes[n - 1], t->strides[n - 2], t->strides[n - 1], ld);
}

int tl_gemm_layout(const tl_tensor *t, int64_t *ld) { return mat_layout_of(t, ld); }

typedef struct {
    tl_dtype dtype;
    int nb;                    /* batch dims */
    const int64_t *bsizes;     /* c's batch sizes */
    const int64_t *sa, *sb, *sc; /* batch strides in elements */
    char *pa, *pb, *pc;
    int64_t M, N, K, lda, ldb, ldc;
    enum CBLAS_ORDER order;
    enum CBLAS_TRANSPOSE ta, tb;
    double complex alpha, beta;
} gemm_plan;

static void blas_one(const gemm_plan *p, const char *A, const char *B, char *C)
{
    int M = (int)p->M, N = (int)p->N, K = (int)p->K;
    int lda = (int)p->lda, ldb = (int)p->ldb, ldc = (int)p->ldc;
    switch (p->dtype) {
    case TL_FLOAT32:
        TL_BLAS(cblas_sgemm)(p->order, p->ta, p->tb, M, N, K, (float)creal(p->alpha), (const float *)A, lda,
                             (const float *)B, ldb, (float)creal(p->beta), (float *)C, ldc);
        break;
    case TL_FLOAT64:
        TL_BLAS(cblas_dgemm)(p->order, p->ta, p->tb, M, N, K, creal(p->alpha), (const double *)A, lda,
                             (const double *)B, ldb, creal(p->beta), (double *)C, ldc);
        break;
    case TL_COMPLEX64: {
        float complex al = (float complex)p->alpha, be = (float complex)p->beta;
        TL_BLAS(cblas_cgemm)(p->order, p->ta, p->tb, M, N, K, (const void *)&al, A, lda, B, ldb,
                             (const void *)&be, C, ldc);
        break;
    }
    case TL_COMPLEX128:
        TL_BLAS(cblas_zgemm)(p->order, p->ta, p->tb, M, N, K, (const void *)&p->alpha, A, lda, B, ldb,
                             (const void *)&p->beta, C, ldc);
        break;
    default:
        break;
    }
}

static void blas_range(int64_t begin, int64_t end, void *ctx)
{
    const gemm_plan *p = ctx;
    int isz = tl_dtype_itemsize(p->dtype);
    for (int64_t t = begin; t < end; t++) {
        int64_t oa = 0, ob = 0, oc = 0, rem = t;
        for (int d = p->nb - 1; d >= 0; d--) {
            int64_t i = rem % p->bsizes[d];
            rem /= p->bsizes[d];
            oa += i * p->sa[d];
            ob += i * p->sb[d];
            oc += i * p->sc[d];
        }
        blas_one(p, p->pa + oa * isz, p->pb + ob * isz, p->pc + oc * isz);
    }
}

/* Stride of dims [0, n) merged into one dim, or -1 when they do not merge. */
static int64_t merged_stride(const int64_t *sizes, const int64_t *strides, int n, int64_t fallback)
{
    int64_t st = -1, ext = 0;
    for (int i = n - 1; i >= 0; i--) {
        if (sizes[i] == 1) continue;
        if (st < 0) {
            st = strides[i];
        } else if (strides[i] != ext) {
            return -1;
        }
        ext = sizes[i] * strides[i];
    }
    return st < 0 ? fallback : st;
}

static int64_t numel_of(const int64_t *s, int n)
{
    int64_t r = 1;
    for (int i = 0; i < n; i++) r *= s[i];
    return r;
}

/* c = beta*c + alpha*a@b for the four BLAS dtypes; every operand already BLAS-laid-out. */
static int gemm_blas(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, double complex alpha,
                     double complex beta)
{
    int nd = c->ndim, nb = nd - 2;
    gemm_plan p;
    p.dtype = (tl_dtype)c->dtype;
    p.M = c->sizes[nd - 2];
    p.N = c->sizes[nd - 1];
    p.K = a->sizes[nd - 1];
    p.alpha = alpha;
    p.beta = beta;
    int la = mat_layout_of(a, &p.lda), lb = mat_layout_of(b, &p.ldb), lc = mat_layout_of(c, &p.ldc);
    p.order = lc == 1 ? CblasRowMajor : CblasColMajor;
    p.ta = la == lc ? CblasNoTrans : CblasTrans;
    p.tb = lb == lc ? CblasNoTrans : CblasTrans;
    p.nb = nb;
    p.bsizes = c->sizes;
    p.sa = a->strides;
    p.sb = b->strides;
    p.sc = c->strides;
    p.pa = tl_data(a);
    p.pb = tl_data(b);
    p.pc = tl_data(c);
    int64_t batch = numel_of(c->sizes, nb);

    /* A shared right operand: fold a's batch into its rows, one big gemm (torch's fold). */
    bool b_shared = true;
    for (int d = 0; d < nb; d++)
        if (b->strides[d] != 0 && c->sizes[d] != 1) b_shared = false;
    if (nb > 0 && batch > 1 && b_shared && la == 1 && lc == 1) {
        int64_t sa = merged_stride(a->sizes, a->strides, nb + 1, p.lda);
        int64_t sc = merged_stride(c->sizes, c->strides, nb + 1, p.ldc);
        bool a_bcast = false;
        for (int d = 0; d < nb; d++)
            if (a->strides[d] == 0 && c->sizes[d] != 1) a_bcast = true;
        if (!a_bcast && sa >= (p.K > 1 ? p.K : 1) && sc >= (p.N > 1 ? p.N : 1) && batch * p.M <= TL_BLAS_INT_MAX &&
            sa <= TL_BLAS_INT_MAX && sc <= TL_BLAS_INT_MAX) {
            p.M *= batch;
            p.lda = sa;
            p.ldc = sc;
            p.nb = 0;
            blas_enter(false);
            blas_one(&p, p.pa, p.pb, p.pc);
            blas_leave();
            return 0;
        }
    }
    if (p.M > TL_BLAS_INT_MAX || p.N > TL_BLAS_INT_MAX || p.K > TL_BLAS_INT_MAX)
        return tl_err(TL_ERR_RUNTIME, "matrix dimensions exceed the 32-bit BLAS interface");
    /* Many small products: split the batch across threads, OpenBLAS single-threaded in each. */
    double work = (double)p.M * (double)p.N * (double)p.K;
    int nt = tl_get_num_threads();
    if (batch >= 2 && nt > 1 && work < 8.0e6) {
        int64_t grain = (int64_t)(2.0e5 / (work + 1.0)) + 1;
        blas_enter(true);
        tl_parallel_for(batch, grain, blas_range, &p);
    } else {
        blas_enter(false);
        blas_range(0, batch, &p);
    }
    blas_leave();
    return 0;
}

/* ---- integer path: exact, int64 accumulation ---- */

typedef struct {
    const int64_t *a, *b; /* contiguous int64 [B, M, K], [B, K, N] (batch already broadcast) */
    int64_t *c;           /* contiguous int64 [B, M, N], holds beta*c on entry */
    int64_t B, M, N, K, alpha;
} int_plan;

#define IBLK_K 256
#define IBLK_N 512
static void int_rows(int64_t begin, int64_t end, void *ctx)
{
    const int_plan *p = ctx;
    int64_t *acc = malloc(sizeof(int64_t) * (p->N > 0 ? p->N : 1));
    if (!acc) return; /* cannot happen for sane N; result left as beta*c */
    for (int64_t r = begin; r < end; r++) {
        int64_t bi = r / p->M, i = r % p->M;
        const int64_t *arow = p->a + (bi * p->M + i) * p->K, *bb = p->b + bi * p->K * p->N;
        int64_t *crow = p->c + (bi * p->M + i) * p->N;
        for (int64_t j0 = 0; j0 < p->N; j0 += IBLK_N) {
            int64_t j1 = j0 + IBLK_N < p->N ? j0 + IBLK_N : p->N;
            for (int64_t j = j0; j < j1; j++) acc[j] = 0;
            for (int64_t k0 = 0; k0 < p->K; k0 += IBLK_K) {
                int64_t k1 = k0 + IBLK_K < p->K ? k0 + IBLK_K : p->K;
                for (int64_t k = k0; k < k1; k++) {
                    uint64_t av = (uint64_t)arow[k];
                    const int64_t *brow = bb + k * p->N;
                    for (int64_t j = j0; j < j1; j++) acc[j] = (int64_t)((uint64_t)acc[j] + av * (uint64_t)brow[j]);
                }
            }
            for (int64_t j = j0; j < j1; j++)
                crow[j] = (int64_t)((uint64_t)crow[j] + (uint64_t)p->alpha * (uint64_t)acc[j]);
        }
    }
    free(acc);
}

/* Materializes t (batch-broadcast) as a contiguous tensor of dtype d. */
static int dense_copy(tl_tensor *out, const tl_tensor *t, tl_dtype d)
{
    if (tl_tensor_empty(out, t->ndim, t->sizes, d, t->device, false) < 0) return -1;
    return tl_copy_(out, t);
}

static int64_t scalar_as_int(tl_scalar s)
{
    switch (s.kind) {
    case TL_KIND_FLOAT: return (int64_t)s.v.d;
    case TL_KIND_COMPLEX: return (int64_t)creal(s.v.c);
    default: return s.v.i;
    }
}

static double complex scalar_as_complex(tl_scalar s)
{
    switch (s.kind) {
    case TL_KIND_FLOAT: return s.v.d;
    case TL_KIND_COMPLEX: return s.v.c;
    default: return (double)s.v.i;
    }
}

bool tl_scalar_is_zero(tl_scalar s)
{
    switch (s.kind) {
    case TL_KIND_FLOAT: return s.v.d == 0.0;
    case TL_KIND_COMPLEX: return s.v.c == 0.0;
    default: return s.v.i == 0;
    }
}

static int gemm_int(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, tl_scalar alpha, tl_scalar beta)
{
    int nd = c->ndim, rc = -1;
    tl_tensor A = {0}, B = {0}, C = {0}, ae = {0}, be = {0};
    int64_t asz[TL_MAX_DIMS], bsz[TL_MAX_DIMS];
    memcpy(asz, c->sizes, sizeof(int64_t) * nd);
    memcpy(bsz, c->sizes, sizeof(int64_t) * nd);
    asz[nd - 1] = a->sizes[nd - 1];
    bsz[nd - 2] = b->sizes[nd - 2];
    /* broadcast the batch dims explicitly so the loops see dense [B, M, K] / [B, K, N] */
    int64_t ast[TL_MAX_DIMS], bst[TL_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        ast[d] = a->sizes[d] == asz[d] ? a->strides[d] : 0;
        bst[d] = b->sizes[d] == bsz[d] ? b->strides[d] : 0;
    }
    if (tl_tensor_view_init(&ae, a, nd, asz, ast, a->offset) < 0 || tl_tensor_view_init(&be, b, nd, bsz, bst, b->offset) < 0)
        goto done;
    if (dense_copy(&A, &ae, TL_INT64) < 0 || dense_copy(&B, &be, TL_INT64) < 0) goto done;
    if (tl_tensor_empty(&C, nd, c->sizes, TL_INT64, c->device, true) < 0) goto done;
    int64_t bv = scalar_as_int(beta);
    if (!tl_scalar_is_zero(beta)) {
        if (tl_copy_(&C, c) < 0) goto done;
        int64_t n = tl_numel(&C), *cp = (int64_t *)tl_data(&C);
        for (int64_t i = 0; i < n; i++) cp[i] = (int64_t)((uint64_t)cp[i] * (uint64_t)bv);
    }
    int_plan p = {(const int64_t *)tl_data(&A), (const int64_t *)tl_data(&B), (int64_t *)tl_data(&C),
                  numel_of(c->sizes, nd - 2), c->sizes[nd - 2], c->sizes[nd - 1], a->sizes[nd - 1],
                  scalar_as_int(alpha)};
    double work = (double)p.N * (double)(p.K + 1);
    int64_t grain = (int64_t)(65536.0 / (work + 1.0)) + 1;
    tl_parallel_for(p.B * p.M, grain, int_rows, &p);
    rc = tl_copy_(c, &C);
done:
    tl_tensor_clear(&A);
    tl_tensor_clear(&B);
    tl_tensor_clear(&C);
    tl_tensor_clear(&ae);
    tl_tensor_clear(&be);
    return rc;
}

/* float16/bfloat16: widen to float32, one float32 gemm, round once into c. */
static int gemm_half(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, tl_scalar alpha, tl_scalar beta)
{
    int rc = -1;
    tl_tensor A = {0}, B = {0}, C = {0};
    if (dense_copy(&A, a, TL_FLOAT32) < 0 || dense_copy(&B, b, TL_FLOAT32) < 0) goto done;
    if (tl_tensor_empty(&C, c->ndim, c->sizes, TL_FLOAT32, c->device, false) < 0) goto done;
    if (!tl_scalar_is_zero(beta) && tl_copy_(&C, c) < 0) goto done;
    if (gemm_blas(&C, &A, &B, scalar_as_complex(alpha), scalar_as_complex(beta)) < 0) goto done;
    rc = tl_copy_(c, &C);
done:
    tl_tensor_clear(&A);
    tl_tensor_clear(&B);
    tl_tensor_clear(&C);
    return rc;
}

/* c *= s, computed in the widest dtype of c's kind. */
static int scale_(tl_tensor *c, tl_scalar s)
{
    tl_dtype dt = (tl_dtype)c->dtype;
    tl_dtype wide = tl_dtype_is_complex(dt) ? TL_COMPLEX128 : tl_dtype_is_integral(dt) ? TL_INT64 : TL_FLOAT64;
    tl_tensor W = {0};
    int rc = dense_copy(&W, c, wide);
    if (rc == 0) {
        int64_t n = tl_numel(&W);
        if (wide == TL_COMPLEX128) {
            double complex v = scalar_as_complex(s), *p = (double complex *)tl_data(&W);
            for (int64_t i = 0; i < n; i++) p[i] *= v;
        } else if (wide == TL_FLOAT64) {
            double v = creal(scalar_as_complex(s)), *p = (double *)tl_data(&W);
            for (int64_t i = 0; i < n; i++) p[i] *= v;
        } else {
            uint64_t v = (uint64_t)scalar_as_int(s);
            int64_t *p = (int64_t *)tl_data(&W);
            for (int64_t i = 0; i < n; i++) p[i] = (int64_t)((uint64_t)p[i] * v);
        }
        rc = tl_copy_(c, &W);
    }
    tl_tensor_clear(&W);
    return rc;
}

typedef struct { double complex alpha, beta; } blas_ctx;
static int run_blas(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, void *ctx)
{
    const blas_ctx *x = ctx;
    return gemm_blas(c, a, b, x->alpha, x->beta);
}

int tl_gemm(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, tl_scalar alpha, tl_scalar beta)
{
    int nd = c->ndim;
    tl_dtype dt = (tl_dtype)c->dtype;
    int64_t K = a->sizes[nd - 1];
    if (tl_numel(c) == 0 || c->device.type == TL_DEV_META) return 0; /* meta: the result's geometry is all */
    if (c->device.type != TL_DEV_CPU) { /* a backend's device (cuBLAS): backend/gemm.c */
        double complex al = scalar_as_complex(alpha), be = tl_scalar_is_zero(beta) ? 0 : scalar_as_complex(beta);
        return tl_backend_gemm(c, a, b, creal(al), cimag(al), creal(be), cimag(be));
    }
    if (K == 0) /* empty sum: c = beta * c */
        return tl_scalar_is_zero(beta) ? tl_fill_(c, tl_scalar_int(0)) : scale_(c, beta);
    if (dt == TL_FLOAT16 || dt == TL_BFLOAT16) return gemm_half(c, a, b, alpha, beta);
    if (tl_dtype_is_integral(dt)) return gemm_int(c, a, b, alpha, beta);

    /* BLAS dtypes */
    blas_ctx bc = {scalar_as_complex(alpha), scalar_as_complex(beta)};
    return tl_gemm_in_layouts(c, a, b, tl_scalar_is_zero(beta), run_blas, &bc);
}

int tl_gemm_in_layouts(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, bool beta0, tl_gemm_run_fn run, void *ctx)
{
    int rc = -1;
    tl_tensor A = {0}, B = {0}, C = {0};
    const tl_tensor *pa = a, *pb = b;
    tl_tensor *pc = c;
    int64_t ld;
    tl_dtype dt = (tl_dtype)c->dtype;
    if (!mat_layout_of(a, &ld)) {
        if (tl_clone(&A, a, dt, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
        pa = &A;
    }
    if (!mat_layout_of(b, &ld)) {
        if (tl_clone(&B, b, dt, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
        pb = &B;
    }
    if (!mat_layout_of(c, &ld)) {
        if (tl_tensor_empty(&C, c->ndim, c->sizes, dt, c->device, false) < 0) goto done;
        if (!beta0 && tl_copy_(&C, c) < 0) goto done;
        pc = &C;
    }
    if (run(pc, pa, pb, ctx) < 0) goto done;
    rc = pc == c ? 0 : tl_copy_(c, pc);
done:
    tl_tensor_clear(&A);
    tl_tensor_clear(&B);
    tl_tensor_clear(&C);
    return rc;
}
