/* random.h - samplers: fill tensors from distributions using a tl_generator.
 *
 * Element i of a sampling call always uses the same Philox block (i / values-per-block),
 * so values depend only on (seed, offset, i): reproducible for any thread count.
 * Parameters are validated before anything is written (torch's messages). */
#ifndef TL_OPS_RANDOM_H
#define TL_OPS_RANDOM_H

#include <stdbool.h>

#include "core/rng.h"
#include "core/tensor.h"

typedef enum {
    TL_DIST_UNIFORM,     /* a = from, b = to */
    TL_DIST_NORMAL,      /* a = mean, b = std */
    TL_DIST_EXPONENTIAL, /* a = lambda */
    TL_DIST_CAUCHY,      /* a = median, b = sigma */
    TL_DIST_LOG_NORMAL,  /* a = mean, b = std */
    TL_DIST_GEOMETRIC,   /* a = p */
    TL_DIST_BERNOULLI,   /* a = p */
} tl_dist;

/* t <- samples of `dist` (in place; any strides; names untouched). */
int tl_random_dist_(tl_tensor *t, tl_generator *g, tl_dist dist, double a, double b);
/* random_(from, to): integers in [from, to); has_to false: [from, max of dtype];
 * has_from false too: random_() (float dtypes: [0, 2^mantissa]). */
int tl_random_int_(tl_tensor *t, tl_generator *g, bool has_from, int64_t from, bool has_to, int64_t to);
/* t[i] <- (u < p[i]) with p broadcast to t. */
int tl_bernoulli_tensor_(tl_tensor *t, const tl_tensor *p, tl_generator *g);
/* out <- mean + std * N(0, 1): mean/std tensors (either may be NULL: the scalar is used),
 * broadcast together; out is fresh. */
int tl_normal_tensor(tl_tensor *out, const tl_tensor *mean, double mean_s, const tl_tensor *std, double std_s,
                     tl_generator *g);
/* The 1-D tensor t <- a random permutation of 0..n-1. */
int tl_randperm_(tl_tensor *t, tl_generator *g);
/* out (fresh, int64) <- num_samples category indices per row of probs (1-D or 2-D). */
int tl_multinomial(tl_tensor *out, const tl_tensor *probs, int64_t num_samples, bool replacement, tl_generator *g);

/* out (fresh) <- Poisson(rates[i]) in rates' dtype (float16/bfloat16/float32/float64), drawn
 * serially in row-major order as torch's CPU kernel (ops/random_count.c). */
int tl_poisson(tl_tensor *out, const tl_tensor *rates, tl_generator *g);
/* out (fresh) <- Binomial(count[i], prob[i]), count and prob float32 or float64 (the same),
 * broadcast together; torch's samplers and order. */
int tl_binomial(tl_tensor *out, const tl_tensor *count, const tl_tensor *prob, tl_generator *g);

#endif
