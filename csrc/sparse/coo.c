/* coo.c - the COO kernels: coalesce (a stable LSD radix sort of linearized indices, then
 * duplicate rows summed), to_dense and the strided -> COO conversion (both split over the
 * thread pool by ranges of the strided side). Every kernel checks
 * the indices it reads against the size, so a tensor built with check_invariants=False
 * gives torch's error, never a wild write. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "ops/copy.h"
#include "sparse/sparse.h"

/* dst[0, R) += src[0, R) (bool: or) */
static void row_add(char *dst, const char *src, int64_t R, tl_dtype d)
{
    switch (d) {
    case TL_BOOL:
        for (int64_t i = 0; i < R; i++) dst[i] = (char)(dst[i] | src[i]);
        break;
#define ADD(ID, T)                                                                 \
    case TL_##ID: {                                                                \
        T *o = (T *)dst;                                                           \
        const T *s = (const T *)src;                                               \
        for (int64_t i = 0; i < R; i++) o[i] = (T)(o[i] + s[i]);                   \
        break;                                                                     \
    }
        TL_SPARSE_NATIVE_LIST(ADD)
#undef ADD
    default: break;
    }
}

int tl_coo_bounds_error(int64_t d, int64_t v, int64_t size)
{
    if (v < 0) return tl_err(TL_ERR_RUNTIME, "found negative index %lld for dim %lld", (long long)v, (long long)d);
    return tl_err(TL_ERR_RUNTIME, "size is inconsistent with indices: for dim %lld, size is %lld but found index %lld",
                  (long long)d, (long long)size, (long long)v);
}


int tl_coo_linearize(const tl_tensor *src, uint64_t *keys, bool *fits, uint64_t *maxkey)
{
    const tl_sparse *s = src->sparse;
    int sd = s->sparse_dim;
    int64_t nse = s->indices.sizes[1], span = 1;
    *fits = true;
    for (int d = 0; d < sd; d++)
        if (__builtin_mul_overflow(span, src->sizes[d], &span)) *fits = false;
    if (!*fits) {
        for (int d = 0; d < sd; d++)
            for (int64_t i = 0; i < nse; i++) {
                int64_t v = tl_coo_index_at(&s->indices, d, i);
                if (v < 0 || v >= src->sizes[d]) return tl_coo_bounds_error(d, v, src->sizes[d]);
            }
        return 0;
    }
    *maxkey = span > 0 ? (uint64_t)span - 1 : 0;
    if (sd == 0) memset(keys, 0, sizeof(uint64_t) * nse);
    const int64_t *ind = (const int64_t *)tl_data(&s->indices);
    int64_t s0 = s->indices.strides[0], s1 = s->indices.strides[1];
    for (int d = 0; d < sd; d++) { /* dim 0 sets the keys, every later one scales and adds */
        uint64_t n = (uint64_t)src->sizes[d], scale = d ? n : 0;
        const int64_t *row = ind + d * s0;
        for (int64_t i = 0; i < nse; i++) {
            int64_t v = row[i * s1];
            if ((uint64_t)v >= n) return tl_coo_bounds_error(d, v, (int64_t)n);
            keys[i] = (d ? keys[i] * scale : 0) + (uint64_t)v;
        }
    }
    return 0;
}

/* Stable LSD radix sort of keys by their bits [lo, lo + bits), moving perm alongside
 * unless it is NULL (then the keys carry their payload below bit lo). tk/tp: scratch of n.
 * Digits of <= 11 bits, as few passes as the bits need; one read makes every histogram. */
int tl_coo_radix_sort(uint64_t *keys, int64_t *perm, int64_t n, int lo, int bits, uint64_t *tk, int64_t *tp)
{
    if (!bits || n < 2) return 0;
    int passes = (bits + 10) / 11, width = (bits + passes - 1) / passes;
    size_t nb = (size_t)1 << width, mask = nb - 1;
    int64_t *count = calloc(nb * (size_t)passes, sizeof(int64_t));
    if (!count) return tl_err(TL_ERR_MEMORY, "out of memory");
    for (int64_t i = 0; i < n; i++) {
        uint64_t k = keys[i] >> lo;
        for (int p = 0; p < passes; p++) count[(size_t)p * nb + ((k >> (p * width)) & mask)]++;
    }
    for (int p = 0; p < passes; p++) {
        int64_t *c = count + (size_t)p * nb, sum = 0;
        for (size_t b = 0; b < nb; b++) {
            int64_t x = c[b];
            c[b] = sum;
            sum += x;
        }
    }
    for (int p = 0; p < passes; p++) {
        int64_t *c = count + (size_t)p * nb;
        int shift = lo + p * width;
        if (perm) {
            for (int64_t i = 0; i < n; i++) {
                int64_t at = c[(keys[i] >> shift) & mask]++;
                tk[at] = keys[i];
                tp[at] = perm[i];
            }
            int64_t *q = perm; perm = tp; tp = q;
        } else {
            for (int64_t i = 0; i < n; i++) tk[c[(keys[i] >> shift) & mask]++] = keys[i];
        }
        uint64_t *k = keys; keys = tk; tk = k;
    }
    free(count);
    if (passes & 1) { /* results sit in the caller's scratch: copy back */
        memcpy(tk, keys, sizeof(uint64_t) * n);
        if (perm) memcpy(tp, perm, sizeof(int64_t) * n);
    }
    return 0;
}

bool tl_coo_indices_sorted_unique(const tl_tensor *src)
{
    const tl_sparse *s = src->sparse;
    int64_t nse = s->indices.sizes[1];
    for (int64_t i = 1; i < nse; i++) {
        int d = 0;
        while (d < s->sparse_dim && tl_coo_index_at(&s->indices, d, i) == tl_coo_index_at(&s->indices, d, i - 1)) d++;
        if (d == s->sparse_dim || tl_coo_index_at(&s->indices, d, i) < tl_coo_index_at(&s->indices, d, i - 1)) return false;
    }
    return true;
}

int tl_coo_cmp_entries(const tl_tensor *a, int64_t i, const tl_tensor *b, int64_t j, int sd)
{
    for (int d = 0; d < sd; d++) {
        int64_t x = tl_coo_index_at(a, d, i), y = tl_coo_index_at(b, d, j);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

static int64_t row_elems(const tl_tensor *values)
{
    int64_t r = 1;
    for (int i = 1; i < values->ndim; i++) r *= values->sizes[i];
    return r;
}

/* out row g = the sum (bool: or) of the rows perm[i] of `in` over the i of group g, where
 * first[i] opens a group; rows of R elements of dtype d, contiguous. */
static void sum_groups(char *out, const char *in, const int64_t *perm, const uint8_t *first, int64_t n, int64_t R,
                       tl_dtype d)
{
    if (R == 1) { /* one element per row: a typed gather, the common case */
        switch (d) {
#define GATHER(ID, T)                                                              \
    case TL_##ID: {                                                                \
        T *o = (T *)out;                                                           \
        const T *x = (const T *)in;                                                \
        for (int64_t i = 0, g = -1; i < n; i++) {                                  \
            T v = x[perm[i]];                                                      \
            if (first[i]) o[++g] = v;                                              \
            else o[g] = (T)(o[g] + v);                                             \
        }                                                                          \
        return;                                                                    \
    }
            TL_SPARSE_NATIVE_LIST(GATHER)
#undef GATHER
        default: break;
        }
    }
    int64_t rb = R * tl_dtype_infos[d].itemsize;
    for (int64_t i = 0, g = -1; i < n; i++) {
        if (first[i]) memcpy(out + ++g * rb, in + perm[i] * rb, (size_t)rb);
        else row_add(out + g * rb, in + perm[i] * rb, R, d);
    }
}

/* coalesce when the linear keys span no more positions than there are entries (a sum over
 * most sparse dims, say): one sequential pass adds each entry into a dense accumulator
 * at its key (the first one copied, so a lone -0.0 stays), then the occupied keys are
 * read out in order. Per key the entries are summed in stored order, as the stable sort
 * of the general path sums them. Returns 1 when done, 0 when the values are not rows of
 * one native element, -1 on error. */
static int coalesce_dense_keys(tl_tensor *out, const tl_tensor *src, const uint64_t *keys, uint64_t maxkey)
{
    const tl_sparse *s = src->sparse;
    int sd = s->sparse_dim;
    int64_t nse = s->indices.sizes[1], span = (int64_t)maxkey + 1, m = 0;
    tl_dtype dt = (tl_dtype)s->values.dtype, acc = tl_sparse_acc_dtype(dt);
    if (row_elems(&s->values) != 1) return 0;
    switch (acc) {
    case TL_BOOL:
#define OK(ID, T) case TL_##ID:
        TL_SPARSE_NATIVE_LIST(OK)
#undef OK
        break;
    default: return 0;
    }
    tl_tensor vals = {0}, nind = {0}, nval = {0}, cast = {0};
    const tl_tensor *vin = &s->values;
    int64_t isz = tl_dtype_infos[acc].itemsize;
    char *sum = malloc((size_t)(span * isz));
    uint8_t *seen = calloc((size_t)span, 1);
    int rc = -1;
    if (!sum || !seen) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    if (acc != dt || !tl_is_contiguous(vin)) {
        if (tl_clone(&vals, vin, acc, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
        vin = &vals;
    }
    switch (acc) {
#define ACCUM(T, ADD)                                                                      \
    {                                                                                     \
        T *o = (T *)sum;                                                                  \
        const T *v = (const T *)tl_data(vin);                                             \
        for (int64_t i = 0; i < nse; i++) {                                               \
            uint64_t k = keys[i];                                                         \
            if (seen[k]) o[k] = (T)ADD(o[k], v[i]);                                       \
            else {                                                                        \
                o[k] = v[i];                                                              \
                seen[k] = 1;                                                              \
            }                                                                             \
        }                                                                                 \
        break;                                                                            \
    }
#define BOR(p, q) ((p) | (q))
#define BADD(p, q) ((p) + (q))
    case TL_BOOL: ACCUM(uint8_t, BOR)
#define CASE(ID, T) case TL_##ID: ACCUM(T, BADD)
        TL_SPARSE_NATIVE_LIST(CASE)
#undef CASE
#undef BADD
#undef BOR
#undef ACCUM
    default: break;
    }
    for (int64_t k = 0; k < span; k++) m += seen[k];
    int64_t isz2[2] = {sd, m}, vsz[TL_MAX_DIMS];
    memcpy(vsz, vin->sizes, sizeof(int64_t) * vin->ndim);
    vsz[0] = m;
    if (tl_tensor_empty(&nind, 2, isz2, TL_INT64, src->device, false) < 0 ||
        tl_tensor_empty(&nval, vin->ndim, vsz, acc, src->device, false) < 0)
        goto done;
    int64_t *ni = (int64_t *)tl_data(&nind);
    char *vo = tl_data(&nval);
    for (int64_t k = 0, g = 0; k < span; k++) {
        if (!seen[k]) continue;
        uint64_t r = (uint64_t)k;
        for (int d = sd - 1; d > 0; d--) {
            uint64_t n = (uint64_t)src->sizes[d], q = r / n;
            ni[d * m + g] = (int64_t)(r - q * n);
            r = q;
        }
        if (sd > 0) ni[g] = (int64_t)r;
        memcpy(vo + g * isz, sum + k * isz, (size_t)isz);
        g++;
    }
    if (acc != dt && tl_clone(&cast, &nval, dt, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    rc = tl_coo_wrap(out, &nind, acc != dt ? &cast : &nval, src->ndim, src->sizes, true) < 0 ? -1 : 1;
done:
    free(sum);
    free(seen);
    tl_tensor_clear(&vals);
    tl_tensor_clear(&nind);
    tl_tensor_clear(&nval);
    tl_tensor_clear(&cast);
    return rc;
}

int tl_coo_coalesce(tl_tensor *out, const tl_tensor *src)
{
    const tl_sparse *s = src->sparse;
    int sd = s->sparse_dim;
    int64_t nse = s->indices.sizes[1];
    tl_dtype dt = (tl_dtype)s->values.dtype, acc = tl_sparse_acc_dtype(dt);
    uint64_t *keys = malloc(sizeof(uint64_t) * (2 * nse + 1));
    int64_t *perm = NULL, *perm_own = NULL;
    uint8_t *first = malloc((size_t)nse + 1);
    tl_tensor vals = {0}, nind = {0}, nval = {0}, cast = {0};
    int rc = -1;
    bool fits = false;
    uint64_t maxkey = 0;
    if (!keys || !first) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    if (tl_coo_linearize(src, keys, &fits, &maxkey) < 0) goto done;
    if (fits && nse > 0 && maxkey < (uint64_t)nse) {
        int r = coalesce_dense_keys(out, src, keys, maxkey);
        if (r != 0) {
            rc = r < 0 ? -1 : 0;
            goto done;
        }
    }
    int kb = tl_bit_width(maxkey), pb = tl_bit_width((uint64_t)nse);
    if (fits && kb + pb <= 64) { /* positions ride below the keys: one array to move */
        for (int64_t i = 0; i < nse; i++) keys[i] = keys[i] << pb | (uint64_t)i;
        if (tl_coo_radix_sort(keys, NULL, nse, pb, kb, keys + nse, NULL) < 0) goto done;
        uint64_t pmask = ((uint64_t)1 << pb) - 1;
        perm = (int64_t *)(keys + nse); /* the sort's scratch half, free now */
        for (int64_t i = 0; i < nse; i++) {
            perm[i] = (int64_t)(keys[i] & pmask);
            keys[i] >>= pb;
        }
    } else {
        perm = perm_own = malloc(sizeof(int64_t) * (2 * nse + 1));
        if (!perm) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
        for (int64_t i = 0; i < nse; i++) perm[i] = i;
        if (fits) {
            if (tl_coo_radix_sort(keys, perm, nse, 0, kb, keys + nse, perm + nse) < 0) goto done;
        } else { /* sizes too large to linearize: one stable pass per sparse dim, last dim first */
            for (int d = sd - 1; d >= 0; d--) {
                for (int64_t i = 0; i < nse; i++) keys[i] = (uint64_t)tl_coo_index_at(&s->indices, d, perm[i]);
                if (tl_coo_radix_sort(keys, perm, nse, 0, tl_bit_width((uint64_t)src->sizes[d] - 1), keys + nse, perm + nse) < 0)
                    goto done;
            }
        }
    }
    /* group boundaries: entry i opens a group when its indices differ from i - 1's */
    int64_t m = 0;
    for (int64_t i = 0; i < nse; i++) {
        bool start = i == 0;
        if (!start && fits) start = keys[i] != keys[i - 1];
        for (int d = 0; !start && !fits && d < sd; d++)
            start = tl_coo_index_at(&s->indices, d, perm[i]) != tl_coo_index_at(&s->indices, d, perm[i - 1]);
        first[i] = start;
        m += start;
    }
    int64_t isz[2] = {sd, m};
    if (tl_tensor_empty(&nind, 2, isz, TL_INT64, src->device, false) < 0) goto done;
    int64_t *ni = (int64_t *)tl_data(&nind);
    if (fits && sd > 0) { /* the indices back from the sorted keys: no random reads */
        for (int64_t i = 0, g = -1; i < nse; i++) {
            if (!first[i]) continue;
            uint64_t k = keys[i];
            g++;
            for (int d = sd - 1; d > 0; d--) {
                uint64_t n = (uint64_t)src->sizes[d], q = maxkey < UINT32_MAX ? (uint32_t)k / (uint32_t)n : k / n;
                ni[d * m + g] = (int64_t)(k - q * n);
                k = q;
            }
            ni[g] = (int64_t)k;
        }
    } else {
        for (int64_t i = 0, g = -1; i < nse; i++)
            if (first[i]) {
                g++;
                for (int d = 0; d < sd; d++) ni[d * m + g] = tl_coo_index_at(&s->indices, d, perm[i]);
            }
    }
    const tl_tensor *vin = &s->values;
    if (acc != dt || !tl_is_contiguous(vin)) {
        if (tl_clone(&vals, vin, acc, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
        vin = &vals;
    }
    int64_t vsz[TL_MAX_DIMS];
    memcpy(vsz, vin->sizes, sizeof(int64_t) * vin->ndim);
    vsz[0] = m;
    if (tl_tensor_empty(&nval, vin->ndim, vsz, acc, src->device, false) < 0) goto done;
    sum_groups(tl_data(&nval), tl_data(vin), perm, first, nse, row_elems(vin), acc);
    if (acc != dt && tl_clone(&cast, &nval, dt, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    rc = tl_coo_wrap(out, &nind, acc != dt ? &cast : &nval, src->ndim, src->sizes, true);
done:
    free(keys);
    free(perm_own);
    free(first);
    tl_tensor_clear(&vals);
    tl_tensor_clear(&nind);
    tl_tensor_clear(&nval);
    tl_tensor_clear(&cast);
    return rc;
}

/* ---- COO <-> strided ------------------------------------------------------------------ */

/* The first i in [0, n) with k[i] >= x (n when none); k ascending. */
static int64_t lower_bound(const uint64_t *k, int64_t n, uint64_t x)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (k[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

typedef struct {
    char *out;          /* the strided result, rows of rb bytes at each sparse position */
    const char *vals;   /* the values, contiguous rows of rb bytes */
    const uint64_t *keys; /* linear sparse position of each entry, strictly ascending when `scatter` */
    int64_t nse, rb;
    bool scatter;       /* copy the entries of each range after zeroing it */
} dense_fill;

/* Sparse positions [b, e) of the result: zeroed, then (sorted unique entries) the
 * entries that fall there copied in. Ranges are disjoint, so threads never share a byte. */
static void fill_range(int64_t b, int64_t e, void *ctx)
{
    const dense_fill *c = ctx;
    memset(c->out + b * c->rb, 0, (size_t)((e - b) * c->rb));
    if (!c->scatter) return;
    for (int64_t i = lower_bound(c->keys, c->nse, (uint64_t)b); i < c->nse && c->keys[i] < (uint64_t)e; i++)
        tl_copy_row(c->out + (int64_t)c->keys[i] * c->rb, c->vals + i * c->rb, c->rb);
}

int tl_coo_to_dense(tl_tensor *out, const tl_tensor *src)
{
    const tl_sparse *s = src->sparse;
    int64_t nse = s->indices.sizes[1], span = 1;
    for (int d = 0; d < s->sparse_dim; d++)
        if (__builtin_mul_overflow(span, src->sizes[d], &span)) span = 0; /* then numel is 0 or overflows too */
    tl_dtype dt = (tl_dtype)s->values.dtype;
    tl_tensor vals = {0}, dense = {0};
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)(nse + 1)), maxkey = 0;
    bool fits = true, sorted = true;
    int rc = -1;
    if (!keys) return tl_err(TL_ERR_MEMORY, "out of memory");
    /* every index checked before the first write; sizes whose product overflows cannot
     * make a strided tensor either (tl_tensor_empty says so) */
    if (tl_tensor_empty(&dense, src->ndim, src->sizes, dt, src->device, false) < 0 ||
        tl_coo_linearize(src, keys, &fits, &maxkey) < 0)
        goto done;
    for (int64_t i = 1; i < nse && sorted && fits; i++) sorted = keys[i] > keys[i - 1];
    /* strictly ascending positions (what coalesced means, whatever the flag says): every
     * result row is written once, so ranges of the result fill in parallel; duplicates are
     * summed serially in the accumulation dtype */
    tl_dtype acc = sorted ? dt : tl_sparse_acc_dtype(dt);
    if (acc != dt) {
        tl_tensor_clear(&dense);
        if (tl_tensor_empty(&dense, src->ndim, src->sizes, acc, src->device, false) < 0) goto done;
    }
    if ((acc == dt ? tl_contiguous(&vals, &s->values, TL_MEMFMT_CONTIGUOUS)
                   : tl_clone(&vals, &s->values, acc, TL_MEMFMT_CONTIGUOUS)) < 0)
        goto done;
    int64_t rb = row_elems(&vals) * tl_itemsize(&vals);
    if (span > 0 && rb > 0) {
        dense_fill c = {tl_data(&dense), tl_data(&vals), keys, nse, rb, sorted};
        int64_t grain = rb >= ((int64_t)1 << 18) ? 1 : ((int64_t)1 << 18) / rb; /* ~256 KB per range */
        tl_parallel_for(span, grain, fill_range, &c);
        if (!sorted)
            for (int64_t i = 0; i < nse; i++)
                row_add(c.out + (int64_t)keys[i] * rb, c.vals + i * rb, rb / tl_itemsize(&vals), acc);
    }
    rc = acc != dt ? tl_clone(out, &dense, dt, TL_MEMFMT_CONTIGUOUS) : tl_tensor_alias(out, &dense);
done:
    free(keys);
    tl_tensor_clear(&vals);
    tl_tensor_clear(&dense);
    return rc;
}

/* The non-zero test of dtype d as bit masks: an element is `words` unsigned words of
 * `width` bytes, non-zero when some word has a bit of `mask` set (-0.0 is zero, NaN is
 * not: the sign bit is masked off floating types). */
static void zero_test(tl_dtype d, int *width, int *words, uint64_t *mask)
{
    int size = tl_dtype_infos[d].itemsize;
    *width = size > 8 ? 8 : size;
    *words = size / *width;
    *mask = *width == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * *width)) - 1;
    switch (d) {
    case TL_FLOAT16: case TL_BFLOAT16: *mask = 0x7fff; break;
    case TL_FLOAT8_E4M3FN: case TL_FLOAT8_E5M2: *mask = 0x7f; break;
    case TL_COMPLEX32: *mask = 0x7fff7fffu; break;
    case TL_FLOAT32: *mask = 0x7fffffffu; break;
    case TL_FLOAT64: case TL_COMPLEX128: *mask = 0x7fffffffffffffffull; break;
    case TL_COMPLEX64: *mask = 0x7fffffff7fffffffull; break;
    default: break;
    }
}

/* (sparse.h) keep[p] = whether row p (of R elements) has a non-zero element, by the same
 * bit-mask test; returns the number of such rows. */
int64_t tl_mark_nonzero_rows(const char *in, int64_t P, int64_t R, tl_dtype d, uint8_t *keep)
{
    int width, words;
    uint64_t mask;
    zero_test(d, &width, &words, &mask);
    int64_t rw = R * words, m = 0;
#define MARK(U)                                                                     \
    {                                                                              \
        const U *w = (const U *)in, msk = (U)mask;                                 \
        for (int64_t p = 0; p < P; p++) {                                          \
            U a = 0;                                                               \
            for (int64_t i = p * rw; i < (p + 1) * rw; i++) a |= w[i] & msk;       \
            m += keep[p] = a != 0;                                                 \
        }                                                                          \
    }
    switch (width) {
    case 1: MARK(uint8_t) break;
    case 2: MARK(uint16_t) break;
    case 4: MARK(uint32_t) break;
    default: MARK(uint64_t) break;
    }
#undef MARK
    return m;
}

/* The non-zero rows one range of a strided tensor holds: their positions and a copy of
 * their bytes, grown as found. n = -1 after running out of memory. */
typedef struct {
    int64_t *pos;
    char *val;
    int64_t n, cap;
} hit_list;

/* Room for `more` rows past L->n (rows of rb bytes). */
static bool hit_reserve(hit_list *L, int64_t more, int64_t rb)
{
    if (L->n + more <= L->cap) return true;
    int64_t cap = L->cap ? 2 * L->cap : 256;
    while (cap < L->n + more) cap *= 2;
    int64_t *pos = realloc(L->pos, sizeof(int64_t) * (size_t)cap);
    if (pos) L->pos = pos;
    char *val = pos ? realloc(L->val, (size_t)(cap * rb)) : NULL;
    if (!val) return false;
    L->val = val;
    L->cap = cap;
    return true;
}

static inline bool hit_push(hit_list *L, int64_t p, const char *row, int64_t rb)
{
    if (L->n == L->cap && !hit_reserve(L, 1, rb)) return false;
    L->pos[L->n] = p;
    tl_copy_row(L->val + L->n * rb, row, rb);
    L->n++;
    return true;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define TL_LINE_SCAN 1
/* Rows [p0, p1) of one element of S bytes each (the all-sparse case), 64 bytes at a time:
 * the bytes of a line masked by the zero test's bits (`bmask`, the per-byte pattern of
 * the word mask; periodic in 16 bytes) and compared with zero give a 64-bit mask of its
 * non-zero bytes; folded down to each element's first byte, its set bits are the hits,
 * visited by count-trailing-zeros (no branch per element); a line of zeros is skipped
 * after one test of the OR of its four vectors. Rows past the last whole line
 * take the word loop. SSE2 is in every x86-64. */
#define LINE_SCAN_FN(S, LG)                                                                 \
    static bool line_scan_##S(const char *in, int64_t p0, int64_t p1, __m128i bmask, hit_list *L) \
    {                                                                                       \
        const int64_t per = 64 / S;                                                         \
        uint64_t first = 0;                                                                 \
        for (int b = 0; b < 64; b += S) first |= (uint64_t)1 << b;                          \
        const __m128i zero = _mm_setzero_si128();                                           \
        int64_t p = p0;                                                                     \
        for (; p + per <= p1; p += per) {                                                   \
            const char *q = in + p * S;                                                     \
            __m128i a0 = _mm_and_si128(_mm_loadu_si128((const __m128i *)q), bmask);         \
            __m128i a1 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(q + 16)), bmask);  \
            __m128i a2 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(q + 32)), bmask);  \
            __m128i a3 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(q + 48)), bmask);  \
            __m128i any = _mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3));             \
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, zero)) == 0xffff) continue;          \
            uint64_t z = (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, zero)) |       \
                         (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, zero)) << 16 | \
                         (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a2, zero)) << 32 | \
                         (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a3, zero)) << 48;  \
            uint64_t nz = ~z;                                                               \
            if (!nz) continue;                                                              \
            for (int k = 1; k < S; k <<= 1) nz |= nz >> k;                                  \
            nz &= first;                                                                    \
            if (!nz) continue;                                                              \
            if (!hit_reserve(L, per, S)) return false;                                      \
            int64_t n = L->n;                                                               \
            do {                                                                            \
                int b = __builtin_ctzll(nz);                                                \
                L->pos[n] = p + (b >> LG);                                                  \
                memcpy(L->val + n * S, q + b, S);                                           \
                n++;                                                                        \
                nz &= nz - 1;                                                               \
            } while (nz);                                                                   \
            L->n = n;                                                                       \
        }                                                                                   \
        const uint8_t *pat = (const uint8_t *)&bmask;                                       \
        for (; p < p1; p++) {                                                               \
            uint8_t a = 0;                                                                  \
            for (int k = 0; k < S; k++) a |= (uint8_t)(in[p * S + k] & pat[k]);             \
            if (a && !hit_push(L, p, in + p * S, S)) return false;                          \
        }                                                                                   \
        return true;                                                                        \
    }
LINE_SCAN_FN(1, 0)
LINE_SCAN_FN(2, 1)
LINE_SCAN_FN(4, 2)
LINE_SCAN_FN(8, 3)
LINE_SCAN_FN(16, 4)
#undef LINE_SCAN_FN
#endif

/* Rows [p0, p1) of `in` (rows of rw words of type U, non-zero when a word has a bit of
 * `msk`) into L. One-word rows (the all-sparse case) are tested 16 at a time by an OR the
 * compiler vectorizes; at 1% density most such blocks are skipped whole. */
#define SCAN_FN(U)                                                                          \
    static bool scan_##U(const char *in, int64_t p0, int64_t p1, int64_t rw, U msk, int64_t rb, hit_list *L) \
    {                                                                                       \
        const U *w = (const U *)in;                                                         \
        int64_t p = p0;                                                                     \
        if (rw == 1) {                                                                      \
            for (; p + 16 <= p1; p += 16) {                                                 \
                U any = 0;                                                                  \
                for (int k = 0; k < 16; k++) any |= w[p + k];                               \
                if (!(any & msk)) continue;                                                 \
                for (int k = 0; k < 16; k++)                                                \
                    if ((w[p + k] & msk) && !hit_push(L, p + k, in + (p + k) * rb, rb)) return false; \
            }                                                                               \
        }                                                                                   \
        for (; p < p1; p++) {                                                               \
            U a = 0;                                                                        \
            for (int64_t i = p * rw; i < (p + 1) * rw; i++) a |= w[i];                      \
            if ((a & msk) && !hit_push(L, p, in + p * rb, rb)) return false;                \
        }                                                                                   \
        return true;                                                                        \
    }
SCAN_FN(uint8_t)
SCAN_FN(uint16_t)
SCAN_FN(uint32_t)
SCAN_FN(uint64_t)
#undef SCAN_FN

typedef struct {
    const char *in;
    int64_t P, rb, rw, rows; /* rows per chunk */
    int width;
    uint64_t mask;
    bool lines;              /* one element per row: the line scan */
    hit_list *lists;         /* one per chunk */
    /* the second pass */
    const int64_t *first;    /* first result entry of each chunk */
    int64_t *ni, m;
    char *vo;
    int sd;
    const int64_t *sizes;
} to_coo_ctx;

static void scan_chunks(int64_t b, int64_t e, void *ctx)
{
    const to_coo_ctx *c = ctx;
    for (int64_t k = b; k < e; k++) {
        int64_t p0 = k * c->rows, p1 = p0 + c->rows < c->P ? p0 + c->rows : c->P;
        hit_list *L = &c->lists[k];
        bool ok;
#ifdef TL_LINE_SCAN
        if (c->lines) {
            uint8_t pat[16];
            for (int b = 0; b < 16; b++) pat[b] = (uint8_t)(c->mask >> (8 * (b % c->width)));
            __m128i bm = _mm_loadu_si128((const __m128i *)pat);
            switch (c->rb) {
            case 1: ok = line_scan_1(c->in, p0, p1, bm, L); break;
            case 2: ok = line_scan_2(c->in, p0, p1, bm, L); break;
            case 4: ok = line_scan_4(c->in, p0, p1, bm, L); break;
            case 8: ok = line_scan_8(c->in, p0, p1, bm, L); break;
            default: ok = line_scan_16(c->in, p0, p1, bm, L); break;
            }
            if (!ok) L->n = -1;
            continue;
        }
#endif
        switch (c->width) {
        case 1: ok = scan_uint8_t(c->in, p0, p1, c->rw, (uint8_t)c->mask, c->rb, L); break;
        case 2: ok = scan_uint16_t(c->in, p0, p1, c->rw, (uint16_t)c->mask, c->rb, L); break;
        case 4: ok = scan_uint32_t(c->in, p0, p1, c->rw, (uint32_t)c->mask, c->rb, L); break;
        default: ok = scan_uint64_t(c->in, p0, p1, c->rw, c->mask, c->rb, L); break;
        }
        if (!ok) L->n = -1;
    }
}

/* Each chunk's hits into the result: their indices (the row position split over the
 * sparse dims; divisions by a double reciprocal, exact after one correction, while
 * positions stay below 2^52) and their bytes. */
static void emit_chunks(int64_t b, int64_t e, void *ctx)
{
    const to_coo_ctx *c = ctx;
    double inv[TL_MAX_DIMS];
    bool fast = c->P < ((int64_t)1 << 52);
    for (int d = 0; d < c->sd; d++) inv[d] = 1.0 / (double)c->sizes[d];
    for (int64_t k = b; k < e; k++) {
        const hit_list *L = &c->lists[k];
        int64_t at = c->first[k];
        for (int64_t j = 0; j < L->n; j++) {
            int64_t r = L->pos[j];
            for (int d = c->sd - 1; d > 0; d--) {
                int64_t n = c->sizes[d], q = fast ? (int64_t)((double)r * inv[d]) : r / n, rem = r - q * n;
                if (rem < 0) { q--; rem += n; }
                else if (rem >= n) { q++; rem -= n; }
                c->ni[d * c->m + at + j] = rem;
                r = q;
            }
            if (c->sd > 0) c->ni[at + j] = r;
        }
        if (L->n > 0) memcpy(c->vo + at * c->rb, L->val, (size_t)(L->n * c->rb));
    }
}

int tl_dense_to_coo(tl_tensor *out, const tl_tensor *src, int sparse_dim)
{
    tl_tensor c = {0}, nind = {0}, nval = {0};
    int rc = -1;
    int64_t P = 1, R = 1, m = 0, nchunks = 0, *first = NULL;
    hit_list *lists = NULL;
    for (int d = 0; d < src->ndim; d++) *(d < sparse_dim ? &P : &R) *= src->sizes[d];
    if (R == 0) P = 0; /* no element to be non-zero: no row scan (P may be huge then) */
    tl_dtype dt = (tl_dtype)src->dtype;
    if (tl_contiguous(&c, src, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    int words;
    to_coo_ctx x = {.in = tl_data(&c), .P = P, .rb = R * tl_itemsize(&c), .sd = sparse_dim, .sizes = src->sizes};
    zero_test(dt, &x.width, &words, &x.mask);
    x.rw = R * words;
#ifdef TL_LINE_SCAN
    x.lines = x.rb == tl_itemsize(&c) && (x.rb == 1 || x.rb == 2 || x.rb == 4 || x.rb == 8 || x.rb == 16);
#endif
    x.rows = x.rb >= ((int64_t)1 << 20) ? 1 : ((int64_t)1 << 20) / (x.rb ? x.rb : 1); /* ~1 MB of input per chunk */
    nchunks = (P + x.rows - 1) / x.rows;
    lists = calloc((size_t)nchunks + 1, sizeof *lists);
    first = malloc(sizeof(int64_t) * (size_t)(nchunks + 1));
    if (!lists || !first) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    x.lists = lists;
    tl_parallel_for(nchunks, 1, scan_chunks, &x);
    for (int64_t k = 0; k < nchunks; k++) {
        if (lists[k].n < 0) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
        first[k] = m;
        m += lists[k].n;
    }
    int64_t isz[2] = {sparse_dim, m}, vsz[TL_MAX_DIMS];
    vsz[0] = m;
    memcpy(vsz + 1, src->sizes + sparse_dim, sizeof(int64_t) * (src->ndim - sparse_dim));
    if (tl_tensor_empty(&nind, 2, isz, TL_INT64, src->device, false) < 0 ||
        tl_tensor_empty(&nval, 1 + src->ndim - sparse_dim, vsz, dt, src->device, false) < 0)
        goto done;
    x.first = first;
    x.ni = (int64_t *)tl_data(&nind);
    x.vo = tl_data(&nval);
    x.m = m;
    tl_parallel_for(nchunks, 1, emit_chunks, &x);
    rc = tl_coo_wrap(out, &nind, &nval, src->ndim, src->sizes, true);
done:
    for (int64_t k = 0; lists && k < nchunks; k++) {
        free(lists[k].pos);
        free(lists[k].val);
    }
    free(lists);
    free(first);
    tl_tensor_clear(&c);
    tl_tensor_clear(&nind);
    tl_tensor_clear(&nval);
    return rc;
}
