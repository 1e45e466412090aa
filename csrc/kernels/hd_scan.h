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

static inline TL_HD void tl_hd_scan_row(int op, const char *in, int in_dt, int64_t in_step, char *out, int out_dt,
                                        int64_t out_step, char *idx, int64_t idx_step, int64_t len)
{
    int k = tl_hd_rkind(in_dt), mx = op == TL_SOP_CUMMAX;
    int prod = op == TL_SOP_CUMPROD, ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN;
    double re = prod ? 1 : 0, im = 0;
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
    if (i == 0 && op == TL_SOP_CUMSUM) {
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
