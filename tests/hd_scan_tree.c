/* hd_scan_tree.c - host check of kernels/hd_scan.h's split scan (tl_hd_scan_load, _combine,
 * _store), which csrc/cuda/scan.cu hands to CUB's device-wide scans for long rows, against
 * the row function (tl_hd_scan_row) the CPU suite and the stand-in backend run. No GPU runs
 * the CUB path here, so this checks the part of it that is ours, in the orders a parallel scan
 * combines in:
 *   - left to right: every op and dtype pair gives the row function's bits;
 *   - tiles with a running prefix (CUB's decoupled look-back: tile-local scans, the tile
 *     aggregates combined into prefixes) and Hillis-Steele doubling (a[i] = a[i-d] . a[i]):
 *     integer cumsum/cumprod and cummax/cummin give the row function's bits (ties, NaN,
 *     +-0.0, infinities included); float/complex cumsum/cumprod equal it within rounding.
 * Built and run by tests/test_cuda_scan.py (cc -std=c11 -Icsrc); prints failures, then
 * "checked N failures M"; exit status 1 on a failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/hd_scan.h"

#define MAXLEN 3000

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static double unif(void) { return (double)(next() >> 11) / 9007199254740992.0; }

static long checked, failures;

static const char *dt_name(int dt)
{
    static const char *n[] = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                              "float32", "float64", "complex64", "complex128"};
    return dt >= 0 && dt < 12 ? n[dt] : "?";
}

/* relative spacing of out_dt's values (its unit roundoff times two) */
static double rel_ulp(int dt)
{
    switch (dt) {
    case TL_BDT_FLOAT16: return ldexp(1, -10);
    case TL_BDT_BFLOAT16: return ldexp(1, -7);
    case TL_BDT_FLOAT32: case TL_BDT_COMPLEX64: return ldexp(1, -23);
    default: return ldexp(1, -52);
    }
}

/* kinds of data: 0 ties and specials (small integers, +-0.0, +-inf, NaN), 1 values in [-1, 1],
 * 2 values near 1 (products stay finite) */
static void fill(char *in, int dt, int64_t len, int kind)
{
    int isz = tl_hd_dt_size(dt), k = tl_hd_rkind(dt);
    static const double specials[] = {-0.0, 0.0, INFINITY, -INFINITY, NAN};
    for (int64_t i = 0; i < len; i++) {
        char *p = in + i * isz;
        if (k == TL_HD_RK_INT) {
            int64_t v = (int64_t)(next() % 7) - 3;
            if (dt == TL_BDT_BOOL || dt == TL_BDT_UINT8) v = v < 0 ? -v : v;
            if (kind == 1 && dt == TL_BDT_INT64 && next() % 8 == 0) v = (int64_t)next(); /* wraps */
            tl_hd_put(p, dt, TL_HD_NAT_I, dt == TL_BDT_BOOL ? v > 1 : v, 0, 0);
            continue;
        }
        double re, im;
        if (kind == 0) {
            re = (double)((int)(next() % 5) - 2) / 2;
            im = (double)((int)(next() % 5) - 2) / 2;
            if (next() % 16 == 0) re = specials[next() % 5];
            if (next() % 32 == 0) im = specials[next() % 5];
        } else if (kind == 1) {
            re = 2 * unif() - 1, im = 2 * unif() - 1;
        } else {
            re = 1 + (unif() - 0.5) / 64, im = (unif() - 0.5) / 64;
        }
        tl_hd_put(p, dt, k == TL_HD_RK_CPX ? TL_HD_NAT_C : TL_HD_NAT_F, 0, re, im);
    }
}

/* order 0: left to right; 1: tiles of random sizes with a running prefix; 2: Hillis-Steele */
static void split_scan(int op, const char *in, int in_dt, char *out, int out_dt, char *idx, int64_t len, int order)
{
    static tl_hd_sacc a[MAXLEN], t[MAXLEN];
    int k = tl_hd_rkind(in_dt), isz = tl_hd_dt_size(in_dt), osz = tl_hd_dt_size(out_dt);
    for (int64_t i = 0; i < len; i++) a[i] = tl_hd_scan_load(op, k, in + i * isz, in_dt, i);
    if (order == 0) {
        for (int64_t i = 1; i < len; i++) a[i] = tl_hd_scan_combine(op, k, a[i - 1], a[i]);
    } else if (order == 1) {
        tl_hd_sacc prefix;
        int have = 0;
        for (int64_t start = 0; start < len;) {
            int64_t n = 1 + (int64_t)(next() % 200), end = start + n < len ? start + n : len;
            for (int64_t i = start + 1; i < end; i++) a[i] = tl_hd_scan_combine(op, k, a[i - 1], a[i]);
            tl_hd_sacc agg = a[end - 1];
            if (have)
                for (int64_t i = start; i < end; i++) a[i] = tl_hd_scan_combine(op, k, prefix, a[i]);
            prefix = have ? tl_hd_scan_combine(op, k, prefix, agg) : agg;
            have = 1;
            start = end;
        }
    } else {
        for (int64_t d = 1; d < len; d *= 2) {
            memcpy(t, a, (size_t)len * sizeof a[0]);
            for (int64_t i = d; i < len; i++) a[i] = tl_hd_scan_combine(op, k, t[i - d], t[i]);
        }
    }
    for (int64_t i = 0; i < len; i++) tl_hd_scan_store(op, k, a[i], out + i * osz, out_dt, idx ? idx + i * 8 : NULL);
}

/* the same bits, or (float sums and products) NaN where the other has a NaN of another sign or
 * payload: which operand's NaN an addition passes on is the compiler's and the hardware's choice
 * (x86 the first operand's, a GPU a canonical NaN) */
static int same_value(const char *w, const char *g, int dt, int nan_any)
{
    if (!memcmp(w, g, (size_t)tl_hd_dt_size(dt))) return 1;
    if (!nan_any || tl_hd_rkind(dt) == TL_HD_RK_INT) return 0;
    tl_hd_rval a = tl_hd_rload(w, dt), b = tl_hd_rload(g, dt);  /* one-to-one but for NaNs */
    return ((a.re != a.re && b.re != b.re) || (a.re == b.re && signbit(a.re) == signbit(b.re))) &&
           ((a.im != a.im && b.im != b.im) || (a.im == b.im && signbit(a.im) == signbit(b.im)));
}

static void fail(const char *what, int op, int in_dt, int out_dt, int64_t len, int order, int64_t i)
{
    if (failures++ < 40)
        printf("%s: op %d %s -> %s len %lld order %d at %lld\n", what, op, dt_name(in_dt), dt_name(out_dt),
               (long long)len, order, (long long)i);
}

static void check(int op, int in_dt, int out_dt, int64_t len, int kind)
{
    static char in[MAXLEN * 16], want[MAXLEN * 16], got[MAXLEN * 16], wi[MAXLEN * 8], gi[MAXLEN * 8];
    int ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN, k = tl_hd_rkind(in_dt);
    int isz = tl_hd_dt_size(in_dt), osz = tl_hd_dt_size(out_dt);
    fill(in, in_dt, len, kind);
    tl_hd_scan_row(op, in, in_dt, isz, want, out_dt, osz, ext ? wi : NULL, 8, len);
    for (int order = 0; order < 3; order++) {
        memset(got, 0x5A, sizeof got);
        memset(gi, 0x5A, sizeof gi);
        split_scan(op, in, in_dt, got, out_dt, ext ? gi : NULL, len, order);
        checked++;
        if (ext && memcmp(wi, gi, (size_t)len * 8)) fail("indices differ", op, in_dt, out_dt, len, order, 0);
        int exact = order == 0 || ext || k == TL_HD_RK_INT;
        if (exact) {
            for (int64_t i = 0; i < len; i++)
                if (!same_value(want + i * osz, got + i * osz, out_dt, !ext && k != TL_HD_RK_INT)) {
                    fail("bits differ", op, in_dt, out_dt, len, order, i);
                    break;
                }
            continue;
        }
        double scale = 0; /* sum of |x| so far: the bound of a sum's rounding in another order */
        int okind = tl_hd_rkind(out_dt);
        for (int64_t i = 0; i < len; i++) {
            tl_hd_rval x = tl_hd_rload(in + i * isz, in_dt), w = tl_hd_rload(want + i * osz, out_dt),
                       g = tl_hd_rload(got + i * osz, out_dt);
            scale += fabs(x.re) + fabs(x.im);
            if (okind == TL_HD_RK_INT) { /* a float sum stored to an integer: the truncation may differ by one */
                if (llabs(w.i - g.i) > 1) fail("int store of a float scan differs", op, in_dt, out_dt, len, order, i);
                continue;
            }
            double parts[2][2] = {{w.re, g.re}, {w.im, g.im}};
            for (int c = 0; c < 2; c++) {
                double a = parts[c][0], b = parts[c][1];
                if (a != a || b != b || isinf(a) || isinf(b)) {
                    if (!((a != a && b != b) || a == b)) fail("specials differ", op, in_dt, out_dt, len, order, i);
                    continue;
                }
                /* complex products round normwise: a part may cancel to far below the modulus */
                double m = okind == TL_HD_RK_CPX ? fmax(hypot(w.re, w.im), hypot(g.re, g.im)) : fmax(fabs(a), fabs(b));
                double tol = 2 * rel_ulp(out_dt) * m + 1e-13 * (op == TL_SOP_CUMSUM ? scale : m) + 1e-300;
                /* logcumsumexp: log1p's rounding is absolute near 0; the angle of a complex one is
                 * defined up to 2 pi (another order may land on another branch) */
                if (op == TL_SOP_LOGCUMSUMEXP) tol += 2 * rel_ulp(out_dt) + 1e-13;
                if (op == TL_SOP_LOGCUMSUMEXP && c == 1) {
                    double d = fmod(fabs(a - b), 6.283185307179586);
                    if (fmin(d, 6.283185307179586 - d) <= tol) continue;
                }
                if (fabs(a - b) > tol) {
                    fail("beyond rounding", op, in_dt, out_dt, len, order, i);
                    i = len;
                    break;
                }
            }
        }
    }
}

int main(void)
{
    static const int64_t lens[] = {1, 2, 3, 7, 64, 257, 1000, MAXLEN};
    for (int in_dt = TL_BDT_BOOL; in_dt <= TL_BDT_COMPLEX128; in_dt++) {
        int k = tl_hd_rkind(in_dt);
        for (int op = TL_SOP_CUMSUM; op <= TL_SOP_LOGCUMSUMEXP; op++) {
            int ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN;
            if (ext && k == TL_HD_RK_CPX) continue;
            if (op == TL_SOP_LOGCUMSUMEXP && k == TL_HD_RK_INT) continue; /* refused before any scan */
            /* complex logcumsumexp: csrc/cuda/scan.cu scans it row by row (its special cases are
             * not associative), never in another order */
            if (op == TL_SOP_LOGCUMSUMEXP && k == TL_HD_RK_CPX) continue;
            /* the natural result dtype and a few cumsum(dtype=) ones */
            int outs[4] = {ext || k != TL_HD_RK_INT ? in_dt : TL_BDT_INT64, -1, -1, -1};
            if (op == TL_SOP_CUMSUM) outs[1] = TL_BDT_FLOAT64, outs[2] = TL_BDT_INT32, outs[3] = TL_BDT_COMPLEX64;
            for (int o = 0; o < 4 && outs[o] >= 0; o++)
                for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
                    for (int kind = 0; kind < 3; kind++) {
                        /* another order of a float product with infinities or zeros against
                         * infinities may differ beyond rounding (a complex one: NaN parts) */
                        if (op == TL_SOP_CUMPROD && kind == 0 && k == TL_HD_RK_CPX && lens[l] > 1) continue;
                        if (op == TL_SOP_CUMPROD && kind == 1 && k != TL_HD_RK_INT && lens[l] > 64) continue;
                        /* short rows many times: the first element's step (-0.0, infinite parts) */
                        for (int rep = 0; rep < (lens[l] <= 3 ? 64 : 1); rep++) check(op, in_dt, outs[o], lens[l], kind);
                    }
        }
    }
    printf("checked %ld failures %ld\n", checked, failures);
    return failures != 0;
}
