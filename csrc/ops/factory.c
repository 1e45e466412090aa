/* factory.c - value-computing factories. Values are produced in chunks in a wide
 * type (int64, double or complex double) and cast once into the output. */
#include "ops/factory.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/iter.h"
#include "kernels/cast.h"
#include "ops/copy.h"

#define CHUNK 4096

static double sc_double(tl_scalar s) { return s.kind == TL_KIND_FLOAT ? s.v.d : s.kind == TL_KIND_COMPLEX ? creal(s.v.c) : (double)s.v.i; }

int tl_arange_numel(tl_scalar start, tl_scalar end, tl_scalar step, tl_dtype dtype, int64_t *out)
{
    if (start.kind == TL_KIND_COMPLEX || end.kind == TL_KIND_COMPLEX || step.kind == TL_KIND_COMPLEX)
        return tl_err(TL_ERR_RUNTIME, "arange: complex arguments are not supported");
    double s = sc_double(start), e = sc_double(end), st = sc_double(step);
    if (st == 0) return tl_err(TL_ERR_RUNTIME, "step must be nonzero");
    /* torch checks the truncated step of int64 outputs only (other integer dtypes give zeros) */
    if (dtype == TL_INT64 && step.kind == TL_KIND_FLOAT && (int64_t)st == 0)
        return tl_err(TL_ERR_VALUE, "step must be nonzero");
    if (!isfinite(s) || !isfinite(e)) return tl_err(TL_ERR_RUNTIME, "unsupported range: %g -> %g", s, e);
    if ((st > 0 && e < s) || (st < 0 && e > s))
        return tl_err(TL_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
    if (start.kind != TL_KIND_FLOAT && end.kind != TL_KIND_FLOAT && step.kind != TL_KIND_FLOAT) {
        int64_t a = start.v.i, b = end.v.i, c = step.v.i;
        /* ceil((b - a) / c) in integers */
        __int128 d = (__int128)b - a;
        __int128 q = d / c;
        if (q * c != d) q++;
        if (q < 0) q = 0;
        if (q > INT64_MAX / 2) return tl_err(TL_ERR_RUNTIME, "arange: result too large");
        *out = (int64_t)q;
        return 0;
    }
    double n = ceil((e - s) / st);
    if (!(n >= 0) || n > 9.0e15) return tl_err(TL_ERR_RUNTIME, "invalid size, possible overflow?");
    *out = (int64_t)n;
    return 0;
}

/* Writes `count` wide values from buf (dtype src) into t at element offset `at` (1-D). */
static void store_chunk(tl_tensor *t, tl_dtype src, void *buf, int64_t at, int64_t count)
{
    tl_loop_fn f = tl_cast_loop(src, (tl_dtype)t->dtype);
    char *data[2] = {tl_data(t) + at * t->strides[0] * tl_itemsize(t), buf};
    int64_t st[2] = {t->strides[0] * tl_itemsize(t), tl_dtype_itemsize(src)};
    f(data, st, count, NULL);
}

static int check_castable(const tl_tensor *t, const char *op)
{
    if (tl_dtype_is_shell(t->dtype) || t->dtype == TL_COMPLEX32)
        return tl_err_dispatch(TL_ERR_RUNTIME, (tl_dtype)(t->dtype), "%s_cpu", op);
    return 0;
}

int tl_arange_fill(tl_tensor *t, tl_scalar start, tl_scalar step)
{
    if (check_castable(t, "arange") < 0) return -1;
    if (t->device.type == TL_DEV_META) return 0; /* meta: shaped, nothing to fill */
    int64_t n = tl_numel(t);
    bool integral = tl_dtype_kind(t->dtype) <= TL_KIND_INT;
    for (int64_t at = 0; at < n; at += CHUNK) {
        int64_t cnt = n - at < CHUNK ? n - at : CHUNK;
        if (integral) {
            /* torch casts start and step to the integer type first (a fractional step truncates) */
            int64_t buf[CHUNK];
            int64_t a = start.kind == TL_KIND_FLOAT ? (int64_t)start.v.d : start.v.i;
            int64_t s = step.kind == TL_KIND_FLOAT ? (int64_t)step.v.d : step.v.i;
            for (int64_t i = 0; i < cnt; i++) buf[i] = (int64_t)((uint64_t)a + (uint64_t)s * (uint64_t)(at + i));
            store_chunk(t, TL_INT64, buf, at, cnt);
        } else {
            double buf[CHUNK];
            double a = sc_double(start), s = sc_double(step);
            for (int64_t i = 0; i < cnt; i++) buf[i] = a + (double)(at + i) * s;
            store_chunk(t, TL_FLOAT64, buf, at, cnt);
        }
    }
    return 0;
}

int tl_linspace_fill(tl_tensor *t, tl_scalar start, tl_scalar end, double base)
{
    if (check_castable(t, base ? "logspace" : "linspace") < 0) return -1;
    if (t->device.type == TL_DEV_META) return 0;
    int64_t n = tl_numel(t);
    if (n == 0) return 0;
    bool cplx = tl_dtype_is_complex(t->dtype);
    double complex a = start.kind == TL_KIND_COMPLEX ? start.v.c : sc_double(start);
    double complex b = end.kind == TL_KIND_COMPLEX ? end.v.c : sc_double(end);
    if (tl_dtype_kind(t->dtype) <= TL_KIND_INT && !base) {
        /* integer outputs: the endpoints are cast to the dtype first, as torch does */
        char tmp[16];
        tl_scalar_to_bytes(start, (tl_dtype)t->dtype, tmp);
        a = sc_double(tl_scalar_from_bytes(tmp, (tl_dtype)t->dtype));
        tl_scalar_to_bytes(end, (tl_dtype)t->dtype, tmp);
        b = sc_double(tl_scalar_from_bytes(tmp, (tl_dtype)t->dtype));
    }
    int64_t half = n / 2;
    /* float32 outputs compute in float like torch's kernel; wider ones in double */
    bool in_float = t->dtype == TL_FLOAT32 || t->dtype == TL_FLOAT16 || t->dtype == TL_BFLOAT16;
    for (int64_t at = 0; at < n; at += CHUNK) {
        int64_t cnt = n - at < CHUNK ? n - at : CHUNK;
        if (cplx) {
            double complex buf[CHUNK];
            double complex step = n > 1 ? (b - a) / (double)(n - 1) : 0;
            for (int64_t i = 0; i < cnt; i++) {
                int64_t k = at + i;
                double complex v = n == 1 ? a : k < half ? a + step * (double)k : b - step * (double)(n - 1 - k);
                buf[i] = base ? cpow(base, v) : v;
            }
            store_chunk(t, TL_COMPLEX128, buf, at, cnt);
        } else if (in_float && !base) {
            float buf[CHUNK];
            float fa = (float)creal(a), fb = (float)creal(b);
            float step = n > 1 ? (fb - fa) / (float)(n - 1) : 0;
            for (int64_t i = 0; i < cnt; i++) {
                int64_t k = at + i;
                buf[i] = n == 1 ? fa : k < half ? fa + step * (float)k : fb - step * (float)(n - 1 - k);
            }
            store_chunk(t, TL_FLOAT32, buf, at, cnt);
        } else {
            double buf[CHUNK];
            double da = creal(a), db = creal(b);
            double step = n > 1 ? (db - da) / (double)(n - 1) : 0;
            for (int64_t i = 0; i < cnt; i++) {
                int64_t k = at + i;
                double v = n == 1 ? da : k < half ? da + step * (double)k : db - step * (double)(n - 1 - k);
                buf[i] = base ? pow(base, v) : v;
            }
            store_chunk(t, TL_FLOAT64, buf, at, cnt);
        }
    }
    return 0;
}

int tl_eye_fill(tl_tensor *t)
{
    if (tl_fill_(t, tl_scalar_int(0)) < 0) return -1;
    if (t->device.type == TL_DEV_META) return 0;
    int64_t n = t->sizes[0] < t->sizes[1] ? t->sizes[0] : t->sizes[1];
    char one[16];
    if (tl_scalar_to_bytes(tl_scalar_int(1), (tl_dtype)t->dtype, one) < 0) return -1;
    int isz = tl_itemsize(t);
    char *p = tl_data(t);
    for (int64_t i = 0; i < n; i++) memcpy(p + i * (t->strides[0] + t->strides[1]) * isz, one, isz);
    return 0;
}
