/* rng.c - Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3")
 * and the generator state. */
#include "core/rng.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/simd.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static tl_generator default_gen = {67280421310721ull, 0};

tl_generator *tl_default_generator(void) { return &default_gen; }

void tl_generator_manual_seed(tl_generator *g, uint64_t seed)
{
    g->seed = seed;
    g->offset = 0;
}

uint64_t tl_generator_seed(tl_generator *g)
{
    uint64_t s = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&s, sizeof s, 1, f) != 1) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s = (uint64_t)ts.tv_nsec * 6364136223846793005ull + (uint64_t)ts.tv_sec;
    }
    if (f) fclose(f);
    tl_generator_manual_seed(g, s);
    return s;
}

uint64_t tl_generator_reserve(tl_generator *g, uint64_t nblocks)
{
    uint64_t first = g->offset;
    g->offset += nblocks;
    return first;
}

void tl_generator_get_state(const tl_generator *g, uint8_t *out)
{
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(g->seed >> (8 * i));
        out[8 + i] = (uint8_t)(g->offset >> (8 * i));
    }
}

void tl_generator_set_state(tl_generator *g, const uint8_t *in)
{
    g->seed = g->offset = 0;
    for (int i = 0; i < 8; i++) {
        g->seed |= (uint64_t)in[i] << (8 * i);
        g->offset |= (uint64_t)in[8 + i] << (8 * i);
    }
}

/* Blocks are processed LANES at a time in struct-of-arrays form so the compiler turns
 * the rounds into vector multiplies. Counter = (block lo, block hi, 0, 0). */
#define LANES 16
TL_CLONES
void tl_philox_blocks(uint64_t seed, uint64_t first, int64_t n, uint32_t *out)
{
    uint32_t k0i = (uint32_t)seed, k1i = (uint32_t)(seed >> 32);
    for (int64_t b0 = 0; b0 < n; b0 += LANES) {
        uint32_t c0[LANES], c1[LANES], c2[LANES], c3[LANES];
        for (int j = 0; j < LANES; j++) {
            uint64_t ctr = first + (uint64_t)b0 + (uint64_t)j;
            c0[j] = (uint32_t)ctr;
            c1[j] = (uint32_t)(ctr >> 32);
            c2[j] = 0;
            c3[j] = 0;
        }
        uint32_t k0 = k0i, k1 = k1i;
        for (int r = 0; r < 10; r++) {
            for (int j = 0; j < LANES; j++) {
                uint64_t p0 = (uint64_t)PHILOX_M0 * c0[j], p1 = (uint64_t)PHILOX_M1 * c2[j];
                uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1[j] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3[j] ^ k1;
                c1[j] = (uint32_t)p1;
                c3[j] = (uint32_t)p0;
                c0[j] = n0;
                c2[j] = n2;
            }
            k0 += PHILOX_W0;
            k1 += PHILOX_W1;
        }
        int64_t m = n - b0 < LANES ? n - b0 : LANES;
        uint32_t *o = out + 4 * b0;
        for (int j = 0; j < m; j++) {
            o[4 * j] = c0[j];
            o[4 * j + 1] = c1[j];
            o[4 * j + 2] = c2[j];
            o[4 * j + 3] = c3[j];
        }
    }
}
