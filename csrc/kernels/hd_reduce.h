/* hd_reduce.h - the reduction math of the backend's reduce entry (tl_backend_reduce_call in
 * backend/backend.h), compiled for the host (C11) and the device (nvcc) like hd_math.h: one
 * accumulator type for every op and dtype, an init, a step per element, a combine of two
 * partial accumulators (any order: positions decide ties) and a store of the result.
 * backend/reduce.c runs it on the CPU over one output at a time (the stand-in backend of the
 * tests); csrc/cuda/reduce.cu runs the steps per thread and the combine in cub::BlockReduce. */
#ifndef TL_HD_REDUCE_H
#define TL_HD_REDUCE_H

#include "kernels/hd_math.h"

/* The running state. re/im: a float or complex running value (sum, product, extreme, Welford
 * mean, logsumexp's maximum); i: an integer running value (integer sums and products wrap
 * through uint64; all/any/count); n: a count (Welford, NaN-skipping mean) or the extreme's
 * position; m2: Welford's sum of squared deviations, logsumexp's sum of exp(x - max); nan: a
 * NaN seen (logsumexp) or a NaN or infinity (var/std: the result is NaN). */
typedef struct {
    double re, im, m2;
    int64_t i, n;
    int32_t nan, pad_;
} tl_hd_racc;

/* An element's natural value: integer (bool and the integers) or float/complex (re, im). */
typedef struct {
    double re, im;
    int64_t i;
} tl_hd_rval;

enum { TL_HD_RK_INT, TL_HD_RK_FLT, TL_HD_RK_CPX };
static inline TL_HD int tl_hd_rkind(int dt)
{
    return dt <= TL_BDT_INT64 ? TL_HD_RK_INT : dt >= TL_BDT_COMPLEX64 ? TL_HD_RK_CPX : TL_HD_RK_FLT;
}

static inline TL_HD tl_hd_rval tl_hd_rload(const char *p, int dt)
{
    tl_hd_rval v;
    v.re = 0;
    v.im = 0;
    v.i = 0;
    switch (dt) {
    case TL_BDT_BOOL: case TL_BDT_UINT8: v.i = *(const uint8_t *)p; break;
    case TL_BDT_INT8: v.i = *(const int8_t *)p; break;
    case TL_BDT_INT16: v.i = *(const int16_t *)p; break;
    case TL_BDT_INT32: v.i = *(const int32_t *)p; break;
    case TL_BDT_INT64: v.i = *(const int64_t *)p; break;
    case TL_BDT_FLOAT16: v.re = tl_hd_h2f(*(const uint16_t *)p); break;
    case TL_BDT_BFLOAT16: v.re = tl_hd_bf2f(*(const uint16_t *)p); break;
    case TL_BDT_FLOAT32: v.re = *(const float *)p; break;
    case TL_BDT_FLOAT64: v.re = *(const double *)p; break;
    case TL_BDT_COMPLEX64: v.re = ((const float *)p)[0]; v.im = ((const float *)p)[1]; break;
    default: v.re = ((const double *)p)[0]; v.im = ((const double *)p)[1]; break;
    }
    return v;
}

/* A float32 (or complex64) accumulator rounds every step: float arithmetic in double then one
 * rounding is float arithmetic (sums and products of two floats are exact in double). */
static inline TL_HD double tl_hd_rnd(double x, int single) { return single ? (double)(float)x : x; }

static inline TL_HD int tl_hd_risnan(tl_hd_rval v, int k) { return k != TL_HD_RK_INT && (v.re != v.re || v.im != v.im); }
static inline TL_HD int tl_hd_rnonzero(tl_hd_rval v, int k) { return k == TL_HD_RK_INT ? v.i != 0 : (v.re != 0 || v.im != 0); }
static inline TL_HD double tl_hd_rabs(tl_hd_rval v, int k)
{
    if (k == TL_HD_RK_INT) return v.i < 0 ? -(double)v.i : (double)v.i;
    return k == TL_HD_RK_CPX ? hypot(v.re, v.im) : fabs(v.re);
}

static inline TL_HD tl_hd_racc tl_hd_rinit(int op, double p)
{
    tl_hd_racc a;
    a.re = 0; a.im = 0; a.m2 = 0; a.i = 0; a.n = 0; a.nan = 0; a.pad_ = 0;
    switch (op) {
    case TL_ROP_PROD: a.re = 1; a.i = 1; break;
    case TL_ROP_ALL: a.i = 1; break;
    case TL_ROP_MAX: case TL_ROP_MIN: a.n = -1; break; /* no element yet */
    case TL_ROP_NORM: if (p == -INFINITY) a.re = INFINITY; break;
    case TL_ROP_LOGSUMEXP: a.re = -INFINITY; break;
    default: break;
    }
    return a;
}

/* v beats the current extreme (held in a) for max (mx) or min; positions break ties. */
static inline TL_HD int tl_hd_rbetter(const tl_hd_racc *a, const tl_hd_racc *b, int k, int mx)
{
    if (b->n < 0) return 0;
    if (a->n < 0) return 1;
    if (k == TL_HD_RK_INT) {
        if (a->i == b->i) return b->n < a->n;
        return mx ? b->i > a->i : b->i < a->i;
    }
    int an = a->re != a->re, bn = b->re != b->re;
    if (an || bn) return bn && (!an || b->n < a->n);
    if (a->re == b->re) return b->n < a->n;
    return mx ? b->re > a->re : b->re < a->re;
}

/* One element v (of kind k) at position pos. single: float32/complex64 accumulation. */
static inline TL_HD void tl_hd_rstep(int op, double p, tl_hd_racc *a, tl_hd_rval v, int k, int single, int64_t pos)
{
    switch (op) {
    case TL_ROP_NANSUM:
    case TL_ROP_NANMEAN:
        if (tl_hd_risnan(v, k)) break;
        a->n++;
        /* fall through */
    case TL_ROP_SUM:
    case TL_ROP_MEAN:
        if (k == TL_HD_RK_INT) a->i = (int64_t)((uint64_t)a->i + (uint64_t)v.i);
        else {
            a->re = tl_hd_rnd(a->re + v.re, single);
            a->im = tl_hd_rnd(a->im + v.im, single);
        }
        break;
    case TL_ROP_PROD:
        if (k == TL_HD_RK_INT) a->i = (int64_t)((uint64_t)a->i * (uint64_t)v.i);
        else if (k == TL_HD_RK_FLT) a->re = tl_hd_rnd(a->re * v.re, single);
        else {
            double re = a->re * v.re - a->im * v.im, im = a->re * v.im + a->im * v.re;
            a->re = tl_hd_rnd(re, single);
            a->im = tl_hd_rnd(im, single);
        }
        break;
    case TL_ROP_VAR:
    case TL_ROP_STD: { /* Welford in float64 */
        double x = k == TL_HD_RK_INT ? (double)v.i : v.re, y = k == TL_HD_RK_CPX ? v.im : 0;
        if (x - x != 0 || y - y != 0) a->nan = 1; /* inf or NaN: the variance is NaN (two-pass: inf - inf) */
        a->n++;
        double dr = x - a->re, di = y - a->im;
        a->re += dr / (double)a->n;
        a->im += di / (double)a->n;
        a->m2 += (dr * dr + di * di) * ((double)(a->n - 1) / (double)a->n);
        break;
    }
    case TL_ROP_MAX:
    case TL_ROP_MIN: {
        tl_hd_racc b;
        b.re = v.re; b.i = v.i; b.n = pos;
        if (tl_hd_rbetter(a, &b, k, op == TL_ROP_MAX)) {
            a->re = v.re;
            a->i = v.i;
            a->n = pos;
        }
        break;
    }
    case TL_ROP_ALL: a->i &= tl_hd_rnonzero(v, k); break;
    case TL_ROP_ANY: a->i |= tl_hd_rnonzero(v, k); break;
    case TL_ROP_COUNT_NONZERO: a->i += tl_hd_rnonzero(v, k); break;
    case TL_ROP_NORM: {
        if (p == 0) {
            a->i += tl_hd_rnonzero(v, k);
            break;
        }
        double x = tl_hd_rabs(v, k);
        if (p == INFINITY) a->re = (x > a->re || x != x || a->re != a->re) ? (a->re != a->re ? a->re : x) : a->re;
        else if (p == -INFINITY) a->re = (x < a->re || x != x || a->re != a->re) ? (a->re != a->re ? a->re : x) : a->re;
        else a->re += p == 1 ? x : p == 2 ? x * x : pow(x, p);
        break;
    }
    case TL_ROP_LOGSUMEXP: {
        double x = k == TL_HD_RK_INT ? (double)v.i : v.re;
        if (x != x) a->nan = 1;
        else if (x == -INFINITY) { /* exp(-inf) adds nothing */
        } else if (x > a->re) {
            a->m2 = (a->re == -INFINITY ? 0 : a->m2 * exp(a->re - x)) + 1;
            a->re = x;
        } else {
            a->m2 += a->re == INFINITY ? 0 : exp(x - a->re);
        }
        break;
    }
    default: break;
    }
}

/* Whether a call casts each element to out_dtype before summing it as an integer: nansum of
 * float input into an integer dtype (torch zeroes the NaNs, then casts). */
static inline TL_HD int tl_hd_rcast(const tl_backend_reduce_call *c)
{
    return c->op == TL_ROP_NANSUM && c->acc_dtype == TL_BDT_INT64 && tl_hd_rkind(c->in_dtype) != TL_HD_RK_INT;
}

/* Loads the element at p and steps the accumulator with it (cast: tl_hd_rcast). */
static inline TL_HD void tl_hd_rfeed(const tl_backend_reduce_call *c, tl_hd_racc *a, const char *p, int k, int cast,
                                     int single, int64_t pos)
{
    tl_hd_rval v = tl_hd_rload(p, c->in_dtype);
    if (cast) {
        if (tl_hd_risnan(v, k)) return;
        int64_t buf[2];
        tl_hd_convert(buf, c->out_dtype, p, c->in_dtype);
        v = tl_hd_rload((const char *)buf, c->out_dtype);
        k = TL_HD_RK_INT;
    }
    tl_hd_rstep(c->op, c->param, a, v, k, single, pos);
}

/* a <- a combined with b (b's elements may come before or after a's). */
static inline TL_HD void tl_hd_rcombine(int op, double p, tl_hd_racc *a, const tl_hd_racc *b, int k, int single)
{
    switch (op) {
    case TL_ROP_NANSUM:
    case TL_ROP_NANMEAN:
        a->n += b->n;
        /* fall through */
    case TL_ROP_SUM:
    case TL_ROP_MEAN:
        if (k == TL_HD_RK_INT) a->i = (int64_t)((uint64_t)a->i + (uint64_t)b->i);
        else {
            a->re = tl_hd_rnd(a->re + b->re, single);
            a->im = tl_hd_rnd(a->im + b->im, single);
        }
        break;
    case TL_ROP_PROD: {
        tl_hd_rval v;
        v.re = b->re; v.im = b->im; v.i = b->i;
        tl_hd_rstep(op, p, a, v, k, single, 0);
        break;
    }
    case TL_ROP_VAR:
    case TL_ROP_STD: { /* Chan et al. */
        a->nan |= b->nan;
        if (b->n == 0) break;
        if (a->n == 0) {
            int nan = a->nan;
            *a = *b;
            a->nan = nan;
            break;
        }
        double n = (double)(a->n + b->n), dr = b->re - a->re, di = b->im - a->im;
        double f = (double)a->n * (double)b->n / n;
        a->m2 += b->m2 + (dr * dr + di * di) * f;
        a->re += dr * ((double)b->n / n);
        a->im += di * ((double)b->n / n);
        a->n += b->n;
        break;
    }
    case TL_ROP_MAX:
    case TL_ROP_MIN:
        if (tl_hd_rbetter(a, b, k, op == TL_ROP_MAX)) *a = *b;
        break;
    case TL_ROP_ALL: a->i &= b->i; break;
    case TL_ROP_ANY: a->i |= b->i; break;
    case TL_ROP_COUNT_NONZERO: a->i += b->i; break;
    case TL_ROP_NORM:
        if (p == 0) a->i += b->i;
        else if (p == INFINITY || p == -INFINITY) {
            double x = b->re;
            if (a->re != a->re) break;
            if (x != x || (p > 0 ? x > a->re : x < a->re)) a->re = x;
        } else a->re += b->re;
        break;
    case TL_ROP_LOGSUMEXP: {
        a->nan |= b->nan;
        if (b->re == -INFINITY) break;
        if (a->re == -INFINITY) {
            a->re = b->re;
            a->m2 = b->m2;
        } else if (b->re > a->re) {
            a->m2 = (a->re == INFINITY || b->re == INFINITY ? 0 : a->m2 * exp(a->re - b->re)) + b->m2;
            a->re = b->re;
        } else {
            a->m2 += a->re == INFINITY ? 0 : b->m2 * exp(b->re - a->re);
        }
        break;
    }
    default: break;
    }
}

/* Stores the result of a over nelem elements (of kind k) into out (out_dtype odt) and, for
 * MAX/MIN, the position into idx (either may be NULL). */
static inline TL_HD void tl_hd_rstore(int op, double p, const tl_hd_racc *a, int k, int64_t nelem, char *out, int odt,
                                      int64_t *idx)
{
    int nat = k == TL_HD_RK_INT ? TL_HD_NAT_I : k == TL_HD_RK_CPX ? TL_HD_NAT_C : TL_HD_NAT_F;
    double re = a->re, im = a->im;
    switch (op) {
    case TL_ROP_MEAN:
    case TL_ROP_NANMEAN: {
        double n = (double)(op == TL_ROP_MEAN ? nelem : a->n);
        re = re / n; /* 0/0: NaN, as the CPU */
        im = im / n;
        if (k == TL_HD_RK_INT) { /* the core casts integer input to a float dtype first */
            re = (double)a->i / n;
            nat = TL_HD_NAT_F;
        }
        break;
    }
    case TL_ROP_VAR:
    case TL_ROP_STD: {
        double dof = (double)nelem - p;
        re = a->m2 / (dof > 0 ? dof : 0);
        if (a->n == 0 || a->nan) re = NAN;
        if (op == TL_ROP_STD) re = sqrt(re);
        im = 0;
        nat = TL_HD_NAT_F;
        break;
    }
    case TL_ROP_MAX:
    case TL_ROP_MIN:
        if (idx) *idx = a->n;
        break;
    case TL_ROP_ALL:
    case TL_ROP_ANY:
    case TL_ROP_COUNT_NONZERO: nat = TL_HD_NAT_I; break;
    case TL_ROP_NORM:
        nat = TL_HD_NAT_F;
        im = 0;
        if (p == 0) re = (double)a->i;
        else if (p == 2) re = sqrt(re);
        else if (p != 1 && p != INFINITY && p != -INFINITY) re = pow(re, 1.0 / p);
        break;
    case TL_ROP_LOGSUMEXP:
        nat = TL_HD_NAT_F;
        im = 0;
        re = a->nan ? NAN : (a->re == INFINITY || a->re == -INFINITY) ? a->re : log(a->m2) + a->re;
        break;
    default: break;
    }
    if (out) tl_hd_put(out, odt, nat, a->i, re, im);
}

#endif
