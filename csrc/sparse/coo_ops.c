/* coo_ops.c - COO kernels behind the op surface of tensorlib/_sparse_ops.py: finding one
 * tensor's entries in a coalesced one (sparse * sparse), the plan of index_select along a
 * sparse dim, and COO @ dense. The first two touch only indices (the values are moved by
 * strided ops in Python from their plans); the product is typed per dtype. */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "sparse/sparse.h"

int tl_coo_lookup(tl_tensor *out, const tl_tensor *src, const tl_tensor *pc)
{
    const tl_tensor *is = &src->sparse->indices, *ip = &pc->sparse->indices;
    int sd = src->sparse->sparse_dim;
    int64_t n = is->sizes[1], m = ip->sizes[1];
    /* linear keys when the sizes allow (bounds checked), else lexicographic compares */
    uint64_t *ks = malloc(sizeof(uint64_t) * (size_t)(n + m + 1)), *kp = ks ? ks + n : NULL, top;
    bool fits = false, fits_p = false;
    if (!ks) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (tl_coo_linearize(pc, kp, &fits_p, &top) < 0 || tl_coo_linearize(src, ks, &fits, &top) < 0 || /* top: src's */
        tl_tensor_empty(out, 1, &n, TL_INT64, src->device, false) < 0) {
        free(ks);
        return -1;
    }
    int64_t *o = (int64_t *)tl_data(out);
    if (fits && fits_p) {
        if (src->sparse->coalesced) { /* both sorted: one merge walk */
            for (int64_t i = 0, j = 0; i < n; i++) {
                while (j < m && kp[j] < ks[i]) j++;
                o[i] = j < m && kp[j] == ks[i] ? j : -1;
            }
        } else if (tl_bit_width(top) + tl_bit_width((uint64_t)n) <= 64 && n > 64) {
            /* src's keys sorted with their positions riding below, merged with pc's, each
             * found position written back to its entry */
            int pb = tl_bit_width((uint64_t)n);
            uint64_t *kk = malloc(sizeof(uint64_t) * (size_t)(2 * n)), pmask = ((uint64_t)1 << pb) - 1;
            if (!kk) {
                free(ks);
                return tl_err(TL_ERR_MEMORY, "out of memory");
            }
            for (int64_t i = 0; i < n; i++) kk[i] = ks[i] << pb | (uint64_t)i;
            if (tl_coo_radix_sort(kk, NULL, n, pb, tl_bit_width(top), kk + n, NULL) < 0) {
                free(kk);
                free(ks);
                return -1;
            }
            for (int64_t i = 0, j = 0; i < n; i++) {
                uint64_t k = kk[i] >> pb;
                while (j < m && kp[j] < k) j++;
                o[kk[i] & pmask] = j < m && kp[j] == k ? j : -1;
            }
            free(kk);
        } else {
            for (int64_t i = 0; i < n; i++) {
                int64_t lo = 0, hi = m;
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (kp[mid] < ks[i]) lo = mid + 1;
                    else hi = mid;
                }
                o[i] = lo < m && kp[lo] == ks[i] ? lo : -1;
            }
        }
        free(ks);
        return 0;
    }
    free(ks);
    for (int64_t i = 0; i < n; i++) {
        int64_t lo = 0, hi = m; /* first entry of pc not below entry i of src */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (tl_coo_cmp_entries(ip, mid, is, i, sd) < 0) lo = mid + 1;
            else hi = mid;
        }
        o[i] = lo < m && tl_coo_cmp_entries(ip, lo, is, i, sd) == 0 ? lo : -1;
    }
    return 0;
}

/* Every pair (o, i) with outer[o] == inner[i], ordered by o, then i; values in [0, size).
 * Written to pairs[0..m) / pairs[m..2m) of a fresh int64 (2, m) tensor. */
static int match_pairs(tl_tensor *out, const int64_t *outer, int64_t no, const int64_t *inner, int64_t ni,
                       int64_t size, tl_device dev)
{
    /* inner positions bucketed by value (a stable counting sort) */
    int64_t *start = calloc((size_t)size + 2, sizeof(int64_t)), *order = malloc(sizeof(int64_t) * (size_t)(ni + 1));
    int rc = -1;
    if (!start || !order) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    for (int64_t i = 0; i < ni; i++) start[inner[i] + 2]++;
    for (int64_t b = 0; b < size; b++) start[b + 2] += start[b + 1];
    for (int64_t i = 0; i < ni; i++) order[start[inner[i] + 1]++] = i; /* start[v + 1] ends as bucket v's end */
    int64_t m = 0;
    for (int64_t o = 0; o < no; o++) m += start[outer[o] + 1] - start[outer[o]];
    int64_t sz[2] = {2, m};
    if (tl_tensor_empty(out, 2, sz, TL_INT64, dev, false) < 0) goto done;
    int64_t *po = (int64_t *)tl_data(out), *pi = po + m;
    for (int64_t o = 0, j = 0; o < no; o++)
        for (int64_t e = start[outer[o]]; e < start[outer[o] + 1]; e++, j++) {
            po[j] = o;
            pi[j] = order[e];
        }
    rc = 0;
done:
    free(start);
    free(order);
    return rc;
}

static void format_sizes(char *buf, size_t cap, const tl_tensor *t)
{
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < t->ndim && k < cap; d++)
        k += (size_t)snprintf(buf + k, cap - k, d ? ", %lld" : "%lld", (long long)t->sizes[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

int tl_coo_index_select_plan(tl_tensor *out, const tl_tensor *src, int dim, const tl_tensor *index)
{
    const tl_tensor *ind = &src->sparse->indices;
    int64_t nse = ind->sizes[1], size = src->sizes[dim], ni = index->sizes[0];
    int64_t *dv = malloc(sizeof(int64_t) * (size_t)(nse + ni + 1)), *iv = dv + nse;
    tl_tensor pairs = {0};
    int rc = -1;
    if (!dv) return tl_err(TL_ERR_MEMORY, "out of memory");
    for (int64_t k = 0; k < ni; k++) {
        int64_t v = ((const int64_t *)tl_data(index))[k * index->strides[0]];
        if (v < -size || v >= size) {
            char sz[32 * TL_MAX_DIMS];
            format_sizes(sz, sizeof sz, src);
            tl_err(TL_ERR_INDEX, "index_select(): index contains %lld that is out of range for tensor of size %s at "
                   "dimension %d", (long long)v, sz, dim);
            goto done;
        }
        iv[k] = v < 0 ? v + size : v;
    }
    for (int64_t i = 0; i < nse; i++) {
        dv[i] = tl_coo_index_at(ind, dim, i);
        if (dv[i] < 0 || dv[i] >= size) { tl_coo_bounds_error(dim, dv[i], size); goto done; }
    }
    /* torch's order: entry-major when its brute-force path (both small) has fewer entries
     * than index positions, index-major otherwise */
    const int64_t small = 1 << 15;
    bool entry_major = nse <= small && ni <= small && nse * ni <= small && nse < ni;
    if (entry_major) {
        rc = match_pairs(out, dv, nse, iv, ni, size, src->device);
    } else if ((rc = match_pairs(&pairs, iv, ni, dv, nse, size, src->device)) == 0) {
        /* swap the rows: row 0 entries, row 1 index positions */
        int64_t m = pairs.sizes[1], sz[2] = {2, m};
        if ((rc = tl_tensor_empty(out, 2, sz, TL_INT64, src->device, false)) == 0) {
            const int64_t *p = (const int64_t *)tl_data(&pairs);
            int64_t *o = (int64_t *)tl_data(out);
            memcpy(o, p + m, sizeof(int64_t) * (size_t)m);
            memcpy(o + m, p, sizeof(int64_t) * (size_t)m);
        }
    }
done:
    free(dv);
    tl_tensor_clear(&pairs);
    return rc;
}

/* the dtypes tl_coo_spmm multiplies natively */
#define SPMM_LIST(X) X(FLOAT32, float) X(FLOAT64, double) X(COMPLEX64, float complex) \
    X(COMPLEX128, double complex) X(INT64, int64_t) X(INT32, int32_t) X(INT16, int16_t) X(INT8, int8_t) X(UINT8, uint8_t)

bool tl_coo_spmm_supports(tl_dtype d)
{
    switch (d) {
#define CASE(ID, T) case TL_##ID:
        SPMM_LIST(CASE)
#undef CASE
        return true;
    default: return false;
    }
}

int tl_coo_spmm(tl_tensor *out, const tl_tensor *src, const tl_tensor *dense)
{
    const tl_tensor *ind = &src->sparse->indices, *val = &src->sparse->values;
    int64_t nse = ind->sizes[1], n = src->sizes[0], m = src->sizes[1], p = dense->sizes[1];
    int64_t sz[2] = {n, p};
    tl_dtype d = (tl_dtype)val->dtype;
    if (!tl_coo_spmm_supports(d) || dense->dtype != d || !tl_is_contiguous(dense) || !tl_is_contiguous(val))
        return tl_err(TL_ERR_RUNTIME, "tl_coo_spmm: expects contiguous operands of one supported dtype");
    const int64_t *ip = (const int64_t *)tl_data(ind);
    int64_t s0 = ind->strides[0], s1 = ind->strides[1];
    for (int64_t i = 0; i < nse; i++) { /* every index checked before the first write */
        int64_t r = ip[i * s1], c = ip[s0 + i * s1];
        if (r < 0 || r >= n) return tl_coo_bounds_error(0, r, n);
        if (c < 0 || c >= m) return tl_coo_bounds_error(1, c, m);
    }
    if (tl_tensor_empty(out, 2, sz, d, src->device, true) < 0) return -1;
    switch (d) {
#define SPMM(ID, T)                                                                \
    case TL_##ID: {                                                                \
        T *o = (T *)tl_data(out);                                                  \
        const T *v = (const T *)tl_data(val), *x = (const T *)tl_data(dense);      \
        for (int64_t i = 0; i < nse; i++) {                                        \
            T a = v[i], *orow = o + ip[i * s1] * p;                                \
            const T *xrow = x + ip[s0 + i * s1] * p;                               \
            for (int64_t j = 0; j < p; j++) orow[j] = (T)(orow[j] + a * xrow[j]);  \
        }                                                                          \
        break;                                                                     \
    }
        SPMM_LIST(SPMM)
#undef SPMM
    default: break;
    }
    return 0;
}
