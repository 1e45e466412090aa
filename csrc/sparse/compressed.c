/* compressed.c - the compressed sparse layouts (CSR, CSC, BSR, BSC): torch's invariants
 * (one validation for the family, in torch's order with its messages), size inference,
 * and the conversion kernels (to_dense, strided -> compressed, recompression CSR <-> CSC,
 * compressed <-> COO). Every kernel first runs the index-content check (without the
 * sortedness scan), so a tensor built with check_invariants=False, or whose components
 * were changed in place, gives torch's error, never a wild read or write. The products
 * are in csr_matmul.c. */
#include "sparse/compressed.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "ops/copy.h"
#include "sparse/sparse.h"

static bool is_row(int layout) { return layout == TL_LAYOUT_SPARSE_CSR || layout == TL_LAYOUT_SPARSE_BSR; }
static bool is_block(int layout) { return layout == TL_LAYOUT_SPARSE_BSR || layout == TL_LAYOUT_SPARSE_BSC; }

static const char *cname(int layout) { return is_row(layout) ? "crow_indices" : "ccol_indices"; }
static const char *pname(int layout) { return is_row(layout) ? "col_indices" : "row_indices"; }

static inline int64_t ix(const char *p, bool i32, int64_t k)
{
    return i32 ? (int64_t)((const int32_t *)p)[k] : ((const int64_t *)p)[k];
}

static inline void ix_set(char *p, bool i32, int64_t k, int64_t v)
{
    if (i32)
        ((int32_t *)p)[k] = (int32_t)v;
    else
        ((int64_t *)p)[k] = v;
}

/* The index-content invariants over contiguous (nb, ncomp + 1) / (nb, nse) indices, in
 * torch's order: plain bounds, compressed[..., 0] == 0, compressed[..., -1] == nse, then
 * per batch and compressed slice the step bound and (with `sorted`) strict increase. A
 * slice is only read once its bounds are known to lie inside [0, nse]. */
static int check_contents(int layout, const tl_tensor *ci, const tl_tensor *pi, int64_t nb, int64_t ncomp, int64_t nplain,
                          int64_t nse, bool sorted)
{
    bool i32 = ci->dtype == TL_INT32;
    const char *c = tl_data(ci), *p = tl_data(pi);
    const char *cn = cname(layout), *pn = pname(layout);
    const char *cdim = is_row(layout) ? "nrows" : "ncols", *pdim = is_row(layout) ? "ncols" : "nrows";
    if (i32) {
        if (ncomp > INT32_MAX)
            return tl_err(TL_ERR_RUNTIME, "32-bit integer overflow in %s dimension = %lld",
                          is_row(layout) ? "row" : "column", (long long)ncomp);
        if (nplain > INT32_MAX)
            return tl_err(TL_ERR_RUNTIME, "32-bit integer overflow in %s dimension = %lld",
                          is_row(layout) ? "column" : "row", (long long)nplain);
    }
    for (int64_t k = 0; k < nb * nse; k++) {
        int64_t v = ix(p, i32, k);
        if (v < 0 || v >= nplain) return tl_err(TL_ERR_RUNTIME, "`0 <= %s < %s` is not satisfied.", pn, pdim);
    }
    for (int64_t b = 0; b < nb; b++)
        if (ix(c, i32, b * (ncomp + 1)) != 0) return tl_err(TL_ERR_RUNTIME, "`%s[..., 0] == 0` is not satisfied.", cn);
    for (int64_t b = 0; b < nb; b++)
        if (ix(c, i32, b * (ncomp + 1) + ncomp) != nse)
            return tl_err(TL_ERR_RUNTIME, "`%s[..., -1] == nnz` is not satisfied.", cn);
    for (int64_t b = 0; b < nb; b++) {
        const char *cb = c + b * (ncomp + 1) * tl_itemsize(ci);
        int64_t off = b * nse;
        for (int64_t i = 0; i < ncomp; i++) {
            int64_t lo = ix(cb, i32, i), hi = ix(cb, i32, i + 1);
            if (hi - lo < 0 || hi - lo > nplain || lo < 0 || hi > nse)
                return tl_err(TL_ERR_RUNTIME, "`0 <= %s[..., 1:] - %s[..., :-1] <= %s` is not satisfied.", cn, cn, pdim);
            for (int64_t k = lo + 1; sorted && k < hi; k++)
                if (ix(p, i32, off + k - 1) >= ix(p, i32, off + k))
                    return tl_err(TL_ERR_RUNTIME,
                                  "`%s[..., %s[..., i - 1]:%s[..., i]] for all i = 1, ..., %s are sorted and distinct "
                                  "along the last dimension values` is not satisfied.", pn, cn, cn, cdim);
        }
    }
    return 0;
}

/* memcpy with the element sizes of one value inlined (the common case per stored element) */
static inline void copy_bytes(char *dst, const char *src, int64_t n)
{
    switch (n) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, (size_t)n);
    }
}

static void dims_str(const int64_t *d, int n, char *buf, int len) { tl_shape_str(d, n, buf, len); }

/* torch's refusal of compressed components on two devices. */
static int compressed_devices(tl_layout layout, const tl_tensor *ci, const tl_tensor *pi, const tl_tensor *values)
{
    if (!tl_device_eq(ci->device, values->device))
        return tl_err(TL_ERR_RUNTIME, "Values and %s need to be on the same device.", cname(layout));
    if (!tl_device_eq(pi->device, values->device))
        return tl_err(TL_ERR_RUNTIME, "Values and %s need to be on the same device.", pname(layout));
    return 0;
}

int tl_compressed_check(tl_layout layout, const tl_tensor *ci, const tl_tensor *pi, const tl_tensor *values, int ndim,
                        const int64_t *size, bool indices)
{
    char a[256], b[256], c[256], d[256];
    const char *cn = cname(layout), *pn = pname(layout);
    if (pi->layout != TL_LAYOUT_STRIDED)
        return tl_err(TL_ERR_RUNTIME, "expected %s to be a strided tensor but got %s tensor", pn, tl_layout_cname(pi->layout));
    if (ci->layout != TL_LAYOUT_STRIDED)
        return tl_err(TL_ERR_RUNTIME, "expected %s to be a strided tensor but got %s tensor", cn, tl_layout_cname(ci->layout));
    int bd = ci->ndim - 1, blk = is_block(layout) ? 2 : 0;
    int dd = values->ndim - bd - blk - 1;
    if (values->layout != TL_LAYOUT_STRIDED)
        return tl_err(TL_ERR_RUNTIME, "expected values to be a strided tensor but got %s tensor", tl_layout_cname(values->layout));
    if (bd < 0) return tl_err(TL_ERR_RUNTIME, "%s must have dimensionality >= 1 but got %d", cn, ci->ndim);
    if (ci->ndim != pi->ndim)
        return tl_err(TL_ERR_RUNTIME, "%s and %s dimensionalities must be equal but got %d and %d, respectively", cn, pn,
                      ci->ndim, pi->ndim);
    if (dd < 0)
        return tl_err(TL_ERR_RUNTIME,
                      "values must have dimensionality > sum of batch and block dimensionalities (=%d + %d) but got %d",
                      bd, blk, values->ndim);
    /* a last dim of 0 or 1 elements has no meaningful stride (torch's are contiguous there) */
    if (pi->strides[pi->ndim - 1] != 1 && pi->sizes[pi->ndim - 1] > 1) return tl_err(TL_ERR_RUNTIME, "expected %s to be a contiguous tensor per batch", pn);
    if (ci->strides[ci->ndim - 1] != 1 && ci->sizes[ci->ndim - 1] > 1) return tl_err(TL_ERR_RUNTIME, "expected %s to be a contiguous tensor per batch", cn);
    if (ndim != bd + 2 + dd)
        return tl_err(TL_ERR_RUNTIME,
                      "tensor dimensionality must be sum of batch, base, and dense dimensionalities (=%d + 2 + %d) but got %d",
                      bd, dd, ndim);
    int64_t bs[2] = {1, 1};
    for (int i = 0; i < blk; i++) bs[i] = values->sizes[bd + 1 + i] > 1 ? values->sizes[bd + 1 + i] : 1;
    if (memcmp(size, ci->sizes, sizeof(int64_t) * bd) || memcmp(size, pi->sizes, sizeof(int64_t) * bd) ||
        memcmp(size, values->sizes, sizeof(int64_t) * bd)) {
        dims_str(ci->sizes, bd, a, sizeof a);
        dims_str(pi->sizes, bd, b, sizeof b);
        dims_str(values->sizes, bd, c, sizeof c);
        dims_str(size, bd, d, sizeof d);
        return tl_err(TL_ERR_RUNTIME,
                      "all batch dimensions of %s (=%s), %s (=%s), and values (=%s) must be equal to tensor batch "
                      "dimensions (=%s)", cn, a, pn, b, c, d);
    }
    for (int i = 0; i < blk; i++)
        if (size[bd + i] % bs[i])
            return tl_err(TL_ERR_RUNTIME,
                          "tensor shape[%d] (=%lld) must be divisible with blocksize[%d] (=%lld) as defined by values shape",
                          bd + i, (long long)size[bd + i], i, (long long)bs[i]);
    int64_t nrows = size[bd] / bs[0], ncols = size[bd + 1] / bs[1];
    int64_t ncomp = is_row(layout) ? nrows : ncols, nplain = is_row(layout) ? ncols : nrows;
    int64_t nse = values->sizes[bd];
    if (ci->sizes[bd] != ncomp + 1)
        return tl_err(TL_ERR_RUNTIME, "%s.shape[-1] must be equal to the number of %s%ss + 1 (=%lld), but got %lld", cn,
                      is_row(layout) ? "row" : "column", blk ? " block" : "", (long long)(ncomp + 1),
                      (long long)ci->sizes[bd]);
    if (pi->sizes[bd] != nse)
        return tl_err(TL_ERR_RUNTIME, "%s.shape[-1] must be equal to nnz (=%lld) as defined by values.shape[%d], but got %lld",
                      pn, (long long)nse, bd, (long long)pi->sizes[bd]);
    if (ci->dtype != pi->dtype)
        return tl_err(TL_ERR_RUNTIME, "%s and %s must have the same dtype, bot got %s and %s, respectively", cn, pn,
                      tl_dtype_infos[ci->dtype].cname, tl_dtype_infos[pi->dtype].cname);
    if (ci->dtype != TL_INT32 && ci->dtype != TL_INT64)
        return tl_err(TL_ERR_RUNTIME, "%s and %s dtype must be Int or Long, but got %s", cn, pn,
                      tl_dtype_infos[ci->dtype].cname);
    if (compressed_devices(layout, ci, pi, values) < 0) return -1;
    if (indices) {
        if (tl_sparse_host_data(ci) < 0) return -1;
        int64_t nb = 1;
        for (int i = 0; i < bd; i++) nb *= size[i];
        tl_tensor cc = {0}, pc = {0};
        int rc = -1;
        if (tl_contiguous(&cc, ci, TL_MEMFMT_CONTIGUOUS) == 0 && tl_contiguous(&pc, pi, TL_MEMFMT_CONTIGUOUS) == 0)
            rc = check_contents(layout, &cc, &pc, nb, ncomp, nplain, nse, true);
        tl_tensor_clear(&cc);
        tl_tensor_clear(&pc);
        if (rc < 0) return -1;
    }
    return tl_check_shape(size, ndim);
}

int tl_compressed_infer_size(tl_layout layout, const tl_tensor *ci, const tl_tensor *pi, const tl_tensor *values,
                             int64_t *size, int *ndim)
{
    const char *cn = cname(layout), *pn = pname(layout);
    if (compressed_devices(layout, ci, pi, values) < 0) return -1;
    int bd = ci->ndim - 1, blk = is_block(layout) ? 2 : 0;
    if (bd < 0) return tl_err(TL_ERR_RUNTIME, "%s must have dimensionality >= 1 but got %d", cn, ci->ndim);
    if (ci->ndim != pi->ndim)
        return tl_err(TL_ERR_RUNTIME, "%s and %s dimensionalities must be equal but got %d and %d, respectively", cn, pn,
                      ci->ndim, pi->ndim);
    int dd = values->ndim - bd - blk - 1;
    if (dd < 0)
        return tl_err(TL_ERR_RUNTIME,
                      "values must have dimensionality > sum of batch and block dimensionalities (=%d + %d) but got %d",
                      bd, blk, values->ndim);
    if (bd + 2 + dd > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "sparse tensors support at most %d dims", TL_MAX_DIMS);
    if (!tl_dtype_is_integral(pi->dtype) && pi->dtype != TL_BOOL)
        return tl_err(TL_ERR_NOTIMPL, "\"estimate_sparse_compressed_tensor_size\" not implemented for '%s'",
                      tl_dtype_infos[pi->dtype].cname);
    int64_t bs[2] = {1, 1};
    for (int i = 0; i < blk; i++) bs[i] = values->sizes[bd + 1 + i] > 1 ? values->sizes[bd + 1 + i] : 1;
    int64_t ncomp = ci->sizes[bd] > 0 ? ci->sizes[bd] - 1 : 0, nplain = 0, n = tl_numel(pi);
    if (n > 0) {
        if (tl_sparse_host_data(pi) < 0) return -1;
        tl_tensor p64 = {0};
        if (tl_clone(&p64, pi, TL_INT64, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
        const int64_t *p = (const int64_t *)tl_data(&p64);
        int64_t mx = p[0];
        for (int64_t k = 1; k < n; k++) mx = p[k] > mx ? p[k] : mx;
        tl_tensor_clear(&p64);
        if (mx == INT64_MAX) return tl_err(TL_ERR_RUNTIME, "numel: integer multiplication overflow");
        nplain = mx + 1;
    }
    memcpy(size, ci->sizes, sizeof(int64_t) * bd);
    int64_t r = is_row(layout) ? ncomp : nplain, c = is_row(layout) ? nplain : ncomp;
    if (__builtin_mul_overflow(r, bs[0], &size[bd]) || __builtin_mul_overflow(c, bs[1], &size[bd + 1]))
        return tl_err(TL_ERR_RUNTIME, "numel: integer multiplication overflow");
    memcpy(size + bd + 2, values->sizes + bd + 1 + blk, sizeof(int64_t) * dd);
    *ndim = bd + 2 + dd;
    return 0;
}

/* ---- kernels ------------------------------------------------------------------------ */

/* A compressed tensor's geometry with contiguous components (aliases when already so),
 * its index contents checked (no sortedness scan). */
typedef struct {
    tl_tensor ci, pi, val;
    int layout, bd, dd;
    bool row, i32;
    int64_t nb, ncomp, nplain, nse, bh, bw, D, M, N, isz;
} cview;

static void cview_close(cview *v)
{
    tl_tensor_clear(&v->ci);
    tl_tensor_clear(&v->pi);
    tl_tensor_clear(&v->val);
}

static int cview_open(cview *v, const tl_tensor *src)
{
    const tl_sparse *s = src->sparse;
    memset(v, 0, sizeof *v);
    v->layout = src->layout;
    v->row = is_row(src->layout);
    v->bd = s->batch_dim;
    v->dd = s->dense_dim;
    v->i32 = s->indices.dtype == TL_INT32;
    v->nb = 1;
    for (int i = 0; i < v->bd; i++) v->nb *= src->sizes[i];
    v->bh = s->blocksize[0];
    v->bw = s->blocksize[1];
    v->M = src->sizes[v->bd];
    v->N = src->sizes[v->bd + 1];
    v->ncomp = s->indices.sizes[v->bd] - 1;
    v->nplain = v->row ? (v->bw ? v->N / v->bw : 0) : (v->bh ? v->M / v->bh : 0);
    v->nse = s->plain.sizes[v->bd];
    v->D = 1;
    for (int i = 0; i < v->dd; i++) v->D *= src->sizes[v->bd + 2 + i];
    v->isz = tl_itemsize(&s->values);
    if (tl_contiguous(&v->ci, &s->indices, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_contiguous(&v->pi, &s->plain, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_contiguous(&v->val, &s->values, TL_MEMFMT_CONTIGUOUS) < 0 ||
        check_contents(v->layout, &v->ci, &v->pi, v->nb, v->ncomp, v->nplain, v->nse, false) < 0) {
        cview_close(v);
        return -1;
    }
    return 0;
}

/* Block (b, k) of the values: bh * bw * D elements. */
static inline const char *block_at(const cview *v, int64_t b, int64_t k)
{
    return tl_data(&v->val) + ((b * v->nse + k) * v->bh * v->bw * v->D) * v->isz;
}

int tl_compressed_to_dense(tl_tensor *out, const tl_tensor *src)
{
    cview v;
    if (cview_open(&v, src) < 0) return -1;
    int rc = tl_tensor_empty(out, src->ndim, src->sizes, (tl_dtype)src->dtype, src->device, true);
    if (rc == 0) {
        int64_t run = v.bw * v.D * v.isz, rowb = v.N * v.D * v.isz;
        char *o = tl_data(out);
        const char *c = tl_data(&v.ci), *p = tl_data(&v.pi);
        for (int64_t b = 0; b < v.nb; b++) {
            char *ob = o + b * v.M * rowb;
            for (int64_t i = 0; i < v.ncomp; i++)
                for (int64_t k = ix(c, v.i32, b * (v.ncomp + 1) + i); k < ix(c, v.i32, b * (v.ncomp + 1) + i + 1); k++) {
                    int64_t j = ix(p, v.i32, b * v.nse + k);
                    int64_t br = v.row ? i : j, bc = v.row ? j : i;
                    const char *blk = block_at(&v, b, k);
                    for (int64_t r = 0; r < v.bh; r++)
                        copy_bytes(ob + (br * v.bh + r) * rowb + bc * v.bw * v.D * v.isz, blk + r * run, run);
                }
        }
    }
    cview_close(&v);
    return rc;
}

/* bk[R * nC + C] = whether block (R, C) of the strided (M, N, *dense) matrix at m has a
 * non-zero: one scan per matrix row over its nC runs of bw * D elements (row r of every
 * block of a block row at once), or-ed over the bh rows of a block row. */
static void mark_blocks(const char *m, int64_t nR, int64_t nC, int64_t bh, int64_t bw, int64_t D, int64_t isz,
                        tl_dtype dt, uint8_t *bk, uint8_t *tmp)
{
    int64_t rowb = nC * bw * D * isz;
    memset(bk, 0, (size_t)(nR * nC));
    if (D == 0) return;
    for (int64_t R = 0; R < nR; R++)
        for (int64_t r = 0; r < bh; r++) {
            tl_mark_nonzero_rows(m + (R * bh + r) * rowb, nC, bw * D, dt, tmp);
            for (int64_t C = 0; C < nC; C++) bk[R * nC + C] |= tmp[C];
        }
}

int tl_dense_to_compressed(tl_tensor *out, const tl_tensor *src, tl_layout layout, const int64_t *blocksize, int dense_dim)
{
    int bd = src->ndim - 2 - dense_dim;
    bool row = is_row(layout);
    int64_t bh = is_block(layout) ? blocksize[0] : 1, bw = is_block(layout) ? blocksize[1] : 1;
    int64_t nb = 1, D = 1, M = src->sizes[bd], N = src->sizes[bd + 1];
    for (int i = 0; i < bd; i++) nb *= src->sizes[i];
    for (int i = 0; i < dense_dim; i++) D *= src->sizes[bd + 2 + i];
    int64_t nR = M / bh, nC = N / bw, ncomp = row ? nR : nC, nplain = row ? nC : nR;
    tl_dtype dt = (tl_dtype)src->dtype;
    tl_tensor c = {0}, ci = {0}, pi = {0}, val = {0};
    uint8_t *keep = NULL;
    int rc = -1;
    if (!is_block(layout) && bd == 0) {
        /* CSR/CSC: the COO scan (16 elements per OR test, split over the pool) gives the
         * entries in row-major order, then one counting pass (4096^2 at 1%: 64 -> ~12 ms) */
        tl_tensor coo = {0};
        rc = tl_dense_to_coo(&coo, src, 2);
        if (rc == 0) rc = tl_coo_to_compressed(out, &coo, layout);
        tl_tensor_clear(&coo);
        return rc;
    }
    if (tl_contiguous(&c, src, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    int64_t isz = tl_itemsize(&c), rowb = N * D * isz, per = nR * nC, nse = -1;
    keep = malloc((size_t)(nb * per + per + nC) + 1);
    if (!keep) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    uint8_t *bk = keep + nb * per, *tmp = bk + per;
    const char *in = tl_data(&c);
    for (int64_t b = 0; b < nb; b++) {
        int64_t m = 0;
        mark_blocks(in + b * M * rowb, nR, nC, bh, bw, D, isz, dt, bk, tmp);
        for (int64_t i = 0; i < ncomp; i++)
            for (int64_t j = 0; j < nplain; j++) {
                uint8_t k = bk[row ? i * nC + j : j * nC + i];
                keep[b * per + i * nplain + j] = k;
                m += k;
            }
        if (nse >= 0 && m != nse) { tl_err(TL_ERR_RUNTIME, "Expect the same number of specified elements per batch."); goto done; }
        nse = m;
    }
    if (nse < 0) nse = 0;
    int64_t csz[TL_MAX_DIMS], psz[TL_MAX_DIMS], vsz[TL_MAX_DIMS];
    memcpy(csz, src->sizes, sizeof(int64_t) * bd);
    memcpy(psz, src->sizes, sizeof(int64_t) * bd);
    memcpy(vsz, src->sizes, sizeof(int64_t) * bd);
    csz[bd] = ncomp + 1;
    psz[bd] = vsz[bd] = nse;
    int vn = bd + 1;
    if (is_block(layout)) {
        vsz[vn++] = bh;
        vsz[vn++] = bw;
    }
    memcpy(vsz + vn, src->sizes + bd + 2, sizeof(int64_t) * dense_dim);
    vn += dense_dim;
    if (tl_tensor_empty(&ci, bd + 1, csz, TL_INT64, src->device, false) < 0 ||
        tl_tensor_empty(&pi, bd + 1, psz, TL_INT64, src->device, false) < 0 ||
        tl_tensor_empty(&val, vn, vsz, dt, src->device, false) < 0)
        goto done;
    int64_t *co = (int64_t *)tl_data(&ci), *po = (int64_t *)tl_data(&pi), run = bw * D * isz;
    char *vo = tl_data(&val);
    for (int64_t b = 0, k = 0; b < nb; b++) {
        int64_t k0 = k;
        for (int64_t i = 0; i < ncomp; i++) {
            co[b * (ncomp + 1) + i] = k - k0;
            for (int64_t j = 0; j < nplain; j++) {
                if (!keep[b * per + i * nplain + j]) continue;
                int64_t R = row ? i : j, C = row ? j : i;
                po[k] = j;
                for (int64_t r = 0; r < bh; r++)
                    copy_bytes(vo + (k * bh + r) * run, in + b * M * rowb + (R * bh + r) * rowb + C * run, run);
                k++;
            }
        }
        co[b * (ncomp + 1) + ncomp] = k - k0;
    }
    rc = tl_compressed_wrap(out, layout, &ci, &pi, &val, src->ndim, src->sizes);
done:
    free(keep);
    tl_tensor_clear(&c);
    tl_tensor_clear(&ci);
    tl_tensor_clear(&pi);
    tl_tensor_clear(&val);
    return rc;
}

static tl_layout flipped(int layout)
{
    switch (layout) {
    case TL_LAYOUT_SPARSE_CSR: return TL_LAYOUT_SPARSE_CSC;
    case TL_LAYOUT_SPARSE_CSC: return TL_LAYOUT_SPARSE_CSR;
    case TL_LAYOUT_SPARSE_BSR: return TL_LAYOUT_SPARSE_BSC;
    default: return TL_LAYOUT_SPARSE_BSR;
    }
}

int tl_compressed_recompress(tl_tensor *out, const tl_tensor *src)
{
    cview v;
    if (cview_open(&v, src) < 0) return -1;
    const tl_sparse *s = src->sparse;
    tl_tensor ci = {0}, pi = {0}, val = {0};
    int64_t *next = malloc(sizeof(int64_t) * (size_t)(v.nplain + 1));
    int rc = -1;
    int64_t csz[TL_MAX_DIMS];
    memcpy(csz, s->indices.sizes, sizeof(int64_t) * v.bd);
    csz[v.bd] = v.nplain + 1;
    tl_dtype idt = (tl_dtype)s->indices.dtype;
    if (!next) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    if (tl_tensor_empty(&ci, v.bd + 1, csz, idt, src->device, false) < 0 ||
        tl_tensor_empty(&pi, v.bd + 1, s->plain.sizes, idt, src->device, false) < 0 ||
        tl_tensor_empty(&val, s->values.ndim, s->values.sizes, (tl_dtype)s->values.dtype, src->device, false) < 0)
        goto done;
    int64_t eb = v.bh * v.bw * v.D * v.isz;
    const char *c = tl_data(&v.ci), *p = tl_data(&v.pi);
    char *co = tl_data(&ci), *po = tl_data(&pi), *vo = tl_data(&val);
    if (eb == 4 || eb == 8) { /* typed loops: CSR <-> CSC of 4- and 8-byte values (1e7: ~2x faster) */
        for (int64_t b = 0; b < v.nb; b++) {
            int64_t ci0 = b * (v.ncomp + 1), co0 = b * (v.nplain + 1), k0 = b * v.nse;
#define RECOMP(IT, VT)                                                                              \
    {                                                                                               \
        const IT *cb = (const IT *)c + ci0, *pb = (const IT *)p + k0;                               \
        const VT *vb = (const VT *)tl_data(&v.val) + k0;                                            \
        IT *cob = (IT *)co + co0, *pob = (IT *)po + k0, *nx = (IT *)next;                           \
        VT *vob = (VT *)vo + k0;                                                                    \
        memset(nx, 0, sizeof(IT) * (size_t)(v.nplain + 1));                                         \
        for (int64_t k = 0; k < v.nse; k++) nx[pb[k] + 1]++;                                        \
        for (int64_t j = 0; j < v.nplain; j++) nx[j + 1] += nx[j];                                  \
        memcpy(cob, nx, sizeof(IT) * (size_t)(v.nplain + 1));                                       \
        for (int64_t i = 0; i < v.ncomp; i++)                                                       \
            for (IT k = cb[i], e = cb[i + 1]; k < e; k++) {                                         \
                IT at = nx[pb[k]]++;                                                                \
                pob[at] = (IT)i;                                                                    \
                vob[at] = vb[k];                                                                    \
            }                                                                                       \
    }
            if (v.i32 && eb == 4) RECOMP(int32_t, uint32_t)
            else if (v.i32) RECOMP(int32_t, uint64_t)
            else if (eb == 4) RECOMP(int64_t, uint32_t)
            else RECOMP(int64_t, uint64_t)
#undef RECOMP
        }
        rc = tl_compressed_wrap(out, flipped(src->layout), &ci, &pi, &val, src->ndim, src->sizes);
        goto done;
    }
    for (int64_t b = 0; b < v.nb; b++) {
        const char *cb = c + b * (v.ncomp + 1) * tl_itemsize(&v.ci), *pb = p + b * v.nse * tl_itemsize(&v.pi);
        char *cob = co + b * (v.nplain + 1) * tl_itemsize(&ci), *pob = po + b * v.nse * tl_itemsize(&pi);
        memset(next, 0, sizeof(int64_t) * (size_t)(v.nplain + 1));
        for (int64_t k = 0; k < v.nse; k++) next[ix(pb, v.i32, k) + 1]++;
        for (int64_t j = 0; j < v.nplain; j++) next[j + 1] += next[j];
        for (int64_t j = 0; j <= v.nplain; j++) ix_set(cob, v.i32, j, next[j]);
        for (int64_t i = 0; i < v.ncomp; i++)
            for (int64_t k = ix(cb, v.i32, i); k < ix(cb, v.i32, i + 1); k++) {
                int64_t at = next[ix(pb, v.i32, k)]++;
                ix_set(pob, v.i32, at, i);
                copy_bytes(vo + (b * v.nse + at) * eb, block_at(&v, b, k), eb);
            }
    }
    rc = tl_compressed_wrap(out, flipped(src->layout), &ci, &pi, &val, src->ndim, src->sizes);
done:
    free(next);
    cview_close(&v);
    tl_tensor_clear(&ci);
    tl_tensor_clear(&pi);
    tl_tensor_clear(&val);
    return rc;
}

/* CSR/CSC (no batch, no blocks) -> COO: the values are already in the result's order (one
 * copy), the compressed index repeated over its slice, the plain index widened; in chunks of
 * the elements (each finds its first slice by binary search), over the thread pool: the
 * ~200 MB that 1e7 elements write at int64 take both cores' bandwidth. */
#define COO_FILL_CHUNK ((int64_t)1 << 18)
typedef struct {
    const char *c, *p, *vin;
    char *vout;
    int64_t *oc, *op, ncomp, m, row;
    bool i32;
    int64_t nc;
} coo_fill;

static void coo_fill_chunks(int64_t c0, int64_t c1, void *ctx)
{
    const coo_fill *x = ctx;
    for (int64_t ch = c0; ch < c1; ch++) {
        int64_t k0 = x->m * ch / x->nc, k1 = x->m * (ch + 1) / x->nc;
        memcpy(x->vout + k0 * x->row, x->vin + k0 * x->row, (size_t)((k1 - k0) * x->row));
        if (x->i32)
            for (int64_t k = k0; k < k1; k++) x->op[k] = ((const int32_t *)x->p)[k];
        else
            memcpy(x->op + k0, (const int64_t *)x->p + k0, sizeof(int64_t) * (size_t)(k1 - k0));
        int64_t lo = 0, hi = x->ncomp; /* the first slice ending after k0 */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (ix(x->c, x->i32, mid + 1) <= k0) lo = mid + 1; else hi = mid;
        }
        for (int64_t i = lo, k = k0; k < k1; i++) {
            int64_t end = ix(x->c, x->i32, i + 1);
            if (end > k1) end = k1;
            for (; k < end; k++) x->oc[k] = i;
        }
    }
}

int tl_compressed_to_coo(tl_tensor *out, const tl_tensor *src)
{
    cview v;
    if (cview_open(&v, src) < 0) return -1;
    int sd = v.bd + 2;
    int64_t per = v.bh * v.bw, m = v.nb * v.nse * per;
    tl_tensor ind = {0}, val = {0};
    int64_t isz[2] = {sd, m}, vsz[TL_MAX_DIMS];
    vsz[0] = m;
    memcpy(vsz + 1, src->sizes + sd, sizeof(int64_t) * v.dd);
    int rc = -1;
    if (tl_tensor_empty(&ind, 2, isz, TL_INT64, src->device, false) < 0 ||
        tl_tensor_empty(&val, 1 + v.dd, vsz, (tl_dtype)src->dtype, src->device, false) < 0)
        goto done;
    int64_t *o = (int64_t *)tl_data(&ind), row = v.D * v.isz;
    const char *c = tl_data(&v.ci), *p = tl_data(&v.pi);
    int64_t e = 0;
    if (v.bd == 0 && v.bh == 1 && v.bw == 1) {
        /* values are already in the result's order: one copy; the compressed index repeated
         * over its slice, the plain index widened */
        coo_fill x = {c, p, tl_data(&v.val), tl_data(&val), o + (v.row ? 0 : m), o + (v.row ? m : 0), v.ncomp, m, row,
                      v.i32, 1};
        if (m >= 2 * COO_FILL_CHUNK && tl_get_num_threads() > 1) x.nc = m / COO_FILL_CHUNK < 64 ? m / COO_FILL_CHUNK : 64;
        tl_parallel_for(x.nc, 1, coo_fill_chunks, &x);
        e = m;
    }
    for (int64_t b = 0; b < v.nb && e < m; b++)
        for (int64_t i = 0; i < v.ncomp; i++)
            for (int64_t k = ix(c, v.i32, b * (v.ncomp + 1) + i); k < ix(c, v.i32, b * (v.ncomp + 1) + i + 1); k++) {
                int64_t j = ix(p, v.i32, b * v.nse + k), R = v.row ? i : j, C = v.row ? j : i;
                copy_bytes(tl_data(&val) + e * row, block_at(&v, b, k), per * row);
                for (int64_t r = 0; r < v.bh; r++)
                    for (int64_t q = 0; q < v.bw; q++, e++) {
                        int64_t bb = b;
                        for (int d = v.bd - 1; d >= 0; d--) {
                            o[d * m + e] = bb % src->sizes[d];
                            bb /= src->sizes[d];
                        }
                        o[v.bd * m + e] = R * v.bh + r;
                        o[(v.bd + 1) * m + e] = C * v.bw + q;
                    }
            }
    /* CSR and batched CSR give lexicographically sorted unique indices, and so does BSR of
     * one-row blocks (a block row is one element row, its blocks sorted by column): torch
     * flags them */
    rc = tl_coo_wrap(out, &ind, &val, src->ndim, src->sizes,
                     src->layout == TL_LAYOUT_SPARSE_CSR || (src->layout == TL_LAYOUT_SPARSE_BSR && v.bh == 1));
done:
    cview_close(&v);
    tl_tensor_clear(&ind);
    tl_tensor_clear(&val);
    return rc;
}

/* COO -> CSR of a coalesced COO tensor with contiguous index rows, in element chunks over
 * the pool. Each chunk starts at a row boundary, so no two chunks write one crow entry: an
 * element k of row r stores crow[r + 1] = k + 1 (the last store of a row leaves its end, and
 * there is no load of crow, so no store-to-load chain as in a count loop), the rows with no
 * entries are filled afterwards by a running max (crow is zero-filled and non-decreasing).
 * The same pass checks both indices' bounds and the rows' order (unsigned compares ORed
 * into flags, no branches); a chunk with an out-of-range row clamps its stores into crow. */
typedef struct {
    const int64_t *r, *c;
    int64_t *crow, nse, nrows, ncols, nc;
    int64_t *cmax;   /* per chunk: the running max at the chunk's last crow entry */
    unsigned char *bad, *unsorted;
} csr_rows;

#define CSR_ROWS_CHUNK ((int64_t)1 << 18)

static int64_t csr_rows_start(const csr_rows *x, int64_t ch)
{
    int64_t k = ch * (x->nse / x->nc);
    if (ch == 0) return 0;
    if (ch >= x->nc) return x->nse;
    while (k < x->nse && x->r[k] == x->r[k - 1]) k++;
    return k;
}

static void csr_rows_chunks(int64_t c0, int64_t c1, void *ctx)
{
    const csr_rows *x = ctx;
    for (int64_t ch = c0; ch < c1; ch++) {
        int64_t lo = csr_rows_start(x, ch), hi = csr_rows_start(x, ch + 1);
        const int64_t *r = x->r, *c = x->c;
        int64_t *crow = x->crow;
        uint64_t nr = (uint64_t)x->nrows, ncl = (uint64_t)x->ncols, last = nr - 1;
        uint64_t oob = 0, dec = 0;
        int64_t prev = lo > 0 ? r[lo - 1] : 0;
        for (int64_t k = lo; k < hi; k++) {
            uint64_t rk = (uint64_t)r[k], ck = (uint64_t)c[k];
            oob |= (uint64_t)(rk >= nr) | (uint64_t)(ck >= ncl);
            dec |= (uint64_t)((int64_t)rk < prev);
            prev = (int64_t)rk;
            crow[(rk < nr ? rk : last) + 1] = k + 1;
        }
        x->bad[ch] = oob != 0;
        x->unsorted[ch] = dec != 0;
    }
}

/* running max of crow[1..nrows] in chunks of rows: each chunk's own pass, then the carry of
 * the chunks before it applied until its entries reach it (they are non-decreasing) */
static void csr_rows_max(int64_t c0, int64_t c1, void *ctx)
{
    const csr_rows *x = ctx;
    int64_t per = (x->nrows + x->nc - 1) / x->nc;
    for (int64_t ch = c0; ch < c1; ch++) {
        int64_t a = 1 + ch * per, b = a + per < x->nrows + 1 ? a + per : x->nrows + 1, m = 0;
        for (int64_t i = a; i < b; i++) {
            m = x->crow[i] > m ? x->crow[i] : m;
            x->crow[i] = m;
        }
        x->cmax[ch] = m;
    }
}

static void csr_rows_carry(int64_t c0, int64_t c1, void *ctx)
{
    const csr_rows *x = ctx;
    int64_t per = (x->nrows + x->nc - 1) / x->nc;
    for (int64_t ch = c0; ch < c1; ch++) {
        int64_t a = 1 + ch * per, b = a + per < x->nrows + 1 ? a + per : x->nrows + 1, carry = 0;
        for (int64_t j = 0; j < ch; j++) carry = x->cmax[j] > carry ? x->cmax[j] : carry;
        for (int64_t i = a; i < b && x->crow[i] < carry; i++) x->crow[i] = carry;
    }
}

/* 1: done; 0: the rows are not sorted (the caller counts them and scatters, crow zeroed
 * again); 2: one thread or a small tensor, left to the count loop (at one thread it is
 * ~10% cheaper in CPU time: both read the 16 B per entry once, the count loop has no
 * running-max pass); -1: an index out of range (error set) */
static int csr_rows_fast(int64_t *crow, const int64_t *r, const int64_t *c, int64_t nse, int64_t nrows, int64_t ncols)
{
    if (nse < 2 * CSR_ROWS_CHUNK || tl_get_num_threads() <= 1) return 2;
    if (nrows == 0 || ncols == 0) {
        tl_err(TL_ERR_RUNTIME, "size is inconsistent with indices");
        return -1;
    }
    int64_t nc = nse / CSR_ROWS_CHUNK;
    nc = nc > 64 ? 64 : nc;
    int64_t cmax[64];
    unsigned char bad[64], uns[64];
    csr_rows x = {r, c, crow, nse, nrows, ncols, nc, cmax, bad, uns};
    tl_parallel_for(nc, 1, csr_rows_chunks, &x);
    int any_bad = 0, any_uns = 0;
    for (int64_t i = 0; i < nc; i++) {
        any_bad |= bad[i];
        any_uns |= uns[i];
    }
    if (any_bad) {
        tl_err(TL_ERR_RUNTIME, "size is inconsistent with indices");
        return -1;
    }
    if (any_uns) {
        memset(crow, 0, sizeof(int64_t) * (size_t)(nrows + 1));
        return 0;
    }
    x.nc = nrows / CSR_ROWS_CHUNK;
    x.nc = x.nc < 1 ? 1 : x.nc > 64 ? 64 : x.nc;
    tl_parallel_for(x.nc, 1, csr_rows_max, &x);
    if (x.nc > 1) tl_parallel_for(x.nc, 1, csr_rows_carry, &x);
    return 1;
}

int tl_coo_to_compressed(tl_tensor *out, const tl_tensor *src, tl_layout layout)
{
    const tl_sparse *s = src->sparse;
    bool row = is_row(layout);
    int64_t nse = s->indices.sizes[1], ncomp = src->sizes[row ? 0 : 1];
    tl_tensor ci = {0}, pi = {0}, val = {0}, c = {0};
    int64_t csz[1] = {ncomp + 1}, psz[1] = {nse};
    int64_t *next = malloc(sizeof(int64_t) * (size_t)(ncomp + 1));
    int rc = -1;
    if (!next) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (tl_contiguous(&c, &s->values, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_tensor_empty(&ci, 1, csz, TL_INT64, src->device, true) < 0 ||
        tl_tensor_empty(&pi, 1, psz, TL_INT64, src->device, false) < 0 ||
        tl_tensor_empty(&val, c.ndim, c.sizes, (tl_dtype)c.dtype, src->device, false) < 0)
        goto done;
    const int64_t *id = (const int64_t *)tl_data(&s->indices);
    int64_t s0 = s->indices.strides[0], s1 = s->indices.strides[1];
    int64_t *co = (int64_t *)tl_data(&ci), *po = (int64_t *)tl_data(&pi);
    int fast = 0;
    if (row && s->coalesced && s1 == 1 && (fast = csr_rows_fast(co, id, id + s0, nse, ncomp, src->sizes[1])) < 0)
        goto done;
    for (int64_t k = 0; k < nse && fast != 1; k++) {
        int64_t x = id[(row ? 0 : 1) * s0 + k * s1], y = id[(row ? 1 : 0) * s0 + k * s1];
        if (x < 0 || x >= ncomp || y < 0 || y >= src->sizes[row ? 1 : 0]) {
            tl_err(TL_ERR_RUNTIME, "size is inconsistent with indices");
            goto done;
        }
        co[x + 1]++;
    }
    for (int64_t i = 0; i < ncomp && fast != 1; i++) co[i + 1] += co[i];
    if (fast == 1 || fast == 2) {
        /* row-major already: the column indices and the values are the COO tensor's own,
         * shared as torch shares them (a view of the indices' second row) */
        int64_t one = 1;
        tl_tensor_clear(&pi);
        tl_tensor_clear(&val);
        if (tl_tensor_view_init(&pi, &s->indices, 1, &nse, &one, s->indices.offset + s0) < 0 ||
            tl_tensor_alias(&val, &c) < 0)
            goto done;
        rc = tl_compressed_wrap(out, layout, &ci, &pi, &val, src->ndim, src->sizes);
        goto done;
    }
    /* stable scatter: the (coalesced, row-major) COO order gives sorted plain indices per
     * compressed slice for CSR, and for CSC because a stable pass by column keeps rows sorted */
    memcpy(next, co, sizeof(int64_t) * (size_t)ncomp);
    int64_t rb = tl_numel(&c) / (nse ? nse : 1) * tl_itemsize(&c);
    for (int64_t k = 0; k < nse; k++) {
        int64_t x = id[(row ? 0 : 1) * s0 + k * s1], y = id[(row ? 1 : 0) * s0 + k * s1];
        int64_t at = next[x]++;
        po[at] = y;
        copy_bytes(tl_data(&val) + at * rb, tl_data(&c) + k * rb, rb);
    }
    rc = tl_compressed_wrap(out, layout, &ci, &pi, &val, src->ndim, src->sizes);
done:
    free(next);
    tl_tensor_clear(&c);
    tl_tensor_clear(&ci);
    tl_tensor_clear(&pi);
    tl_tensor_clear(&val);
    return rc;
}
