/* fake_values.h - the element loads and stores the fake math libraries (fake_cublas.c,
 * fake_cusparse.c) compute with on the host: any cudaDataType they accept as a double complex,
 * float16 through _Float16, bfloat16 rounded to nearest even (NaN stays NaN). */
#ifndef TL_FAKE_VALUES_H
#define TL_FAKE_VALUES_H

#include <complex.h>
#include <library_types.h>
#include <stdint.h>
#include <string.h>

static float half_to_float(uint16_t h) { _Float16 f; memcpy(&f, &h, 2); return (float)f; }
static uint16_t float_to_half(float x) { _Float16 f = (_Float16)x; uint16_t h; memcpy(&h, &f, 2); return h; }
static float bf16_to_float(uint16_t b) { uint32_t u = (uint32_t)b << 16; float f; memcpy(&f, &u, 4); return f; }
static uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);  /* NaN stays NaN */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

static double complex load(const char *p, int t)
{
    switch (t) {
    case CUDA_R_16F: { uint16_t h; memcpy(&h, p, 2); return half_to_float(h); }
    case CUDA_R_16BF: { uint16_t h; memcpy(&h, p, 2); return bf16_to_float(h); }
    case CUDA_R_32F: { float f; memcpy(&f, p, 4); return f; }
    case CUDA_R_64F: { double d; memcpy(&d, p, 8); return d; }
    case CUDA_C_32F: { float f[2]; memcpy(f, p, 8); return f[0] + f[1] * I; }
    default: { double d[2]; memcpy(d, p, 16); return d[0] + d[1] * I; }
    }
}

static void store(char *p, int t, double complex v)
{
    switch (t) {
    case CUDA_R_16F: { uint16_t h = float_to_half((float)creal(v)); memcpy(p, &h, 2); break; }
    case CUDA_R_16BF: { uint16_t h = float_to_bf16((float)creal(v)); memcpy(p, &h, 2); break; }
    case CUDA_R_32F: { float f = (float)creal(v); memcpy(p, &f, 4); break; }
    case CUDA_R_64F: { double d = creal(v); memcpy(p, &d, 8); break; }
    case CUDA_C_32F: { float f[2] = {(float)creal(v), (float)cimag(v)}; memcpy(p, f, 8); break; }
    default: { double d[2] = {creal(v), cimag(v)}; memcpy(p, d, 16); break; }
    }
}

#endif
