/* iter_tile.c - the iterator's tiled loop for operands in different layouts.
 *
 * When an input walks the iteration's inner dim with a large stride but is contiguous
 * along another dim (b in `a + b.T`, the source of `x.T.contiguous()`), the plain loop
 * hands the kernel one strided element at a time. Here the iteration runs in tiles of
 * TILE_RUN_BYTES of that other dim (rows) by up to the whole inner dim: each such input's tile is
 * transposed into a scratch buffer that stays in cache (reading runs of whole cache lines,
 * 4x4 register blocks for 4-byte elements), and the kernel gets each row of the tile with
 * that input contiguous, the other operands as they were. Only iterators built
 * with TL_ITER_TILE_INPUTS take this path (operand 0 is the only one written), and never
 * when a buffered input shares memory with operand 0, so results never depend on the
 * order the tiles run in. */
#include <stdlib.h>
#include <string.h>

#include "core/iter.h"
#include "core/parallel.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define TILE_RUN_BYTES 512    /* bytes read from each source line per tile: rows of the inputs' contiguous dim
                                 per tile = this / the widest buffered element (128 float32, 64 float64;
                                 256 bytes measured 8-13% slower on float32 at 2000^2 and 4096^2) */
#define TILE_BYTES (128 << 10) /* scratch per buffered input, at most (stays in L2) */
#define TILE_MAX_BUF 3        /* inputs buffered at most (binary and ternary ops) */
#define TILE_MIN_NUMEL 4096
/* Output bytes from which rows are written with non-temporal stores: beyond a typical L3 the
 * output's lines would be read from memory only to be overwritten (x.T copied into a 4096^2
 * float32: 11.6 -> 8.5 ms at 1 thread); below it they may still be cached, and streaming them
 * was slower (a + b.T at 2000^2, 16 MB: 3.9 -> 4.2 ms). */
#define TILE_STREAM_MIN ((int64_t)32 << 20)
#define TILE_PREFETCH 16      /* source rows read ahead: their lines are in different pages */

/* dst[j * ld + i] = src[j * sj + i * si] for j < nr, i < nc (ld in elements); the source
 * reads run along j. Lines TILE_PREFETCH columns ahead are prefetched: the hardware does
 * not follow strides that cross pages. */
#define TRANSPOSE_FN(NAME, T)                                                                \
    static void NAME(char *dst, int64_t ld, const char *src, int64_t nr, int64_t nc, int64_t si, int64_t sj) \
    {                                                                                        \
        T *d = (T *)dst;                                                                     \
        for (int64_t i = 0; i < nc; i++, src += si) {                                        \
            if (i + TILE_PREFETCH < nc) __builtin_prefetch(src + TILE_PREFETCH * si);        \
            for (int64_t j = 0; j < nr; j++) memcpy(&d[j * ld + i], src + j * sj, sizeof(T)); \
        }                                                                                    \
    }
typedef struct { uint64_t lo, hi; } tile_u128;
TRANSPOSE_FN(transpose1, uint8_t)
TRANSPOSE_FN(transpose2, uint16_t)
TRANSPOSE_FN(transpose16, tile_u128)
#if defined(__SSE2__)
TRANSPOSE_FN(transpose4_any, uint32_t)
TRANSPOSE_FN(transpose8_any, uint64_t)
/* The blocked transposes: B x B blocks of T in registers when the source runs forward
 * along j (BLOCK(d, ld, s, si) moves one block from the rows s, s + si, ... to d, d + ld,
 * ...), the edges through TAIL (a narrower transpose), other strides through ANY. */
#define BLOCKED_TRANSPOSE(NAME, ATTR, T, B, BLOCK, TAIL, ANY)                                        \
    ATTR static void NAME(char *dst, int64_t ld, const char *src, int64_t nr, int64_t nc, int64_t si, \
                          int64_t sj)                                                                \
    {                                                                                                \
        if (sj != sizeof(T)) {                                                                       \
            ANY(dst, ld, src, nr, nc, si, sj);                                                       \
            return;                                                                                  \
        }                                                                                            \
        T *d = (T *)dst;                                                                             \
        int64_t i = 0;                                                                               \
        for (; i + B <= nc; i += B) {                                                                \
            const char *s = src + i * si;                                                            \
            if (i + TILE_PREFETCH < nc)                                                              \
                for (int a = 0; a < B; a++) __builtin_prefetch(s + (TILE_PREFETCH + a) * si);       \
            int64_t j = 0;                                                                           \
            for (; j + B <= nr; j += B) BLOCK(d + j * ld + i, ld, s + sizeof(T) * j, si);            \
            if (j < nr) TAIL((char *)(d + j * ld + i), ld, s + sizeof(T) * j, nr - j, B, si, sj);    \
        }                                                                                            \
        if (i < nc) TAIL((char *)(d + i), ld, src + i * si, nr, nc - i, si, sj);                     \
    }

__attribute__((always_inline)) static inline void block4_sse(float *d, int64_t ld, const char *s, int64_t si)
{
    __m128 r0 = _mm_loadu_ps((const float *)s), r1 = _mm_loadu_ps((const float *)(s + si));
    __m128 r2 = _mm_loadu_ps((const float *)(s + 2 * si)), r3 = _mm_loadu_ps((const float *)(s + 3 * si));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(d, r0);
    _mm_storeu_ps(d + ld, r1);
    _mm_storeu_ps(d + 2 * ld, r2);
    _mm_storeu_ps(d + 3 * ld, r3);
}
__attribute__((always_inline)) static inline void block8_sse(double *d, int64_t ld, const char *s, int64_t si)
{
    __m128d r0 = _mm_loadu_pd((const double *)s), r1 = _mm_loadu_pd((const double *)(s + si));
    _mm_storeu_pd(d, _mm_unpacklo_pd(r0, r1));
    _mm_storeu_pd(d + ld, _mm_unpackhi_pd(r0, r1));
}
BLOCKED_TRANSPOSE(transpose4, , float, 4, block4_sse, transpose4_any, transpose4_any)
BLOCKED_TRANSPOSE(transpose8, , double, 2, block8_sse, transpose8_any, transpose8_any)

#if defined(__x86_64__) && defined(__GNUC__)
#define TILE_AVX2 1
#include <immintrin.h>
#define AVX2_ATTR __attribute__((target("avx2")))
/* 8x8 float32 and 4x4 float64 blocks in AVX2 registers (picked at run time, transpose_for). */
AVX2_ATTR __attribute__((always_inline)) static inline void block4_avx2(float *d, int64_t ld, const char *s, int64_t si)
{
    __m256 r[8], t[8], u[8];
    for (int a = 0; a < 8; a++) r[a] = _mm256_loadu_ps((const float *)(s + a * si));
    for (int a = 0; a < 8; a += 2) {
        t[a] = _mm256_unpacklo_ps(r[a], r[a + 1]);
        t[a + 1] = _mm256_unpackhi_ps(r[a], r[a + 1]);
    }
    for (int a = 0; a < 8; a += 4) {
        u[a] = _mm256_shuffle_ps(t[a], t[a + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[a + 1] = _mm256_shuffle_ps(t[a], t[a + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[a + 2] = _mm256_shuffle_ps(t[a + 1], t[a + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[a + 3] = _mm256_shuffle_ps(t[a + 1], t[a + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int a = 0; a < 4; a++) {
        _mm256_storeu_ps(d + a * ld, _mm256_permute2f128_ps(u[a], u[a + 4], 0x20));
        _mm256_storeu_ps(d + (a + 4) * ld, _mm256_permute2f128_ps(u[a], u[a + 4], 0x31));
    }
}
AVX2_ATTR __attribute__((always_inline)) static inline void block8_avx2(double *d, int64_t ld, const char *s, int64_t si)
{
    __m256d r0 = _mm256_loadu_pd((const double *)s), r1 = _mm256_loadu_pd((const double *)(s + si));
    __m256d r2 = _mm256_loadu_pd((const double *)(s + 2 * si)), r3 = _mm256_loadu_pd((const double *)(s + 3 * si));
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    _mm256_storeu_pd(d, _mm256_permute2f128_pd(t0, t2, 0x20));
    _mm256_storeu_pd(d + ld, _mm256_permute2f128_pd(t1, t3, 0x20));
    _mm256_storeu_pd(d + 2 * ld, _mm256_permute2f128_pd(t0, t2, 0x31));
    _mm256_storeu_pd(d + 3 * ld, _mm256_permute2f128_pd(t1, t3, 0x31));
}
BLOCKED_TRANSPOSE(transpose4_avx2, AVX2_ATTR, float, 8, block4_avx2, transpose4, transpose4_any)
BLOCKED_TRANSPOSE(transpose8_avx2, AVX2_ATTR, double, 4, block8_avx2, transpose8, transpose8_any)
#endif
#undef BLOCKED_TRANSPOSE
#else
TRANSPOSE_FN(transpose4, uint32_t)
TRANSPOSE_FN(transpose8, uint64_t)
#endif
#undef TRANSPOSE_FN

typedef void (*transpose_fn)(char *, int64_t, const char *, int64_t, int64_t, int64_t, int64_t);

/* dst[0, n) = src[0, n), the whole 64-byte lines of dst with non-temporal stores: a large
 * output is written without reading its lines first (partial lines take plain stores: a
 * partly streamed line costs a read and a write of memory). */
static void stream_row(char *dst, const char *src, int64_t n)
{
#if defined(__SSE2__)
    int64_t head = (int64_t)((64 - ((uintptr_t)dst & 63)) & 63);
    if (head > n) head = n;
    memcpy(dst, src, (size_t)head);
    int64_t i = head;
    for (; i + 64 <= n; i += 64)
        for (int q = 0; q < 64; q += 16)
            _mm_stream_si128((__m128i *)(dst + i + q), _mm_loadu_si128((const __m128i *)(src + i + q)));
    memcpy(dst + i, src + i, (size_t)(n - i));
#else
    memcpy(dst, src, (size_t)n);
#endif
}

static transpose_fn transpose_for(int64_t isz)
{
    switch (isz) {
    case 1: return transpose1;
    case 2: return transpose2;
#ifdef TILE_AVX2
    case 4: return __builtin_cpu_supports("avx2") ? transpose4_avx2 : transpose4;
    case 8: return __builtin_cpu_supports("avx2") ? transpose8_avx2 : transpose8;
#else
    case 4: return transpose4;
    case 8: return transpose8;
#endif
    case 16: return transpose16;
    default: return NULL;
    }
}

typedef struct {
    tl_iter it;                 /* dims reordered: 0 inner, 1 the buffered inputs' contiguous dim */
    tl_loop_fn fn;
    void *ctx;
    int nbuf;
    int buf_op[TILE_MAX_BUF];   /* operand index of each buffered input */
    transpose_fn tr[TILE_MAX_BUF];
    int64_t rows;               /* dim-1 elements per tile */
    int64_t cols;               /* inner-dim elements per tile */
    int64_t ld;                 /* bytes between scratch rows */
    bool stream_out;            /* operand 0's rows go through an L1 row and stream_row */
    int64_t nrb;                /* row blocks along dim 1 */
} tile_job;

/* Runs the tile rows [b, e): unit u is row block u % nrb of outer index u / nrb. */
static void tile_units(int64_t b, int64_t e, void *p)
{
    const tile_job *jb = p;
    const tl_iter *it = &jb->it;
    int nops = it->nops, nd = it->ndim;
    /* without scratch memory the chunk runs unbuffered (plain strided rows) */
    int nbuf = jb->nbuf;
    int64_t obytes = jb->stream_out ? jb->cols * it->isz[0] : 0;
    char *scratch = malloc((size_t)(nbuf * jb->rows * jb->ld + obytes));
    if (!scratch) nbuf = 0, obytes = 0;
    char *orow = obytes ? scratch + nbuf * jb->rows * jb->ld : NULL;
    int64_t lst[TL_ITER_MAX_OPS];
    char *slot[TL_ITER_MAX_OPS] = {0};
    for (int k = 0; k < nops; k++) lst[k] = it->strides[0][k];
    for (int q = 0; q < nbuf; q++) {
        lst[jb->buf_op[q]] = it->isz[jb->buf_op[q]];
        slot[jb->buf_op[q]] = scratch + q * jb->rows * jb->ld;
    }
    int64_t n0 = it->shape[0], n1 = it->shape[1];
    for (int64_t u = b; u < e; u++) {
        int64_t outer = u / jb->nrb, j0 = (u % jb->nrb) * jb->rows;
        int64_t nr = n1 - j0 < jb->rows ? n1 - j0 : jb->rows;
        char *base[TL_ITER_MAX_OPS], *ptr[TL_ITER_MAX_OPS];
        for (int k = 0; k < nops; k++) base[k] = it->data[k] + j0 * it->strides[1][k];
        for (int d = 2; d < nd; d++) {
            int64_t i = outer % it->shape[d];
            outer /= it->shape[d];
            for (int k = 0; k < nops; k++) base[k] += i * it->strides[d][k];
        }
        for (int64_t i0 = 0; i0 < n0; i0 += jb->cols) {
            int64_t nc = n0 - i0 < jb->cols ? n0 - i0 : jb->cols;
            for (int q = 0; q < nbuf; q++) {
                int k = jb->buf_op[q];
                jb->tr[q](slot[k], jb->ld / it->isz[k], base[k] + i0 * it->strides[0][k], nr, nc, it->strides[0][k],
                          it->strides[1][k]);
            }
            for (int64_t j = 0; j < nr; j++) {
                for (int k = 0; k < nops; k++)
                    ptr[k] = slot[k] ? slot[k] + j * jb->ld : base[k] + j * it->strides[1][k] + i0 * it->strides[0][k];
                if (!orow) {
                    jb->fn(ptr, lst, nc, jb->ctx);
                    continue;
                }
                char *out = ptr[0];
                ptr[0] = orow;
                jb->fn(ptr, lst, nc, jb->ctx);
                stream_row(out, orow, nc * it->isz[0]);
            }
        }
    }
#if defined(__SSE2__)
    if (orow) _mm_sfence(); /* the streamed lines are visible before the chunk counts as done */
#endif
    free(scratch);
}

/* Byte range [lo, hi) that operand k spans over the iteration. */
static void op_extent(const tl_iter *it, int k, char **lo, char **hi)
{
    char *l = it->data[k], *h = it->data[k] + it->isz[k];
    for (int d = 0; d < it->ndim; d++) {
        int64_t span = (it->shape[d] - 1) * it->strides[d][k];
        if (span < 0) l += span;
        else h += span;
    }
    *lo = l;
    *hi = h;
}

/* The dim (>= 1) along which input k is contiguous while its inner stride is large,
 * or -1. */
static int contiguous_dim(const tl_iter *it, int k)
{
    int64_t s0 = it->strides[0][k], isz = it->isz[k];
    if (s0 == 0 || llabs(s0) <= isz || !transpose_for(isz)) return -1;
    for (int d = 1; d < it->ndim; d++)
        if (llabs(it->strides[d][k]) == isz && it->shape[d] >= 4) return d;
    return -1;
}

int64_t tl_iter_tiled_runs;

int tl_iter_run_tiled(const tl_iter *it, tl_loop_fn fn, void *ctx, int64_t grain)
{
    if (!(it->flags & TL_ITER_TILE_INPUTS) || it->ndim < 2 || it->numel < TILE_MIN_NUMEL || it->shape[0] < 8)
        return 0;
    char *olo, *ohi;
    op_extent(it, 0, &olo, &ohi);
    int dim = -1, nbuf = 0, buf_op[TILE_MAX_BUF];
    for (int k = 1; k < it->nops && nbuf < TILE_MAX_BUF; k++) {
        int d = contiguous_dim(it, k);
        if (d < 0 || (dim >= 0 && d != dim)) continue;
        char *lo, *hi;
        op_extent(it, k, &lo, &hi);
        if (lo < ohi && olo < hi) continue; /* shares memory with the output: plain loop */
        dim = d;
        buf_op[nbuf++] = k;
    }
    if (!nbuf) return 0;
    tile_job job, *jb = &job;
    /* reorder the dims to 0, dim, then the rest outward */
    jb->it = *it;
    for (int d = dim; d > 1; d--) {
        jb->it.shape[d] = jb->it.shape[d - 1];
        memcpy(jb->it.strides[d], jb->it.strides[d - 1], sizeof(int64_t) * it->nops);
    }
    jb->it.shape[1] = it->shape[dim];
    memcpy(jb->it.strides[1], it->strides[dim], sizeof(int64_t) * it->nops);
    jb->fn = fn;
    jb->ctx = ctx;
    jb->nbuf = nbuf;
    int64_t maxsz = 1;
    for (int q = 0; q < nbuf; q++) {
        jb->buf_op[q] = buf_op[q];
        jb->tr[q] = transpose_for(it->isz[buf_op[q]]);
        if (it->isz[buf_op[q]] > maxsz) maxsz = it->isz[buf_op[q]];
    }
    /* tile columns: the whole inner dim when the scratch allows, else equal parts of whole
     * cache lines; scratch rows padded off multiples of 1 KB (rows at such strides share L1
     * sets) */
    jb->rows = TILE_RUN_BYTES / maxsz;
    int64_t n0 = jb->it.shape[0], maxcols = TILE_BYTES / (jb->rows * maxsz);
    int64_t parts = (n0 + maxcols - 1) / maxcols;
    jb->cols = (n0 + parts - 1) / parts;
    if (parts > 1) { /* whole cache lines per part */
        int64_t per_line = 64 / maxsz;
        jb->cols = (jb->cols + per_line - 1) / per_line * per_line;
    }
    jb->ld = (jb->cols * maxsz + 63) / 64 * 64;
    if (jb->ld % 1024 == 0) jb->ld += 64;
    jb->nrb = (jb->it.shape[1] + jb->rows - 1) / jb->rows;
    /* a large output contiguous along the inner dim is streamed out (its lines are not read) */
    jb->stream_out = jb->it.strides[0][0] == it->isz[0] && it->numel * it->isz[0] >= TILE_STREAM_MIN;
    int64_t units = it->numel / jb->it.shape[1] / jb->it.shape[0] * jb->nrb;
    int64_t per_unit = jb->rows * jb->it.shape[0];
    __atomic_fetch_add(&tl_iter_tiled_runs, 1, __ATOMIC_RELAXED);
    if (grain <= 0 || it->numel < grain) tile_units(0, units, jb);
    else tl_parallel_for(units, grain / per_unit + 1, tile_units, jb);
    return 1;
}
