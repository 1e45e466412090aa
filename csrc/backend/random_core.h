/* random_core.h - the samplers' (ops/random.c) call into a device backend's random entry
 * (backend/random.c). */
#ifndef TL_BACKEND_RANDOM_CORE_H
#define TL_BACKEND_RANDOM_CORE_H

#include <stdint.h>

#include "core/rng.h"
#include "core/tensor.h"

/* Fills the non-empty tensor t on a backend device with sampler `sampler` (TL_BRS_*) in
 * `mode` (TL_BRM_*) from the Philox generator g: reserves the counter blocks from g exactly
 * as the CPU's Philox path does for the same call, and hands one tl_backend_random_call
 * (row-major geometry, size-1 dims dropped, mergeable dims merged) to the backend. `op`
 * names the operation in the NotImplementedError of a backend (or dtype) without it; then
 * nothing is written and g is unchanged. */
int tl_backend_random(tl_tensor *t, tl_generator *g, int sampler, int mode, double a, double b, uint64_t int_from,
                      uint64_t int_range, const char *op);
/* The same with per-element parameters on t's device (the call's in[]): bernoulli's p
 * (ins[0]), normal's mean and std (ins[0], ins[1]; NULL: the number a or b); each NULL or a
 * tensor of t's shape (an expanded view). Mode F64, one value per element. */
int tl_backend_random_params(tl_tensor *t, tl_generator *g, int sampler, double a, double b,
                             const tl_tensor *const *ins, const char *op);

#endif
