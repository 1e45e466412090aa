/* rng.c - the generators: MT19937 (Matsumoto & Nishimura), the torch-compatible default,
 * and Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"); the
 * generator state. */
#include "core/rng.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/simd.h"
#include "kernels/hd_random.h"

static tl_generator default_gen;
static int default_ready;

tl_generator *tl_default_generator(void)
{
    if (!default_ready) { /* torch's default seed */
        tl_generator_init(&default_gen, TL_RNG_MT19937, 67280421310721ull);
        default_ready = 1;
    }
    return &default_gen;
}

void tl_generator_init(tl_generator *g, tl_rng_kind kind, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->kind = kind;
    g->device = (tl_device){TL_DEV_CPU, -1};
    tl_generator_manual_seed(g, seed);
}

static tl_generator cuda_gens[TL_MAX_DEVICE_GENERATORS];
static bool cuda_ready[TL_MAX_DEVICE_GENERATORS];

tl_generator *tl_device_generator(tl_device dev)
{
    if (dev.type == TL_DEV_CPU) return tl_default_generator();
    if (dev.type != TL_DEV_CUDA || dev.index < 0 || dev.index >= TL_MAX_DEVICE_GENERATORS) {
        tl_err(TL_ERR_RUNTIME, "tensorlib: no default generator for device %s:%d", tl_device_type_names[dev.type],
               (int)dev.index);
        return NULL;
    }
    tl_generator *g = &cuda_gens[dev.index];
    if (!cuda_ready[dev.index]) { /* torch's default seed of the CUDA generators */
        tl_generator_init(g, TL_RNG_PHILOX, 67280421310721ull);
        g->device = dev;
        cuda_ready[dev.index] = true;
    }
    return g;
}

tl_generator *tl_generator_for(tl_generator *g, tl_device dev)
{
    if (dev.type == TL_DEV_META) return g ? g : tl_default_generator();
    if (!g) return tl_device_generator(dev);
    if (g->device.type != dev.type) {
        tl_err(TL_ERR_RUNTIME, "Expected a '%s' device type for generator but found '%s'", tl_device_type_names[dev.type],
               tl_device_type_names[g->device.type]);
        return NULL;
    }
    return g;
}

void tl_device_generators_seed(uint64_t seed)
{
    for (int i = 0; i < TL_MAX_DEVICE_GENERATORS; i++)
        tl_generator_manual_seed(tl_device_generator((tl_device){TL_DEV_CUDA, (int16_t)i}), seed);
}

void tl_generator_manual_seed(tl_generator *g, uint64_t seed)
{
    g->seed = seed;
    g->offset = 0;
    g->has_normal = 0;
    g->next_normal = 0.0;
    /* MT19937's initialization by a 32-bit seed (Matsumoto & Nishimura, init_genrand) */
    g->mt[0] = (uint32_t)seed;
    for (uint32_t i = 1; i < TL_MT_N; i++) g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + i;
    g->mti = TL_MT_N;
}

void tl_mt_twist(tl_generator *g)
{
    enum { N = TL_MT_N, M = 397 };
    uint32_t *mt = g->mt;
#define TL_MT_MIX(i, j, k) do { \
        uint32_t y = (mt[i] & 0x80000000u) | (mt[j] & 0x7fffffffu); \
        mt[i] = mt[k] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu); \
    } while (0)
    int i = 0;
    for (; i < N - M; i++) TL_MT_MIX(i, i + 1, i + M);
    for (; i < N - 1; i++) TL_MT_MIX(i, i + 1, i + M - N);
    TL_MT_MIX(N - 1, 0, M - 1);
#undef TL_MT_MIX
    g->mti = 0;
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

/* little-endian field writers/readers of the state bytes */
static uint8_t *put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
    return p + n;
}
static const uint8_t *get(const uint8_t *p, uint64_t *v, int n)
{
    *v = 0;
    for (int i = 0; i < n; i++) *v |= (uint64_t)p[i] << (8 * i);
    return p + n;
}

void tl_generator_get_state(const tl_generator *g, uint8_t *out)
{
    uint64_t nn;
    memcpy(&nn, &g->next_normal, 8);
    out = put(out, (uint32_t)g->kind, 4);
    out = put(out, g->seed, 8);
    out = put(out, g->offset, 8);
    out = put(out, (uint32_t)g->mti, 4);
    for (int i = 0; i < TL_MT_N; i++) out = put(out, g->mt[i], 4);
    out = put(out, (uint32_t)g->has_normal, 4);
    put(out, nn, 8);
}

int tl_generator_set_state(tl_generator *g, const uint8_t *in)
{
    tl_generator n;
    uint64_t v;
    in = get(in, &v, 4);
    n.kind = (int32_t)v;
    in = get(in, &n.seed, 8);
    in = get(in, &n.offset, 8);
    in = get(in, &v, 4);
    n.mti = (int32_t)v;
    if (n.kind < 0 || n.kind >= TL_NUM_RNG_KINDS || n.mti < 0 || n.mti > TL_MT_N)
        return tl_err(TL_ERR_RUNTIME, "Expected a valid generator state (kind %d, position %d)", n.kind, n.mti);
    if (g->device.type != TL_DEV_CPU && n.kind != TL_RNG_PHILOX)
        return tl_err(TL_ERR_RUNTIME, "Expected a Philox generator state for a %s generator (found kind %d)",
                      tl_device_type_names[g->device.type], n.kind);
    n.device = g->device;
    for (int i = 0; i < TL_MT_N; i++) {
        in = get(in, &v, 4);
        n.mt[i] = (uint32_t)v;
    }
    in = get(in, &v, 4);
    n.has_normal = v != 0;
    get(in, &v, 8);
    memcpy(&n.next_normal, &v, 8);
    *g = n;
    return 0;
}

/* Blocks are processed LANES at a time in struct-of-arrays form so the compiler turns
 * the rounds (kernels/hd_random.h, the device's too) into vector multiplies. Counter =
 * (block lo, block hi, 0, 0). */
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
            for (int j = 0; j < LANES; j++) tl_hd_philox_round(&c0[j], &c1[j], &c2[j], &c3[j], k0, k1);
            k0 += TL_HD_PHILOX_W0;
            k1 += TL_HD_PHILOX_W1;
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
