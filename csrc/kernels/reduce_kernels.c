/* reduce_kernels.c - the row kernels. Floating sums accumulate in double with eight
 * independent accumulators inside pairwise blocks (more accurate than NumPy's float32
 * pairwise sum, and vectorizable); integer sums wrap like torch's int64. */
#include "kernels/reduce_kernels.h"

#include <math.h>
#include <string.h>

#define BLOCK 512

#define SUM_REAL(NAME, T)                                                  \
    static double NAME(const T *p, int64_t n)                             \
    {                                                                      \
        if (n > BLOCK) {                                                   \
            int64_t h = (n / 2) & ~(int64_t)7;                             \
            return NAME(p, h) + NAME(p + h, n - h);                        \
        }                                                                  \
        double a[8] = {0};                                                 \
        int64_t i = 0;                                                     \
        for (; i + 8 <= n; i += 8)                                         \
            for (int k = 0; k < 8; k++) a[k] += (double)p[i + k];          \
        for (; i < n; i++) a[0] += (double)p[i];                           \
        return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); \
    }
SUM_REAL(sum_f32, float)
SUM_REAL(sum_f64, double)

/* Max/min with eight independent lanes (vectorizable without -ffast-math); *nan says a
 * NaN was seen. n == 0 returns 0. */
#define EXTREME(NAME, T, CMP)                                                \
    static T NAME(const T *p, int64_t n, int *nan)                          \
    {                                                                        \
        T lane[8], z[8] = {0};                                               \
        T init = n ? p[0] : 0;                                               \
        for (int k = 0; k < 8; k++) lane[k] = init;                          \
        int64_t i = 0;                                                       \
        /* z stays 0 unless a NaN or an infinity passes (v * 0 is NaN) */   \
        for (; i + 8 <= n; i += 8)                                           \
            for (int k = 0; k < 8; k++) {                                    \
                T v = p[i + k];                                              \
                z[k] += v * (T)0;                                            \
                lane[k] = v CMP lane[k] ? v : lane[k];                       \
            }                                                                \
        T m = init;                                                          \
        int any = 0;                                                         \
        for (; i < n; i++) {                                                 \
            T v = p[i];                                                      \
            any |= v != v;                                                   \
            m = v CMP m ? v : m;                                             \
        }                                                                    \
        for (int k = 0; k < 8; k++) {                                        \
            any |= z[k] != 0;                                                \
            m = lane[k] CMP m ? lane[k] : m;                                 \
        }                                                                    \
        if (any) { /* rare: confirm a real NaN (an infinity also trips z) */ \
            any = 0;                                                         \
            for (i = 0; i < n && !any; i++) any = p[i] != p[i];              \
        }                                                                    \
        *nan = any;                                                          \
        return m;                                                            \
    }
EXTREME(ext_max_f32, float, >)
EXTREME(ext_min_f32, float, <)
EXTREME(ext_max_f64, double, >)
EXTREME(ext_min_f64, double, <)

/* Real kernels shared by float32 and float64 buffers. */
/* any/all/count_nonzero: the same for real and complex elements. */
#define TRUTH_CASES                                                                     \
    case TL_K_ANY: {                                                                    \
        int64_t r = 0;                                                                  \
        for (i = 0; i < n && !r; i++) r = p[i] != 0;                                    \
        a->i = r;                                                                       \
        break;                                                                          \
    }                                                                                   \
    case TL_K_ALL: {                                                                    \
        int64_t r = 1;                                                                  \
        for (i = 0; i < n && r; i++) r = p[i] != 0;                                     \
        a->i = r;                                                                       \
        break;                                                                          \
    }                                                                                   \
    case TL_K_CNZ: {                                                                    \
        int64_t c = 0;                                                                  \
        for (i = 0; i < n; i++) c += p[i] != 0;                                         \
        a->i = c;                                                                       \
        break;                                                                          \
    }

#define REAL_OPS(SUF, T, SUMF)                                                          \
    static void row_##SUF(tl_kop op, const T *p, int64_t n, int64_t idx0, double center, \
                          double power, tl_racc *a)                                     \
    {                                                                                   \
        int64_t i;                                                                      \
        switch (op) {                                                                   \
        case TL_K_SUM: a->d = SUMF(p, n); break;                                        \
        case TL_K_NANSUM: {                                                             \
            double s = 0;                                                               \
            int64_t c = 0;                                                              \
            for (i = 0; i < n; i++)                                                     \
                if (p[i] == p[i]) s += p[i], c++;                                       \
            a->d = s;                                                                   \
            a->cnt = c;                                                                 \
            break;                                                                      \
        }                                                                               \
        case TL_K_PROD: {                                                               \
            double s = 1;                                                               \
            for (i = 0; i < n; i++) s *= p[i];                                          \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_MAX:                                                                  \
        case TL_K_MIN: {                                                                \
            int nan;                                                                    \
            T m = op == TL_K_MAX ? ext_max_##SUF(p, n, &nan) : ext_min_##SUF(p, n, &nan); \
            a->d = nan ? NAN : n ? (double)m : op == TL_K_MAX ? -INFINITY : INFINITY;   \
            break;                                                                      \
        }                                                                               \
        case TL_K_ARGMAX:                                                               \
        case TL_K_ARGMIN: {                                                             \
            /* extreme (vectorized), then the first index holding it or the first NaN */ \
            int nan;                                                                    \
            T m = op == TL_K_ARGMAX ? ext_max_##SUF(p, n, &nan) : ext_min_##SUF(p, n, &nan); \
            int64_t k = 0;                                                              \
            if (nan) while (k < n && p[k] == p[k]) k++;                                 \
            else while (k < n && p[k] != m) k++;                                        \
            a->d = nan ? NAN : (double)m;                                               \
            a->cnt = idx0 + k;                                                          \
            break;                                                                      \
        }                                                                               \
        TRUTH_CASES                                                                     \
        case TL_K_ABSPOW: {                                                             \
            double s = 0;                                                               \
            if (power == 1) for (i = 0; i < n; i++) s += fabs((double)p[i]);            \
            else if (power == 2) for (i = 0; i < n; i++) s += (double)p[i] * p[i];      \
            else for (i = 0; i < n; i++) s += pow(fabs((double)p[i]), power);           \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_ABSMAX:                                                               \
        case TL_K_ABSMIN: {                                                             \
            double m = op == TL_K_ABSMAX ? 0 : INFINITY;                                \
            for (i = 0; i < n; i++) {                                                   \
                double v = fabs((double)p[i]);                                          \
                if (v != v) { m = v; break; }                                           \
                m = op == TL_K_ABSMAX ? (v > m ? v : m) : (v < m ? v : m);              \
            }                                                                           \
            a->d = m;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_SSD: {                                                                \
            double s = 0;                                                               \
            for (i = 0; i < n; i++) {                                                   \
                double dv = (double)p[i] - center;                                      \
                s += dv * dv;                                                           \
            }                                                                           \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        case TL_K_SUMEXP: {                                                             \
            double s = 0;                                                               \
            for (i = 0; i < n; i++) s += exp((double)p[i] - center);                    \
            a->d = s;                                                                   \
            break;                                                                      \
        }                                                                               \
        }                                                                               \
    }
REAL_OPS(f32, float, sum_f32)
REAL_OPS(f64, double, sum_f64)

static void row_i64(tl_kop op, const int64_t *p, int64_t n, int64_t idx0, double center, double power, tl_racc *a)
{
    int64_t i;
    switch (op) {
    case TL_K_SUM:
    case TL_K_NANSUM: {
        uint64_t s = 0;
        for (i = 0; i < n; i++) s += (uint64_t)p[i];
        a->i = (int64_t)s;
        a->cnt = n;
        break;
    }
    case TL_K_PROD: {
        uint64_t s = 1;
        for (i = 0; i < n; i++) s *= (uint64_t)p[i];
        a->i = (int64_t)s;
        break;
    }
    case TL_K_MAX:
    case TL_K_MIN: {
        int64_t m = op == TL_K_MAX ? INT64_MIN : INT64_MAX;
        for (i = 0; i < n; i++) m = op == TL_K_MAX ? (p[i] > m ? p[i] : m) : (p[i] < m ? p[i] : m);
        a->i = m;
        break;
    }
    case TL_K_ARGMAX:
    case TL_K_ARGMIN: {
        int64_t m = n ? p[0] : 0, k = 0;
        for (i = 1; i < n; i++)
            if (op == TL_K_ARGMAX ? p[i] > m : p[i] < m) m = p[i], k = i;
        a->i = m;
        a->cnt = idx0 + k;
        break;
    }
    case TL_K_ANY: {
        int64_t r = 0;
        for (i = 0; i < n && !r; i++) r = p[i] != 0;
        a->i = r;
        break;
    }
    case TL_K_ALL: {
        int64_t r = 1;
        for (i = 0; i < n && r; i++) r = p[i] != 0;
        a->i = r;
        break;
    }
    case TL_K_CNZ: {
        int64_t c = 0;
        for (i = 0; i < n; i++) c += p[i] != 0;
        a->i = c;
        break;
    }
    case TL_K_ABSPOW: {
        double s = 0;
        for (i = 0; i < n; i++) s += pow(fabs((double)p[i]), power);
        a->d = s;
        break;
    }
    case TL_K_ABSMAX:
    case TL_K_ABSMIN: {
        double m = op == TL_K_ABSMAX ? 0 : INFINITY;
        for (i = 0; i < n; i++) {
            double v = fabs((double)p[i]);
            m = op == TL_K_ABSMAX ? (v > m ? v : m) : (v < m ? v : m);
        }
        a->d = m;
        break;
    }
    case TL_K_SSD: {
        double s = 0;
        for (i = 0; i < n; i++) s += ((double)p[i] - center) * ((double)p[i] - center);
        a->d = s;
        break;
    }
    case TL_K_SUMEXP: {
        double s = 0;
        for (i = 0; i < n; i++) s += exp((double)p[i] - center);
        a->d = s;
        break;
    }
    }
}

#define CPLX_OPS(SUF, T)                                                                 \
    static void row_##SUF(tl_kop op, const T *p, int64_t n, double complex center, double power, \
                          tl_racc *a)                                                    \
    {                                                                                    \
        int64_t i;                                                                       \
        switch (op) {                                                                    \
        case TL_K_SUM:                                                                   \
        case TL_K_NANSUM: {                                                              \
            double re[4] = {0}, im[4] = {0};                                             \
            for (i = 0; i + 4 <= n; i += 4)                                              \
                for (int k = 0; k < 4; k++) re[k] += creal(p[i + k]), im[k] += cimag(p[i + k]); \
            for (; i < n; i++) re[0] += creal(p[i]), im[0] += cimag(p[i]);               \
            a->c = CMPLX((re[0] + re[1]) + (re[2] + re[3]), (im[0] + im[1]) + (im[2] + im[3])); \
            break;                                                                       \
        }                                                                                \
        case TL_K_PROD: {                                                                \
            double complex s = 1;                                                        \
            for (i = 0; i < n; i++) s *= (double complex)p[i];                           \
            a->c = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        TRUTH_CASES                                                                      \
        case TL_K_ABSPOW: {                                                              \
            double s = 0;                                                                \
            for (i = 0; i < n; i++) {                                                    \
                double v = cabs((double complex)p[i]);                                   \
                s += power == 2 ? v * v : power == 1 ? v : pow(v, power);                \
            }                                                                            \
            a->d = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        case TL_K_ABSMAX:                                                                \
        case TL_K_ABSMIN: {                                                              \
            double m = op == TL_K_ABSMAX ? 0 : INFINITY;                                 \
            for (i = 0; i < n; i++) {                                                    \
                double v = cabs((double complex)p[i]);                                   \
                if (v != v) { m = v; break; }                                            \
                m = op == TL_K_ABSMAX ? (v > m ? v : m) : (v < m ? v : m);               \
            }                                                                            \
            a->d = m;                                                                    \
            break;                                                                       \
        }                                                                                \
        case TL_K_SSD: {                                                                 \
            double s = 0;                                                                \
            for (i = 0; i < n; i++) {                                                    \
                double complex dv = (double complex)p[i] - center;                       \
                s += creal(dv) * creal(dv) + cimag(dv) * cimag(dv);                      \
            }                                                                            \
            a->d = s;                                                                    \
            break;                                                                       \
        }                                                                                \
        default: break; /* ordering ops are rejected before reaching complex buffers */ \
        }                                                                                \
    }
CPLX_OPS(c64, float complex)
CPLX_OPS(c128, double complex)

void tl_racc_row(tl_kop op, tl_dtype bt, const char *p, int64_t n, int64_t idx0, double complex center,
                 double power, tl_racc *a)
{
    memset(a, 0, sizeof(*a));
    switch (bt) {
    case TL_FLOAT32: row_f32(op, (const float *)p, n, idx0, creal(center), power, a); break;
    case TL_FLOAT64: row_f64(op, (const double *)p, n, idx0, creal(center), power, a); break;
    case TL_COMPLEX64: row_c64(op, (const float complex *)p, n, center, power, a); break;
    case TL_COMPLEX128: row_c128(op, (const double complex *)p, n, center, power, a); break;
    default: row_i64(op, (const int64_t *)p, n, idx0, creal(center), power, a); break;
    }
}

void tl_racc_combine(tl_kop op, tl_dtype bt, tl_racc *a, const tl_racc *b)
{
    bool isint = bt == TL_INT64, iscplx = bt == TL_COMPLEX64 || bt == TL_COMPLEX128;
    switch (op) {
    case TL_K_SUM:
    case TL_K_NANSUM:
        if (isint) a->i = (int64_t)((uint64_t)a->i + (uint64_t)b->i);
        else if (iscplx) a->c += b->c;
        else a->d += b->d;
        a->cnt += b->cnt;
        break;
    case TL_K_PROD:
        if (isint) a->i = (int64_t)((uint64_t)a->i * (uint64_t)b->i);
        else if (iscplx) a->c *= b->c;
        else a->d *= b->d;
        break;
    case TL_K_MAX:
    case TL_K_MIN:
        if (isint) a->i = (op == TL_K_MAX) == (b->i > a->i) ? b->i : a->i;
        else if (a->d == a->d && (b->d != b->d || (op == TL_K_MAX ? b->d > a->d : b->d < a->d))) a->d = b->d;
        break;
    case TL_K_ARGMAX:
    case TL_K_ARGMIN:
        if (isint) {
            if (op == TL_K_ARGMAX ? b->i > a->i : b->i < a->i) a->i = b->i, a->cnt = b->cnt;
        } else if (a->d == a->d && (b->d != b->d || (op == TL_K_ARGMAX ? b->d > a->d : b->d < a->d))) {
            a->d = b->d;
            a->cnt = b->cnt;
        }
        break;
    case TL_K_ANY: a->i = a->i || b->i; break;
    case TL_K_ALL: a->i = a->i && b->i; break;
    case TL_K_CNZ: a->i += b->i; break;
    case TL_K_ABSPOW:
    case TL_K_SSD:
    case TL_K_SUMEXP: a->d += b->d; break;
    case TL_K_ABSMAX:
    case TL_K_ABSMIN:
        if (a->d == a->d && (b->d != b->d || (op == TL_K_ABSMAX ? b->d > a->d : b->d < a->d))) a->d = b->d;
        break;
    }
}
