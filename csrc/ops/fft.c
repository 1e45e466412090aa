/* fft.c - complex DFT of contiguous rows: a recursive mixed-radix decimation in time
 * (specialized radix-2, 3, 4 and 5 butterflies, a generic O(p^2) butterfly for other small
 * primes) and Bluestein's chirp-z algorithm, on a 2^a 3^b 5^c mixed-radix plan, for lengths
 * with a prime factor above FFT_MAX_RADIX. All arithmetic is in double precision; the inverse
 * is conj(F(conj(x))). Normalization is the caller's (tensorlib/fft.py). */
#include "ops/fft.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"

typedef double complex cplx;

/* Largest prime handled by the generic butterfly; longer prime factors go through Bluestein. */
#define FFT_MAX_RADIX 61
#define FFT_MAX_FACTORS 64
#define FFT_PI 3.14159265358979323846

typedef struct fft_plan {
    int64_t n;
    int64_t fac[2 * FFT_MAX_FACTORS]; /* p0, m0, p1, m1, ...: n = p0 * m0, m0 = p1 * m1, ..., last m = 1 */
    cplx *tw;                         /* n twiddles exp(-2 pi i k / n) (mixed radix) */
    struct fft_plan *sub;             /* Bluestein: the plan of length m (2^a 3^b 5^c), else NULL */
    int64_t m;
    cplx *chirp;                      /* Bluestein: n entries exp(-pi i k^2 / n) */
    cplx *kernel;                     /* Bluestein: F(conj chirp, circularly placed) / m, m entries */
} fft_plan;

static void plan_free(fft_plan *p)
{
    if (!p) return;
    free(p->tw);
    free(p->chirp);
    free(p->kernel);
    plan_free(p->sub);
    free(p);
}

/* Factors n (largest prime factor <= FFT_MAX_RADIX) into p, m pairs: fours first, then
 * primes ascending. Returns false when some factor is larger (Bluestein then). */
static bool factorize(int64_t n, int64_t *fac)
{
    int k = 0;
    int64_t rest = n;
    while (rest % 4 == 0) {
        rest /= 4;
        fac[k++] = 4;
        fac[k++] = rest;
    }
    for (int64_t p = 2; rest > 1;) {
        if (rest % p == 0) {
            if (p > FFT_MAX_RADIX) return false;
            rest /= p;
            fac[k++] = p;
            fac[k++] = rest;
        } else {
            p = p == 2 ? 3 : p + 2;
            if (p * p > rest) p = rest;
        }
    }
    if (n == 1) {
        fac[0] = 1;
        fac[1] = 1;
    }
    return true;
}

static cplx expi(double angle) { return CMPLX(cos(angle), sin(angle)); }

/* One level of the decimation: out[q*m + u] hold the m-point transforms Y_q of the sequences
 * x[q + p j] (the current level's input is in[j * fs]); X[u + m r] = sum_q w^(q u) Y_q[u] w_p^(q r)
 * with w the n-th root of the whole plan taken at stride fs. */
static void butterfly(const fft_plan *P, cplx *out, int64_t fs, int64_t p, int64_t m)
{
    const cplx *tw = P->tw;
    if (p == 2) {
        for (int64_t u = 0; u < m; u++) {
            cplx t = out[u + m] * tw[fs * u];
            out[u + m] = out[u] - t;
            out[u] += t;
        }
    } else if (p == 4) {
        for (int64_t u = 0; u < m; u++) {
            cplx a0 = out[u], a1 = out[u + m] * tw[fs * u], a2 = out[u + 2 * m] * tw[2 * fs * u],
                 a3 = out[u + 3 * m] * tw[3 * fs * u];
            cplx s02 = a0 + a2, d02 = a0 - a2, s13 = a1 + a3, d13 = a1 - a3;
            cplx md13 = CMPLX(cimag(d13), -creal(d13)); /* -i * (a1 - a3) */
            out[u] = s02 + s13;
            out[u + m] = d02 + md13;
            out[u + 2 * m] = s02 - s13;
            out[u + 3 * m] = d02 - md13;
        }
    } else if (p == 3) {
        const double h = 0.86602540378443864676; /* sin(2 pi / 3) */
        for (int64_t u = 0; u < m; u++) {
            cplx a0 = out[u], a1 = out[u + m] * tw[fs * u], a2 = out[u + 2 * m] * tw[2 * fs * u];
            cplx sum = a1 + a2, dif = a1 - a2, mid = a0 - 0.5 * sum;
            cplx rot = CMPLX(h * cimag(dif), -h * creal(dif)); /* -i sin(2 pi / 3) (a1 - a2) */
            out[u] = a0 + sum;
            out[u + m] = mid + rot;
            out[u + 2 * m] = mid - rot;
        }
    } else if (p == 5) {
        const double c1 = 0.30901699437494742410, c2 = -0.80901699437494742410; /* cos(2 pi k / 5) */
        const double s1 = 0.95105651629515357212, s2 = 0.58778525229247312917; /* sin(2 pi k / 5) */
        for (int64_t u = 0; u < m; u++) {
            cplx a0 = out[u], a1 = out[u + m] * tw[fs * u], a2 = out[u + 2 * m] * tw[2 * fs * u],
                 a3 = out[u + 3 * m] * tw[3 * fs * u], a4 = out[u + 4 * m] * tw[4 * fs * u];
            cplx b1 = a1 + a4, b2 = a2 + a3, d1 = a1 - a4, d2 = a2 - a3;
            cplx m1 = a0 + c1 * b1 + c2 * b2, m2 = a0 + c2 * b1 + c1 * b2;
            cplx e1 = s1 * d1 + s2 * d2, e2 = s2 * d1 - s1 * d2;
            cplx r1 = CMPLX(cimag(e1), -creal(e1)), r2 = CMPLX(cimag(e2), -creal(e2)); /* -i e */
            out[u] = a0 + b1 + b2;
            out[u + m] = m1 + r1;
            out[u + 4 * m] = m1 - r1;
            out[u + 2 * m] = m2 + r2;
            out[u + 3 * m] = m2 - r2;
        }
    } else {
        cplx s[FFT_MAX_RADIX], root[FFT_MAX_RADIX];
        for (int64_t k = 0; k < p; k++) root[k] = tw[k * fs * m]; /* exp(-2 pi i k / p) */
        for (int64_t u = 0; u < m; u++) {
            for (int64_t q = 0; q < p; q++) s[q] = out[u + q * m] * tw[fs * q * u];
            for (int64_t r = 0; r < p; r++) {
                cplx acc = s[0];
                for (int64_t q = 1, e = r; q < p; q++) {
                    acc += s[q] * root[e];
                    e += r;
                    if (e >= p) e -= p;
                }
                out[u + r * m] = acc;
            }
        }
    }
}

/* Mixed-radix transform of in[0], in[fs], ..., into out (contiguous), following fac. */
static void work(const fft_plan *P, cplx *out, const cplx *in, int64_t fs, const int64_t *fac)
{
    int64_t p = fac[0], m = fac[1];
    if (m == 1) {
        for (int64_t j = 0; j < p; j++) out[j] = in[j * fs];
    } else {
        for (int64_t q = 0; q < p; q++) work(P, out + q * m, in + q * fs, fs * p, fac + 2);
    }
    butterfly(P, out, fs, p, m);
}

/* Forward transform of in (n) into out (n); scratch holds 2 * m entries for Bluestein. */
static void transform(const fft_plan *P, cplx *out, const cplx *in, cplx *scratch)
{
    if (!P->sub) {
        work(P, out, in, 1, P->fac);
        return;
    }
    int64_t n = P->n, m = P->m;
    cplx *a = scratch, *b = scratch + m;
    for (int64_t k = 0; k < n; k++) a[k] = in[k] * P->chirp[k];
    memset((void *)(a + n), 0, (size_t)(m - n) * sizeof(cplx));
    work(P->sub, b, a, 1, P->sub->fac);
    for (int64_t k = 0; k < m; k++) b[k] = conj(b[k] * P->kernel[k]); /* inverse by conjugation */
    work(P->sub, a, b, 1, P->sub->fac);
    for (int64_t k = 0; k < n; k++) out[k] = conj(a[k]) * P->chirp[k];
}

/* The smallest 2^a 3^b 5^c >= n: Bluestein's convolution length, on the fast butterflies. */
static int64_t smooth_at_least(int64_t n)
{
    int64_t best = 1;
    while (best < n) best *= 2;
    for (int64_t p5 = 1; p5 < best; p5 *= 5)
        for (int64_t p35 = p5; p35 < best; p35 *= 3) {
            int64_t v = p35;
            while (v < n) v *= 2;
            if (v < best) best = v;
        }
    return best;
}

static fft_plan *plan_new(int64_t n)
{
    fft_plan *P = calloc(1, sizeof *P);
    if (!P) return NULL;
    P->n = n;
    if (factorize(n, P->fac)) {
        P->tw = malloc((size_t)n * sizeof(cplx));
        if (!P->tw) goto fail;
        for (int64_t k = 0; k < n; k++) P->tw[k] = expi(-2.0 * FFT_PI * (double)k / (double)n);
        return P;
    }
    /* Bluestein: X[k] = c_k sum_j (x_j c_j) conj(c_(k-j)), c_j = exp(-pi i j^2 / n), a circular
     * convolution of length m >= 2n - 1. j^2 is reduced mod 2n first to keep the angle exact. */
    int64_t m = smooth_at_least(2 * n - 1);
    P->m = m;
    P->sub = plan_new(m);
    P->chirp = malloc((size_t)n * sizeof(cplx));
    P->kernel = malloc((size_t)m * sizeof(cplx));
    cplx *b = malloc((size_t)m * sizeof(cplx));
    if (!P->sub || !P->chirp || !P->kernel || !b) {
        free(b);
        goto fail;
    }
    for (int64_t k = 0; k < n; k++) {
        uint64_t k2 = ((uint64_t)k * (uint64_t)k) % (uint64_t)(2 * n);
        P->chirp[k] = expi(-FFT_PI * (double)k2 / (double)n);
    }
    memset((void *)b, 0, (size_t)m * sizeof(cplx));
    b[0] = conj(P->chirp[0]);
    for (int64_t k = 1; k < n; k++) b[k] = b[m - k] = conj(P->chirp[k]);
    work(P->sub, P->kernel, b, 1, P->sub->fac);
    for (int64_t k = 0; k < m; k++) P->kernel[k] /= (double)m;
    free(b);
    return P;
fail:
    plan_free(P);
    return NULL;
}

typedef struct {
    const fft_plan *plan; /* the complex transform's length n */
    char *data;           /* c2c: rows of n transformed in place; r2c: the output rows of n + 1 */
    const char *src;      /* r2c: the real input rows of 2n; NULL for c2c */
    const cplx *post;     /* r2c: exp(-pi i k / n) for k <= n */
    int64_t n;
    bool single, inverse;
    volatile int failed;
} rows_ctx;

/* Row r's input as n complex values: a complex row, or a real row of 2n packed in pairs
 * (x[2k] + i x[2k+1]) for the half-length transform of a real signal. */
static void load_row(const rows_ctx *c, int64_t r, cplx *in)
{
    int64_t n = c->n;
    if (c->src && c->single) {
        const float *row = (const float *)c->src + r * 2 * n;
        for (int64_t k = 0; k < n; k++) in[k] = CMPLX(row[2 * k], row[2 * k + 1]);
    } else if (c->src) {
        const double *row = (const double *)c->src + r * 2 * n;
        for (int64_t k = 0; k < n; k++) in[k] = CMPLX(row[2 * k], row[2 * k + 1]);
    } else if (c->single) {
        const float complex *row = (const float complex *)c->data + r * n;
        for (int64_t k = 0; k < n; k++) in[k] = (cplx)row[k];
    } else {
        memcpy((void *)in, (const cplx *)c->data + r * n, (size_t)n * sizeof(cplx));
    }
}

/* Row r's result from the transform z: as it is (c2c), or the real signal's n + 1 non-negative
 * frequencies from the packed transform: with E, O the transforms of the even and odd samples,
 * E[k] = (z[k] + conj z[n-k]) / 2, O[k] = (z[k] - conj z[n-k]) / 2i, X[k] = E[k] + w^k O[k]. */
static void store_row(const rows_ctx *c, int64_t r, cplx *z)
{
    int64_t n = c->n, len = c->src ? n + 1 : n;
    if (c->src) {
        cplx *x = z + n; /* the n + 1 results go after z (the buffer holds them) */
        for (int64_t k = 0; k <= n; k++) {
            cplx zk = z[k == n ? 0 : k], zc = conj(z[k == 0 ? 0 : n - k]);
            cplx e = 0.5 * (zk + zc), d = zk - zc, o = CMPLX(0.5 * cimag(d), -0.5 * creal(d));
            x[k] = e + c->post[k] * o;
        }
        z = x;
    }
    if (c->single) {
        float complex *row = (float complex *)c->data + r * len;
        for (int64_t k = 0; k < len; k++) row[k] = (float complex)z[k];
    } else {
        memcpy((cplx *)c->data + r * len, (void *)z, (size_t)len * sizeof(cplx));
    }
}

static void rows_run(int64_t begin, int64_t end, void *cp)
{
    rows_ctx *c = cp;
    int64_t n = c->n, extra = c->plan->sub ? 2 * c->plan->m : 0;
    cplx *buf = malloc((size_t)(3 * n + 1 + extra) * sizeof(cplx));
    if (!buf) {
        c->failed = 1;
        return;
    }
    cplx *in = buf, *out = buf + n, *scratch = buf + 3 * n + 1; /* out: n, then r2c's n + 1 */
    for (int64_t r = begin; r < end; r++) {
        load_row(c, r, in);
        if (c->inverse)
            for (int64_t k = 0; k < n; k++) in[k] = conj(in[k]);
        transform(c->plan, out, in, scratch);
        if (c->inverse)
            for (int64_t k = 0; k < n; k++) out[k] = conj(out[k]);
        store_row(c, r, out);
    }
    free(buf);
}

static int run_rows(rows_ctx *c, int64_t rows)
{
    fft_plan *plan = plan_new(c->n);
    if (!plan) return tl_err(TL_ERR_MEMORY, "fft: out of memory for the plan of length %lld", (long long)c->n);
    c->plan = plan;
    int64_t cost = c->n * (plan->sub ? 6 : 1);
    tl_parallel_for(rows, cost >= TL_GRAIN_SIZE ? 1 : TL_GRAIN_SIZE / cost, rows_run, c);
    plan_free(plan);
    if (c->failed)
        return tl_err(TL_ERR_MEMORY, "fft: out of memory for a row buffer of length %lld", (long long)c->n);
    return 0;
}

int tl_fft_c2c_rows(tl_tensor *x, bool inverse)
{
    if (x->dtype != TL_COMPLEX64 && x->dtype != TL_COMPLEX128)
        return tl_err(TL_ERR_TYPE, "fft: expected a complex64 or complex128 tensor, got %s",
                      tl_dtype_infos[x->dtype].name);
    if (x->ndim < 1 || !tl_is_contiguous(x)) return tl_err(TL_ERR_RUNTIME, "fft: expected a contiguous tensor");
    if (tl_check_writable(x) < 0) return -1;
    int64_t n = x->sizes[x->ndim - 1], total = tl_numel(x);
    if (n == 0 || total == 0 || x->device.type == TL_DEV_META) return 0; /* meta: checked, nothing to compute */
    rows_ctx c = {NULL, tl_data(x), NULL, NULL, n, x->dtype == TL_COMPLEX64, inverse, 0};
    return run_rows(&c, total / n);
}

int tl_fft_r2c_rows(tl_tensor *out, const tl_tensor *x)
{
    bool single = x->dtype == TL_FLOAT32;
    if ((!single && x->dtype != TL_FLOAT64) || out->dtype != (single ? TL_COMPLEX64 : TL_COMPLEX128))
        return tl_err(TL_ERR_TYPE, "fft: expected float32 -> complex64 or float64 -> complex128, got %s -> %s",
                      tl_dtype_infos[x->dtype].name, tl_dtype_infos[out->dtype].name);
    if (x->ndim < 1 || out->ndim != x->ndim || !tl_is_contiguous(x) || !tl_is_contiguous(out))
        return tl_err(TL_ERR_RUNTIME, "fft: expected contiguous tensors of one rank");
    int64_t len = x->sizes[x->ndim - 1], rows = 1;
    for (int i = 0; i < x->ndim - 1; i++) {
        if (out->sizes[i] != x->sizes[i]) return tl_err(TL_ERR_RUNTIME, "fft: the batch dims of out and x differ");
        rows *= x->sizes[i];
    }
    if (len < 2 || len % 2 || out->sizes[out->ndim - 1] != len / 2 + 1)
        return tl_err(TL_ERR_RUNTIME, "fft: expected rows of even length n >= 2 and out rows of n / 2 + 1");
    if (tl_check_writable(out) < 0) return -1;
    if (rows == 0 || out->device.type == TL_DEV_META) return 0;
    int64_t n = len / 2;
    cplx *post = malloc((size_t)(n + 1) * sizeof(cplx));
    if (!post) return tl_err(TL_ERR_MEMORY, "fft: out of memory");
    for (int64_t k = 0; k <= n; k++) post[k] = expi(-FFT_PI * (double)k / (double)n);
    rows_ctx c = {NULL, tl_data(out), tl_data(x), post, n, single, false, 0};
    int rc = run_rows(&c, rows);
    free(post);
    return rc;
}
