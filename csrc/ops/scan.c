/* scan.c - cumulative ops along one dim: cumsum, cumprod (accumulating in double for
 * floats, int64 for integers and bool), cummax, cummin (values and indices) and logcumsumexp
 * (torch's running step, kernels/hd_scan.h, in double / double complex). */
#include "ops/sort.h"

#include <complex.h>
#include <string.h>

#include "backend/scan_core.h"
#include "core/error.h"
#include "core/parallel.h"
#include "kernels/hd_scan.h"
#include "ops/copy.h"
#include "ops/reduce_plan.h"

typedef struct {
    const tl_rplan *p;
    tl_scan_op op;
    char *res;         /* M x N, acc dtype */
    int64_t *idx;      /* M x N for cummax/cummin */
} scan_ctx;

#define SCAN_LOOP(T, ACC, INIT, STEP)                        \
    do {                                                     \
        const T *src = (const T *)row;                       \
        ACC *dst = (ACC *)c->res + r * N, a = INIT;          \
        for (int64_t i = 0; i < N; i++) {                    \
            STEP;                                            \
            dst[i] = a;                                      \
        }                                                    \
    } while (0)

static inline double complex lse_c(double complex x, double complex y)
{
    tl_hd_c128 r = tl_hd_clse_step(tl_hd_cmk_(creal(x), cimag(x)), tl_hd_cmk_(creal(y), cimag(y)));
    return CMPLX(r.re, r.im);
}

static void scan_rows(int64_t b, int64_t e, void *cp)
{
    scan_ctx *c = cp;
    const tl_rplan *p = c->p;
    int64_t N = p->N;
    bool sum = c->op == TL_SCAN_CUMSUM;
    for (int64_t r = b; r < e; r++) {
        const char *row = tl_rplan_row(p, r);
        if (c->op == TL_SCAN_CUMMAX || c->op == TL_SCAN_CUMMIN) {
            bool mx = c->op == TL_SCAN_CUMMAX;
            int64_t *io = c->idx + r * N, k = 0;
            if (p->bt == TL_FLOAT64) {
                const double *s = (const double *)row;
                double *o = (double *)c->res + r * N, a = N ? s[0] : 0;
                for (int64_t i = 0; i < N; i++) {
                    double v = s[i];
                    if (v != v || (a == a && (mx ? v >= a : v <= a))) a = v, k = i;
                    o[i] = a;
                    io[i] = k;
                }
            } else {
                const int64_t *s = (const int64_t *)row;
                int64_t *o = (int64_t *)c->res + r * N, a = N ? s[0] : 0;
                for (int64_t i = 0; i < N; i++) {
                    if (mx ? s[i] >= a : s[i] <= a) a = s[i], k = i;
                    o[i] = a;
                    io[i] = k;
                }
            }
            continue;
        }
        if (c->op == TL_SCAN_LOGCUMSUMEXP) {
            switch (p->bt) {
            case TL_FLOAT32: SCAN_LOOP(float, double, -INFINITY, a = tl_hd_lse_step(src[i], a)); break;
            case TL_FLOAT64: SCAN_LOOP(double, double, -INFINITY, a = tl_hd_lse_step(src[i], a)); break;
            case TL_COMPLEX64: SCAN_LOOP(float complex, double complex, -INFINITY, a = lse_c(src[i], a)); break;
            default: SCAN_LOOP(double complex, double complex, -INFINITY, a = lse_c(src[i], a)); break;
            }
            continue;
        }
        switch (p->bt) {
        case TL_FLOAT32:
            if (sum) SCAN_LOOP(float, double, 0, a += src[i]);
            else SCAN_LOOP(float, double, 1, a *= src[i]);
            break;
        case TL_FLOAT64:
            if (sum) SCAN_LOOP(double, double, 0, a += src[i]);
            else SCAN_LOOP(double, double, 1, a *= src[i]);
            break;
        case TL_COMPLEX64:
            if (sum) SCAN_LOOP(float complex, double complex, 0, a += src[i]);
            else SCAN_LOOP(float complex, double complex, 1, a *= src[i]);
            break;
        case TL_COMPLEX128:
            if (sum) SCAN_LOOP(double complex, double complex, 0, a += src[i]);
            else SCAN_LOOP(double complex, double complex, 1, a *= src[i]);
            break;
        default:
            if (sum) SCAN_LOOP(int64_t, uint64_t, 0, a += (uint64_t)src[i]);
            else SCAN_LOOP(int64_t, uint64_t, 1, a *= (uint64_t)src[i]);
            break;
        }
    }
}

int tl_scan(tl_tensor *out, tl_tensor *indices, const tl_tensor *x, tl_scan_op op, int64_t dim, int dtype)
{
    static const char *const names[] = {"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"};
    tl_dtype xd = (tl_dtype)x->dtype, in = xd, rd;
    int d;
    bool minmax = op == TL_SCAN_CUMMAX || op == TL_SCAN_CUMMIN;
    /* cummax/cummin keep torch's refusal of the unsigned shells (their buffer is int64);
     * like for complex, torch runs no kernel (and raises nothing) on an empty input */
    /* logcumsumexp: torch's kernel takes the floating (not float8) and complex64/128 dtypes,
     * and raises for the others even on an empty input */
    if (op == TL_SCAN_LOGCUMSUMEXP && (tl_dtype_is_shell(xd) || xd == TL_COMPLEX32 ||
                                       !(tl_dtype_is_float(xd) || tl_dtype_is_complex(xd))))
        return tl_err_dispatch(TL_ERR_NOTIMPL, xd, "logcumsumexp_out_cpu");
    if (!tl_red_dtype_ok(xd) || (minmax && (tl_dtype_is_complex(xd) || tl_dtype_is_shell(xd)) && tl_numel(x) > 0))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)xd, "%s_cpu", names[op]);
    if (dtype >= 0 && !tl_red_dtype_ok((tl_dtype)dtype))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dtype, "%s_cpu", names[op]);
    if (dtype == TL_BOOL) /* torch accumulates in no bool kernel (dtype=bool or a bool out=) */
        return tl_err_dispatch(TL_ERR_NOTIMPL, TL_BOOL, "%s_out_cpu", names[op]);
    if (tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    if (minmax || op == TL_SCAN_LOGCUMSUMEXP) rd = xd;
    else if (dtype >= 0) in = rd = (tl_dtype)dtype;
    else rd = tl_dtype_kind(xd) <= TL_KIND_INT ? TL_INT64 : xd;
    tl_dtype bt = minmax ? (tl_dtype_is_float(xd) ? TL_FLOAT64 : TL_INT64) : tl_rplan_buffer_dtype(in);
    if (bt == TL_UINT64) bt = TL_INT64; /* wrapping sums and products: the same bits */
    tl_dtype ad = bt == TL_INT64 ? TL_INT64 : bt == TL_COMPLEX64 || bt == TL_COMPLEX128 ? TL_COMPLEX128 : TL_FLOAT64;
    if (x->device.type == TL_DEV_META) { /* meta: the result's geometry (contiguous, x's names) */
        int rc = tl_tensor_empty(out, x->ndim, x->sizes, rd, x->device, false);
        if (rc == 0 && minmax) rc = tl_tensor_empty(indices, x->ndim, x->sizes, TL_INT64, x->device, false);
        for (int k = 0; k < (minmax ? 2 : 1) && rc == 0; k++) rc = tl_tensor_copy_names(k ? indices : out, x);
        return rc;
    }
    if (x->device.type != TL_DEV_CPU) { /* a backend's device: its scan entry, same bits */
        tl_tensor cast = {0};
        if (in != xd && tl_clone(&cast, x, in, TL_MEMFMT_PRESERVE) < 0) return -1;
        int rc = tl_backend_scan(out, minmax ? indices : NULL, in != xd ? &cast : x, op, d, rd, names[op]);
        if (cast.storage) tl_tensor_clear(&cast);
        return rc;
    }
    uint64_t mask = x->ndim ? (uint64_t)1 << d : 1;
    tl_tensor cast = {0}, res = {0}, ri = {0};
    const tl_tensor *src = x;
    tl_rplan p;
    memset(&p, 0, sizeof(p));
    int rc = 0;
    if (in != xd) {
        rc = tl_clone(&cast, x, in, TL_MEMFMT_PRESERVE);
        src = &cast;
    }
    if (rc == 0) rc = tl_rplan_init(&p, src, mask, bt, false);
    int64_t rs[TL_MAX_DIMS];
    int rn = 0;
    for (int i = 0; i < p.nk; i++) rs[rn++] = x->sizes[p.kdims[i]];
    rs[rn++] = p.N;
    if (rc == 0) rc = tl_tensor_empty(&res, rn, rs, ad, x->device, false);
    if (rc == 0 && minmax) rc = tl_tensor_empty(&ri, rn, rs, TL_INT64, x->device, false);
    if (rc == 0 && p.M * p.N > 0) {
        scan_ctx c = {&p, op, tl_data(&res), minmax ? (int64_t *)tl_data(&ri) : NULL};
        int64_t grain = TL_GRAIN_SIZE / (p.N ? p.N : 1);
        tl_parallel_for(p.M, grain > 0 ? grain : 1, scan_rows, &c);
    }
    if (rc == 0) rc = tl_tensor_empty(out, x->ndim, x->sizes, rd, x->device, false);
    if (rc == 0 && minmax) rc = tl_tensor_empty(indices, x->ndim, x->sizes, TL_INT64, x->device, false);
    for (int k = 0; k < (minmax ? 2 : 1) && rc == 0; k++) {
        tl_tensor *o = k ? indices : out;
        tl_tensor *s = k ? &ri : &res;
        if (x->ndim == 0) {
            tl_tensor v = {0};
            rc = tl_tensor_view_init(&v, s, 0, NULL, NULL, 0);
            if (rc == 0) rc = tl_copy_(o, &v);
            tl_tensor_clear(&v);
        } else {
            rc = tl_rplan_scatter(&p, o, s);
        }
        if (rc == 0) rc = tl_tensor_copy_names(o, x);
    }
    tl_rplan_free(&p);
    if (cast.storage) tl_tensor_clear(&cast);
    if (res.storage) tl_tensor_clear(&res);
    if (ri.storage) tl_tensor_clear(&ri);
    if (rc < 0) {
        if (out->storage) tl_tensor_clear(out);
        if (indices && indices->storage) tl_tensor_clear(indices);
    }
    return rc;
}
