/* csr_matmul.c - CSR @ strided (SpMV for a vector, SpMM for a matrix): the one product
 * kernel of the compressed layouts (CSC, BSR and dense @ CSR are composed onto it in
 * tensorlib/_sparse_compressed.py). Rows are split into chunks holding about the same
 * number of stored elements (balanced by nnz, not by rows: a few dense rows do not
 * serialize the product), several per thread, claimed from the thread pool. Each output
 * row is written by one thread, so no atomics; the index checks are inline (a flag, never
 * a wild read). Sums run in the operands' dtype (as torch), in an order fixed by the code,
 * so the result does not depend on the thread count or on the AVX2/AVX-512 clone. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "ops/copy.h"
#include "sparse/compressed.h"
#include "sparse/sparse.h"

typedef struct {
    const void *crow, *col, *val, *b;
    void *out;
    const int64_t *bounds; /* bounds[c] .. bounds[c + 1]: the rows of chunk c */
    int64_t N, K, nse;
    int bad; /* 1: a compressed index out of order, 2: a plain index out of range */
} spmm_ctx;

/* Stored elements whose plain indices one pass checks (then reads again from L1). A
 * multiple of 4, so a row longer than a pass keeps its partial sums' phase across passes. */
#define SPMV_PASS 512
/* Chunks of at least this many stored elements; several per thread, so a thread the
 * system preempts leaves its later chunks to the others. */
#define SPMM_CHUNK_NSE 16384

/* The vectorizers would pack the four partial sums into one vector register filled from
 * scalar gathers (and spill the sums): slower than four scalar chains. */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_VEC __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define NO_VEC
#endif

/* a * b with integers in unsigned arithmetic: uint8/uint16 operands would be promoted to int,
 * whose products can overflow (undefined); for floating and complex types the 1u is exact. */
#define WMUL(a, b) (1u * (a) * (b))

/* Adds val[k] * b[col[k]] for k in [k0, k0 + n) to the partial sums s0..s3 of the scope,
 * element k to s[(k - k0) % 4]: four chains, so the add latency does not serialize a row. */
#define SPMV_DOT(T, I, k0, n)                                                                       \
    do {                                                                                            \
        const int64_t n_ = (n);                                                                     \
        const I *restrict c_ = col + (k0);                                                          \
        const T *restrict v_ = val + (k0);                                                          \
        int64_t i_ = 0;                                                                             \
        for (; i_ + 4 <= n_; i_ += 4) {                                                             \
            s0 += WMUL(v_[i_], b[c_[i_]]);                                                          \
            s1 += WMUL(v_[i_ + 1], b[c_[i_ + 1]]);                                                  \
            s2 += WMUL(v_[i_ + 2], b[c_[i_ + 2]]);                                                  \
            s3 += WMUL(v_[i_ + 3], b[c_[i_ + 3]]);                                                  \
        }                                                                                           \
        if (i_ < n_) s0 += WMUL(v_[i_], b[c_[i_]]);                                                 \
        if (i_ + 1 < n_) s1 += WMUL(v_[i_ + 1], b[c_[i_ + 1]]);                                     \
        if (i_ + 2 < n_) s2 += WMUL(v_[i_ + 2], b[c_[i_ + 2]]);                                     \
    } while (0)

/* The vector product of rows [bounds[c0], bounds[c1]): a row of at most SPMV_PASS elements
 * sums its terms in element order in one chain (rows of ~10 elements: the four chains' set-up
 * and remainder branches cost more than the add latency they hide; 1e6 nnz f32 1.3x -> ~1.2x
 * SciPy), a longer row is (s0 + s1) + (s2 + s3): orders fixed by the row's length whatever
 * the vector width, thread count or pass split. The rows go in passes of at most SPMV_PASS
 * stored elements (whole rows, or a piece of one longer row). A pass of a long row first checks
 * its plain indices in one vector loop (unsigned max against the plain size, which also brings
 * them to L1), so the four chains' loop has no check and its gathers of b overlap freely; the
 * short rows check each index on the way (one never-taken branch): their pre-pass read the
 * indices from memory before the product could start (f64 1e6 nnz over 1e5 rows, 1 thread,
 * CPU time paired with SciPy's call: 1.13-1.17x -> 1.04-1.05x SciPy). U: the unsigned type of I. */
/* In a row kernel: the rows [r, re) whose stored elements fit one pass of PASS (at least row
 * r), their elements [lo, hi); compressed indices out of range or order jump to bad_crow. */
#define SPMV_ROWS(PASS)                                                                             \
    do {                                                                                            \
        lo = crow[r], hi = lo, re = r;                                                              \
        if (lo < 0 || lo > nse) goto bad_crow;                                                      \
        while (re < r1) {                                                                           \
            int64_t h = crow[re + 1];                                                               \
            if (h < hi || h > nse) goto bad_crow;                                                   \
            if (h - lo > (PASS) && re > r) break;                                                   \
            hi = h;                                                                                 \
            re++;                                                                                   \
        }                                                                                           \
    } while (0)

/* The end of a row kernel: bad compressed indices flag 1, a column out of range 2. */
#define SPMV_BAD_EXITS                                                                              \
    bad_crow:                                                                                       \
    __atomic_store_n(&x->bad, 1, __ATOMIC_RELAXED);                                                 \
    return;                                                                                         \
    bad_col:                                                                                        \
    __atomic_store_n(&x->bad, 2, __ATOMIC_RELAXED)

#define SPMV_KERNEL(NAME, T, I, U)                                                                  \
    TL_CLONES_WIDE __attribute__((noinline)) static bool NAME##_inside(const I *restrict col, U K, int64_t k0, int64_t n) \
    {                                                                                               \
        U m = 0;                                                                                    \
        for (int64_t i = 0; i < n; i++) m = (U)col[k0 + i] > m ? (U)col[k0 + i] : m;                \
        return n == 0 || m < K;                                                                     \
    }                                                                                               \
    TL_CLONES_WIDE NO_VEC static void NAME(int64_t c0, int64_t c1, void *ctx)                       \
    {                                                                                               \
        spmm_ctx *x = ctx;                                                                          \
        const I *restrict crow = x->crow, *restrict col = x->col;                                   \
        const T *restrict val = x->val, *restrict b = x->b;                                         \
        T *restrict out = x->out;                                                                   \
        const int64_t nse = x->nse, r1 = x->bounds[c1];                                             \
        /* a negative index is a large unsigned one; int32 indices never reach 2^31 */              \
        const U K = (U)(sizeof(I) == 4 && x->K > INT32_MAX ? (int64_t)INT32_MAX + 1 : x->K);        \
        int64_t r = x->bounds[c0];                                                                  \
        while (r < r1) {                                                                            \
            int64_t lo, hi, re;                                                                     \
            SPMV_ROWS(SPMV_PASS);                                                                   \
            if (re == r + 1 && hi - lo > SPMV_PASS) { /* one long row, in passes */                 \
                T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                   \
                for (int64_t k = lo; k < hi; k += SPMV_PASS) {                                      \
                    int64_t n = hi - k < SPMV_PASS ? hi - k : SPMV_PASS;                            \
                    if (!NAME##_inside(col, K, k, n)) goto bad_col;                                 \
                    SPMV_DOT(T, I, k, n);                                                           \
                }                                                                                   \
                out[r] = (s0 + s1) + (s2 + s3);                                                     \
            } else {                                                                                \
                for (int64_t q = r, a = lo; q < re; q++) {                                          \
                    int64_t e = crow[q + 1];                                                        \
                    T s0 = 0;                                                                       \
                    for (int64_t k = a; k < e; k++) {                                               \
                        U c = (U)col[k];                                                            \
                        if (c >= K) goto bad_col;                                                   \
                        s0 += WMUL(val[k], b[c]);                                                   \
                    }                                                                               \
                    out[q] = s0;                                                                    \
                    a = e;                                                                          \
                }                                                                                   \
            }                                                                                       \
            r = re;                                                                                 \
        }                                                                                           \
        return;                                                                                     \
        SPMV_BAD_EXITS;                                                                             \
    }

/* The float32 vector product, in lanes: each row sums its products val[k] * b[col[k]] into 16
 * lanes (element i of the row into lane i % 16, in element order, every lane starting from
 * +0), then folds the lanes in halves (lane j + lane j + 8, then + 4, + 2, + 1): an order fixed
 * by the row's length, the same for every clone, thread count and pass split. The rows go in
 * passes of at most SPMV_LPASS stored elements (whole rows, or a piece of one longer row; a
 * multiple of 16, so a long row keeps its lanes' phase across passes): first the pass's
 * products into a buffer in L1 (the plain indices checked on the way, before any read through
 * them: AVX-512 gathers of 16 where the CPU has them, scalar loads otherwise; a product is
 * the same bits either way), then each row's lanes from the buffer: one masked vector add for
 * a row of up to 16 elements, no branch per element. Rows of ~10 elements spent much of their
 * time in the scalar loop's exit branch (mispredicted once per row) and its one add chain:
 * wall-time minima on a Zen 4 with both cores free, int32 indices: 1e6 nnz over 1e5 rows
 * 2 threads 0.59-0.62 -> 0.48-0.50 ms; 1e7 nnz over 1e6 rows 1 thread 19.3 -> 14.8 ms, 2
 * threads 9.7-10.0 -> 7.4-7.6 ms (1.31-1.36 G nnz/s). What bounds it at 1e7: the reads of x
 * (4 MB, in L3; each a different 64-byte line), a bare gather loop takes ~0.9 of the time.
 * float64 keeps SPMV_KERNEL: the same scheme (8 doubles per gather, 16 lanes in two
 * vectors) measured 1.2-1.5x slower. */
#define SPMV_LPASS 1024
#define SPMV_LW(T) 16

#if TL_AVX512_KERNELS
#include <immintrin.h>
#define AVX512_ATTR __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"), noinline))
/* buf[0..n) = val[k0..) * b[col[k0..)]; false (nothing read through a bad index) when an
 * index is >= K as unsigned. */
AVX512_ATTR static bool spmv_prod_f32_i32_avx512(const int32_t *col, const float *val, const float *b, float *buf, int64_t n, uint32_t K)
{
    const __m512i kv = _mm512_set1_epi32((int)K);
    int64_t k = 0;
    for (; k < n; k += 16) {
        __mmask16 m = n - k >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - k)) - 1);
        __m512i ci = _mm512_maskz_loadu_epi32(m, col + k);
        if (_mm512_mask_cmpge_epu32_mask(m, ci, kv)) return false;
        __m512 xv = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, ci, b, 4);
        _mm512_storeu_ps(buf + k, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, val + k), xv));
    }
    return true;
}
AVX512_ATTR static bool spmv_prod_f32_i64_avx512(const int64_t *col, const float *val, const float *b, float *buf, int64_t n, uint64_t K)
{
    const __m512i kv = _mm512_set1_epi64((long long)K);
    for (int64_t k = 0; k < n; k += 8) {
        __mmask8 m = n - k >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (n - k)) - 1);
        __m512i ci = _mm512_maskz_loadu_epi64(m, col + k);
        if (_mm512_mask_cmpge_epu64_mask(m, ci, kv)) return false;
        __m256 xv = _mm512_mask_i64gather_ps(_mm256_setzero_ps(), m, ci, b, 4);
        _mm256_storeu_ps(buf + k, _mm256_mul_ps(_mm256_maskz_loadu_ps(m, val + k), xv));
    }
    return true;
}
#endif

/* 1: the AVX-512 product loops (core/simd.h's switch; tests pin the portable loop with 0). */
static int spmv_avx512 = -1;
static bool spmv_use_avx512(void) { return tl_avx512_use(&spmv_avx512); }
int tl_csr_spmv_set_avx512(int on) { return tl_avx512_pin(&spmv_avx512, on); }

#if TL_AVX512_KERNELS
#define SPMV_PROD_FAST(ID, I, col, val, b, buf, n, K) spmv_prod_##ID##_##I##_avx512(col, val, b, buf, n, K)
#else
#define SPMV_PROD_FAST(ID, I, col, val, b, buf, n, K) false
#endif

/* The 16 float32 lanes, their integer masks and lane numbers, and the fold of the lanes in
 * halves (lane l + lane l + 8, down to lane 0 + lane 1). */
typedef float VT_f32 __attribute__((vector_size(64)));
typedef int32_t MT_f32 __attribute__((vector_size(64)));
#define LANE_f32 ((MT_f32){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
static inline float FOLD_f32(VT_f32 a)
{
    typedef float H __attribute__((vector_size(32)));
    typedef float Q __attribute__((vector_size(16)));
    H h0, h1;
    memcpy(&h0, &a, sizeof h0);
    memcpy(&h1, (char *)&a + 32, sizeof h1);
    h0 += h1;
    Q q0, q1;
    memcpy(&q0, &h0, sizeof q0);
    memcpy(&q1, (char *)&h0 + 16, sizeof q1);
    q0 += q1;
    float s0 = q0[0] + q0[2], s1 = q0[1] + q0[3];
    return s0 + s1;
}

/* ID: f32 (the lane type's name), IS: i32/i64 (the AVX-512 loop's name), T, I, U as SPMV_KERNEL. */
#define SPMV_LANES_KERNEL(NAME, ID, IS, T, I, U)                                                    \
    TL_CLONES_WIDE static bool NAME##_prod(const I *restrict col, const T *restrict val, const T *restrict b, \
                                           T *restrict buf, int64_t n, U K)                         \
    {                                                                                               \
        U bad = 0;                                                                                  \
        for (int64_t k = 0; k < n; k++) { /* a bad index reads b[0] (the pass then fails) */        \
            U c = (U)col[k];                                                                        \
            bad |= c >= K;                                                                          \
            buf[k] = val[k] * b[c < K ? c : 0];                                                     \
        }                                                                                           \
        return !bad;                                                                                \
    }                                                                                               \
    /* the lanes a plus p[j + l] for the lanes l < c - j, over j = 0, W, 2W, ... < c (p is padded \
     * by W elements); inlined into each clone of the kernel */                                     \
    __attribute__((always_inline)) static inline void NAME##_lanes(const T *restrict p, int64_t c, VT_##ID *ap) \
    {                                                                                               \
        enum { W = SPMV_LW(T) };                                                                    \
        VT_##ID a = *ap;                                                                            \
        for (int64_t j = 0; j < c; j += W) {                                                        \
            VT_##ID v;                                                                              \
            memcpy(&v, p + j, sizeof v);                                                            \
            if (c - j < W) /* the lanes past the row: +0 */                                         \
                v = (VT_##ID)((MT_##ID)v & (LANE_##ID < (MT_##ID){0} + (__typeof__(LANE_##ID[0]))(c - j))); \
            a += v;                                                                                 \
        }                                                                                           \
        *ap = a;                                                                                    \
    }                                                                                               \
    TL_CLONES_WIDE static void NAME(int64_t c0, int64_t c1, void *ctx)                              \
    {                                                                                               \
        enum { W = SPMV_LW(T) };                                                                    \
        spmm_ctx *x = ctx;                                                                          \
        const I *restrict crow = x->crow, *restrict col = x->col;                                   \
        const T *restrict val = x->val, *restrict b = x->b;                                         \
        T *restrict out = x->out;                                                                   \
        const int64_t nse = x->nse, r1 = x->bounds[c1];                                             \
        const U K = (U)(sizeof(I) == 4 && x->K > INT32_MAX ? (int64_t)INT32_MAX + 1 : x->K);        \
        const bool fast = spmv_use_avx512();                                                        \
        T buf[SPMV_LPASS + SPMV_LW(T)] __attribute__((aligned(64)));                                \
        memset(buf + SPMV_LPASS, 0, sizeof(T) * W);                                                 \
        int64_t r = x->bounds[c0];                                                                  \
        while (r < r1) {                                                                            \
            int64_t lo, hi, re;                                                                     \
            SPMV_ROWS(SPMV_LPASS);                                                                  \
            if (re == r + 1 && hi - lo > SPMV_LPASS) { /* one long row, in passes */                \
                VT_##ID acc = {0};                                                                  \
                for (int64_t k = lo; k < hi; k += SPMV_LPASS) {                                     \
                    int64_t n = hi - k < SPMV_LPASS ? hi - k : SPMV_LPASS;                          \
                    if (!(fast ? SPMV_PROD_FAST(ID, IS, col + k, val + k, b, buf, n, K)             \
                               : NAME##_prod(col + k, val + k, b, buf, n, K)))                      \
                        goto bad_col;                                                               \
                    NAME##_lanes(buf, n, &acc);                                                     \
                }                                                                                   \
                out[r] = FOLD_##ID(acc);                                                            \
            } else {                                                                                \
                if (!(fast ? SPMV_PROD_FAST(ID, IS, col + lo, val + lo, b, buf, hi - lo, K)         \
                           : NAME##_prod(col + lo, val + lo, b, buf, hi - lo, K)))                  \
                    goto bad_col;                                                                   \
                for (int64_t q = r, a = lo; q < re; q++) {                                          \
                    int64_t e = crow[q + 1];                                                        \
                    VT_##ID acc = {0};                                                              \
                    NAME##_lanes(buf + (a - lo), e - a, &acc);                                      \
                    out[q] = FOLD_##ID(acc);                                                        \
                    a = e;                                                                          \
                }                                                                                   \
            }                                                                                       \
            r = re;                                                                                 \
        }                                                                                           \
        return;                                                                                     \
        SPMV_BAD_EXITS;                                                                             \
    }
SPMV_LANES_KERNEL(spmvl_f32_i32, f32, i32, float, int32_t, uint32_t)
SPMV_LANES_KERNEL(spmvl_f32_i64, f32, i64, float, int64_t, uint64_t)

/* The matrix product: per row, per panel of output columns, an accumulator row in
 * registers sums v * b[col[k], panel] over the row's elements in order, then is stored
 * once (each output element is written once, its terms added in element order whatever
 * the panel width, thread count or clone). Real dtypes use 32-byte vectors (GCC vector
 * extensions; written out, since the auto-vectorizer turns the panel loop into a scalar
 * loop over memory): panels of 4 vectors, then of 1, then a scalar tail; complex ones
 * scalar panels. */
#define SPMM_AHEAD 16 /* elements ahead whose b rows are prefetched */
#define SPMM_VPANEL(T, NV)                                                                          \
    {                                                                                               \
        VT acc[NV];                                                                                 \
        memset(acc, 0, sizeof acc);                                                                 \
        for (int64_t k = lo; k < hi; k++) {                                                         \
            const T v = val[k];                                                                     \
            const T *restrict br = b + (int64_t)col[k] * N + n0;                                    \
            if (k + SPMM_AHEAD < nse) { /* no fault, whatever the index */                          \
                const char *pf = (const char *)(b + (int64_t)col[k + SPMM_AHEAD] * N + n0);         \
                __builtin_prefetch(pf);                                                             \
                if (NV * 32 > 64) __builtin_prefetch(pf + 64);                                      \
            }                                                                                       \
            for (int q = 0; q < NV; q++) {                                                          \
                VT xv;                                                                              \
                memcpy(&xv, br + q * L, sizeof xv);                                                 \
                acc[q] += v * xv;                                                                   \
            }                                                                                       \
        }                                                                                           \
        memcpy(o + n0, acc, sizeof acc);                                                            \
        n0 += NV * L;                                                                               \
    }
#define SPMM_TAIL(T, W)                                                                             \
    if (n0 < N) {                                                                                   \
        const int64_t w = N - n0;                                                                   \
        T acc[W] = {0};                                                                             \
        for (int64_t k = lo; k < hi; k++) {                                                         \
            const T v = val[k];                                                                     \
            const T *restrict br = b + (int64_t)col[k] * N + n0;                                    \
            for (int64_t q = 0; q < w; q++) acc[q] += WMUL(v, br[q]);                               \
        }                                                                                           \
        memcpy(o + n0, acc, sizeof(T) * (size_t)w);                                                 \
    }
#define SPMM_PANELS_VEC(T)                                                                          \
    typedef T VT __attribute__((vector_size(32)));                                                  \
    enum { L = 32 / sizeof(T) };                                                                    \
    while (N - n0 >= 4 * L) SPMM_VPANEL(T, 4)                                                       \
    while (N - n0 >= L) SPMM_VPANEL(T, 1)                                                           \
    SPMM_TAIL(T, 32)
#define SPMM_PANELS_SCALAR(T)                                                                       \
    while (N - n0 >= 8) {                                                                           \
        T acc[8] = {0};                                                                             \
        for (int64_t k = lo; k < hi; k++) {                                                         \
            const T v = val[k];                                                                     \
            const T *restrict br = b + (int64_t)col[k] * N + n0;                                    \
            for (int q = 0; q < 8; q++) acc[q] += WMUL(v, br[q]);                                   \
        }                                                                                           \
        memcpy(o + n0, acc, sizeof acc);                                                            \
        n0 += 8;                                                                                    \
    }                                                                                               \
    SPMM_TAIL(T, 8)
#define SPMM_KERNEL(NAME, T, I, PANELS)                                                             \
    TL_CLONES_WIDE static void NAME(int64_t c0, int64_t c1, void *ctx)                              \
    {                                                                                               \
        spmm_ctx *x = ctx;                                                                          \
        const I *restrict crow = x->crow, *restrict col = x->col;                                   \
        const T *restrict val = x->val, *restrict b = x->b;                                         \
        T *restrict out = x->out;                                                                   \
        const int64_t N = x->N, nse = x->nse;                                                       \
        const uint64_t K = (uint64_t)x->K;                                                          \
        for (int64_t r = x->bounds[c0]; r < x->bounds[c1]; r++) {                                   \
            int64_t lo = crow[r], hi = crow[r + 1];                                                 \
            if (lo < 0 || hi < lo || hi > nse) {                                                    \
                __atomic_store_n(&x->bad, 1, __ATOMIC_RELAXED);                                     \
                return;                                                                             \
            }                                                                                       \
            uint64_t badcol = 0;                                                                    \
            for (int64_t k = lo; k < hi; k++) badcol |= (uint64_t)(int64_t)col[k] >= K;             \
            if (badcol) {                                                                           \
                __atomic_store_n(&x->bad, 2, __ATOMIC_RELAXED);                                     \
                return;                                                                             \
            }                                                                                       \
            T *restrict o = out + r * N;                                                            \
            int64_t n0 = 0;                                                                         \
            PANELS(T)                                                                               \
        }                                                                                           \
    }

/* The value dtypes with a native C product (others are cast by the caller), the C type it
 * computes in (signed integers as their unsigned twins: the same bits, with wrap-around
 * defined), and whether the product's panels are vectors. */
#define SPMM_DTYPES(X) X(FLOAT32, float, VEC) X(FLOAT64, double, VEC) X(COMPLEX64, float complex, SCALAR) \
    X(COMPLEX128, double complex, SCALAR) X(INT64, uint64_t, VEC) X(INT32, uint32_t, VEC) X(INT16, uint16_t, VEC) \
    X(INT8, uint8_t, VEC) X(UINT8, uint8_t, VEC)

#define DEFINE(ID, T, P)                                                                            \
    SPMV_KERNEL(spmv_##ID##_i32, T, int32_t, uint32_t) SPMV_KERNEL(spmv_##ID##_i64, T, int64_t, uint64_t) \
    SPMM_KERNEL(spmm_##ID##_i32, T, int32_t, SPMM_PANELS_##P)                                       \
    SPMM_KERNEL(spmm_##ID##_i64, T, int64_t, SPMM_PANELS_##P)
SPMM_DTYPES(DEFINE)
#undef DEFINE

bool tl_csr_matmul_supports(int dtype)
{
    switch (dtype) {
#define CASE(ID, T, P) case TL_##ID:
        SPMM_DTYPES(CASE)
#undef CASE
        return true;
    default: return false;
    }
}

/* bounds[0..nc]: row ranges holding about nse / nc stored elements each. */
static void balance(const void *crow, bool i32, int64_t M, int64_t nse, int64_t nc, int64_t *bounds)
{
    bounds[0] = 0;
    for (int64_t c = 1; c < nc; c++) {
        int64_t want = nse * c / nc, lo = bounds[c - 1], hi = M;
        while (lo < hi) { /* first row whose start reaches `want` */
            int64_t mid = lo + (hi - lo) / 2;
            int64_t v = i32 ? ((const int32_t *)crow)[mid] : ((const int64_t *)crow)[mid];
            if (v < want) lo = mid + 1; else hi = mid;
        }
        bounds[c] = lo;
    }
    bounds[nc] = M;
}

int tl_csr_matmul(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    const tl_sparse *s = a->sparse;
    tl_dtype dt = (tl_dtype)a->dtype;
    int64_t M = a->sizes[0], K = a->sizes[1], N = b->ndim == 2 ? b->sizes[1] : 1, nse = s->plain.sizes[0];
    int64_t osz[2] = {M, N};
    tl_tensor ci = {0}, pi = {0}, val = {0}, bc = {0};
    int rc = -1, nt = tl_get_num_threads();
    int64_t nc = nse / SPMM_CHUNK_NSE; /* chunks balanced by nnz, 8 per thread at most */
    if (nc > (int64_t)nt * 8) nc = (int64_t)nt * 8;
    if (nt < 2 || nse < TL_GRAIN_SIZE || nc < 1) nc = 1;
    if (nc > M) nc = M > 1 ? M : 1;
    int64_t *bounds = malloc(sizeof(int64_t) * (size_t)(nc + 1));
    if (!bounds) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (tl_contiguous(&ci, &s->indices, TL_MEMFMT_CONTIGUOUS) < 0 || tl_contiguous(&pi, &s->plain, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_contiguous(&val, &s->values, TL_MEMFMT_CONTIGUOUS) < 0 || tl_contiguous(&bc, b, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_tensor_empty(out, b->ndim, osz, dt, a->device, false) < 0) /* b 1-D: (M,); every element written */
        goto done;
    bool i32 = ci.dtype == TL_INT32;
    const char *crow = tl_data(&ci);
    /* the partition reads crow: its ends first, so a bad tensor cannot steer it */
    int64_t first = i32 ? ((const int32_t *)crow)[0] : ((const int64_t *)crow)[0];
    int64_t last = i32 ? ((const int32_t *)crow)[M] : ((const int64_t *)crow)[M];
    if (first != 0 || last != nse) {
        tl_err(TL_ERR_RUNTIME, first != 0 ? "`crow_indices[..., 0] == 0` is not satisfied."
                                          : "`crow_indices[..., -1] == nnz` is not satisfied.");
        goto done;
    }
    balance(crow, i32, M, nse, nc, bounds);
    spmm_ctx x = {crow, tl_data(&pi), tl_data(&val), tl_data(&bc), tl_data(out), bounds, N, K, nse, 0};
    void (*fn)(int64_t, int64_t, void *) = NULL;
    switch (dt) {
#define CASE(ID, T, P)                                                                              \
    case TL_##ID: fn = N == 1 ? (i32 ? spmv_##ID##_i32 : spmv_##ID##_i64) : (i32 ? spmm_##ID##_i32 : spmm_##ID##_i64); break;
        SPMM_DTYPES(CASE)
#undef CASE
    default:
        tl_err(TL_ERR_RUNTIME, "addmm: unsupported dtype %s for a sparse CSR operand", tl_dtype_infos[dt].cname);
        goto done;
    }
    if (N == 1 && dt == TL_FLOAT32) fn = i32 ? spmvl_f32_i32 : spmvl_f32_i64; /* the lanes kernel (above) */
    tl_parallel_for(nc, 1, fn, &x);
    if (x.bad == 1) {
        tl_err(TL_ERR_RUNTIME, "`0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols` is not satisfied.");
        goto done;
    }
    if (x.bad == 2) {
        tl_err(TL_ERR_RUNTIME, "`0 <= col_indices < ncols` is not satisfied.");
        goto done;
    }
    rc = 0;
done:
    free(bounds);
    tl_tensor_clear(&ci);
    tl_tensor_clear(&pi);
    tl_tensor_clear(&val);
    tl_tensor_clear(&bc);
    return rc;
}
