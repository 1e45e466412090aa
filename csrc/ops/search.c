/* search.c - unique, searchsorted (and bucketize through it) and histc. */
#include "ops/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/promote.h"
#include "core/parallel.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/index.h"
#include "ops/join.h"
#include "ops/reduce_plan.h"

static uint64_t all_mask(const tl_tensor *x)
{
    return x->ndim == 0 ? 1 : x->ndim == 64 ? ~(uint64_t)0 : ((uint64_t)1 << x->ndim) - 1;
}

/* The runs of a sorted sequence on a backend's device, from its entries (unique's steps):
 * counts[i] = starts[i + 1] - starts[i] for the U run starts (int64, ascending) of n elements,
 * the last run ending at n. */
int tl_run_counts(tl_tensor *counts, const tl_tensor *starts, int64_t n)
{
    int64_t one = 1, U = starts->sizes[0];
    tl_tensor endn = {0}, ends = {0};
    int rc = tl_tensor_empty(&endn, 1, &one, TL_INT64, starts->device, false);
    if (rc == 0) rc = tl_fill_(&endn, tl_scalar_int(n));
    const tl_tensor *parts[2] = {starts, &endn};
    if (rc == 0) rc = tl_cat(&ends, parts, 2, 0);
    if (rc == 0) {
        tl_tensor next = tl_tensor_geom(&ends, 1, &U, ends.strides), cur = next;
        next.offset = ends.offset + 1;
        rc = tl_ew_binary(TL_BOP_sub, (tl_ew_arg){.t = &next}, (tl_ew_arg){.t = &cur},
                          &(tl_ew_dest){.mode = TL_EW_NEW, .out = counts}, NULL);
    }
    if (endn.storage) tl_tensor_clear(&endn);
    if (ends.storage) tl_tensor_clear(&ends);
    return rc;
}

/* ids[i] = the run of element i (int64: the cumulative count of the run-start flags, minus 1). */
int tl_run_ids(tl_tensor *ids, const tl_tensor *flags)
{
    int rc = tl_scan(ids, NULL, flags, TL_SCAN_CUMSUM, 0, TL_INT64);
    if (rc == 0)
        rc = tl_ew_binary(TL_BOP_sub, (tl_ew_arg){.t = ids}, (tl_ew_arg){.t = NULL, .s = tl_scalar_int(1)},
                          &(tl_ew_dest){.mode = TL_EW_INPLACE, .out = ids}, NULL);
    return rc;
}

/* unique on a backend's device, from its entries: the flat values sorted (sort entry); a group
 * starts where a value differs from the one before (!=, so every NaN is its own group, -0 and 0
 * one); the starts' positions (select entry, through nonzero) give the values (a gather) and the
 * counts (differences of the starts); the inverse is each sorted element's group (a cumulative
 * sum of the start flags, minus one) put back at its original position. */
static int unique_backend(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, bool want_inverse,
                          bool want_counts)
{
    int64_t N = tl_numel(x), one = 1;
    tl_tensor t[12];
    memset(t, 0, sizeof t);
    tl_tensor *flat = &t[0], *sv = &t[1], *si = &t[2], *ne = &t[3], *head = &t[4], *flags = &t[5], *nz = &t[6],
              *grp = &t[7], *inv = &t[8];
    if (N == 0) { /* nothing to sort: empty results */
        int64_t zero = 0;
        int rc = tl_tensor_empty(out, 1, &zero, (tl_dtype)x->dtype, x->device, false);
        if (rc == 0 && want_counts) rc = tl_tensor_empty(counts, 1, &zero, TL_INT64, x->device, false);
        if (rc == 0 && want_inverse) rc = tl_tensor_empty(inverse, x->ndim, x->sizes, TL_INT64, x->device, false);
        return rc;
    }
    int rc = tl_clone(flat, x, (tl_dtype)x->dtype, TL_MEMFMT_CONTIGUOUS);
    if (rc == 0) { /* the contiguous clone as one dim of N */
        tl_tensor fv = tl_tensor_geom(flat, 1, &N, (int64_t[]){1});
        fv.names = NULL;
        rc = tl_sort(sv, si, &fv, 0, false);
    }
    /* flags: 1 for the first element, sv[i] != sv[i - 1] after */
    if (rc == 0) rc = tl_tensor_empty(head, 1, &one, TL_BOOL, x->device, false);
    if (rc == 0) rc = tl_fill_(head, tl_scalar_int(1));
    if (rc == 0 && N > 1) {
        int64_t m = N - 1;
        tl_tensor later = tl_tensor_geom(sv, 1, &m, sv->strides), earlier = later;
        later.offset = sv->offset + 1;
        tl_ew_dest dst = {.mode = TL_EW_NEW, .out = ne};
        tl_ew_arg la = {.t = &later}, ea = {.t = &earlier};
        rc = tl_ew_binary(TL_BOP_ne, la, ea, &dst, NULL);
    }
    if (rc == 0) {
        const tl_tensor *parts[2] = {head, ne};
        rc = tl_cat(flags, parts, N > 1 ? 2 : 1, 0);
    }
    if (rc == 0) rc = tl_nonzero(nz, flags); /* (U, 1): the group starts */
    int64_t U = rc == 0 ? nz->sizes[0] : 0;
    tl_tensor starts = rc == 0 ? tl_tensor_geom(nz, 1, &U, nz->strides) : (tl_tensor){0};
    if (rc == 0) {
        const tl_tensor *ix[1] = {&starts};
        rc = tl_index(out, sv, ix, 1, 0);
    }
    if (rc == 0 && want_counts) rc = tl_run_counts(counts, &starts, N);
    if (rc == 0 && want_inverse) {
        rc = tl_run_ids(grp, flags);
        if (rc == 0) rc = tl_tensor_empty(inv, 1, &N, TL_INT64, x->device, false);
        const tl_tensor *ix[1] = {si};
        if (rc == 0) rc = tl_index_put_(inv, ix, 1, grp, NULL, false, 0);
        if (rc == 0) rc = tl_tensor_empty(inverse, x->ndim, x->sizes, TL_INT64, x->device, false);
        if (rc == 0) {
            tl_tensor src = tl_tensor_geom(inv, inverse->ndim, inverse->sizes, inverse->strides);
            rc = tl_copy_(inverse, &src);
        }
    }
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (t[k].storage) tl_tensor_clear(&t[k]);
    if (rc < 0) {
        if (out->storage) tl_tensor_clear(out);
        if (counts && counts->storage) tl_tensor_clear(counts);
        if (inverse && inverse->storage) tl_tensor_clear(inverse);
    }
    return rc;
}

int tl_unique(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, bool want_inverse,
              bool want_counts)
{
    tl_dtype dt = (tl_dtype)x->dtype;
    if (tl_dtype_is_complex(dt) || !tl_red_dtype_ok(dt)) /* the unsigned shells sort, as in torch */
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "unique_cpu");
    if (tl_device_on_backend(x->device)) return unique_backend(out, inverse, counts, x, want_inverse, want_counts);
    tl_rplan p;
    if (tl_rplan_init(&p, x, all_mask(x), tl_sort_key_dtype(dt), false) < 0) return -1;
    int64_t N = p.N, isz = tl_dtype_itemsize(p.bt), U = 0;
    bool f64 = p.bt == TL_FLOAT64;
    tl_kv *kv = malloc(sizeof(tl_kv) * (size_t)(2 * N + 1));
    int64_t *inv = malloc(sizeof(int64_t) * (size_t)(N + 1));
    int64_t *cnt = malloc(sizeof(int64_t) * (size_t)(N + 1));
    char *vals = malloc((size_t)(isz * (N + 1)));
    tl_tensor rv = {0}, ri = {0}, rc_ = {0};
    int rc = 0;
    if (!kv || !inv || !cnt || !vals) rc = tl_err(TL_ERR_MEMORY, "out of memory");
    if (rc == 0) {
        const char *row = tl_rplan_row(&p, 0);
        tl_sort_keys(kv, row, N, p.bt);
        tl_sort_kv(kv, N, kv + N);
        for (int64_t i = 0; i < N; i++) {
            /* NaNs never compare equal: each one is its own unique value, as in torch */
            bool same = i > 0 && kv[i].key == kv[i - 1].key && !(f64 && kv[i].key == UINT64_MAX);
            if (!same) {
                memcpy(vals + U * isz, row + kv[i].idx * isz, isz);
                cnt[U++] = 0;
            }
            cnt[U - 1]++;
            inv[kv[i].idx] = U - 1;
        }
        int64_t one = U;
        rc = tl_tensor_empty(&rv, 1, &one, p.bt, x->device, false);
        if (rc == 0) memcpy(tl_data(&rv), vals, (size_t)(U * isz));
        if (rc == 0) rc = tl_tensor_empty(out, 1, &one, dt, x->device, false);
        if (rc == 0) rc = tl_copy_(out, &rv);
        if (rc == 0 && want_counts) {
            rc = tl_tensor_empty(counts, 1, &one, TL_INT64, x->device, false);
            if (rc == 0) memcpy(tl_data(counts), cnt, sizeof(int64_t) * (size_t)U);
        }
        if (rc == 0 && want_inverse) {
            rc = tl_tensor_empty(inverse, x->ndim, x->sizes, TL_INT64, x->device, false);
            if (rc == 0) memcpy(tl_data(inverse), inv, sizeof(int64_t) * (size_t)N);
        }
    }
    free(kv);
    free(inv);
    free(cnt);
    free(vals);
    tl_rplan_free(&p);
    if (rv.storage) tl_tensor_clear(&rv);
    if (ri.storage) tl_tensor_clear(&ri);
    if (rc_.storage) tl_tensor_clear(&rc_);
    if (rc < 0) {
        if (out->storage) tl_tensor_clear(out);
        if (counts && counts->storage) tl_tensor_clear(counts);
        if (inverse && inverse->storage) tl_tensor_clear(inverse);
    }
    return rc;
}

/* out[r, i] = #{j : b[r, j] <= v[r, i]} for the [rows, B] and [rows, V] tensors b and v of one
 * dtype on a backend's device (B, V > 0; b need not be sorted), from its entries: each row of b
 * and v sorted together (sort entry, stable, b first: a b equal to a value counts), the b
 * elements before each position counted (a cumulative count, the scan entry), and each value's
 * count put back at its column (a scatter of the index entry: a permutation, so deterministic).
 * O((B + V) log(B + V)) per row where comparing every pair would be B * V. A value ordered above
 * everything by the sort's key (NaN) counts every b. */
int tl_count_le_rows(tl_tensor *out, const tl_tensor *b, const tl_tensor *v)
{
    int64_t rows = b->sizes[0], B = b->sizes[1], V = v->sizes[1], W = B + V;
    tl_tensor t[6];
    memset(t, 0, sizeof t);
    tl_tensor *mg = &t[0], *sv = &t[1], *si = &t[2], *isb = &t[3], *cc = &t[4], *full = &t[5];
    const tl_tensor *parts[2] = {b, v};
    int rc = tl_cat(mg, parts, 2, 1);
    if (rc == 0) rc = tl_sort(sv, si, mg, 1, false);
    if (rc == 0) {
        tl_ew_dest dst = {.mode = TL_EW_NEW, .out = isb};
        rc = tl_ew_binary(TL_BOP_lt, (tl_ew_arg){.t = si}, (tl_ew_arg){.t = NULL, .s = tl_scalar_int(B)}, &dst, NULL);
    }
    if (rc == 0) rc = tl_scan(cc, NULL, isb, TL_SCAN_CUMSUM, 1, TL_INT64);
    if (rc == 0) rc = tl_tensor_empty(full, 2, (int64_t[]){rows, W}, TL_INT64, b->device, false);
    if (rc == 0) rc = tl_scatter_(full, 1, si, cc, NULL, TL_RED_NONE, true, "scatter");
    if (rc == 0) { /* the values' columns */
        int64_t sz[2] = {rows, V};
        tl_tensor part = tl_tensor_geom(full, 2, sz, full->strides);
        part.offset = full->offset + B;
        rc = tl_tensor_empty(out, 2, sz, TL_INT64, b->device, false);
        if (rc == 0) rc = tl_copy_(out, &part);
    }
    for (int k = 0; k < 6; k++)
        if (t[k].storage) tl_tensor_clear(&t[k]);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}

/* ---- searchsorted ---------------------------------------------------------------- */

typedef struct {
    const tl_rplan *b, *v;
    const tl_rplan *s; /* sorter rows (int64) or NULL */
    bool right, f64;
    int64_t *out;
    int failed;
} ss_ctx;

static void ss_rows(int64_t lo, int64_t hi, void *c)
{
    ss_ctx *s = c;
    int64_t B = s->b->N, V = s->v->N;
    for (int64_t r = lo; r < hi; r++) {
        const char *brow = tl_rplan_row(s->b, s->b->M == 1 ? 0 : r);
        const int64_t *srow = s->s ? (const int64_t *)tl_rplan_row(s->s, s->s->M == 1 ? 0 : r) : NULL;
        const char *vrow = tl_rplan_row(s->v, r);
        for (int64_t i = 0; i < V; i++) {
            /* torch's comparisons, not a total order: a NaN value lands past every boundary */
            double vd = s->f64 ? ((const double *)vrow)[i] : 0;
            int64_t vi = s->f64 ? 0 : ((const int64_t *)vrow)[i];
            int64_t a = 0, e = B;
            while (a < e) {
                int64_t m = a + (e - a) / 2;
                int64_t bi = srow ? srow[m] : m;
                if (bi < 0 || bi >= B) {
                    s->failed = 1;
                    return;
                }
                bool go_right;
                if (s->f64) {
                    double bd = ((const double *)brow)[bi];
                    go_right = s->right ? !(bd > vd) : !(bd >= vd);
                } else {
                    int64_t bv = ((const int64_t *)brow)[bi];
                    go_right = s->right ? !(bv > vi) : !(bv >= vi);
                }
                if (go_right) a = m + 1;
                else e = m;
            }
            s->out[r * V + i] = a;
        }
    }
}

static int search_common(tl_tensor *out, const tl_tensor *sorted, const tl_tensor *values, const tl_tensor *sorter,
                         bool right, bool out_int32);

int tl_searchsorted(tl_tensor *out, const tl_tensor *sorted, const tl_tensor *values, const tl_tensor *sorter,
                    bool right, bool out_int32)
{
    tl_dtype sd = (tl_dtype)sorted->dtype, vd = (tl_dtype)values->dtype, ct;
    if (sorted->ndim == 0)
        return tl_err(TL_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
    bool lead_ok = sorted->ndim == 1;
    if (!lead_ok && values->ndim == sorted->ndim) {
        lead_ok = true;
        for (int i = 0; i < sorted->ndim - 1; i++) lead_ok &= sorted->sizes[i] == values->sizes[i];
    }
    if (!lead_ok) {
        char b1[256], b2[256];
        return tl_err(TL_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s",
                      tl_shape_str(sorted->sizes, sorted->ndim, b1, sizeof b1),
                      tl_shape_str(values->sizes, values->ndim, b2, sizeof b2));
    }
    if (sorter) {
        if (sorter->dtype != TL_INT64)
            return tl_err(TL_ERR_RUNTIME, "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s",
                          tl_dtype_infos[sorter->dtype].cname);
        bool same = sorter->ndim == sorted->ndim;
        for (int i = 0; same && i < sorted->ndim; i++) same = sorter->sizes[i] == sorted->sizes[i];
        if (!same) return tl_err(TL_ERR_RUNTIME, "torch.searchsorted(): boundary and sorter must have the same size");
    }
    /* torch: both sides in their promoted dtype, the kernel dispatched on it */
    if (tl_promote_types(sd, vd, &ct) < 0) return -1;
    if (tl_dtype_is_complex(ct) || tl_dtype_is_shell(ct))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)ct, "searchsorted_out_cpu");
    if (values->device.type == TL_DEV_META) /* meta (the gate keeps the operands on one device) */
        return tl_tensor_empty(out, values->ndim, values->sizes, out_int32 ? TL_INT32 : TL_INT64, values->device, false);
    tl_tensor cs = {0}, cv = {0};
    if (sd != ct || vd != ct) {
        const tl_tensor *src = sd != ct ? sorted : values;
        tl_tensor *dst = sd != ct ? &cs : &cv;
        if (tl_tensor_empty(dst, src->ndim, src->sizes, ct, src->device, false) < 0) return -1;
        if (tl_copy_(dst, src) < 0) {
            tl_tensor_clear(dst);
            return -1;
        }
        if (sd != ct) sorted = &cs;
        else values = &cv;
    }
    int rc = search_common(out, sorted, values, sorter, right, out_int32);
    if (cs.storage) tl_tensor_clear(&cs);
    if (cv.storage) tl_tensor_clear(&cv);
    return rc;
}

/* searchsorted once sorted and values share a dtype */
static int search_common(tl_tensor *out, const tl_tensor *sorted, const tl_tensor *values, const tl_tensor *sorter,
                         bool right, bool out_int32)
{
    tl_dtype bt = tl_sort_key_dtype((tl_dtype)sorted->dtype);
    tl_rplan pb, pv, ps;
    memset(&ps, 0, sizeof(ps));
    uint64_t last_b = (uint64_t)1 << (sorted->ndim - 1);
    uint64_t last_v = values->ndim ? (uint64_t)1 << (values->ndim - 1) : 1;
    if (sorted->ndim == 1) last_v = all_mask(values);
    tl_tensor res = {0};
    int rc = tl_rplan_init(&pb, sorted, last_b, bt, false);
    if (rc < 0) return -1;
    rc = tl_rplan_init(&pv, values, last_v, bt, false);
    if (rc < 0) {
        tl_rplan_free(&pb);
        return -1;
    }
    if (sorter) rc = tl_rplan_init(&ps, sorter, last_b, TL_INT64, false);
    int64_t rs[TL_MAX_DIMS];
    int rn = 0;
    for (int i = 0; i < pv.nk; i++) rs[rn++] = values->sizes[pv.kdims[i]];
    rs[rn++] = pv.N;
    if (rc == 0) rc = tl_tensor_empty(&res, rn, rs, TL_INT64, values->device, false);
    if (rc == 0 && pv.M * pv.N > 0) {
        ss_ctx c = {&pb, &pv, sorter ? &ps : NULL, right, bt == TL_FLOAT64, (int64_t *)tl_data(&res), 0};
        int64_t grain = TL_GRAIN_SIZE / (pv.N * 8 + 1);
        tl_parallel_for(pv.M, grain > 0 ? grain : 1, ss_rows, &c);
        if (c.failed) rc = tl_err(TL_ERR_RUNTIME, "torch.searchsorted(): sorter index out of range");
    }
    if (rc == 0) rc = tl_tensor_empty(out, values->ndim, values->sizes, out_int32 ? TL_INT32 : TL_INT64, values->device, false);
    if (rc == 0) {
        if (values->ndim == 0) {
            tl_tensor v = {0};
            rc = tl_tensor_view_init(&v, &res, 0, NULL, NULL, 0);
            if (rc == 0) rc = tl_copy_(out, &v);
            tl_tensor_clear(&v);
        } else {
            rc = tl_rplan_scatter(&pv, out, &res);
        }
    }
    tl_rplan_free(&pb);
    tl_rplan_free(&pv);
    tl_rplan_free(&ps);
    if (res.storage) tl_tensor_clear(&res);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}

/* ---- histc ------------------------------------------------------------------------- */

int tl_histc(tl_tensor *out, const tl_tensor *x, int64_t bins, double lo, double hi)
{
    tl_dtype dt = (tl_dtype)x->dtype;
    if (!tl_dtype_is_float(dt) || tl_dtype_is_shell(dt))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "histogram_cpu");
    if (bins <= 0) return tl_err(TL_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %lld for dimension 0", (long long)bins);
    if (hi < lo) return tl_err(TL_ERR_RUNTIME, "torch.histc: max must be larger than min");
    if (x->device.type == TL_DEV_META) return tl_tensor_empty(out, 1, &bins, dt, x->device, false); /* meta: bins */
    tl_rplan p;
    if (tl_rplan_init(&p, x, all_mask(x), TL_FLOAT64, true) < 0) return -1;
    const double *v = (const double *)tl_rplan_row(&p, 0);
    int64_t N = tl_numel(x);
    bool f32 = dt != TL_FLOAT64;
    if (lo == hi && N > 0) {
        double mn = INFINITY, mx = -INFINITY;
        for (int64_t i = 0; i < N; i++) {
            if (v[i] != v[i]) { /* NaN data: the automatic range is NaN, which is refused below */
                mn = mx = v[i];
                break;
            }
            if (v[i] < mn) mn = v[i];
            if (v[i] > mx) mx = v[i];
        }
        lo = mn;
        hi = mx;
    }
    if (lo == hi) lo -= 1, hi += 1;
    if (!isfinite(lo) || !isfinite(hi)) {
        tl_rplan_free(&p);
        return tl_err(TL_ERR_RUNTIME, "torch.histc: range of [%g, %g] is not finite", lo, hi);
    }
    double *h = calloc((size_t)bins, sizeof(double));
    int rc = h ? 0 : tl_err(TL_ERR_MEMORY, "out of memory");
    if (rc == 0) {
        float lof = (float)lo, hif = (float)hi;
        for (int64_t i = 0; i < N; i++) {
            double e = v[i];
            if (!(e >= lo && e <= hi)) continue;
            int64_t pos;
            if (f32) pos = (int64_t)(((float)e - lof) / (hif - lof) * (float)bins);
            else pos = (int64_t)((e - lo) / (hi - lo) * (double)bins);
            if (pos >= bins) pos = bins - 1;
            if (pos < 0) pos = 0;
            h[pos] += 1;
        }
        tl_tensor r = {0};
        rc = tl_tensor_empty(&r, 1, &bins, TL_FLOAT64, x->device, false);
        if (rc == 0) memcpy(tl_data(&r), h, sizeof(double) * (size_t)bins);
        if (rc == 0) rc = tl_tensor_empty(out, 1, &bins, dt, x->device, false);
        if (rc == 0) rc = tl_copy_(out, &r);
        if (r.storage) tl_tensor_clear(&r);
    }
    free(h);
    tl_rplan_free(&p);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}
