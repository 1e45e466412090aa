/* reduce.c - the reduction driver: dtype rules, empty-input rules, threading (rows across
 * threads, or one long row split into a fixed number of stretches so results do not depend
 * on the thread count), the two-pass ops (var, logsumexp), and a column-wise path for
 * reductions over outer dims of a contiguous float tensor. */
#include "ops/reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/reduce_core.h"
#include "core/error.h"
#include "core/parallel.h"
#include "kernels/cast.h"
#include "kernels/reduce_kernels.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/reduce_plan.h"

static const char *const op_names[TL_RED_NUM] = {
#define NAME(code, name) #name,
    TL_RED_OPS(NAME)
#undef NAME
};

static bool no_identity(tl_red_op op)
{
    return op == TL_RED_MAX || op == TL_RED_MIN || op == TL_RED_AMAX || op == TL_RED_AMIN || op == TL_RED_ARGMAX ||
           op == TL_RED_ARGMIN || op == TL_RED_AMINMAX_MIN || op == TL_RED_AMINMAX_MAX;
}

static int red_dtypes(tl_red_op op, tl_dtype x, int darg, bool empty_out, tl_dtype *in, tl_dtype *res);
static int nanmean_dtypes(tl_dtype x, int darg);
static int empty_dim_error(tl_red_op op, int d);

int tl_reduce_mask(const tl_tensor *x, tl_red_op op, int dtype, const int64_t *dims, int n, uint64_t *mask)
{
    /* torch's order: the dtype rules of the float-only ops come before the dims; the ops
     * without an identity check each dim's emptiness as they wrap it; duplicates come last */
    tl_dtype in, res;
    if ((op == TL_RED_MEAN || op == TL_RED_VAR || op == TL_RED_STD || op == TL_RED_NORM || op == TL_RED_ARGMAX ||
         op == TL_RED_ARGMIN) &&
        red_dtypes(op, (tl_dtype)x->dtype, dtype, false, &in, &res) < 0)
        return -1;
    if (op == TL_RED_NANMEAN && nanmean_dtypes((tl_dtype)x->dtype, dtype) < 0) return -1;
    uint64_t m = 0;
    if (n == 0) {
        *mask = x->ndim ? (x->ndim == 64 ? ~(uint64_t)0 : ((uint64_t)1 << x->ndim) - 1) : 1;
        return 0;
    }
    int dup = -1;
    for (int i = 0; i < n; i++) {
        int d;
        if (tl_wrap_dim(dims[i], x->ndim ? x->ndim : 1, &d) < 0) return -1;
        if (no_identity(op) && x->ndim && x->sizes[d] == 0) return empty_dim_error(op, d);
        if (m >> d & 1 && dup < 0) dup = d;
        m |= (uint64_t)1 << d;
    }
    if (dup >= 0) return tl_err(TL_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", dup);
    *mask = m;
    return 0;
}

static bool is_fc(tl_dtype d) { return tl_dtype_is_float(d) || tl_dtype_is_complex(d); }

/* nanmean's dtype checks that torch makes before the dims (its complex refusals come after). */
static int nanmean_dtypes(tl_dtype x, int darg)
{
    if (!is_fc(x))
        return tl_err(TL_ERR_RUNTIME, "nanmean(): expected input to have floating point or complex dtype but got %s",
                      tl_dtype_infos[x].cname);
    if (darg >= 0 && !is_fc((tl_dtype)darg))
        return tl_err(TL_ERR_RUNTIME, "nanmean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s",
                      tl_dtype_infos[darg].cname);
    return 0;
}

/* The dtype the input is cast to before reducing and the result dtype (torch's rules). */
static int red_dtypes(tl_red_op op, tl_dtype x, int darg, bool empty_out, tl_dtype *in, tl_dtype *res)
{
    const char *name = op_names[op];
    const char *xn = tl_dtype_infos[x].cname;
    if (!tl_red_dtype_ok(x) || (darg >= 0 && !tl_red_dtype_ok((tl_dtype)darg)))
        return tl_err_dispatch(TL_ERR_NOTIMPL, !tl_red_dtype_ok(x) ? x : (tl_dtype)darg, "%s_cpu", name);
    *in = x;
    switch (op) {
    case TL_RED_SUM:
    case TL_RED_NANSUM:
    case TL_RED_PROD:
        if (op == TL_RED_NANSUM && tl_dtype_is_complex(x))
            return tl_err(TL_ERR_RUNTIME, "nansum on CPU does not support complex inputs");
        if (darg >= 0) *in = *res = (tl_dtype)darg;
        else *res = tl_dtype_kind(x) <= TL_KIND_INT ? TL_INT64 : x;
        return 0;
    case TL_RED_NANMEAN: /* torch: the input's dtype first, then dtype=, then nansum's refusals */
        if (nanmean_dtypes(x, darg) < 0) return -1;
        if (tl_dtype_is_complex(x)) return tl_err(TL_ERR_RUNTIME, "nansum on CPU does not support complex inputs");
        if (darg >= 0 && tl_dtype_is_complex((tl_dtype)darg)) return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)darg, "nansum_cpu");
        *in = *res = darg >= 0 ? (tl_dtype)darg : x;
        return 0;
    case TL_RED_MEAN:
        if (darg >= 0) {
            if (!is_fc((tl_dtype)darg))
                return tl_err(TL_ERR_RUNTIME, "%s(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s",
                              name, tl_dtype_infos[darg].cname);
            *in = *res = (tl_dtype)darg;
            return 0;
        }
        if (!is_fc(x))
            return tl_err(TL_ERR_RUNTIME, "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", xn);
        *res = x;
        return 0;
    case TL_RED_VAR:
    case TL_RED_STD:
        if (!is_fc(x)) return tl_err(TL_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
        *res = tl_dtype_to_real(x);
        return 0;
    case TL_RED_NORM:
        if (darg >= 0) {
            if (!is_fc((tl_dtype)darg))
                return tl_err(TL_ERR_RUNTIME, "linalg.vector_norm: dtype should be floating point or complex, but got %s",
                              tl_dtype_infos[darg].cname);
            *in = (tl_dtype)darg;
        }
        if (!is_fc(*in))
            return tl_err(TL_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", xn);
        *res = tl_dtype_to_real(*in);
        return 0;
    case TL_RED_LOGSUMEXP:
        if (x == TL_COMPLEX32) /* torch's exp has no ComplexHalf kernel */
            return tl_err_dispatch(TL_ERR_NOTIMPL, x, "exp_vml_cpu");
        if (!is_fc(x)) *in = TL_FLOAT32;
        *res = *in;
        return 0;
    case TL_RED_ARGMAX:
    case TL_RED_ARGMIN:
        if (tl_dtype_is_complex(x)) return tl_err(TL_ERR_RUNTIME, "%s(): does not support complex input", name);
        if (x == TL_BOOL) return tl_err(TL_ERR_RUNTIME, "%s(): does not support bool input", name);
        *res = TL_INT64;
        return 0;
    case TL_RED_ALL:
    case TL_RED_ANY:
        *res = x == TL_UINT8 ? TL_UINT8 : TL_BOOL;
        return 0;
    case TL_RED_COUNT_NONZERO:
        *res = TL_INT64;
        return 0;
    default: /* max, min, amax, amin, aminmax */
        if (tl_dtype_is_complex(x) && !empty_out) { /* torch runs no kernel for an empty result */
            const char *k = op == TL_RED_AMAX ? "max_values_cpu" : op == TL_RED_AMIN ? "min_values_cpu"
                          : op == TL_RED_MAX || op == TL_RED_AMINMAX_MAX ? "max_all" : "min_all";
            return tl_err_dispatch(TL_ERR_NOTIMPL, x, "%s", k);
        }
        *res = x;
        return 0;
    }
}

/* nansum into an integer or bool dtype: the NaNs are skipped (zeroed) before the cast, as
 * torch, instead of becoming INT64_MIN. */
static int nan_zeroed_cast(tl_tensor *out, const tl_tensor *x, tl_dtype to)
{
    tl_tensor tmp = {0};
    if (tl_clone(&tmp, x, (tl_dtype)x->dtype, TL_MEMFMT_PRESERVE) < 0) return -1;
    tl_ew_params prm;
    memset(&prm, 0, sizeof prm);
    prm.d[1] = INFINITY;
    prm.d[2] = -INFINITY;
    tl_ew_dest dst = {.mode = TL_EW_INPLACE, .out = &tmp};
    int rc = tl_ew_unary(TL_UOP_nan_to_num, &tmp, &dst, &prm);
    if (rc == 0) rc = tl_clone(out, &tmp, to, TL_MEMFMT_PRESERVE);
    tl_tensor_clear(&tmp);
    return rc;
}

static int empty_dim_error(tl_red_op op, int d)
{
    if (op == TL_RED_AMINMAX_MIN || op == TL_RED_AMINMAX_MAX)
        return tl_err(TL_ERR_INDEX, "aminmax: Expected reduction dim %d to have non-zero size.", d);
    return tl_err(TL_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", op_names[op], d);
}

/* torch refuses ops without an identity over empty dims. */
static int check_empty(tl_red_op op, const tl_tensor *x, uint64_t mask, bool full)
{
    if (!no_identity(op)) return 0;
    const char *name = op_names[op];
    if (full && tl_numel(x) == 0) {
        if (op == TL_RED_ARGMAX || op == TL_RED_ARGMIN)
            return tl_err(TL_ERR_INDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.", name);
        if (op == TL_RED_AMINMAX_MIN || op == TL_RED_AMINMAX_MAX)
            return tl_err(TL_ERR_RUNTIME, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
        return tl_err(TL_ERR_RUNTIME, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name);
    }
    for (int d = 0; d < x->ndim; d++)
        if ((mask >> d & 1) && x->sizes[d] == 0) return empty_dim_error(op, d);
    return 0;
}

/* ---- running a kernel over every row ---------------------------------------------- */

typedef struct {
    const tl_rplan *p;
    tl_kop op;
    double power;
    const double complex *center;
    tl_racc *accs;
    int64_t row, chunk;
} run_ctx;

static void rows_fn(int64_t b, int64_t e, void *c)
{
    run_ctx *r = c;
    for (int64_t i = b; i < e; i++)
        tl_racc_row(r->op, r->p->bt, tl_rplan_row(r->p, i), r->p->N, 0, r->center ? r->center[i] : 0, r->power,
                    &r->accs[i]);
}

#define MAX_CHUNKS 64
/* Fewer independent tasks (rows, column blocks) than this, each long, are split into
 * stretches so that threads share them; a constant, not the thread count, so results are
 * bitwise the same at any tl.set_num_threads. */
#define FEW_TASKS 8

static void chunks_fn(int64_t b, int64_t e, void *c)
{
    run_ctx *r = c;
    int64_t N = r->p->N, isz = tl_dtype_itemsize(r->p->bt);
    const char *row = tl_rplan_row(r->p, r->row);
    for (int64_t k = b; k < e; k++) {
        int64_t s = k * r->chunk, n = s + r->chunk < N ? r->chunk : N - s;
        tl_racc_row(r->op, r->p->bt, row + s * isz, n, s, r->center ? r->center[r->row] : 0, r->power, &r->accs[k]);
    }
}

static void run_kop(const tl_rplan *p, tl_kop op, const double complex *center, double power, tl_racc *accs)
{
    run_ctx r = {p, op, power, center, accs, 0, 0};
    int64_t M = p->M, N = p->N;
    if (M == 0) return;
    if (N == 0) {
        for (int64_t i = 0; i < M; i++) tl_racc_row(op, p->bt, NULL, 0, 0, 0, power, &accs[i]);
        return;
    }
    if (M >= FEW_TASKS || N < 4 * TL_GRAIN_SIZE) {
        int64_t grain = TL_GRAIN_SIZE / N;
        tl_parallel_for(M, grain > 0 ? grain : 1, rows_fn, &r);
        return;
    }
    /* Few long rows: stretches of each row (a count fixed by N), combined in order. */
    int64_t nch = N / (2 * TL_GRAIN_SIZE);
    if (nch > MAX_CHUNKS) nch = MAX_CHUNKS;
    r.chunk = (N + nch - 1) / nch;
    nch = (N + r.chunk - 1) / r.chunk;
    tl_racc part[MAX_CHUNKS];
    for (int64_t i = 0; i < M; i++) {
        r.row = i;
        r.accs = part;
        tl_parallel_for(nch, 1, chunks_fn, &r);
        for (int64_t k = 1; k < nch; k++) tl_racc_combine(op, p->bt, &part[0], &part[k]);
        accs[i] = part[0];
    }
}

/* ---- sums over outer dims of a contiguous float tensor: columns accumulate in double ---- */

/* Column block width: whole rows (streaming reads, accumulators in L2) up to 64K columns. */
#define COLS 65536

typedef struct {
    const char *base;
    bool f64;
    int64_t N, M, nrch, rchunk;
    double *part; /* nrch x M partial sums */
} outer_ctx;

static void outer_fn(int64_t b, int64_t e, void *c)
{
    outer_ctx *o = c;
    int64_t ncb = (o->M + COLS - 1) / COLS;
    for (int64_t t = b; t < e; t++) {
        int64_t rc = t / ncb, cb = t % ncb;
        int64_t c0 = cb * COLS, w = c0 + COLS < o->M ? COLS : o->M - c0;
        int64_t r0 = rc * o->rchunk, r1 = r0 + o->rchunk < o->N ? r0 + o->rchunk : o->N;
        double *acc = o->part + rc * o->M + c0;
        memset(acc, 0, sizeof(double) * (size_t)w);
        tl_colsum(o->f64 ? TL_FLOAT64 : TL_FLOAT32, o->base + (r0 * o->M + c0) * (o->f64 ? 8 : 4), r1 - r0, o->M,
                  w, acc);
    }
}

/* The plan's result buffer shape: kept dims first, then a 1 per reduced dim. */
static int result_shape(const tl_rplan *p, const tl_tensor *src, int64_t *rs)
{
    int rn = 0;
    for (int i = 0; i < p->nk; i++) rs[rn++] = src->sizes[p->kdims[i]];
    for (int i = 0; i < p->nr; i++) rs[rn++] = 1;
    return rn;
}

/* True when x is laid out as (reduced..., kept...) row-major, worth a column pass. */
static bool outer_layout(const tl_tensor *x, const tl_rplan *p)
{
    if (p->nk == 0 || p->nr == 0 || p->M < 16 || p->N < 2) return false;
    int64_t expect = 1;
    for (int i = p->nk - 1; i >= 0; i--) {
        int d = p->kdims[i];
        if (x->sizes[d] == 1) continue;
        if (x->strides[d] != expect) return false;
        expect *= x->sizes[d];
    }
    for (int i = p->nr - 1; i >= 0; i--) {
        int d = p->rdims[i];
        if (x->sizes[d] == 1) continue;
        if (x->strides[d] != expect) return false;
        expect *= x->sizes[d];
    }
    return true;
}

/* Column sums when x is laid out as (reduced..., kept...) row-major; 1 if done, 0 if the
 * layout does not fit, -1 on error. sums has M entries. */
static int outer_sums(const tl_tensor *x, const tl_rplan *p, double *sums)
{
    if ((x->dtype != TL_FLOAT32 && x->dtype != TL_FLOAT64) || !outer_layout(x, p)) return 0;
    outer_ctx o = {tl_data(x), x->dtype == TL_FLOAT64, p->N, p->M, 1, p->N, NULL};
    int64_t ncb = (p->M + COLS - 1) / COLS;
    if (ncb < FEW_TASKS && p->M * p->N >= 4 * TL_GRAIN_SIZE) {
        /* a fixed number of row stretches (not the thread count) keeps results reproducible */
        o.nrch = p->N / 64 < 16 ? (p->N / 64 > 0 ? p->N / 64 : 1) : 16;
        o.rchunk = (p->N + o.nrch - 1) / o.nrch;
        o.nrch = (p->N + o.rchunk - 1) / o.rchunk;
    }
    o.part = o.nrch == 1 ? sums : malloc(sizeof(double) * (size_t)(o.nrch * p->M));
    if (!o.part) return tl_err(TL_ERR_MEMORY, "out of memory");
    int64_t tasks = o.nrch * ncb;
    int64_t grain = TL_GRAIN_SIZE / (o.rchunk * (p->M < COLS ? p->M : COLS));
    tl_parallel_for(tasks, grain > 0 ? grain : 1, outer_fn, &o);
    if (o.nrch > 1) {
        memcpy(sums, o.part, sizeof(double) * (size_t)p->M);
        for (int64_t rc = 1; rc < o.nrch; rc++)
            for (int64_t j = 0; j < p->M; j++) sums[j] += o.part[rc * p->M + j];
        free(o.part);
    }
    return 1;
}

/* ---- argmax/argmin over outer dims: columns of running bests ------------------------- */

/* Columns per task of the values pass: its running bests (32-64 KB) stay in L2 while each
 * row is read as one long contiguous stretch (measured: 2048 columns 3.5 ms, 8192 3.2 ms for
 * amax(0) of 1000x10000 float32, NumPy 2.3-3.6 ms on the loaded machine). */
#define COLEXT_W 8192
/* At more than one thread, a values pass with fewer than two tasks per thread is cut into
 * equal tasks (still at least this many bytes of each row): 8192 + 1808 columns of amin(0)
 * of 1000x10000 float64 gave one thread 82% of the work and made 2 threads 1.10x slower
 * than 1. Each column's extreme does not depend on the column split, so the split may
 * follow the thread count. */
#define COLEXT_MIN_BYTES 16384

typedef struct {
    const char *base;
    tl_dtype bt;
    bool is_max, values; /* values: the extremes (amax...), else their row indices */
    int64_t N, M, cw; /* cw: columns per task */
    char *out;
} colarg_ctx;

static void colarg_fn(int64_t b, int64_t e, void *c)
{
    colarg_ctx *o = c;
    int64_t isz = tl_dtype_itemsize(o->bt);
    int64_t cw = o->cw;
    for (int64_t t = b; t < e; t++) {
        int64_t c0 = t * cw, w = c0 + cw < o->M ? cw : o->M - c0;
        if (o->values) tl_colext(o->is_max, o->bt, o->base + c0 * isz, o->N, o->M, w, o->out + c0 * isz);
        else tl_colarg(o->is_max, o->bt, o->base + c0 * isz, o->N, o->M, w, (int64_t *)o->out + c0);
    }
}

/* Arg-extremes (out: M int64 row indices) or extreme values (out: M elements of x's dtype)
 * over outer dims; 1 when done, 0 when the layout or dtype does not fit. */
static int outer_args(const tl_tensor *x, const tl_rplan *p, bool is_max, bool values, char *out)
{
    tl_dtype bt = (tl_dtype)x->dtype;
    if (!tl_col_supports(bt, p->N) || !outer_layout(x, p)) return 0;
    int64_t cw = values ? COLEXT_W : TL_COLARG_W;
    int64_t tasks = (p->M + cw - 1) / cw, isz = tl_dtype_itemsize(bt);
    int nt = tl_get_num_threads();
    if (values && nt > 1 && tasks < 2 * nt && p->M * p->N >= 4 * TL_GRAIN_SIZE) {
        int64_t most = p->M * isz / COLEXT_MIN_BYTES;
        if (most > tasks) {
            tasks = most < 2 * nt ? most : 2 * nt;
            int64_t line = 64 / isz > 0 ? 64 / isz : 1; /* whole cache lines per task */
            cw = ((p->M + tasks - 1) / tasks + line - 1) / line * line;
            tasks = (p->M + cw - 1) / cw;
        }
    }
    colarg_ctx o = {tl_data(x), bt, is_max, values, p->N, p->M, cw, out};
    int64_t grain = TL_GRAIN_SIZE / (p->N * cw);
    tl_parallel_for(tasks, grain > 0 ? grain : 1, colarg_fn, &o);
    return 1;
}

/* ---- the driver --------------------------------------------------------------------- */

static tl_kop first_kop(tl_red_op op, double param)
{
    switch (op) {
    case TL_RED_SUM:
    case TL_RED_MEAN:
    case TL_RED_VAR:
    case TL_RED_STD: return TL_K_SUM;
    case TL_RED_NANSUM:
    case TL_RED_NANMEAN: return TL_K_NANSUM;
    case TL_RED_PROD: return TL_K_PROD;
    case TL_RED_MAX:
    case TL_RED_AMAX:
    case TL_RED_AMINMAX_MAX:
    case TL_RED_LOGSUMEXP: return TL_K_MAX;
    case TL_RED_MIN:
    case TL_RED_AMIN:
    case TL_RED_AMINMAX_MIN: return TL_K_MIN;
    case TL_RED_ARGMAX: return TL_K_ARGMAX;
    case TL_RED_ARGMIN: return TL_K_ARGMIN;
    case TL_RED_ALL: return TL_K_ALL;
    case TL_RED_ANY: return TL_K_ANY;
    case TL_RED_COUNT_NONZERO: return TL_K_CNZ;
    default: /* norm */
        if (param == 0) return TL_K_CNZ;
        if (isinf(param)) return param > 0 ? TL_K_ABSMAX : TL_K_ABSMIN;
        return TL_K_ABSPOW;
    }
}

/* Accumulator dtype the per-row results are gathered in before the final cast. */
static tl_dtype acc_dtype(tl_red_op op, tl_dtype bt)
{
    switch (op) {
    case TL_RED_ARGMAX:
    case TL_RED_ARGMIN:
    case TL_RED_ALL:
    case TL_RED_ANY:
    case TL_RED_COUNT_NONZERO: return TL_INT64;
    case TL_RED_VAR:
    case TL_RED_STD:
    case TL_RED_NORM: return TL_FLOAT64;
    case TL_RED_LOGSUMEXP: return bt == TL_COMPLEX64 || bt == TL_COMPLEX128 ? TL_COMPLEX128 : TL_FLOAT64;
    default:
        if (bt == TL_INT64 || bt == TL_UINT64) return TL_INT64; /* uint64 results keep their bits */
        return bt == TL_COMPLEX64 || bt == TL_COMPLEX128 ? TL_COMPLEX128 : TL_FLOAT64;
    }
}

/* The M row results of `op` into out (M contiguous elements of the accumulation dtype ad). */
static int compute(const tl_rplan *p, tl_red_op op, double param, char *out, tl_dtype ad)
{
    int64_t M = p->M, N = p->N;
    bool cplx = p->bt == TL_COMPLEX64 || p->bt == TL_COMPLEX128;
    tl_racc one, *accs = M <= 1 ? &one : malloc(sizeof(tl_racc) * (size_t)M); /* one row: no heap */
    double complex one_center, *center = NULL;
    if (!accs) return tl_err(TL_ERR_MEMORY, "out of memory");
    tl_kop k = first_kop(op, param);
    run_kop(p, k, NULL, fabs(param), accs);
    if (op == TL_RED_VAR || op == TL_RED_STD || op == TL_RED_LOGSUMEXP) {
        center = M <= 1 ? &one_center : malloc(sizeof(double complex) * (size_t)M);
        if (!center) {
            free(accs);
            return tl_err(TL_ERR_MEMORY, "out of memory");
        }
        for (int64_t i = 0; i < M; i++) {
            if (op == TL_RED_LOGSUMEXP) center[i] = isinf(accs[i].d) ? 0 : accs[i].d;
            else center[i] = cplx ? accs[i].c / (double)N : accs[i].d / (double)N;
        }
        run_kop(p, op == TL_RED_LOGSUMEXP ? TL_K_SUMEXP : TL_K_SSD, center, 0, accs);
    }
    for (int64_t i = 0; i < M; i++) {
        const tl_racc *a = &accs[i];
        double d = a->d;
        switch (op) {
        case TL_RED_MEAN: d = a->d / (double)N; break;
        case TL_RED_NANMEAN: d = a->d / (double)a->cnt; break;
        case TL_RED_VAR:
        case TL_RED_STD: {
            double dof = (double)N - param;
            d = a->d / (dof > 0 ? dof : 0);
            if (op == TL_RED_STD) d = sqrt(d);
            break;
        }
        case TL_RED_NORM:
            if (k == TL_K_CNZ) d = (double)a->i;
            else if (k == TL_K_ABSPOW) d = param == 1 ? a->d : param == 2 ? sqrt(a->d) : pow(a->d, 1.0 / param);
            break;
        case TL_RED_LOGSUMEXP: d = log(a->d) + creal(center[i]); break;
        default: break;
        }
        if (ad == TL_INT64) {
            int64_t v = (op == TL_RED_ARGMAX || op == TL_RED_ARGMIN) ? a->cnt : a->i;
            ((int64_t *)out)[i] = v;
        } else if (ad == TL_COMPLEX128 && op == TL_RED_LOGSUMEXP) {
            /* torch: log(sum) + m with m as the complex m + 0i, in the input's precision */
            if (p->bt == TL_COMPLEX64) {
                float complex l = clogf((float complex)a->c);
                ((double complex *)out)[i] = CMPLXF(crealf(l) + (float)creal(center[i]), cimagf(l) + 0.0f);
            } else {
                double complex l = clog(a->c);
                ((double complex *)out)[i] = CMPLX(creal(l) + creal(center[i]), cimag(l) + 0.0);
            }
        } else if (ad == TL_COMPLEX128) {
            ((double complex *)out)[i] = op == TL_RED_MEAN ? a->c / (double)N : a->c;
        } else {
            ((double *)out)[i] = d;
        }
    }
    if (center != &one_center) free(center);
    if (accs != &one) free(accs);
    return 0;
}

/* A reduction of a tensor on a backend's device (CUDA): the result allocated there and filled
 * by the backend's reduce entry; a dtype= cast runs on the device first. */
static int device_reduce(tl_tensor *out, const tl_tensor *x, tl_red_op op, uint64_t mask, bool keepdim, tl_dtype in,
                         tl_dtype rd, double param, const int64_t *sizes, const int32_t *names, int n)
{
    bool arg = op == TL_RED_ARGMAX || op == TL_RED_ARGMIN, empty = false;
    for (int i = 0; i < n; i++) empty |= sizes[i] == 0;
    /* an empty result runs no kernel (torch returns it for dtypes without one too) */
    if (!empty && tl_backend_reduce_supported(op_names[op], op, in, arg ? -1 : (int)rd, x->device) < 0) return -1;
    tl_tensor cast = {0};
    const tl_tensor *src = x;
    int rc = 0;
    /* nansum(float, dtype=int): the backend skips the NaNs and casts the rest itself */
    if (!empty && in != x->dtype && !(op == TL_RED_NANSUM && tl_dtype_is_float((tl_dtype)x->dtype) && !is_fc(in))) {
        rc = tl_clone(&cast, x, in, TL_MEMFMT_PRESERVE);
        src = &cast;
    }
    if (rc == 0) rc = tl_tensor_empty(out, n, sizes, rd, x->device, false);
    if (rc == 0 && !empty) rc = tl_backend_reduce(arg ? NULL : out, arg ? out : NULL, src, op, mask, keepdim, param, op_names[op]);
    if (rc == 0) rc = tl_tensor_set_names(out, names);
    if (cast.storage) tl_tensor_clear(&cast);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}

static bool any_order_op(tl_red_op op) { return op != TL_RED_ARGMAX && op != TL_RED_ARGMIN; }

int tl_reduce(tl_tensor *out, const tl_tensor *x, tl_red_op op, uint64_t mask, bool full, bool keepdim,
              int dtype, double param)
{
    tl_dtype in = (tl_dtype)x->dtype, rd = (tl_dtype)x->dtype;
    if (x->ndim < 64) mask &= x->ndim ? (((uint64_t)1 << x->ndim) - 1) : 0;
    int64_t sizes[TL_MAX_DIMS];
    int32_t names[TL_MAX_DIMS];
    int n;
    tl_reduce_shape(x, mask, keepdim, sizes, names, &n);
    bool empty_out = false;
    for (int i = 0; i < n; i++) empty_out |= sizes[i] == 0;
    /* torch checks argmax's dtype before emptiness, the other ops the other way round */
    bool arg = op == TL_RED_ARGMAX || op == TL_RED_ARGMIN;
    if (!arg && check_empty(op, x, mask, full) < 0) return -1;
    if (red_dtypes(op, (tl_dtype)x->dtype, dtype, empty_out, &in, &rd) < 0) return -1;
    if (arg && check_empty(op, x, mask, full) < 0) return -1;
    if (op == TL_RED_LOGSUMEXP && full && !keepdim && x->ndim > 0 && tl_numel(x) > 0) {
        /* dim=(): torch writes its keepdim-shaped sum into a 0-d output and fails */
        char b[256];
        int64_t ones[TL_MAX_DIMS];
        for (int i = 0; i < x->ndim; i++) ones[i] = 1;
        return tl_err(TL_ERR_RUNTIME, "output with shape [] doesn't match the broadcast shape %s",
                      tl_shape_str(ones, x->ndim, b, sizeof b));
    }
    if (x->device.type == TL_DEV_META) { /* the result's geometry only: no elements to reduce */
        int rc = tl_tensor_empty(out, n, sizes, rd, x->device, false);
        if (rc == 0 && (rc = tl_tensor_set_names(out, names)) < 0) tl_tensor_clear(out);
        return rc;
    }
    if (x->device.type != TL_DEV_CPU) return device_reduce(out, x, op, mask, keepdim, in, rd, param, sizes, names, n);
    tl_tensor cast = {0}, res = {0}, kv = {0};
    const tl_tensor *src = x;
    tl_rplan p;
    memset(&p, 0, sizeof(p));
    int rc = 0;
    if (in != x->dtype) {
        rc = op == TL_RED_NANSUM && is_fc((tl_dtype)x->dtype) && !is_fc(in) ? nan_zeroed_cast(&cast, x, in)
                                                                          : tl_clone(&cast, x, in, TL_MEMFMT_PRESERVE);
        src = &cast;
    }
    /* sums over outer dims of a contiguous float tensor: columns, no transposing copy */
    bool outer = false;
    if (rc == 0 && (op == TL_RED_SUM || op == TL_RED_MEAN) && src->dtype == tl_rplan_buffer_dtype(in) &&
        (src->dtype == TL_FLOAT32 || src->dtype == TL_FLOAT64)) {
        tl_rplan_dims(&p, src, mask);
        p.bt = (tl_dtype)src->dtype;
        int64_t rs[TL_MAX_DIMS];
        int rn = result_shape(&p, src, rs);
        int r = 0;
        if (outer_layout(src, &p)) { /* else no column pass: no result buffer either */
            rc = tl_tensor_empty(&res, rn, rs, TL_FLOAT64, x->device, false);
            r = rc == 0 ? outer_sums(src, &p, (double *)tl_data(&res)) : 0;
        }
        if (r < 0) rc = -1;
        outer = r == 1;
        if (outer && op == TL_RED_MEAN)
            for (int64_t i = 0; i < p.M; i++) ((double *)tl_data(&res))[i] /= (double)p.N;
        if (!outer && res.storage) tl_tensor_clear(&res);
    }
    /* extremes over outer dims: columns of running bests, no transposing copy */
    bool ext = op == TL_RED_MAX || op == TL_RED_MIN || op == TL_RED_AMAX || op == TL_RED_AMIN ||
               op == TL_RED_AMINMAX_MAX || op == TL_RED_AMINMAX_MIN;
    if (rc == 0 && (arg || ext) && tl_numel(src) > 0) {
        tl_rplan_dims(&p, src, mask);
        p.bt = (tl_dtype)src->dtype;
        int64_t rs[TL_MAX_DIMS];
        int rn = result_shape(&p, src, rs);
        if (outer_layout(src, &p)) {
            bool is_max = op == TL_RED_ARGMAX || op == TL_RED_MAX || op == TL_RED_AMAX || op == TL_RED_AMINMAX_MAX;
            rc = tl_tensor_empty(&res, rn, rs, arg ? TL_INT64 : p.bt, x->device, false);
            outer = rc == 0 && outer_args(src, &p, is_max, ext, tl_data(&res)) == 1;
            if (!outer && res.storage) tl_tensor_clear(&res);
        }
    }
    if (rc == 0 && !outer) rc = tl_rplan_init(&p, src, mask, tl_rplan_buffer_dtype(in), any_order_op(op));
    /* One row (a full reduction, the common small call): its result stays on the stack and is
     * cast straight into out's one element by the loop tl_copy_ would use (same bits), with
     * no result tensor and no scatter views. */
    bool single = rc == 0 && !outer && p.M == 1;
    union { double d; int64_t i; double complex c; } one;
    tl_dtype ad = rc == 0 && !outer ? acc_dtype(op, p.bt) : TL_FLOAT64;
    if (rc == 0 && !outer && !single) {
        int64_t rs[TL_MAX_DIMS];
        int rn = result_shape(&p, src, rs);
        rc = tl_tensor_empty(&res, rn, rs, ad, x->device, false);
    }
    if (rc == 0 && !outer) rc = compute(&p, op, param, single ? (char *)&one : tl_data(&res), ad);
    if (rc == 0) rc = tl_tensor_empty(out, n, sizes, rd, x->device, false);
    if (rc == 0 && single) {
        char *data[2] = {tl_data(out), (char *)&one};
        int64_t st[2] = {0, 0};
        tl_loop_fn f = ad == rd ? NULL : tl_cast_loop(ad, rd);
        if (ad == rd) memcpy(data[0], &one, tl_dtype_itemsize(rd));
        else if (f) f(data, st, 1, NULL);
        else rc = tl_err(TL_ERR_RUNTIME, "cannot cast a reduction's result to %s", tl_dtype_infos[rd].name);
    } else {
        if (rc == 0) rc = keepdim ? tl_tensor_alias(&kv, out) : tl_rplan_keepdim_view(&kv, out, x, mask);
        if (rc == 0) rc = tl_rplan_scatter(&p, &kv, &res);
    }
    if (rc == 0) rc = tl_tensor_set_names(out, names);
    tl_rplan_free(&p);
    if (kv.storage) tl_tensor_clear(&kv);
    if (res.storage) tl_tensor_clear(&res);
    if (cast.storage) tl_tensor_clear(&cast);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}
