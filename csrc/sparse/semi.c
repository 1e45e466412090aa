/* semi.c - 2:4 semi-structured sparsity on the CPU: compression of a dense matrix whose
 * every group of 4 consecutive row elements holds at most 2 non-zeros into the kept values
 * (rows, cols / 2) and metadata (2 bits per kept element: its position in the group; the
 * group's 4-bit nibble has the first kept position in its low 2 bits, the nibbles of
 * consecutive groups fill a metadata word from its low bits: int16 words for 16- and
 * 32-bit values, int32 words for int8, as torch's seed describes), decompression, and the
 * products S @ B and A @ S reading only the kept values (half the bytes and multiplies of
 * the dense product). */
#include "sparse/semi.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "ops/copy.h"

static int word_bits(tl_dtype d) { return d == TL_INT8 ? 32 : 16; }

bool tl_semi_supports(tl_dtype d)
{
    return d == TL_FLOAT32 || d == TL_FLOAT16 || d == TL_BFLOAT16 || d == TL_INT8;
}

static int check_input(const tl_tensor *t)
{
    if (!tl_semi_supports((tl_dtype)t->dtype))
        return tl_err(TL_ERR_RUNTIME,
                      "to_sparse_semi_structured: dtype %s is not supported (float16, bfloat16, float32 and int8 are)",
                      tl_dtype_infos[t->dtype].cname);
    int g = word_bits((tl_dtype)t->dtype); /* columns per metadata word: 4 bits per group of 4 */
    char buf[256];
    if (t->ndim != 2 || t->sizes[1] % g)
        return tl_err(TL_ERR_RUNTIME,
                      "to_sparse_semi_structured: expected a 2-D tensor whose number of columns is a multiple of %d "
                      "for dtype %s, got shape %s", g, tl_dtype_infos[t->dtype].cname,
                      tl_shape_str(t->sizes, t->ndim, buf, sizeof buf));
    return 0;
}

/* Whether element i of p (itemsize sz) is non-zero (-0.0 is zero, NaN is not). */
static inline bool nonzero(const char *p, int sz, int64_t i)
{
    switch (sz) {
    case 1: return p[i] != 0;
    case 2: { uint16_t v; memcpy(&v, p + 2 * i, 2); return (v & 0x7fff) != 0; }
    default: { uint32_t v; memcpy(&v, p + 4 * i, 4); return (v & 0x7fffffffu) != 0; }
    }
}

int tl_semi_compress(tl_tensor *values, tl_tensor *meta, const tl_tensor *dense)
{
    if (check_input(dense) < 0) return -1;
    tl_dtype dt = (tl_dtype)dense->dtype;
    int64_t M = dense->sizes[0], K = dense->sizes[1], wb = word_bits(dt), gpw = wb / 4, W = K / wb; /* a word: wb / 4 groups of 4 columns */
    int sz = tl_dtype_itemsize(dt);
    int64_t vsz[2] = {M, K / 2}, msz[2] = {M, W};
    tl_tensor c = {0};
    if (tl_contiguous(&c, dense, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
    int rc = -1;
    if (tl_tensor_empty(values, 2, vsz, dt, dense->device, false) < 0 ||
        tl_tensor_empty(meta, 2, msz, wb == 32 ? TL_INT32 : TL_INT16, dense->device, false) < 0)
        goto done;
    const char *in = tl_data(&c);
    char *vo = tl_data(values);
    char *mo = tl_data(meta);
    for (int64_t r = 0; r < M; r++) {
        const char *row = in + r * K * sz;
        for (int64_t w = 0; w < W; w++) {
            uint32_t word = 0;
            for (int64_t g = 0; g < gpw; g++) {
                int64_t base = (w * gpw + g) * 4;
                bool keep[4];
                int n = 0, pos[2];
                for (int e = 0; e < 4; e++) n += keep[e] = nonzero(row, sz, base + e);
                if (n > 2) {
                    tl_err(TL_ERR_RUNTIME,
                           "to_sparse_semi_structured: row %lld, columns %lld..%lld hold %d non-zeros: the tensor is "
                           "not 2:4 sparse", (long long)r, (long long)base, (long long)base + 3, n);
                    goto done;
                }
                for (int e = 0; n < 2; e++) /* fewer than 2: the lowest free positions, kept as zeros */
                    if (!keep[e]) n += keep[e] = true;
                for (int e = 0, j = 0; e < 4; e++)
                    if (keep[e]) pos[j++] = e;
                word |= (uint32_t)(pos[0] | pos[1] << 2) << (4 * g);
                int64_t at = r * (K / 2) + (w * gpw + g) * 2;
                memcpy(vo + at * sz, row + (base + pos[0]) * sz, (size_t)sz);
                memcpy(vo + (at + 1) * sz, row + (base + pos[1]) * sz, (size_t)sz);
            }
            if (wb == 32) {
                int32_t v = (int32_t)word;
                memcpy(mo + (r * W + w) * 4, &v, 4);
            } else {
                int16_t v = (int16_t)(uint16_t)word;
                memcpy(mo + (r * W + w) * 2, &v, 2);
            }
        }
    }
    rc = 0;
done:
    tl_tensor_clear(&c);
    return rc;
}

/* The metadata nibble of group g of row r; positions are checked (never trusted). */
static inline uint32_t nibble(const char *meta, int wb, int64_t W, int64_t r, int64_t g)
{
    int gpw = wb / 4;
    int64_t w = g / gpw;
    uint32_t word;
    if (wb == 32) {
        int32_t v;
        memcpy(&v, meta + (r * W + w) * 4, 4);
        word = (uint32_t)v;
    } else {
        int16_t v;
        memcpy(&v, meta + (r * W + w) * 2, 2);
        word = (uint16_t)v;
    }
    return (word >> (4 * (g % gpw))) & 0xf;
}

static int check_pair(const tl_tensor *values, const tl_tensor *meta, int64_t K)
{
    int wb = meta->dtype == TL_INT32 ? 32 : 16;
    if (values->ndim != 2 || meta->ndim != 2 || values->sizes[1] * 2 != K || meta->sizes[0] != values->sizes[0] ||
        meta->sizes[1] * wb != K || (meta->dtype != TL_INT16 && meta->dtype != TL_INT32))
        return tl_err(TL_ERR_RUNTIME, "semi-structured tensor: values and metadata do not match the shape");
    return 0;
}

int tl_semi_to_dense(tl_tensor *out, const tl_tensor *values, const tl_tensor *meta, int64_t K)
{
    if (check_pair(values, meta, K) < 0) return -1;
    tl_tensor v = {0}, m = {0};
    int rc = -1;
    int64_t M = values->sizes[0], osz[2] = {M, K}, W = meta->sizes[1];
    int wb = meta->dtype == TL_INT32 ? 32 : 16, sz = tl_itemsize(values);
    if (tl_contiguous(&v, values, TL_MEMFMT_CONTIGUOUS) < 0 || tl_contiguous(&m, meta, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_tensor_empty(out, 2, osz, (tl_dtype)values->dtype, values->device, true) < 0)
        goto done;
    const char *vi = tl_data(&v), *mi = tl_data(&m);
    char *o = tl_data(out);
    for (int64_t r = 0; r < M; r++)
        for (int64_t g = 0; g < K / 4; g++) {
            uint32_t nb = nibble(mi, wb, W, r, g);
            int64_t at = r * (K / 2) + 2 * g;
            /* a repeated position would overwrite: the later (second) value wins, as a sum
             * of a kept zero would; positions are 0..3 by construction of 2 bits */
            memcpy(o + (r * K + 4 * g + (nb & 3)) * sz, vi + at * sz, (size_t)sz);
            if ((nb >> 2) != (nb & 3)) memcpy(o + (r * K + 4 * g + (nb >> 2)) * sz, vi + (at + 1) * sz, (size_t)sz);
        }
    rc = 0;
done:
    tl_tensor_clear(&v);
    tl_tensor_clear(&m);
    return rc;
}

typedef struct {
    const char *meta;
    const void *val, *b;
    void *out;
    int64_t M, K, N, W;
    int wb;
    bool left; /* true: out = S @ B; false: out = A @ S (b is A) */
} semi_ctx;

/* out = S @ B, float32, blocked like a GEMM (Goto's loops): B is packed by KC rows and NC
 * columns into micro-panels of NR columns (KC x NR floats, zero-padded past N, read from
 * L1 by one tile after another); S is packed by MC rows into micro-panels of MR rows
 * holding, per kept element of the KC block, its value and the byte offset of the B row
 * it multiplies inside the micro-panel ((4 * group + position) * NR * 4: the 2:4 metadata
 * decoded once per block). The tile keeps MR x NR accumulators in registers; every kept
 * element of every row costs one broadcast, one offset and NR / VW fused multiply-adds whose
 * B operand is read straight from the packed panel: half the multiplies of the dense
 * product and no B row shared between rows (dense GEMM loads a B vector once for MR rows;
 * here each row picks its own B rows, so loads and FMAs come one to one).
 * Each output element sums its kept terms in order within a KC block, then adds the block
 * to the output; variants differ in rounding only by FMA (the baseline has none), which the
 * tests bound. */
enum { SEMI_KC = 128, SEMI_MC = 96, SEMI_NC = 3072 }; /* KC a multiple of 16 (groups, words); MC and NC multiples of every MR, NR */
/* A tile prefetches its C rows before its products: their adds had waited on L2/L3 (a fifth of
 * the tile's samples). With the prefetch, C rows in super-blocks that stay cached across the K
 * blocks (B then packed once per super-block) no longer pay: wall time, Zen 4, 4096^2
 * magnitude-pruned pattern, super-blocks of 4 MB / none: 1 thread 1.10-1.28 / 1.05-1.09 s,
 * 2 threads 0.71-0.73 / 0.60 s (each thread re-packed all of B per super-block: memory-bound);
 * before the prefetch 1.39 / 1.62-1.74 s at 1 thread. */
typedef struct {
    const float *val;   /* S values, M x K/2 contiguous */
    const char *meta;   /* S metadata words */
    const float *b;     /* B (K x N) with element strides sk, sn */
    float *out;         /* M x N contiguous, zero-filled */
    int64_t M, K, N, W, sk, sn, chunk;
    int wb, level;      /* metadata word bits; the variant (semi_pick) */
    float *bufs;        /* per chunk: packed B (KC * NC floats) then packed S (MC * KC/2 64-bit words) */
    int64_t buf_floats; /* floats per chunk */
} semi_gemm;

/* Pack B[k0:k0+kc, n0:n0+nc] into micro-panels of nr columns: panel j holds kc rows of nr floats. */
static void semi_pack_b(float *restrict bp, const semi_gemm *g, int64_t k0, int64_t kc, int64_t n0, int64_t nc, int nr)
{
    for (int64_t j0 = 0; j0 < nc; j0 += nr) {
        int64_t w = nc - j0 < nr ? nc - j0 : nr;
        float *restrict dst = bp + j0 * kc;
        for (int64_t k = 0; k < kc; k++, dst += nr) {
            const float *src = g->b + (k0 + k) * g->sk + (n0 + j0) * g->sn;
            if (g->sn == 1) memcpy(dst, src, (size_t)w * sizeof(float));
            else for (int64_t q = 0; q < w; q++) dst[q] = src[q * g->sn];
            for (int64_t q = w; q < nr; q++) dst[q] = 0;
        }
    }
}

/* Pack rows [m0, m0+mc) of S over the KC block at k0 into micro-panels of mr rows: element e
 * (of kc/2) of row i at [e * mr + i], one 64-bit word each: the value's bits low, the byte
 * offset of its B row in a micro-panel high (one load gives both); rows past the block are
 * value 0, offset 0. */
static void semi_pack_a(uint64_t *restrict ap, const semi_gemm *g, int64_t m0, int64_t mc, int64_t k0, int64_t kc,
                        int mr, int nr)
{
    int64_t ke = kc / 2, half = g->K / 2;
    for (int64_t i0 = 0; i0 < mc; i0 += mr, ap += ke * mr)
        for (int i = 0; i < mr; i++) {
            int64_t r = m0 + i0 + i;
            if (i0 + i >= mc) {
                for (int64_t e = 0; e < ke; e++) ap[e * mr + i] = 0;
                continue;
            }
            const float *v = g->val + r * half + k0 / 2;
            for (int64_t q = 0; q < kc / 4; q++) {
                uint32_t nb = nibble(g->meta, g->wb, g->W, r, k0 / 4 + q), x0, x1;
                memcpy(&x0, v + 2 * q, 4);
                memcpy(&x1, v + 2 * q + 1, 4);
                ap[(2 * q) * mr + i] = (uint64_t)((4 * q + (nb & 3)) * nr * 4) << 32 | x0;
                ap[(2 * q + 1) * mr + i] = (uint64_t)((4 * q + (nb >> 2)) * nr * 4) << 32 | x1;
            }
        }
}

/* One variant: its tile (MR x NV vectors of VB bytes) and the blocked loops over rows
 * [r0, r1) of S. ATTR names the target (and FMA contraction where the target has FMA). */
#define SEMI_GEMM(SFX, ATTR, VB, MR, NV)                                                                          \
    typedef float SFX##_v __attribute__((vector_size(VB), aligned(4)));                                          \
    enum { SFX##_VW = (VB) / 4, SFX##_NR = (NV) * (VB) / 4 };                                                     \
    ATTR static void SFX##_tile(int64_t ke, const uint64_t *restrict ap, const char *restrict bp,                \
                                float *restrict c, int64_t ldc, int mr, int nr)                                   \
    {                                                                                                             \
        SFX##_v acc[MR][NV];                                                                                      \
        /* C's tile, fetched while the products run (above) */                                                    \
        for (int i = 0; i < mr; i++)                                                                              \
            for (int q = 0; q < nr; q += 16) __builtin_prefetch(c + i * ldc + q, 1);                              \
        _Pragma("GCC unroll 16") for (int i = 0; i < MR; i++)                                                     \
            _Pragma("GCC unroll 8") for (int v = 0; v < NV; v++) acc[i][v] = (SFX##_v){0};                        \
        for (int64_t e = 0; e < ke; e++, ap += MR) {                                                              \
            _Pragma("GCC unroll 16") for (int i = 0; i < MR; i++) {                                               \
                const float a = *(const float *)(ap + i); /* the low half (x86 is little-endian) */               \
                const SFX##_v *b = (const SFX##_v *)(bp + ((const uint32_t *)(ap + i))[1]);                                             \
                _Pragma("GCC unroll 8") for (int v = 0; v < NV; v++) acc[i][v] += a * b[v];                       \
            }                                                                                                     \
        }                                                                                                         \
        if (mr == MR && nr == SFX##_NR) {                                                                         \
            _Pragma("GCC unroll 16") for (int i = 0; i < MR; i++)                                                 \
                _Pragma("GCC unroll 8") for (int v = 0; v < NV; v++) {                                            \
                    SFX##_v *o = (SFX##_v *)(c + i * ldc + v * SFX##_VW);                                         \
                    *o += acc[i][v];                                                                              \
                }                                                                                                 \
        } else {                                                                                                  \
            float t[MR][SFX##_NR];                                                                                \
            memcpy(t, acc, sizeof t);                                                                             \
            for (int i = 0; i < mr; i++)                                                                          \
                for (int q = 0; q < nr; q++) c[i * ldc + q] += t[i][q];                                           \
        }                                                                                                         \
    }                                                                                                             \
    ATTR static void SFX##_run(const semi_gemm *g, int64_t r0, int64_t r1, float *buf)                           \
    {                                                                                                             \
        const int nr = SFX##_NR;                                                                                  \
        float *bp = buf;                                                                                          \
        uint64_t *ap = (uint64_t *)(buf + (int64_t)SEMI_KC * SEMI_NC);                                            \
        for (int64_t n0 = 0; n0 < g->N; n0 += SEMI_NC) {                                                          \
            int64_t nc = g->N - n0 < SEMI_NC ? g->N - n0 : SEMI_NC;                                               \
            for (int64_t k0 = 0; k0 < g->K; k0 += SEMI_KC) {                                                      \
                int64_t kc = g->K - k0 < SEMI_KC ? g->K - k0 : SEMI_KC, ke = kc / 2;                              \
                semi_pack_b(bp, g, k0, kc, n0, nc, nr);                                                           \
                for (int64_t m0 = r0; m0 < r1; m0 += SEMI_MC) {                                                   \
                    int64_t mc = r1 - m0 < SEMI_MC ? r1 - m0 : SEMI_MC;                                           \
                    semi_pack_a(ap, g, m0, mc, k0, kc, MR, nr);                                                   \
                    for (int64_t j0 = 0; j0 < nc; j0 += nr)                                                       \
                        for (int64_t i0 = 0; i0 < mc; i0 += MR)                                                   \
                            SFX##_tile(ke, ap + i0 * ke, (const char *)(bp + j0 * kc),                            \
                                       g->out + (m0 + i0) * g->N + n0 + j0, g->N,                                 \
                                       (int)(mc - i0 < MR ? mc - i0 : MR), (int)(nc - j0 < nr ? nc - j0 : nr));   \
                }                                                                                                 \
            }                                                                                                     \
        }                                                                                                         \
    }

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && !defined(TL_NO_CLONES)
#define SEMI_DISPATCH 1
#pragma GCC push_options
#pragma GCC optimize("fp-contract=fast")
/* AVX2+FMA: 2 rows x 48 columns, 12 ymm accumulators. Measured on a Zen 4 (1 thread, 2048^2):
 * 2 x 48 ymm 117-120 ms; 4 x 24 ymm 146; AVX-512 8 x 48 zmm 150, 4 x 48 zmm 163, 2 x 96 zmm
 * 186 (zmm FMAs with a memory operand gain nothing there: loads, not multiplies, bound this
 * kernel); KC 64 / 192 / 256: 124 / 133 / 160 ms (the 24 KB B micro-panel must stay in L1). */
SEMI_GEMM(semi_v3, __attribute__((target("avx2,fma"))), 32, 2, 6)
#pragma GCC pop_options
#endif
/* The baseline (SSE2, no FMA): 2 x 24. */
SEMI_GEMM(semi_v1, , 16, 2, 6)

/* Which variant: -1 the best the CPU has, else 1 or 3 (tests pin each in turn). */
static _Atomic int semi_level = -1;

int tl_semi_set_kernel(int level)
{
    return atomic_exchange(&semi_level, level);
}

static int semi_pick(void)
{
#ifdef SEMI_DISPATCH
    __builtin_cpu_init();
    int want = atomic_load(&semi_level);
    if ((want < 0 || want >= 3) && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 3;
#endif
    return 1;
}

static void semi_gemm_chunk(int64_t c0, int64_t c1, void *p)
{
    semi_gemm *g = p;
    int level = g->level;
    for (int64_t c = c0; c < c1; c++) {
        int64_t r0 = c * g->chunk, r1 = r0 + g->chunk < g->M ? r0 + g->chunk : g->M;
        float *buf = g->bufs + c * g->buf_floats;
#ifdef SEMI_DISPATCH
        if (level == 3) { semi_v3_run(g, r0, r1, buf); continue; }
#endif
        (void)level;
        semi_v1_run(g, r0, r1, buf);
    }
}

/* out = S @ B (out zero-filled, M x N contiguous) for float32 S values and B of any strides;
 * rows split into one chunk per thread, each with its own packing buffers. */
static int semi_left_f32(tl_tensor *out, const tl_tensor *v, const tl_tensor *m, const tl_tensor *b, int64_t M,
                         int64_t K, int64_t N)
{
    if (M == 0 || N == 0 || K == 0) return 0;
    int64_t nt = tl_get_num_threads();
    if (M * K * N < (1 << 21)) nt = 1;
    int64_t chunk = (M + nt - 1) / nt;
    chunk = (chunk + 7) / 8 * 8; /* whole tiles of every variant */
    int64_t nchunks = (M + chunk - 1) / chunk;
    int64_t per = (int64_t)SEMI_KC * SEMI_NC + (int64_t)SEMI_MC * SEMI_KC + 16; /* B panels, S values + offsets */
    float *bufs = aligned_alloc(64, (size_t)(nchunks * per * sizeof(float) + 63) / 64 * 64);
    if (!bufs) return tl_err(TL_ERR_MEMORY, "out of memory");
    semi_gemm g = {(const float *)tl_data(v), tl_data(m), (const float *)tl_data(b), (float *)tl_data(out), M, K, N,
                   m->sizes[1], b->strides[0], b->strides[1], chunk, m->dtype == TL_INT32 ? 32 : 16, semi_pick(), bufs, per};
    tl_parallel_for(nchunks, 1, semi_gemm_chunk, &g);
    free(bufs);
    return 0;
}

/* The int32 form (int8 values): the same loops without the vector panel. */
static void semi_left_i32(int64_t r0, int64_t r1, void *p)
{
    semi_ctx *x = p;
    const int32_t *restrict val = x->val, *restrict b = x->b;
    int32_t *restrict out = x->out;
    int64_t K = x->K, N = x->N;
    for (int64_t r = r0; r < r1; r++)
        for (int64_t g = 0; g < K / 4; g++) {
            uint32_t nb = nibble(x->meta, x->wb, x->W, r, g);
            uint32_t s0 = (uint32_t)val[r * (K / 2) + 2 * g], s1 = (uint32_t)val[r * (K / 2) + 2 * g + 1];
            const int32_t *b0 = b + (4 * g + (nb & 3)) * N, *b1 = b + (4 * g + (nb >> 2)) * N;
            for (int64_t q = 0; q < N; q++) /* wrapping arithmetic, as torch's integer mm */
                out[r * N + q] = (int32_t)((uint32_t)out[r * N + q] + s0 * (uint32_t)b0[q] + s1 * (uint32_t)b1[q]);
        }
}

/* out = A @ S for rows [r0, r1) of A (M x K): out row i gathers A[i, k] times the kept
 * values of row k of S (K x N), scattered to their columns. */
#define SEMI_RIGHT(NAME, T, ACC)                                                             \
    static void NAME(int64_t r0, int64_t r1, void *p)                                        \
    {                                                                                        \
        semi_ctx *x = p;                                                                     \
        const T *restrict val = x->val, *restrict a = x->b;                                  \
        T *restrict out = x->out;                                                            \
        int64_t K = x->K, N = x->N, G = N / 4;                                               \
        for (int64_t i = r0; i < r1; i++) {                                                  \
            T *restrict o = out + i * N;                                                     \
            for (int64_t k = 0; k < K; k++) {                                                \
                const ACC s = a[i * K + k];                                                  \
                if (s == 0) continue;                                                        \
                const T *restrict vk = val + k * (N / 2);                                    \
                for (int64_t g = 0; g < G; g++) {                                            \
                    uint32_t nb = nibble(x->meta, x->wb, x->W, k, g);                        \
                    o[4 * g + (nb & 3)] = (T)(o[4 * g + (nb & 3)] + s * vk[2 * g]);          \
                    o[4 * g + (nb >> 2)] = (T)(o[4 * g + (nb >> 2)] + s * vk[2 * g + 1]);    \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    }

SEMI_RIGHT(semi_right_f32, float, float)
SEMI_RIGHT(semi_right_i32, int32_t, uint32_t) /* wrapping, as torch's integer mm */

int tl_semi_mm(tl_tensor *out, const tl_tensor *values, const tl_tensor *meta, const tl_tensor *dense, bool left)
{
    /* left: S (M x K) @ dense (K x N); right: dense (M x K) @ S (K x N) */
    tl_dtype dt = (tl_dtype)values->dtype;
    if (dt != TL_FLOAT32 && dt != TL_INT32)
        return tl_err(TL_ERR_RUNTIME, "semi-structured mm: float32 or int32 values expected");
    if (dense->ndim != 2 || dense->dtype != dt) return tl_err(TL_ERR_RUNTIME, "semi-structured mm: operand mismatch");
    int64_t SM = values->sizes[0], SK = values->sizes[1] * 2;
    if (check_pair(values, meta, SK) < 0) return -1;
    int64_t M = left ? SM : dense->sizes[0], K = left ? SK : SM, N = left ? dense->sizes[1] : SK;
    if ((left ? dense->sizes[0] : dense->sizes[1]) != K)
        return tl_err(TL_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                      (long long)(left ? SM : dense->sizes[0]), (long long)(left ? SK : dense->sizes[1]),
                      (long long)(left ? dense->sizes[0] : SM), (long long)(left ? dense->sizes[1] : SK));
    tl_tensor v = {0}, m = {0}, d = {0};
    int64_t osz[2] = {M, N};
    int rc = -1;
    if (tl_contiguous(&v, values, TL_MEMFMT_CONTIGUOUS) < 0 || tl_contiguous(&m, meta, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_tensor_empty(out, 2, osz, dt, values->device, true) < 0)
        goto done;
    if (left && dt == TL_FLOAT32) { /* the packed kernel reads B through its strides */
        rc = semi_left_f32(out, &v, &m, dense, M, K, N);
        goto done;
    }
    if (tl_contiguous(&d, dense, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    semi_ctx x = {tl_data(&m), tl_data(&v), tl_data(&d), tl_data(out), M, K, N, m.sizes[1],
                  meta->dtype == TL_INT32 ? 32 : 16, left};
    void (*fn)(int64_t, int64_t, void *) = left ? semi_left_i32 : (dt == TL_FLOAT32 ? semi_right_f32 : semi_right_i32);
    tl_parallel_for(M, M * K * N >= (1 << 20) ? 1 : M + 1, fn, &x);
    rc = 0;
done:
    tl_tensor_clear(&v);
    tl_tensor_clear(&m);
    tl_tensor_clear(&d);
    return rc;
}
