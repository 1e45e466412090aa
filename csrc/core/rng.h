/* rng.h - the random number generators.
 *
 * Two kinds share one struct:
 * - MT19937 (the default, as torch's CPU generator): a seeded stream that torch's samplers
 *   consume word by word; ops/random.c applies torch's transformations to it, so
 *   `manual_seed(s)` then rand/randn/randint/randperm gives torch's numbers. Serial.
 * - Philox4x32-10 (`Generator(kind="philox")`): counter-based. A generator is (seed,
 *   offset); each sampling call reserves a range of 128-bit counter blocks starting at
 *   `offset`; block b yields four 32-bit words that depend only on (seed, offset + b), so
 *   results are identical whatever the thread count and the work splits across threads. */
#ifndef TL_RNG_H
#define TL_RNG_H

#include <stdint.h>

#include "core/device.h"

typedef enum { TL_RNG_MT19937, TL_RNG_PHILOX, TL_NUM_RNG_KINDS } tl_rng_kind;

#define TL_MT_N 624

typedef struct tl_generator {
    uint64_t seed;         /* initial_seed(); Philox's key, MT19937's seed (low 32 bits, as torch) */
    uint64_t offset;       /* Philox: next unused counter block */
    int32_t kind;          /* tl_rng_kind */
    int32_t mti;           /* MT19937: next word of mt[]; TL_MT_N: regenerate first */
    uint32_t mt[TL_MT_N];  /* MT19937 state */
    int32_t has_normal;    /* MT19937: torch's cached second Box-Muller sample of its serial normal */
    double next_normal;
    tl_device device;      /* the device whose tensors it fills: cpu, or cuda:N (always Philox) */
} tl_generator;

/* Bytes of get_state()/set_state(): kind, seed, offset, mti, mt[], has_normal, next_normal,
 * little-endian. */
#define TL_RNG_STATE_BYTES (4 + 8 + 8 + 4 + 4 * TL_MT_N + 4 + 8)

/* The process-wide default generator (seeded with 67280421310721, torch's default). */
tl_generator *tl_default_generator(void);
/* The default generator of a device: cpu (tl_default_generator), or cuda:N, a Philox
 * generator per index seeded with 67280421310721 as torch's CUDA default generators (made on
 * first use; they exist without a backend, so seeding never needs one). NULL with a
 * RuntimeError for an index beyond TL_MAX_DEVICE_GENERATORS or another device type. */
#define TL_MAX_DEVICE_GENERATORS 64
tl_generator *tl_device_generator(tl_device dev);
/* The generator a sampler on a tensor of device `dev` uses: g, or the device's default when g
 * is NULL. NULL with torch's RuntimeError ("Expected a 'cuda' device type for generator but
 * found 'cpu'") when g belongs to another device type. Meta tensors take any generator. */
tl_generator *tl_generator_for(tl_generator *g, tl_device dev);
/* Seeds every CUDA default generator (manual_seed_all; tl.manual_seed does it too). */
void tl_device_generators_seed(uint64_t seed);
/* A generator of `kind` seeded with `seed`, for the CPU. */
void tl_generator_init(tl_generator *g, tl_rng_kind kind, uint64_t seed);
void tl_generator_manual_seed(tl_generator *g, uint64_t seed);
/* A fresh nondeterministic seed (from the OS), applied and returned. */
uint64_t tl_generator_seed(tl_generator *g);
/* Reserves n counter blocks; returns the first. */
uint64_t tl_generator_reserve(tl_generator *g, uint64_t nblocks);
void tl_generator_get_state(const tl_generator *g, uint8_t *out);
/* -1 (RuntimeError) for a state that is not one get_state() can produce, or that is not a
 * Philox state for a device generator; g unchanged then (its device kept). */
int tl_generator_set_state(tl_generator *g, const uint8_t *in);

/* MT19937: regenerates all TL_MT_N words (tl_mt_next32 calls it when they are used up). */
void tl_mt_twist(tl_generator *g);
/* MT19937: the next 32-bit word; 64 bits as torch makes them (first word high). */
static inline uint32_t tl_mt_next32(tl_generator *g)
{
    if (g->mti >= TL_MT_N) tl_mt_twist(g);
    uint32_t y = g->mt[g->mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}
static inline uint64_t tl_mt_next64(tl_generator *g)
{
    uint64_t hi = tl_mt_next32(g);
    return (hi << 32) | tl_mt_next32(g);
}

/* Words of blocks [first, first + n) into out[4n] (vectorized, no threading). */
void tl_philox_blocks(uint64_t seed, uint64_t first, int64_t n, uint32_t *out);

#endif
