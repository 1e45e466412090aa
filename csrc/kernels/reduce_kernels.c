/* reduce_kernels.c - the row kernels. Floating sums end in double lanes (float32 runs of
 * 16 additions per lane first; float64 pairwise blocks), more accurate than NumPy's
 * pairwise sum and vectorized; integer sums wrap like torch's int64. */
#include "kernels/reduce_kernels.h"

#include "core/simd.h"

#include <math.h>
#include <string.h>

#define BLOCK 512

/* The types with vectorized extreme kernels: suffix, C type, dtype id, lane integer type (the
 * vector mask's lanes, and the row index of the column arg-extremes). Every family below is
 * instantiated from this one list. */
#define EXT_TYPES(X) X(f32, float, FLOAT32, int32_t) X(f64, double, FLOAT64, int64_t) \
    X(i64, int64_t, INT64, int64_t) X(u64, uint64_t, UINT64, int64_t)
#define EXT_VDECL(S, T, ID, I) TL_VDECL(T, v_##S, I, m_##S)
EXT_TYPES(EXT_VDECL)
#define VSEL TL_VSEL

/* float64: pairwise over blocks of at most BLOCK elements, each summed in sixteen lanes
 * fed in a fixed order, so every clone adds the same numbers in the same order (GCC
 * vectorizes the lanes). */
#define SUM_LANES 16
TL_CLONES static double sum_block_f64(const double *p, int64_t n)
{
    double l[SUM_LANES] = {0};
    int64_t i = 0;
    for (; i + SUM_LANES <= n; i += SUM_LANES)
        for (int k = 0; k < SUM_LANES; k++) l[k] += p[i + k];
    for (int k = 0; i < n; i++, k++) l[k] += p[i];
    for (int w = SUM_LANES / 2; w > 0; w /= 2)
        for (int k = 0; k < w; k++) l[k] += l[k + w];
    return l[0];
}

static double sum_f64(const double *p, int64_t n)
{
    if (n <= BLOCK) return sum_block_f64(p, n);
    int64_t h = (n / 2) & ~(int64_t)(SUM_LANES - 1);
    return sum_f64(p, h) + sum_f64(p + h, n - h);
}

/* float32: runs of F32_RUN elements summed in 32 float lanes (16 additions per lane, four
 * 8-float vectors: a float add costs a third of a convert-and-add on the CPUs we measured),
 * each run's lanes then added to 32 double lanes. The error stays below 16 float roundings
 * of the magnitudes whatever n is (NumPy's pairwise sum: about 16 + log2(n / 128)), and the
 * clones add in the same order, so they agree bit for bit. */
#define F32_LANES 32
#define F32_RUN 512
TL_CLONES static double sum_f32(const float *p, int64_t n)
{
    double l[F32_LANES] = {0};
    int64_t i = 0, whole = n - n % F32_LANES, run;
    for (; i < whole; i += run) {
        run = whole - i < F32_RUN ? whole - i : F32_RUN; /* the last run may be shorter */
        float f[F32_LANES];
#if TL_HAVE_VECTORS
        v_f32 a = {0}, b = a, c = a, d = a;
        for (int j = 0; j < run; j += F32_LANES) {
            v_f32 x, y, z, w;
            memcpy(&x, p + i + j, sizeof x);
            memcpy(&y, p + i + j + 8, sizeof y);
            memcpy(&z, p + i + j + 16, sizeof z);
            memcpy(&w, p + i + j + 24, sizeof w);
            a += x, b += y, c += z, d += w;
        }
        memcpy(f, &a, sizeof a);
        memcpy(f + 8, &b, sizeof b);
        memcpy(f + 16, &c, sizeof c);
        memcpy(f + 24, &d, sizeof d);
#else
        for (int k = 0; k < F32_LANES; k++) f[k] = 0;
        for (int j = 0; j < run; j += F32_LANES)
            for (int k = 0; k < F32_LANES; k++) f[k] += p[i + j + k];
#endif
        for (int k = 0; k < F32_LANES; k++) l[k] += (double)f[k];
    }
    for (int k = 0; i < n; i++, k++) l[k] += (double)p[i];
    for (int w = F32_LANES / 2; w > 0; w /= 2)
        for (int k = 0; k < w; k++) l[k] += l[k + w];
    return l[0];
}

/* Max/min of n > 0 elements with four vector accumulators; *nan says a NaN was seen
 * (then the returned value is meaningless). For integer T the NaN test folds away. */
#define EXTREME(NAME, T, VT, MT, CMP)                                           \
    TL_CLONES_WIDE static T NAME(const T *p, int64_t n, int *nan)                 \
    {                                                                           \
        enum { W = sizeof(VT) / sizeof(T) };                                    \
        T init = p[0];                                                          \
        VT l0 = (VT){0} + init, l1 = l0, l2 = l0, l3 = l0;                      \
        MT z = (MT){0};                                                         \
        int64_t i = 0;                                                          \
        for (; i + 4 * W <= n; i += 4 * W) {                                    \
            VT a, b, c, d;                                                      \
            memcpy(&a, p + i, sizeof a);                                        \
            memcpy(&b, p + i + W, sizeof b);                                    \
            memcpy(&c, p + i + 2 * W, sizeof c);                                \
            memcpy(&d, p + i + 3 * W, sizeof d);                                \
            z |= (a != a) | (b != b) | (c != c) | (d != d);                     \
            l0 = VSEL(MT, VT, a CMP l0, a, l0);                                 \
            l1 = VSEL(MT, VT, b CMP l1, b, l1);                                 \
            l2 = VSEL(MT, VT, c CMP l2, c, l2);                                 \
            l3 = VSEL(MT, VT, d CMP l3, d, l3);                                 \
        }                                                                       \
        T lanes[4 * W], m = init;                                               \
        memcpy(lanes, &l0, sizeof l0);                                          \
        memcpy(lanes + W, &l1, sizeof l1);                                      \
        memcpy(lanes + 2 * W, &l2, sizeof l2);                                  \
        memcpy(lanes + 3 * W, &l3, sizeof l3);                                  \
        for (int k = 0; k < 4 * W; k++) m = lanes[k] CMP m ? lanes[k] : m;     \
        int any = 0;                                                            \
        MT zero = (MT){0};                                                      \
        any = memcmp(&z, &zero, sizeof z) != 0;                                 \
        for (; i < n; i++) {                                                    \
            T v = p[i];                                                         \
            any |= v != v;                                                      \
            m = v CMP m ? v : m;                                                \
        }                                                                       \
        *nan = any;                                                             \
        return m;                                                               \
    }
#define EXT_DEF(S, T, ID, I) EXTREME(ext_max_##S, T, v_##S, m_##S, >) EXTREME(ext_min_##S, T, v_##S, m_##S, <)
EXT_TYPES(EXT_DEF)

/* Single-pass arg-extreme. Each lane of four vector accumulators keeps its best value and
 * the vector step where it first saw it (strict comparison, so the first occurrence), the
 * lanes meet at the end (the best value, then the smallest index holding a value equal to
 * it: of -0.0 and +0.0 the first), and the tail goes element by element with the same
 * strict comparison. No second pass over the data. A NaN seen (the vector lanes test
 * a != a on the side) ends the search at the first NaN of the chunk (one more scan), which
 * torch treats as the extreme. Chunks of ARG_CHUNK elements keep the step in the index lanes (T's width) in
 * range; a later chunk wins only when strictly better. Returns the index; *val gets the
 * value at it, *nan whether it is a NaN. n must be > 0. */
#define ARG_CHUNK ((int64_t)1 << 30)
/* The lanes lv/lx (4 W of them, lane j at offset j of its step) meet: m, then k. */
#define ARGBLK_LANES(W, CMP)                                                    \
    m = lv[0];                                                                  \
    for (int j = 1; j < 4 * W; j++) m = lv[j] CMP m ? lv[j] : m;               \
    k = i;                                                                      \
    for (int j = 0; j < 4 * W; j++)                                             \
        if (lv[j] == m && (int64_t)lx[j] + j < k) k = (int64_t)lx[j] + j;
/* The elements from i on, one by one; then the first NaN when one was seen. */
#define ARGBLK_TAIL(CMP)                                                        \
    for (; i < n; i++) {                                                        \
        __typeof__(m) v = p[i];                                                 \
        any |= v != v;                                                          \
        if (v CMP m) m = v, k = i;                                              \
    }                                                                           \
    if (any) {                                                                  \
        for (k = 0; p[k] == p[k]; k++) {}                                       \
        *nan = 1;                                                               \
    }                                                                           \
    return k;
#define ARGBLK(NAME, T, VT, MT, I, CMP)                                             \
    TL_CLONES_WIDE static int64_t NAME(const T *p, int64_t n, int *nan)          \
    {                                                                           \
        enum { W = sizeof(VT) / sizeof(T) };                                    \
        int64_t i = 0, k = 0;                                                   \
        T m = p[0];                                                             \
        int any = 0;                                                            \
        if (n >= 8 * W) {                                                       \
            VT l0, l1, l2, l3;                                                  \
            memcpy(&l0, p, sizeof l0);                                          \
            memcpy(&l1, p + W, sizeof l1);                                      \
            memcpy(&l2, p + 2 * W, sizeof l2);                                  \
            memcpy(&l3, p + 3 * W, sizeof l3);                                  \
            MT z = (l0 != l0) | (l1 != l1) | (l2 != l2) | (l3 != l3);           \
            MT x0 = (MT){0}, x1 = x0, x2 = x0, x3 = x0, step = x0;              \
            for (i = 4 * W; i + 4 * W <= n; i += 4 * W) {                       \
                VT a, b, c, d;                                                  \
                memcpy(&a, p + i, sizeof a);                                    \
                memcpy(&b, p + i + W, sizeof b);                                \
                memcpy(&c, p + i + 2 * W, sizeof c);                            \
                memcpy(&d, p + i + 3 * W, sizeof d);                            \
                step += 4 * W;                                                  \
                z |= (a != a) | (b != b) | (c != c) | (d != d);                 \
                MT u0 = a CMP l0, u1 = b CMP l1, u2 = c CMP l2, u3 = d CMP l3;  \
                l0 = VSEL(MT, VT, u0, a, l0);                                   \
                l1 = VSEL(MT, VT, u1, b, l1);                                   \
                l2 = VSEL(MT, VT, u2, c, l2);                                   \
                l3 = VSEL(MT, VT, u3, d, l3);                                   \
                x0 = VSEL(MT, MT, u0, step, x0);                                \
                x1 = VSEL(MT, MT, u1, step, x1);                                \
                x2 = VSEL(MT, MT, u2, step, x2);                                \
                x3 = VSEL(MT, MT, u3, step, x3);                                \
            }                                                                   \
            MT zero = (MT){0};                                                  \
            any = memcmp(&z, &zero, sizeof z) != 0;                             \
            T lv[4 * W];                                                        \
            I lx[4 * W];                                                        \
            memcpy(lv, &l0, sizeof l0);                                         \
            memcpy(lv + W, &l1, sizeof l1);                                     \
            memcpy(lv + 2 * W, &l2, sizeof l2);                                 \
            memcpy(lv + 3 * W, &l3, sizeof l3);                                 \
            memcpy(lx, &x0, sizeof x0);                                         \
            memcpy(lx + W, &x1, sizeof x1);                                     \
            memcpy(lx + 2 * W, &x2, sizeof x2);                                 \
            memcpy(lx + 3 * W, &x3, sizeof x3);                                 \
            ARGBLK_LANES(W, CMP)                                                \
        }                                                                       \
        ARGBLK_TAIL(CMP)                                                        \
    }
#define ARGBLK_DEF(S, T, ID, I) ARGBLK(argblk_max_##S, T, v_##S, m_##S, I, >) \
    ARGBLK(argblk_min_##S, T, v_##S, m_##S, I, <)
EXT_TYPES(ARGBLK_DEF)
/* The same search in AVX-512 for float32/float64 (GCC's code for the vector-extension
 * loop above turns each mask into a vector and blends bytewise; this keeps the masks in k
 * registers and takes 64-byte vectors): same lanes' rule, same results. Picked at run time
 * when the CPU has AVX-512 (core/simd.h); tl_argext_set_avx512(0) pins the portable loop. */
#if TL_AVX512_KERNELS
#include <immintrin.h>
/* a, xa <- the better of lanes (a, xa) and (b, xb): the extreme, the first index on a tie */
#define ARG512_MEET(SFX, ISFX, MK, PRED, a, xa, b, xb)                                        \
    {                                                                                         \
        MK u_ = _mm512_cmp_##SFX##_mask(b, a, PRED) |                                         \
                _mm512_mask_cmplt_##ISFX##_mask(_mm512_cmp_##SFX##_mask(b, a, _CMP_EQ_OQ), xb, xa); \
        a = _mm512_mask_mov_##SFX(a, u_, b);                                                  \
        xa = _mm512_mask_mov_##ISFX(xa, u_, xb);                                              \
    }
#define ARGBLK512(NAME, T, VT, VI, SFX, ISFX, MK, PRED, CMP, RED, IOTA)                                  \
    __attribute__((target("avx512f"), noinline)) static int64_t NAME(const T *p, int64_t n, int *nan) \
    {                                                                                         \
        enum { W = 64 / sizeof(T) };                                                          \
        int64_t i = 0, k = 0;                                                                 \
        T m = p[0];                                                                           \
        int any = 0;                                                                          \
        if (n >= 8 * W) {                                                                     \
            VT l0 = _mm512_loadu_##SFX(p), l1 = _mm512_loadu_##SFX(p + W);                    \
            VT l2 = _mm512_loadu_##SFX(p + 2 * W), l3 = _mm512_loadu_##SFX(p + 3 * W);        \
            MK z = _mm512_cmp_##SFX##_mask(l0, l1, _CMP_UNORD_Q) | _mm512_cmp_##SFX##_mask(l2, l3, _CMP_UNORD_Q); \
            VI x0 = _mm512_setzero_si512(), x1 = x0, x2 = x0, x3 = x0, step = x0;             \
            const VI inc = _mm512_set1_##ISFX(4 * W);                                         \
            for (i = 4 * W; i + 4 * W <= n; i += 4 * W) {                                    \
                VT a = _mm512_loadu_##SFX(p + i), b = _mm512_loadu_##SFX(p + i + W);          \
                VT c = _mm512_loadu_##SFX(p + i + 2 * W), d = _mm512_loadu_##SFX(p + i + 3 * W); \
                step = _mm512_add_##ISFX(step, inc);                                          \
                z |= _mm512_cmp_##SFX##_mask(a, b, _CMP_UNORD_Q) | _mm512_cmp_##SFX##_mask(c, d, _CMP_UNORD_Q); \
                MK u0 = _mm512_cmp_##SFX##_mask(a, l0, PRED), u1 = _mm512_cmp_##SFX##_mask(b, l1, PRED); \
                MK u2 = _mm512_cmp_##SFX##_mask(c, l2, PRED), u3 = _mm512_cmp_##SFX##_mask(d, l3, PRED); \
                l0 = _mm512_mask_mov_##SFX(l0, u0, a);                                        \
                l1 = _mm512_mask_mov_##SFX(l1, u1, b);                                        \
                l2 = _mm512_mask_mov_##SFX(l2, u2, c);                                        \
                l3 = _mm512_mask_mov_##SFX(l3, u3, d);                                        \
                x0 = _mm512_mask_mov_##ISFX(x0, u0, step);                                    \
                x1 = _mm512_mask_mov_##ISFX(x1, u1, step);                                    \
                x2 = _mm512_mask_mov_##ISFX(x2, u2, step);                                    \
                x3 = _mm512_mask_mov_##ISFX(x3, u3, step);                                    \
            }                                                                                 \
            any = z != 0;                                                                     \
            /* lane indices, then the four accumulators meet lane by lane, then the lanes */ \
            VI io = IOTA;                                                                     \
            const VI w1 = _mm512_set1_##ISFX(W);                                              \
            x0 = _mm512_add_##ISFX(x0, io), io = _mm512_add_##ISFX(io, w1);                   \
            x1 = _mm512_add_##ISFX(x1, io), io = _mm512_add_##ISFX(io, w1);                   \
            x2 = _mm512_add_##ISFX(x2, io), io = _mm512_add_##ISFX(io, w1);                   \
            x3 = _mm512_add_##ISFX(x3, io);                                                   \
            ARG512_MEET(SFX, ISFX, MK, PRED, l0, x0, l1, x1)                                  \
            ARG512_MEET(SFX, ISFX, MK, PRED, l2, x2, l3, x3)                                  \
            ARG512_MEET(SFX, ISFX, MK, PRED, l0, x0, l2, x2)                                  \
            m = _mm512_reduce_##RED##_##SFX(l0);                                              \
            k = _mm512_mask_reduce_min_##ISFX(_mm512_cmp_##SFX##_mask(l0, _mm512_set1_##SFX(m), _CMP_EQ_OQ), x0); \
        }                                                                                     \
        ARGBLK_TAIL(CMP)                                                                      \
    }
#define IOTA32 _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define IOTA64 _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0)
ARGBLK512(argblk512_max_f32, float, __m512, __m512i, ps, epi32, __mmask16, _CMP_GT_OQ, >, max, IOTA32)
ARGBLK512(argblk512_min_f32, float, __m512, __m512i, ps, epi32, __mmask16, _CMP_LT_OQ, <, min, IOTA32)
ARGBLK512(argblk512_max_f64, double, __m512d, __m512i, pd, epi64, __mmask8, _CMP_GT_OQ, >, max, IOTA64)
ARGBLK512(argblk512_min_f64, double, __m512d, __m512i, pd, epi64, __mmask8, _CMP_LT_OQ, <, min, IOTA64)
#endif

static int arg_avx512 = -1;
int tl_argext_set_avx512(int on) { return tl_avx512_pin(&arg_avx512, on); }

/* The block search of a type: AVX-512 where it has one and the CPU allows. */
#if TL_AVX512_KERNELS
static int arg_use_avx512(void) { return tl_avx512_use(&arg_avx512); }
#define ARG_PICK_f32(dir) (arg_use_avx512() ? argblk512_##dir##_f32 : argblk_##dir##_f32)
#define ARG_PICK_f64(dir) (arg_use_avx512() ? argblk512_##dir##_f64 : argblk_##dir##_f64)
#else
#define ARG_PICK_f32(dir) argblk_##dir##_f32
#define ARG_PICK_f64(dir) argblk_##dir##_f64
#endif
#define ARG_PICK_i64(dir) argblk_##dir##_i64
#define ARG_PICK_u64(dir) argblk_##dir##_u64
#define ARGEXT(NAME, T, BLK, CMP)                                               \
    static int64_t NAME(const T *p, int64_t n, T *val, int *nan)               \
    {                                                                           \
        int64_t (*blk)(const T *, int64_t, int *) = BLK;                        \
        int64_t bi = 0;                                                         \
        *nan = 0;                                                               \
        for (int64_t s = 0; s < n; s += ARG_CHUNK) {                            \
            int64_t e = n - s < ARG_CHUNK ? n : s + ARG_CHUNK;                 \
            int64_t k = s + blk(p + s, e - s, nan);                             \
            if (*nan || s == 0 || p[k] CMP p[bi]) bi = k;                      \
            if (*nan) break;                                                    \
        }                                                                       \
        *val = p[bi];                                                           \
        return bi;                                                              \
    }
#define ARG_DEF(S, T, ID, I) ARGEXT(arg_max_##S, T, ARG_PICK_##S(max), >) ARGEXT(arg_min_##S, T, ARG_PICK_##S(min), <)
EXT_TYPES(ARG_DEF)

/* Column-wise arg-extreme over nrows rows of w <= TL_COLARG_W contiguous columns (row
 * stride ld elements): the running best value and row index of every column live in
 * vector registers / L1 while rows stream past. Same rules as ARGEXT (first row of the
 * extreme, first NaN wins). Index lanes have T's width, so float32 needs nrows < 2^31. */
#define COLARG(NAME, T, VT, MT, I, CMP)                                               \
    TL_CLONES static void NAME(const T *base, int64_t nrows, int64_t ld, int64_t w, int64_t *out) \
    {                                                                                 \
        enum { W = sizeof(VT) / sizeof(T), G = TL_COLARG_W / W };                     \
        VT best[G];                                                                   \
        MT idx[G];                                                                    \
        int64_t ng = w / W;                                                           \
        memcpy(best, base, sizeof(VT) * (size_t)ng);                                  \
        for (int64_t g = 0; g < ng; g++) idx[g] = (MT){0};                            \
        for (int64_t r = 1; r < nrows; r++) {                                         \
            const T *row = base + r * ld;                                             \
            MT rv = (MT){0} + (I)r;                                                   \
            for (int64_t g = 0; g < ng; g++) {                                        \
                VT v, b = best[g];                                                    \
                memcpy(&v, row + g * W, sizeof v);                                    \
                MT upd = (v CMP b) | ((v != v) & (b == b));                           \
                best[g] = VSEL(MT, VT, upd, v, b);                                    \
                idx[g] = VSEL(MT, MT, upd, rv, idx[g]);                               \
            }                                                                         \
        }                                                                             \
        for (int64_t g = 0; g < ng; g++) {                                            \
            I lanes[W];                                                               \
            memcpy(lanes, &idx[g], sizeof lanes);                                     \
            for (int k = 0; k < W; k++) out[g * W + k] = lanes[k];                    \
        }                                                                             \
        for (int64_t c = ng * W; c < w; c++) {                                        \
            T b = base[c];                                                            \
            int64_t bi = 0;                                                           \
            for (int64_t r = 1; r < nrows; r++) {                                     \
                T v = base[r * ld + c];                                               \
                if ((v CMP b) || (v != v && b == b)) b = v, bi = r;                   \
            }                                                                         \
            out[c] = bi;                                                              \
        }                                                                             \
    }
#define COLARG_DEF(S, T, ID, I) COLARG(colarg_max_##S, T, v_##S, m_##S, I, >) COLARG(colarg_min_##S, T, v_##S, m_##S, I, <)
EXT_TYPES(COLARG_DEF)

/* ---- column passes: blocks of COL_RB rows in registers ----------------------------------
 * Each output column takes the rows of a block one after another in a register (in row
 * order, so every column sees the same additions / comparisons in the same order as one row
 * at a time, and every clone agrees bit for bit), and the running value in memory is read
 * and written once per block instead of once per row. The rows of a block are read as
 * COL_RB sequential streams. The vectors are 64 bytes (one AVX-512 register in the
 * x86-64-v4 clone, two or four in the others). */
#define COL_RB 16
#if TL_HAVE_VECTORS
typedef float c_f32x8 __attribute__((vector_size(32)));
typedef double c_f64x8 __attribute__((vector_size(64)));
#endif

/* acc[j] += the column sums of nrows rows, in double, row by row. */
#define COLSUM(NAME, T)                                                                       \
    TL_CLONES_WIDE static void NAME(const T *restrict p, int64_t nrows, int64_t ld, int64_t w, \
                                    double *restrict acc)                                     \
    {                                                                                         \
        int64_t r = 0;                                                                        \
        for (; r + COL_RB <= nrows; r += COL_RB, p += COL_RB * ld) {                          \
            int64_t j = 0;                                                                    \
            COLSUM_VEC(T)                                                                     \
            for (; j < w; j++) {                                                              \
                double s = acc[j];                                                            \
                for (int k = 0; k < COL_RB; k++) s += (double)p[k * ld + j];                  \
                acc[j] = s;                                                                   \
            }                                                                                 \
        }                                                                                     \
        for (; r < nrows; r++, p += ld)                                                       \
            for (int64_t j = 0; j < w; j++) acc[j] += (double)p[j];                           \
    }
#if TL_HAVE_VECTORS
/* eight columns at a time: one 64-byte vector of double sums */
#define COLSUM_LOAD_float(v, q)                                                               \
    do {                                                                                      \
        c_f32x8 f_;                                                                           \
        memcpy(&f_, (q), sizeof f_);                                                          \
        v = __builtin_convertvector(f_, c_f64x8);                                             \
    } while (0)
#define COLSUM_LOAD_double(v, q) memcpy(&v, (q), sizeof v)
#define COLSUM_VEC(T)                                                                         \
    for (; j + 8 <= w; j += 8) {                                                              \
        c_f64x8 s, x;                                                                         \
        memcpy(&s, acc + j, sizeof s);                                                        \
        for (int k = 0; k < COL_RB; k++) {                                                    \
            COLSUM_LOAD_##T(x, p + k * ld + j);                                               \
            s += x;                                                                           \
        }                                                                                     \
        memcpy(acc + j, &s, sizeof s);                                                        \
    }
#else
#define COLSUM_VEC(T)
#endif
COLSUM(colsum_f32, float)
COLSUM(colsum_f64, double)

void tl_colsum(tl_dtype bt, const char *base, int64_t nrows, int64_t ld, int64_t w, double *acc)
{
    if (bt == TL_FLOAT64)
        colsum_f64((const double *)base, nrows, ld, w, acc);
    else
        colsum_f32((const float *)base, nrows, ld, w, acc);
}

/* Values only (amax/amin/max/min over outer dims): out holds the running bests of w
 * columns and is updated once per block of COL_RB rows (the block's rows taken in order
 * in registers; contiguous reads), NaN winning. The 32-byte vector types: GCC turns the
 * same masks on 64-byte vectors, and the plain loop over 8 rows, into scalar code. */
#if TL_HAVE_VECTORS
#define COLEXT_VEC(T, VT, MT, CMP)                                                            \
    for (; c + 2 * (int64_t)(32 / sizeof(T)) <= w; c += 2 * (32 / sizeof(T))) {              \
        enum { W = 32 / sizeof(T) };                                                          \
        VT b0, b1, v0, v1;                                                                    \
        memcpy(&b0, out + c, sizeof b0);                                                      \
        memcpy(&b1, out + c + W, sizeof b1);                                                  \
        for (int k = 0; k < COL_RB; k++) {                                                    \
            memcpy(&v0, row + k * ld + c, sizeof v0);                                         \
            memcpy(&v1, row + k * ld + c + W, sizeof v1);                                     \
            MT u0 = (v0 CMP b0) | ((v0 != v0) & (b0 == b0));                                  \
            MT u1 = (v1 CMP b1) | ((v1 != v1) & (b1 == b1));                                  \
            b0 = VSEL(MT, VT, u0, v0, b0);                                                    \
            b1 = VSEL(MT, VT, u1, v1, b1);                                                    \
        }                                                                                     \
        memcpy(out + c, &b0, sizeof b0);                                                      \
        memcpy(out + c + W, &b1, sizeof b1);                                                  \
    }
#else
#define COLEXT_VEC(T, VT, MT, CMP)
#endif
#define COLEXT(NAME, T, VT, MT, CMP)                                                          \
    TL_CLONES_WIDE static void NAME(const T *restrict base, int64_t nrows, int64_t ld, int64_t w, \
                                    T *restrict out)                                          \
    {                                                                                         \
        memcpy(out, base, sizeof(T) * (size_t)w);                                             \
        int64_t r = 1;                                                                        \
        for (; r + COL_RB <= nrows; r += COL_RB) {                                            \
            const T *row = base + r * ld;                                                     \
            int64_t c = 0;                                                                    \
            COLEXT_VEC(T, VT, MT, CMP)                                                        \
            for (; c < w; c++) {                                                              \
                T b = out[c];                                                                 \
                for (int k = 0; k < COL_RB; k++) {                                            \
                    T v = row[k * ld + c];                                                    \
                    b = ((v CMP b) | ((v != v) & (b == b))) ? v : b;                          \
                }                                                                             \
                out[c] = b;                                                                   \
            }                                                                                 \
        }                                                                                     \
        for (; r < nrows; r++) {                                                              \
            const T *row = base + r * ld;                                                     \
            for (int64_t c = 0; c < w; c++) {                                                 \
                T v = row[c], b = out[c];                                                     \
                out[c] = ((v CMP b) | ((v != v) & (b == b))) ? v : b;                         \
            }                                                                                 \
        }                                                                                     \
    }
#define COLEXT_DEF(S, T, ID, I) COLEXT(colext_max_##S, T, v_##S, m_##S, >) COLEXT(colext_min_##S, T, v_##S, m_##S, <)
EXT_TYPES(COLEXT_DEF)

bool tl_col_supports(tl_dtype bt, int64_t nrows)
{
    switch (bt) {
#define COL_CASE(S, T, ID, I) case TL_##ID: return sizeof(I) == 8 || nrows <= INT32_MAX; /* row indices in I lanes */
        EXT_TYPES(COL_CASE)
#undef COL_CASE
    default: return false;
    }
}

bool tl_colext(bool is_max, tl_dtype bt, const char *base, int64_t nrows, int64_t ld, int64_t w, char *out)
{
    switch (bt) {
#define COLEXT_CASE(S, T, ID, I)                                                                            \
    case TL_##ID: (is_max ? colext_max_##S : colext_min_##S)((const T *)base, nrows, ld, w, (T *)out); return true;
        EXT_TYPES(COLEXT_CASE)
#undef COLEXT_CASE
    default: return false;
    }
}

bool tl_colarg(bool is_max, tl_dtype bt, const char *base, int64_t nrows, int64_t ld, int64_t w, int64_t *out)
{
    switch (bt) {
#define COLARG_CASE(S, T, ID, I)                                                                            \
    case TL_##ID:                                                                                           \
        if (!tl_col_supports(bt, nrows)) return false;                                                     \
        (is_max ? colarg_max_##S : colarg_min_##S)((const T *)base, nrows, ld, w, out);                     \
        return true;
        EXT_TYPES(COLARG_CASE)
#undef COLARG_CASE
    default: return false;
    }
}

/* Real kernels shared by float32 and float64 buffers. */
/* any/all/count_nonzero: the same for real and complex elements. */
#define TRUTH_CASES                                                                     \
    case TL_K_ANY: {                                                                    \
        int64_t r = 0;                                                                  \
        for (i = 0; i < n && !r; i++) r = p[i] != 0;                                    \
        a->i = r;                                                                       \
        break;                                                                          \
    }                                                                                   \
    case TL_K_ALL: {                                                                    \
        int64_t r = 1;                                                                  \
        for (i = 0; i < n && r; i++) r = p[i] != 0;                                     \
        a->i = r;                                                                       \
        break;                                                                          \
    }                                                                                   \
    case TL_K_CNZ: {                                                                    \
        int64_t c = 0;                                                                  \
        for (i = 0; i < n; i++) c += p[i] != 0;                                         \
        a->i = c;                                                                       \
        break;                                                                          \
    }

#define REAL_OPS(SUF, T, SUMF)                                                          \
    static void row_##SUF(tl_kop op, const T *p, int64_t n, int64_t idx0, double center, \
                          double power, tl_racc *a)                                     \
    {                                                                                   \
        int64_t i;                                                                      \
        switch (op) {                                                                   \
        case TL_K_SUM: a->d = SUMF(p, n); break;                                        \
        case TL_K_NANSUM: {                                                             \
            double s = 0;                                                               \
            int64_t c = 0;                                                              \
            for (i = 0; i < n; i++)                                                     \
                if (p[i] == p[i]) s += p[i], c++;                                       \
            a->d = s;                                                                   \
            a->cnt = c;                                                                 \
            break;                                                                      \
        }                                                                               \
        case TL_K_PROD: {                                                               \
            double s = 1;                                                               \
            for (i = 0; i < n; i++) s *= p[i];                                          \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_MAX:                                                                  \
        case TL_K_MIN: {                                                                \
            int nan = 0;                                                                \
            T m = !n ? 0 : op == TL_K_MAX ? ext_max_##SUF(p, n, &nan) : ext_min_##SUF(p, n, &nan); \
            a->d = nan ? NAN : n ? (double)m : op == TL_K_MAX ? -INFINITY : INFINITY;   \
            break;                                                                      \
        }                                                                               \
        case TL_K_ARGMAX:                                                               \
        case TL_K_ARGMIN: {                                                             \
            int nan = 0;                                                                \
            T m = 0;                                                                    \
            int64_t k = n ? (op == TL_K_ARGMAX ? arg_max_##SUF(p, n, &m, &nan) : arg_min_##SUF(p, n, &m, &nan)) : 0; \
            a->d = nan ? NAN : (double)m;                                               \
            a->cnt = idx0 + k;                                                          \
            break;                                                                      \
        }                                                                               \
        TRUTH_CASES                                                                     \
        case TL_K_ABSPOW: {                                                             \
            double s = 0;                                                               \
            if (power == 1) for (i = 0; i < n; i++) s += fabs((double)p[i]);            \
            else if (power == 2) for (i = 0; i < n; i++) s += (double)p[i] * p[i];      \
            else for (i = 0; i < n; i++) s += pow(fabs((double)p[i]), power);           \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_ABSMAX:                                                               \
        case TL_K_ABSMIN: {                                                             \
            double m = op == TL_K_ABSMAX ? 0 : INFINITY;                                \
            for (i = 0; i < n; i++) {                                                   \
                double v = fabs((double)p[i]);                                          \
                if (v != v) { m = v; break; }                                           \
                m = op == TL_K_ABSMAX ? (v > m ? v : m) : (v < m ? v : m);              \
            }                                                                           \
            a->d = m;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_SSD: {                                                                \
            double s = 0;                                                               \
            for (i = 0; i < n; i++) {                                                   \
                double dv = (double)p[i] - center;                                      \
                s += dv * dv;                                                           \
            }                                                                           \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_SUMEXP: {                                                             \
            double s = 0;                                                               \
            for (i = 0; i < n; i++) s += exp((double)p[i] - center);                    \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        }                                                                               \
    }
REAL_OPS(f32, float, sum_f32)
REAL_OPS(f64, double, sum_f64)

/* Integer buffers: int64, or uint64 (u) whose bits the sums and products share with
 * int64 (wrapping) and only the ordering ops read as unsigned. */
static void row_i64(tl_kop op, const int64_t *p, int64_t n, int64_t idx0, double center, double power, bool u,
                    tl_racc *a)
{
    const uint64_t *up = (const uint64_t *)p;
    int64_t i;
    switch (op) {
    case TL_K_SUM:
    case TL_K_NANSUM: {
        uint64_t s = 0;
        for (i = 0; i < n; i++) s += (uint64_t)p[i];
        a->i = (int64_t)s;
        a->cnt = n;
        break;
    }
    case TL_K_PROD: {
        uint64_t s = 1;
        for (i = 0; i < n; i++) s *= (uint64_t)p[i];
        a->i = (int64_t)s;
        break;
    }
    case TL_K_MAX:
    case TL_K_MIN: {
        int nan;
        if (u) a->i = !n ? (op == TL_K_MAX ? 0 : -1)
                         : (int64_t)(op == TL_K_MAX ? ext_max_u64(up, n, &nan) : ext_min_u64(up, n, &nan));
        else a->i = !n ? (op == TL_K_MAX ? INT64_MIN : INT64_MAX)
                       : op == TL_K_MAX ? ext_max_i64(p, n, &nan) : ext_min_i64(p, n, &nan);
        break;
    }
    case TL_K_ARGMAX:
    case TL_K_ARGMIN: {
        int nan;
        int64_t m = 0, k = 0;
        uint64_t um = 0;
        if (n && u) k = op == TL_K_ARGMAX ? arg_max_u64(up, n, &um, &nan) : arg_min_u64(up, n, &um, &nan), m = (int64_t)um;
        else if (n) k = op == TL_K_ARGMAX ? arg_max_i64(p, n, &m, &nan) : arg_min_i64(p, n, &m, &nan);
        a->i = m;
        a->cnt = idx0 + k;
        break;
    }
    case TL_K_ANY: {
        int64_t r = 0;
        for (i = 0; i < n && !r; i++) r = p[i] != 0;
        a->i = r;
        break;
    }
    case TL_K_ALL: {
        int64_t r = 1;
        for (i = 0; i < n && r; i++) r = p[i] != 0;
        a->i = r;
        break;
    }
    case TL_K_CNZ: {
        int64_t c = 0;
        for (i = 0; i < n; i++) c += p[i] != 0;
        a->i = c;
        break;
    }
    case TL_K_ABSPOW: {
        double s = 0;
        for (i = 0; i < n; i++) s += pow(fabs((double)p[i]), power);
        a->d = s;
        break;
    }
    case TL_K_ABSMAX:
    case TL_K_ABSMIN: {
        double m = op == TL_K_ABSMAX ? 0 : INFINITY;
        for (i = 0; i < n; i++) {
            double v = fabs((double)p[i]);
            m = op == TL_K_ABSMAX ? (v > m ? v : m) : (v < m ? v : m);
        }
        a->d = m;
        break;
    }
    case TL_K_SSD: {
        double s = 0;
        for (i = 0; i < n; i++) s += ((double)p[i] - center) * ((double)p[i] - center);
        a->d = s;
        break;
    }
    case TL_K_SUMEXP: {
        double s = 0;
        for (i = 0; i < n; i++) s += exp((double)p[i] - center);
        a->d = s;
        break;
    }
    }
}

#define CPLX_OPS(SUF, T, R, CEXP)                                                        \
    static void row_##SUF(tl_kop op, const T *p, int64_t n, double complex center, double power, \
                          tl_racc *a)                                                    \
    {                                                                                    \
        int64_t i;                                                                       \
        switch (op) {                                                                    \
        case TL_K_SUM:                                                                   \
        case TL_K_NANSUM: {                                                              \
            double re[4] = {0}, im[4] = {0};                                             \
            for (i = 0; i + 4 <= n; i += 4)                                              \
                for (int k = 0; k < 4; k++) re[k] += creal(p[i + k]), im[k] += cimag(p[i + k]); \
            for (; i < n; i++) re[0] += creal(p[i]), im[0] += cimag(p[i]);               \
            a->c = CMPLX((re[0] + re[1]) + (re[2] + re[3]), (im[0] + im[1]) + (im[2] + im[3])); \
            break;                                                                       \
        }                                                                                \
        case TL_K_PROD: {                                                                \
            double complex s = 1;                                                        \
            for (i = 0; i < n; i++) s *= (double complex)p[i];                           \
            a->c = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        TRUTH_CASES                                                                      \
        case TL_K_ABSPOW: {                                                              \
            double s = 0;                                                                \
            for (i = 0; i < n; i++) {                                                    \
                double v = cabs((double complex)p[i]);                                   \
                s += power == 2 ? v * v : power == 1 ? v : pow(v, power);                \
            }                                                                            \
            a->d = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        case TL_K_ABSMAX:                                                                \
        case TL_K_ABSMIN: {                                                              \
            double m = op == TL_K_ABSMAX ? 0 : INFINITY;                                 \
            for (i = 0; i < n; i++) {                                                    \
                double v = cabs((double complex)p[i]);                                   \
                if (v != v) { m = v; break; }                                            \
                m = op == TL_K_ABSMAX ? (v > m ? v : m) : (v < m ? v : m);               \
            }                                                                            \
            a->d = m;                                                                    \
            break;                                                                       \
        }                                                                                \
        case TL_K_SSD: {                                                                 \
            double s = 0;                                                                \
            for (i = 0; i < n; i++) {                                                    \
                double complex dv = (double complex)p[i] - center;                       \
                s += creal(dv) * creal(dv) + cimag(dv) * cimag(dv);                      \
            }                                                                            \
            a->d = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        case TL_K_MAX: { /* of the real parts (logsumexp's shift); NaN propagates */    \
            double m = -INFINITY;                                                        \
            for (i = 0; i < n; i++) {                                                    \
                double v = creal(p[i]);                                                  \
                if (v != v) { m = v; break; }                                            \
                m = v > m ? v : m;                                                       \
            }                                                                            \
            a->d = m;                                                                    \
            break;                                                                       \
        }                                                                                \
        case TL_K_SUMEXP: { /* c = sum exp(x - center), center real; x - m and exp in T \
                             * as torch (same overflows), the sum in double */           \
            double complex s = 0;                                                        \
            for (i = 0; i < n; i++) s += CEXP(p[i] - (R)creal(center));                  \
            a->c = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        default: break; /* other ordering ops are rejected before reaching complex buffers */ \
        }                                                                                \
    }
CPLX_OPS(c64, float complex, float, cexpf)
CPLX_OPS(c128, double complex, double, cexp)

void tl_racc_row(tl_kop op, tl_dtype bt, const char *p, int64_t n, int64_t idx0, double complex center,
                 double power, tl_racc *a)
{
    memset(a, 0, sizeof(*a));
    switch (bt) {
    case TL_FLOAT32: row_f32(op, (const float *)p, n, idx0, creal(center), power, a); break;
    case TL_FLOAT64: row_f64(op, (const double *)p, n, idx0, creal(center), power, a); break;
    case TL_COMPLEX64: row_c64(op, (const float complex *)p, n, center, power, a); break;
    case TL_COMPLEX128: row_c128(op, (const double complex *)p, n, center, power, a); break;
    default: row_i64(op, (const int64_t *)p, n, idx0, creal(center), power, bt == TL_UINT64, a); break;
    }
}

/* b->i > a->i, unsigned for uint64 buffers */
static bool igt(bool u, int64_t b, int64_t a) { return u ? (uint64_t)b > (uint64_t)a : b > a; }

void tl_racc_combine(tl_kop op, tl_dtype bt, tl_racc *a, const tl_racc *b)
{
    bool u = bt == TL_UINT64, isint = bt == TL_INT64 || u, iscplx = bt == TL_COMPLEX64 || bt == TL_COMPLEX128;
    switch (op) {
    case TL_K_SUM:
    case TL_K_NANSUM:
        if (isint) a->i = (int64_t)((uint64_t)a->i + (uint64_t)b->i);
        else if (iscplx) a->c += b->c;
        else a->d += b->d;
        a->cnt += b->cnt;
        break;
    case TL_K_PROD:
        if (isint) a->i = (int64_t)((uint64_t)a->i * (uint64_t)b->i);
        else if (iscplx) a->c *= b->c;
        else a->d *= b->d;
        break;
    case TL_K_MAX:
    case TL_K_MIN:
        if (isint) a->i = (op == TL_K_MAX ? igt(u, b->i, a->i) : igt(u, a->i, b->i)) ? b->i : a->i;
        else if (a->d == a->d && (b->d != b->d || (op == TL_K_MAX ? b->d > a->d : b->d < a->d))) a->d = b->d;
        break;
    case TL_K_ARGMAX:
    case TL_K_ARGMIN:
        if (isint) {
            if (op == TL_K_ARGMAX ? igt(u, b->i, a->i) : igt(u, a->i, b->i)) a->i = b->i, a->cnt = b->cnt;
        } else if (a->d == a->d && (b->d != b->d || (op == TL_K_ARGMAX ? b->d > a->d : b->d < a->d))) {
            a->d = b->d;
            a->cnt = b->cnt;
        }
        break;
    case TL_K_ANY: a->i = a->i || b->i; break;
    case TL_K_ALL: a->i = a->i && b->i; break;
    case TL_K_CNZ: a->i += b->i; break;
    case TL_K_ABSPOW:
    case TL_K_SSD: a->d += b->d; break;
    case TL_K_SUMEXP:
        if (iscplx) a->c += b->c;
        else a->d += b->d;
        break;
    case TL_K_ABSMAX:
    case TL_K_ABSMIN:
        if (a->d == a->d && (b->d != b->d || (op == TL_K_ABSMAX ? b->d > a->d : b->d < a->d))) a->d = b->d;
        break;
    }
}
