/* convert.h - bit-exact conversions between float32 and the narrow float formats.
 *
 * Every function follows torch 2.13's c10 implementation: round to nearest even,
 * and each format's own rules for NaN, infinity, overflow and negative zero.
 * float64 sources go through float32 first, as torch does.
 */
#ifndef TL_CONVERT_H
#define TL_CONVERT_H

#include <stdint.h>

float tl_f16_to_f32(uint16_t h);
uint16_t tl_f32_to_f16(float f);
float tl_bf16_to_f32(uint16_t b);
uint16_t tl_f32_to_bf16(float f);
float tl_f8e4m3fn_to_f32(uint8_t v);
uint8_t tl_f32_to_f8e4m3fn(float f);
float tl_f8e5m2_to_f32(uint8_t v);
uint8_t tl_f32_to_f8e5m2(float f);
float tl_f8e4m3fnuz_to_f32(uint8_t v);
uint8_t tl_f32_to_f8e4m3fnuz(float f);
float tl_f8e5m2fnuz_to_f32(uint8_t v);
uint8_t tl_f32_to_f8e5m2fnuz(float f);
float tl_f8e8m0fnu_to_f32(uint8_t v);
uint8_t tl_f32_to_f8e8m0fnu(float f);
/* One float4_e2m1fn value in the low nibble (bit 3 sign, bits 2-1 exponent, bit 0 mantissa). */
float tl_f4e2m1_to_f32(uint8_t nibble);
uint8_t tl_f32_to_f4e2m1(float f);

/* Bulk forms for the hot casts (vectorized where the CPU allows). */
void tl_f32_to_f16_n(const float *src, uint16_t *dst, int64_t n);
void tl_f16_to_f32_n(const uint16_t *src, float *dst, int64_t n);

#endif
