/* random_mt.h - torch's CPU samplers over the MT19937 generator (random_mt.c); used by
 * ops/random.c when a generator's kind is TL_RNG_MT19937. */
#ifndef TL_OPS_RANDOM_MT_H
#define TL_OPS_RANDOM_MT_H

#include <stdbool.h>

#include "ops/random.h"

/* t <- samples of `dist` in torch's order and arithmetic for t's dtype and contiguity. */
int tl_mt_sample_(tl_tensor *t, tl_generator *g, tl_dist dist, double a, double b);
/* n double samples into v, as torch fills a float64 tensor (`contiguous` picks torch's
 * 16-at-a-time normal path for n >= 16). */
void tl_mt_fill_f64(tl_generator *g, double *v, int64_t n, tl_dist dist, double a, double b, bool contiguous);
/* One float32 uniform in [0, 1), as torch's uniform_real_distribution<float> draws it. */
float tl_mt_uniform_f32(tl_generator *g);
/* One float64 uniform in [0, 1), as torch's uniform_real_distribution<double> draws it. */
double tl_mt_uniform_f64(tl_generator *g);
/* A uniform integer in [0, range) as torch's random_ draws it (range 0: all 64 bits). */
uint64_t tl_mt_below(tl_generator *g, uint64_t range);

#endif
