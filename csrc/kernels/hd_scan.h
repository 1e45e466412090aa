/* hd_scan.h - one row of the backend's scan entry (tl_backend_scan_call in backend/backend.h),
 * compiled for the host (C11) and the device (nvcc) like hd_math.h: the CPU's cumulative loops
 * (ops/scan.c) element after element, so a row gives the CPU's bits on either side.
 * backend/scan.c runs it per row on the host (the tests' stand-in backend), csrc/cuda/scan.cu
 * one row per thread.
 * Below it, the same scan split into a load, an associative combine and a store
 * (tl_hd_scan_load/_combine/_store), for csrc/cuda/scan.cu's device-wide scans of long rows
 * (CUB). Combined left to right they give tl_hd_scan_row's bits; in another order, the integer
 * scans (wrapping uint64) and cummax/cummin still do, the float/complex sums and products equal
 * them within rounding (tests/hd_scan_tree.c checks both). */
#ifndef TL_HD_SCAN_H
#define TL_HD_SCAN_H

#include "kernels/hd_reduce.h"

/* logcumsumexp's step (torch's _log_add_exp_helper): the running value y and the next element x
 * give log(exp(x) + exp(y)); NaN spreads (a NaN y wins), two equal infinities give x. */
static inline TL_HD double tl_hd_lse_step(double x, double y)
{
    double mn = y != y ? y : (y < x ? y : x), mx = y != y ? y : (x < y ? y : x);
    if (mn != mx || isfinite(mn)) return log1p(exp(mn - mx)) + mx;
    return x;
}

/* log1p of a complex number as torch's c10::log1p: 0.5 log1p(x (2 + x) + y^2) near 0, else
 * log |1 + z|; the angle atan2(y, 1 + x) */
static inline TL_HD tl_hd_c128 tl_hd_clog1p_lse(tl_hd_c128 z)
{
    double x = z.re, y = z.im, theta = atan2(y, x + 1.0);
    if (hypot(x, y) < 0.5) {
        double r = x * (2.0 + x) + y * y;
        return r == 0 ? tl_hd_cmk_(x, theta) : tl_hd_cmk_(0.5 * log1p(r), theta);
    }
    return tl_hd_cmk_(log(hypot(x + 1.0, y)), theta);
}

/* the complex step (torch's): the smaller real part first, a NaN (either part) of y, else of x,
 * gives NaN + NaN i; equal infinite real parts: -inf gives the smaller operand, +inf
 * log(exp(min) + exp(max)); else log1p(exp(min - max)) + max */
static inline TL_HD tl_hd_c128 tl_hd_clse_step(tl_hd_c128 x, tl_hd_c128 y)
{
    tl_hd_c128 mn, mx;
    if (y.re != y.re || y.im != y.im) mn = mx = y;
    else if (x.re != x.re || x.im != x.im) mn = mx = x;
    else if (x.re < y.re) mn = x, mx = y;
    else mn = y, mx = x;
    if (mn.re != mn.re || mn.im != mn.im) return tl_hd_cmk_(NAN, NAN);
    if (!isfinite(mn.re) && mn.re == mx.re) {
        if (mn.re < 0) return mn;
        tl_hd_c128 a = tl_hd_cexp_(mn), b = tl_hd_cexp_(mx);
        return tl_hd_clog_(tl_hd_cmk_(a.re + b.re, a.im + b.im));
    }
    tl_hd_c128 l = tl_hd_clog1p_lse(tl_hd_cexp_(tl_hd_cmk_(mn.re - mx.re, mn.im - mx.im)));
    return tl_hd_cmk_(l.re + mx.re, l.im + mx.im);
}

static inline TL_HD void tl_hd_scan_row(int op, const char *in, int in_dt, int64_t in_step, char *out, int out_dt,
                                        int64_t out_step, char *idx, int64_t idx_step, int64_t len)
{
    int k = tl_hd_rkind(in_dt), mx = op == TL_SOP_CUMMAX;
    int prod = op == TL_SOP_CUMPROD, ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN, lse = op == TL_SOP_LOGCUMSUMEXP;
    double re = prod ? 1 : lse ? -INFINITY : 0, im = 0;
    uint64_t ai = prod ? 1 : 0;  /* integer sums and products wrap, as the CPU's */
    int64_t pos = 0;
    for (int64_t i = 0; i < len; i++) {
        tl_hd_rval v = tl_hd_rload(in + i * in_step, in_dt);
        if (ext) {
            if (k == TL_HD_RK_INT) {
                if (i == 0 || (mx ? v.i >= (int64_t)ai : v.i <= (int64_t)ai)) ai = (uint64_t)v.i, pos = i;
            } else if (i == 0 || v.re != v.re || (re == re && (mx ? v.re >= re : v.re <= re))) {
                re = v.re, pos = i;
            }
            *(int64_t *)(idx + i * idx_step) = pos;
        } else if (lse) {
            if (k == TL_HD_RK_CPX) {
                tl_hd_c128 r = tl_hd_clse_step(tl_hd_cmk_(v.re, v.im), tl_hd_cmk_(re, im));
                re = r.re, im = r.im;
            } else {
                re = tl_hd_lse_step(v.re, re);
            }
        } else if (k == TL_HD_RK_INT) {
            ai = prod ? ai * (uint64_t)v.i : ai + (uint64_t)v.i;
        } else if (!prod) {
            re += v.re, im += v.im;
        } else if (k == TL_HD_RK_CPX) {
            double r = re * v.re - im * v.im;
            im = re * v.im + im * v.re;
            re = r;
        } else {
            re *= v.re;
        }
        char *o = out + i * out_step;
        if (k == TL_HD_RK_INT) tl_hd_put(o, out_dt, TL_HD_NAT_I, (int64_t)ai, 0, 0);
        else tl_hd_put(o, out_dt, k == TL_HD_RK_CPX ? TL_HD_NAT_C : TL_HD_NAT_F, 0, re, im);
    }
}

/* A scan accumulator of any op and kind, 16 bytes: u (integer sums and products, wrapping) or re
 * (float, complex real part, the extreme of cummax/cummin); im (complex imaginary part) or pos
 * (the extreme's position in its row). */
typedef struct {
    union { double re; uint64_t u; };
    union { double im; int64_t pos; };
} tl_hd_sacc;

/* Element i of a row (at p) as an accumulator. The first element takes the CPU's first step
 * from its initial value (0 + v, 1 * v: a -0.0 sums to +0.0, a complex product's formula
 * against 1 + 0j may turn an infinite part into NaN), so a row's first output is the CPU's. */
static inline TL_HD tl_hd_sacc tl_hd_scan_load(int op, int k, const char *p, int dt, int64_t i)
{
    tl_hd_rval v = tl_hd_rload(p, dt);
    tl_hd_sacc a;
    if (k == TL_HD_RK_INT) a.u = (uint64_t)v.i;
    else a.re = v.re;
    if (op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN) {
        a.pos = i;
        return a;
    }
    if (k == TL_HD_RK_INT) {
        a.pos = 0;
        return a;
    }
    a.im = v.im;
    if (i == 0 && op == TL_SOP_LOGCUMSUMEXP) { /* the first step from -inf, as the row function */
        if (k == TL_HD_RK_CPX) {
            tl_hd_c128 r = tl_hd_clse_step(tl_hd_cmk_(v.re, v.im), tl_hd_cmk_(-INFINITY, 0));
            a.re = r.re, a.im = r.im;
        } else {
            a.re = tl_hd_lse_step(v.re, -INFINITY);
        }
    } else if (i == 0 && op == TL_SOP_CUMSUM) {
        a.re = 0 + v.re;
        a.im = 0 + v.im;
    } else if (i == 0 && k == TL_HD_RK_CPX) { /* (1 + 0j) * v as the row function computes it */
        double one = 1, zero = 0;
        a.re = one * v.re - zero * v.im;
        a.im = one * v.im + zero * v.re;
    }
    return a;
}

/* a (the earlier elements of a row) then b (the later ones): associative (exactly for the
 * integer ops and cummax/cummin, up to rounding for float sums and products). cummax/cummin:
 * b wins when it is NaN, or neither is NaN and b >= a (max; <= for min), so the extreme is the
 * last NaN, else the last of the equal extremes: the row function's rule. */
static inline TL_HD tl_hd_sacc tl_hd_scan_combine(int op, int k, tl_hd_sacc a, tl_hd_sacc b)
{
    tl_hd_sacc r;
    switch (op) {
    case TL_SOP_CUMSUM:
        if (k == TL_HD_RK_INT) {
            r.u = a.u + b.u;
            r.pos = 0;
        } else {
            r.re = a.re + b.re;
            r.im = a.im + b.im;
        }
        return r;
    case TL_SOP_CUMPROD:
        if (k == TL_HD_RK_INT) {
            r.u = a.u * b.u;
            r.pos = 0;
        } else if (k == TL_HD_RK_CPX) {
            r.re = a.re * b.re - a.im * b.im;
            r.im = a.re * b.im + a.im * b.re;
        } else {
            r.re = a.re * b.re;
            r.im = 0;
        }
        return r;
    case TL_SOP_LOGCUMSUMEXP:
        if (k == TL_HD_RK_CPX) {
            tl_hd_c128 c = tl_hd_clse_step(tl_hd_cmk_(b.re, b.im), tl_hd_cmk_(a.re, a.im));
            r.re = c.re, r.im = c.im;
        } else {
            r.re = tl_hd_lse_step(b.re, a.re);
            r.im = 0;
        }
        return r;
    default: {
        int mx = op == TL_SOP_CUMMAX;
        if (k == TL_HD_RK_INT) return (mx ? (int64_t)b.u >= (int64_t)a.u : (int64_t)b.u <= (int64_t)a.u) ? b : a;
        if (b.re != b.re) return b;
        if (a.re != a.re) return a;
        return (mx ? b.re >= a.re : b.re <= a.re) ? b : a;
    }
    }
}

/* Stores the accumulator of a row's element: the value at out (out_dt), for cummax/cummin the
 * position at idx. */
static inline TL_HD void tl_hd_scan_store(int op, int k, tl_hd_sacc a, char *out, int out_dt, char *idx)
{
    if (op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN) *(int64_t *)idx = a.pos;
    if (k == TL_HD_RK_INT) tl_hd_put(out, out_dt, TL_HD_NAT_I, (int64_t)a.u, 0, 0);
    else if (op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN) tl_hd_put(out, out_dt, TL_HD_NAT_F, 0, a.re, 0);
    else tl_hd_put(out, out_dt, k == TL_HD_RK_CPX ? TL_HD_NAT_C : TL_HD_NAT_F, 0, a.re, a.im);
}

#endif
