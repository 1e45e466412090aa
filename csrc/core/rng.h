/* rng.h - the random number generator: counter-based Philox4x32-10.
 *
 * A generator is (seed, offset). Each sampling call reserves a range of 128-bit counter
 * blocks starting at `offset`; block b yields four 32-bit words that depend only on
 * (seed, offset + b). Elements map to fixed blocks, so results are identical whatever the
 * thread count and the work splits cleanly across threads. */
#ifndef TL_RNG_H
#define TL_RNG_H

#include <stdint.h>

typedef struct tl_generator {
    uint64_t seed;    /* initial_seed(): the Philox key */
    uint64_t offset;  /* next unused counter block */
} tl_generator;

/* Bytes of get_state()/set_state(): seed then offset, little-endian. */
#define TL_RNG_STATE_BYTES 16

/* The process-wide default generator (seeded with 67280421310721, torch's default). */
tl_generator *tl_default_generator(void);
void tl_generator_manual_seed(tl_generator *g, uint64_t seed);
/* A fresh nondeterministic seed (from the OS), applied and returned. */
uint64_t tl_generator_seed(tl_generator *g);
/* Reserves n counter blocks; returns the first. */
uint64_t tl_generator_reserve(tl_generator *g, uint64_t nblocks);
void tl_generator_get_state(const tl_generator *g, uint8_t *out);
void tl_generator_set_state(tl_generator *g, const uint8_t *in);

/* Words of blocks [first, first + n) into out[4n] (vectorized, no threading). */
void tl_philox_blocks(uint64_t seed, uint64_t first, int64_t n, uint32_t *out);

#endif
