/* semi.c - 2:4 semi-structured sparsity on the CPU: compression of a dense matrix whose
 * every group of 4 consecutive row elements holds at most 2 non-zeros into the kept values
 * (rows, cols / 2) and metadata (2 bits per kept element: its position in the group; the
 * group's 4-bit nibble has the first kept position in its low 2 bits, the nibbles of
 * consecutive groups fill a metadata word from its low bits: int16 words for 16- and
 * 32-bit values, int32 words for int8, as torch's seed describes), decompression, and the
 * products S @ B and A @ S reading only the kept values (half the bytes and multiplies of
 * the dense product). */
#include "sparse/semi.h"

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

/* out = S @ B for rows [r0, r1) of S, float32: 64-column panels of B, blocked by KB rows
 * of B (a 64 KB panel block stays in L2 while every row of the range uses it); the panel
 * row of the output is accumulated in eight 8-float vectors (registers), two kept values
 * of a group at a time. Each output element sums its terms in group order whatever the
 * vector width, so the clones agree bit for bit. */
TL_VDECL(float, v8f, int32_t, v8i)
#define KB 256
TL_CLONES_WIDE static void semi_left_f32(int64_t r0, int64_t r1, void *p)
{
    semi_ctx *x = p;
    const float *restrict val = x->val, *restrict b = x->b;
    float *restrict out = x->out;
    int64_t K = x->K, N = x->N;
    for (int64_t n0 = 0; n0 < N; n0 += 64) {
        int64_t nn = N - n0 < 64 ? N - n0 : 64;
        for (int64_t k0 = 0; k0 < K; k0 += KB) {
            int64_t g0 = k0 / 4, g1 = (k0 + KB < K ? k0 + KB : K) / 4;
            for (int64_t r = r0; r < r1; r++) {
                float *o = out + r * N + n0;
                if (nn == 64) {
                    v8f acc[8];
                    memcpy(acc, o, sizeof acc);
                    for (int64_t g = g0; g < g1; g++) {
                        uint32_t nb = nibble(x->meta, x->wb, x->W, r, g);
                        float s0 = val[r * (K / 2) + 2 * g], s1 = val[r * (K / 2) + 2 * g + 1];
                        v8f w0 = {s0, s0, s0, s0, s0, s0, s0, s0}, w1 = {s1, s1, s1, s1, s1, s1, s1, s1};
                        const float *b0 = b + (4 * g + (nb & 3)) * N + n0, *b1 = b + (4 * g + (nb >> 2)) * N + n0;
                        for (int q = 0; q < 8; q++) {
                            v8f x0, x1;
                            memcpy(&x0, b0 + 8 * q, sizeof x0);
                            memcpy(&x1, b1 + 8 * q, sizeof x1);
                            acc[q] += w0 * x0 + w1 * x1;
                        }
                    }
                    memcpy(o, acc, sizeof acc);
                } else {
                    for (int64_t g = g0; g < g1; g++) {
                        uint32_t nb = nibble(x->meta, x->wb, x->W, r, g);
                        float s0 = val[r * (K / 2) + 2 * g], s1 = val[r * (K / 2) + 2 * g + 1];
                        const float *b0 = b + (4 * g + (nb & 3)) * N + n0, *b1 = b + (4 * g + (nb >> 2)) * N + n0;
                        for (int64_t q = 0; q < nn; q++) o[q] += s0 * b0[q] + s1 * b1[q];
                    }
                }
            }
        }
    }
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
        tl_contiguous(&d, dense, TL_MEMFMT_CONTIGUOUS) < 0 || tl_tensor_empty(out, 2, osz, dt, values->device, true) < 0)
        goto done;
    semi_ctx x = {tl_data(&m), tl_data(&v), tl_data(&d), tl_data(out), M, K, N, m.sizes[1],
                  meta->dtype == TL_INT32 ? 32 : 16, left};
    void (*fn)(int64_t, int64_t, void *) = left ? (dt == TL_FLOAT32 ? semi_left_f32 : semi_left_i32)
                                                : (dt == TL_FLOAT32 ? semi_right_f32 : semi_right_i32);
    tl_parallel_for(M, M * K * N >= (1 << 20) ? 1 : M + 1, fn, &x);
    rc = 0;
done:
    tl_tensor_clear(&v);
    tl_tensor_clear(&m);
    tl_tensor_clear(&d);
    return rc;
}
