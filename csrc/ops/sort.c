/* sort.c - sorting rows of (key, index) pairs with a stable LSD radix sort on order-
 * preserving 64-bit keys; sort, topk and the order-statistic reductions built on it. */
#include "ops/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "kernels/reduce_kernels.h"
#include "ops/copy.h"
#include "ops/reduce_plan.h"

uint64_t tl_sort_key(const char *p, tl_dtype bt)
{
    if (bt == TL_UINT64) return *(const uint64_t *)p; /* already ordered: no sign bit to flip */
    if (bt != TL_FLOAT64) return (uint64_t)(*(const int64_t *)p) ^ ((uint64_t)1 << 63);
    double v = *(const double *)p;
    if (v != v) return UINT64_MAX;
    if (v == 0) v = 0;
    uint64_t u;
    memcpy(&u, &v, 8);
    return (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
}

static void insertion_sort_kv(tl_kv *a, int64_t n)
{
    for (int64_t i = 1; i < n; i++) {
        tl_kv v = a[i];
        int64_t j = i;
        while (j > 0 && a[j - 1].key > v.key) a[j] = a[j - 1], j--;
        a[j] = v;
    }
}

void tl_sort_kv(tl_kv *a, int64_t n, tl_kv *tmp)
{
    if (n <= 32) {
        insertion_sort_kv(a, n);
        return;
    }
    static const int B = 8;
    int64_t (*cnt)[256] = calloc(B, sizeof(*cnt));
    if (!cnt) { /* fall back to insertion sort rather than fail mid-op */
        insertion_sort_kv(a, n);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        for (int b = 0; b < B; b++) cnt[b][(a[i].key >> (8 * b)) & 255]++;
    tl_kv *src = a, *dst = tmp;
    for (int b = 0; b < B; b++) {
        if (cnt[b][(a[0].key >> (8 * b)) & 255] == n) continue; /* every key shares this byte */
        int64_t pos = 0;
        for (int k = 0; k < 256; k++) {
            int64_t c = cnt[b][k];
            cnt[b][k] = pos;
            pos += c;
        }
        for (int64_t i = 0; i < n; i++) dst[cnt[b][(src[i].key >> (8 * b)) & 255]++] = src[i];
        tl_kv *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, sizeof(tl_kv) * (size_t)n);
    free(cnt);
}

tl_dtype tl_sort_key_dtype(tl_dtype d) { return tl_dtype_is_float(d) ? TL_FLOAT64 : tl_rplan_buffer_dtype(d); }

/* uints: whether the op takes the unsigned integer shells (uint16/32/64) */
static int check_sortable(const tl_tensor *x, const char *what, bool uints)
{
    if (tl_dtype_is_complex((tl_dtype)x->dtype)) {
        if (!strcmp(what, "sort")) return tl_err(TL_ERR_RUNTIME, " Sort does not support complex dtypes on CPU");
        return tl_err(TL_ERR_NOTIMPL, "\"%s_cpu\" not implemented for '%s'", what, tl_dtype_infos[x->dtype].cname);
    }
    if (tl_dtype_is_shell((tl_dtype)x->dtype) && !(uints && tl_red_dtype_ok((tl_dtype)x->dtype)))
        return tl_err(TL_ERR_NOTIMPL, "\"%s_cpu\" not implemented for '%s'", what, tl_dtype_infos[x->dtype].cname);
    return 0;
}

/* ---- row jobs: sort each row, then emit L results per row ---------------------------- */

typedef enum { JOB_SORT, JOB_TOPK, JOB_KTH, JOB_MEDIAN, JOB_NANMEDIAN, JOB_MODE, JOB_ARGMAX, JOB_ARGMIN } job_kind;

typedef struct {
    const tl_rplan *p;
    job_kind kind;
    bool descending;
    int64_t k, L;        /* k: kth (0-based) or topk count; L: results per row */
    char *vals;          /* M x L, buffer dtype */
    int64_t *idx;        /* M x L */
    int failed;
} job_ctx;

static void job_rows(int64_t b, int64_t e, void *c)
{
    job_ctx *j = c;
    const tl_rplan *p = j->p;
    int64_t N = p->N, isz = tl_dtype_itemsize(p->bt);
    bool f64 = p->bt == TL_FLOAT64;
    tl_kv *kv = NULL;
    if (j->kind != JOB_ARGMAX && j->kind != JOB_ARGMIN) {
        kv = malloc(sizeof(tl_kv) * (size_t)(2 * N + 1));
        if (!kv) {
            j->failed = 1;
            return;
        }
    }
    for (int64_t r = b; r < e; r++) {
        const char *row = tl_rplan_row(p, r);
        char *vo = j->vals + r * j->L * isz;
        int64_t *io = j->idx + r * j->L;
        if (!kv) {
            tl_racc a;
            tl_racc_row(j->kind == JOB_ARGMAX ? TL_K_ARGMAX : TL_K_ARGMIN, p->bt, row, N, 0, 0, 0, &a);
            io[0] = a.cnt;
            memcpy(vo, row + a.cnt * isz, isz);
            continue;
        }
        for (int64_t i = 0; i < N; i++) {
            uint64_t key = tl_sort_key(row + i * isz, p->bt);
            kv[i].key = j->descending ? ~key : key;
            kv[i].idx = i;
        }
        tl_sort_kv(kv, N, kv + N);
        int64_t pos = 0;
        switch (j->kind) {
        case JOB_SORT:
        case JOB_TOPK:
            for (int64_t i = 0; i < j->L; i++) {
                io[i] = kv[i].idx;
                memcpy(vo + i * isz, row + kv[i].idx * isz, isz);
            }
            continue;
        case JOB_KTH: pos = j->k; break;
        case JOB_MEDIAN:
        case JOB_NANMEDIAN: {
            int64_t nn = N;
            while (nn > 0 && f64 && kv[nn - 1].key == UINT64_MAX) nn--;
            if (j->kind == JOB_MEDIAN) pos = nn < N ? nn : (N - 1) / 2;
            else pos = nn == 0 ? 0 : (nn - 1) / 2;
            break;
        }
        case JOB_MODE: {
            /* longest run of equal keys; ties go to the smallest value, its last index */
            int64_t best = 0, bestlen = 0;
            for (int64_t s = 0; s < N;) {
                int64_t t = s;
                while (t + 1 < N && kv[t + 1].key == kv[s].key) t++;
                if (t - s + 1 > bestlen) bestlen = t - s + 1, best = t;
                s = t + 1;
            }
            pos = best;
            int64_t mi = kv[best].idx;
            for (int64_t t = best; t >= 0 && kv[t].key == kv[best].key; t--)
                if (kv[t].idx > mi) mi = kv[t].idx;
            io[0] = mi;
            memcpy(vo, row + mi * isz, isz);
            continue;
        }
        default: break;
        }
        io[0] = kv[pos].idx;
        memcpy(vo, row + kv[pos].idx * isz, isz);
    }
    free(kv);
}

/* Runs a row job over x along `dim` producing L results per row; values (x's dtype) and
 * indices (int64) get shape x with dim -> L (dropped when !keepdim and L == 1). */
static int run_job(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int d, job_kind kind, bool desc,
                   int64_t k, int64_t L, bool keepdim)
{
    uint64_t mask = x->ndim ? (uint64_t)1 << d : 1;
    tl_rplan p;
    tl_tensor rv = {0}, ri = {0}, kv = {0}, ki = {0};
    int64_t sizes[TL_MAX_DIMS];
    int32_t names[TL_MAX_DIMS];
    int n = 0, rc;
    rc = tl_rplan_init(&p, x, mask, tl_sort_key_dtype((tl_dtype)x->dtype), false);
    if (rc < 0) return -1;
    int64_t rs[TL_MAX_DIMS];
    int rn = 0;
    for (int i = 0; i < p.nk; i++) rs[rn++] = x->sizes[p.kdims[i]];
    rs[rn++] = L;
    rc = tl_tensor_empty(&rv, rn, rs, p.bt, x->device, false);
    if (rc == 0) rc = tl_tensor_empty(&ri, rn, rs, TL_INT64, x->device, false);
    if (rc == 0 && p.M * L > 0) {
        job_ctx j = {&p, kind, desc, k, L, tl_data(&rv), (int64_t *)tl_data(&ri), 0};
        int64_t cost = p.N * (kind == JOB_ARGMAX || kind == JOB_ARGMIN ? 1 : 16);
        int64_t grain = TL_GRAIN_SIZE / (cost ? cost : 1);
        tl_parallel_for(p.M, grain > 0 ? grain : 1, job_rows, &j);
        if (j.failed) rc = tl_err(TL_ERR_MEMORY, "out of memory");
    }
    /* output shapes */
    bool drop = !keepdim && L == 1 && (kind != JOB_SORT && kind != JOB_TOPK);
    for (int i = 0; i < x->ndim; i++) {
        if (i == d && drop) continue;
        sizes[n] = i == d ? L : x->sizes[i];
        names[n] = x->names ? x->names[i] : TL_NAME_NONE;
        n++;
    }
    if (rc == 0) rc = tl_tensor_empty(values, n, sizes, (tl_dtype)x->dtype, x->device, false);
    if (rc == 0) rc = tl_tensor_empty(indices, n, sizes, TL_INT64, x->device, false);
    if (rc == 0 && x->ndim > 0) {
        if (drop) {
            rc = tl_rplan_keepdim_view(&kv, values, x, mask);
            if (rc == 0) rc = tl_rplan_keepdim_view(&ki, indices, x, mask);
        } else {
            rc = tl_tensor_alias(&kv, values);
            if (rc == 0) rc = tl_tensor_alias(&ki, indices);
        }
        if (rc == 0) rc = tl_rplan_scatter(&p, &kv, &rv);
        if (rc == 0) rc = tl_rplan_scatter(&p, &ki, &ri);
    } else if (rc == 0) {
        tl_tensor *const outs[2] = {values, indices};
        const tl_tensor *const srcs[2] = {&rv, &ri};
        for (int i = 0; i < 2 && rc == 0; i++) {
            tl_tensor v = {0};
            rc = tl_tensor_view_init(&v, srcs[i], 0, NULL, NULL, srcs[i]->offset);
            if (rc == 0 && tl_numel(outs[i]) > 0) rc = tl_copy_(outs[i], &v);
            tl_tensor_clear(&v);
        }
    }
    if (rc == 0) rc = tl_tensor_set_names(values, names);
    if (rc == 0) rc = tl_tensor_set_names(indices, names);
    tl_rplan_free(&p);
    if (kv.storage) tl_tensor_clear(&kv);
    if (ki.storage) tl_tensor_clear(&ki);
    if (rv.storage) tl_tensor_clear(&rv);
    if (ri.storage) tl_tensor_clear(&ri);
    if (rc < 0) {
        if (values->storage) tl_tensor_clear(values);
        if (indices->storage) tl_tensor_clear(indices);
    }
    return rc;
}

int tl_sort(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int64_t dim, bool descending)
{
    int d;
    if (check_sortable(x, "sort", true) < 0 || tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    int64_t L = x->ndim ? x->sizes[d] : 1;
    return run_job(values, indices, x, d, JOB_SORT, descending, 0, L, true);
}

int tl_topk(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int64_t k, int64_t dim, bool largest)
{
    int d;
    if (x->dtype == TL_BOOL) return tl_err(TL_ERR_RUNTIME, "topk does not support bool dtypes on CPU");
    if (check_sortable(x, "topk", false) < 0 || tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    int64_t N = x->ndim ? x->sizes[d] : 1;
    if (k < 0 || k > N) return tl_err(TL_ERR_RUNTIME, "selected index k out of range");
    return run_job(values, indices, x, d, JOB_TOPK, largest, 0, k, true);
}

int tl_reduce_index(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, tl_idx_op op, int64_t dim,
                    bool keepdim, int64_t k)
{
    static const char *const names[] = {"max", "min", "kthvalue", "median", "nanmedian", "mode"};
    static const job_kind kinds[] = {JOB_ARGMAX, JOB_ARGMIN, JOB_KTH, JOB_MEDIAN, JOB_NANMEDIAN, JOB_MODE};
    int d;
    const char *name = names[op];
    const char *cname = tl_dtype_infos[x->dtype].cname;
    if (tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    int64_t N = x->ndim ? x->sizes[d] : 1;
    /* torch: emptiness of the reduced dim first, then dtype (mode checks no dtype when empty) */
    if (N == 0)
        return tl_err(TL_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.",
                      op == TL_IDX_NANMEDIAN ? "median" : name, d);
    if (op == TL_IDX_MODE && tl_numel(x) == 0) {
    } else if (op == TL_IDX_MAX || op == TL_IDX_MIN) {
        if (tl_dtype_is_complex((tl_dtype)x->dtype)) return tl_err(TL_ERR_RUNTIME, "%s(): does not support complex input", name);
        /* the unsigned shells: a superset of torch (which refuses them), as NumPy's max(axis) */
        if (!tl_red_dtype_ok((tl_dtype)x->dtype))
            return tl_err(TL_ERR_NOTIMPL, "\"%s_cpu\" not implemented for '%s'", name, cname);
    } else if (op == TL_IDX_MEDIAN || op == TL_IDX_NANMEDIAN) {
        /* k < 0: the median of all elements (torch names its kernel median_cpu there) */
        if (x->dtype == TL_BOOL || tl_dtype_is_complex((tl_dtype)x->dtype) || tl_dtype_is_shell((tl_dtype)x->dtype))
            return tl_err(TL_ERR_NOTIMPL, "\"%s\" not implemented for '%s'", k < 0 ? "median_cpu" : "median_out", cname);
    } else if (op == TL_IDX_KTHVALUE && (x->dtype == TL_BOOL || tl_dtype_is_complex((tl_dtype)x->dtype))) {
        return tl_err(TL_ERR_NOTIMPL, "\"kthvalue_cpu\" not implemented for '%s'", cname);
    } else if (check_sortable(x, name, false) < 0) {
        return -1;
    }
    if (op == TL_IDX_KTHVALUE && (k < 1 || k > N))
        return tl_err(TL_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %d", d);
    return run_job(values, indices, x, d, kinds[op], false, k - 1, 1, keepdim);
}
