/* ew_binary.c - binary elementwise kernels, one per (op, compute dtype), generated from
 * TL_BINARY_OPS (ops/ew_ops.h). Integer ops wrap through unsigned arithmetic; integer
 * division by zero sets zd instead of trapping; INT_MIN / -1 wraps. */
#include "kernels/hd_math.h"

#include <tgmath.h>

#include "core/simd.h"
#include "kernels/ew_gen.h"

/* The scalar formulas shared with the device kernels live in kernels/hd_math.h. */
#define FDIVFLOOR(x, y) _Generic((x), float: tl_hd_divfloor_f, default: tl_hd_divfloor_)(x, y)
#define FREM(x, y) _Generic((x), float: tl_hd_rem_f, default: tl_hd_rem_)(x, y)
#define LOGADDEXP(T, x, y) ((T)tl_hd_logaddexp((double)(x), (double)(y)))

/* maximum/minimum propagate NaN; fmax/fmin ignore it. */
#define NANMAX(x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (x) > (y) ? (x) : (y))
#define NANMIN(x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (x) < (y) ? (x) : (y))

/* gcd/lcm as torch: Euclid on magnitudes (INT_MIN's magnitude wraps back to INT_MIN),
 * lcm = |a / gcd * b| with wrapping multiplication, 0 when both are 0. */
#define UMAG(x) ((x) < 0 ? 0 - (uint64_t)(x) : (uint64_t)(x))
#define LCM_U(T, U, g, x, y) ((g) == 0 ? (T)0 : (T)((U)(T)((x) / (g)) * (U)(y)))

#define IWRAP(T, U, e) ((T)(U)(e))
#define BITS(T) ((int64_t)sizeof(T) * 8)

#define E_add_B(T, U, x, y) ((x) | (y))
#define E_add_U(T, U, x, y) IWRAP(T, U, (U)(x) + (U)(y))
#define E_add_I E_add_U
#define E_add_F(T, U, x, y) ((x) + (y))
#define E_add_C E_add_F
#define E_add_alpha_B(T, U, x, y) ((T)((x) || ((y) && p0)))
#define E_add_alpha_U(T, U, x, y) IWRAP(T, U, (U)(x) + (U)p0 * (U)(y))
#define E_add_alpha_I E_add_alpha_U
#define E_add_alpha_F(T, U, x, y) ((x) + p0 * (y))
#define E_add_alpha_C E_add_alpha_F
#define E_sub_U(T, U, x, y) IWRAP(T, U, (U)(x) - (U)(y))
#define E_sub_I E_sub_U
#define E_sub_F(T, U, x, y) ((x) - (y))
#define E_sub_C E_sub_F
#define E_mul_B(T, U, x, y) ((x) & (y))
#define E_mul_U(T, U, x, y) IWRAP(T, U, (U)(x) * (U)(y))
#define E_mul_I E_mul_U
#define E_mul_F(T, U, x, y) ((x) * (y))
#define E_mul_C E_mul_F
#define E_div_F(T, U, x, y) ((x) / (y))
#define E_div_C E_div_F
#define E_div_trunc_U(T, U, x, y) ((y) == 0 ? (zd = 1, (T)0) : (T)((x) / (y)))
#define E_div_trunc_I(T, U, x, y) ((y) == 0 ? (zd = 1, (T)0) : (y) == -1 ? IWRAP(T, U, (U)0 - (U)(x)) : (T)((x) / (y)))
#define E_div_trunc_F(T, U, x, y) trunc((x) / (y))
#define E_div_floor_U E_div_trunc_U
#define E_div_floor_I(T, U, x, y) ((y) == 0 ? (zd = 1, (T)0) : (y) == -1 ? IWRAP(T, U, (U)0 - (U)(x)) \
    : (T)((x) / (y) - ((x) % (y) != 0 && (((x) < 0) != ((y) < 0)))))
#define E_div_floor_F(T, U, x, y) FDIVFLOOR(x, y)
#define E_remainder_U(T, U, x, y) ((y) == 0 ? (zd = 1, (T)0) : (T)((x) % (y)))
#define E_remainder_I(T, U, x, y) ((y) == 0 ? (zd = 1, (T)0) : (y) == -1 ? (T)0 \
    : (T)(((x) % (y) != 0 && (((x) % (y) < 0) != ((y) < 0))) ? (x) % (y) + (y) : (x) % (y)))
#define E_remainder_F(T, U, x, y) FREM(x, y)
#define E_fmod_U E_remainder_U
#define E_fmod_I(T, U, x, y) ((y) == 0 ? (zd = 1, (T)0) : (y) == -1 ? (T)0 : (T)((x) % (y)))
#define E_fmod_F(T, U, x, y) fmod(x, y)
#define E_pow_B(T, U, x, y) ((uint8_t)((x) | ((y) == 0)))
#define E_pow_U(T, U, x, y) ((T)tl_hd_ipow((int64_t)(x), (int64_t)(y)))
#define E_pow_I E_pow_U
#define E_pow_F(T, U, x, y) pow(x, y)
#define E_pow_C(T, U, x, y) ((y) == 0 ? (T)1 : pow(x, y))
#define E_atan2_F(T, U, x, y) atan2(x, y)
#define E_hypot_F(T, U, x, y) hypot(x, y)
#define E_maximum_B(T, U, x, y) ((x) | (y))
#define E_maximum_U(T, U, x, y) ((x) > (y) ? (x) : (y))
#define E_maximum_I E_maximum_U
#define E_maximum_F(T, U, x, y) NANMAX(x, y)
#define E_minimum_B(T, U, x, y) ((x) & (y))
#define E_minimum_U(T, U, x, y) ((x) < (y) ? (x) : (y))
#define E_minimum_I E_minimum_U
#define E_minimum_F(T, U, x, y) NANMIN(x, y)
#define E_fmax_B E_maximum_B
#define E_fmax_U E_maximum_U
#define E_fmax_I E_maximum_U
#define E_fmax_F(T, U, x, y) fmax(x, y)
#define E_fmin_B E_minimum_B
#define E_fmin_U E_minimum_U
#define E_fmin_I E_minimum_U
#define E_fmin_F(T, U, x, y) fmin(x, y)
#define E_copysign_F(T, U, x, y) copysign(x, y)
#define E_gcd_U(T, U, x, y) ((T)tl_hd_ugcd(x, y))
#define E_gcd_I(T, U, x, y) ((T)tl_hd_ugcd(UMAG(x), UMAG(y)))
#define E_lcm_U(T, U, x, y) LCM_U(T, U, E_gcd_U(T, U, x, y), x, y)
#define E_lcm_I(T, U, x, y) ({ T m_ = LCM_U(T, U, E_gcd_I(T, U, x, y), x, y); m_ < 0 ? (T)(0 - (U)m_) : m_; })
#define E_heaviside_B(T, U, x, y) ((x) == 0 ? (y) : (T)((x) > 0))
#define E_heaviside_U E_heaviside_B
#define E_heaviside_I E_heaviside_B
#define E_heaviside_F E_heaviside_B
#define E_nextafter_F(T, U, x, y) nextafter(x, y)
#define E_xlogy_F(T, U, x, y) ((y) != (y) ? (y) : (x) == 0 ? (T)0 : (x) * log(y))
#define E_xlog1py_F(T, U, x, y) ((y) != (y) ? (y) : (x) == 0 ? (T)0 : (x) * log1p(y))
#define E_igamma_F(T, U, x, y) ((T)tl_hd_igamma((double)(x), (double)(y), false))
#define E_igammac_F(T, U, x, y) ((T)tl_hd_igamma((double)(x), (double)(y), true))
#define E_logaddexp2_F(T, U, x, y) ((T)tl_hd_logaddexp2((double)(x), (double)(y)))
#define E_zeta_F(T, U, x, y) ((T)tl_hd_zeta((double)(x), (double)(y)))
/* the orthogonal polynomials (hd_math.h): y is the order n */
#define E_chebyshev_polynomial_t_F(T, U, x, y) _Generic((x), float: tl_hd_cheb_t_f, default: tl_hd_cheb_t_)((x), tl_hd_to_i64((double)(y)))
#define E_chebyshev_polynomial_u_F(T, U, x, y) _Generic((x), float: tl_hd_cheb_u_f, default: tl_hd_cheb_u_)((x), tl_hd_to_i64((double)(y)))
#define E_chebyshev_polynomial_v_F(T, U, x, y) _Generic((x), float: tl_hd_cheb_v_f, default: tl_hd_cheb_v_)((x), tl_hd_to_i64((double)(y)))
#define E_chebyshev_polynomial_w_F(T, U, x, y) _Generic((x), float: tl_hd_cheb_w_f, default: tl_hd_cheb_w_)((x), tl_hd_to_i64((double)(y)))
#define E_shifted_chebyshev_polynomial_t_F(T, U, x, y) _Generic((x), float: tl_hd_scheb_t_f, default: tl_hd_scheb_t_)((x), tl_hd_to_i64((double)(y)))
#define E_shifted_chebyshev_polynomial_u_F(T, U, x, y) _Generic((x), float: tl_hd_scheb_u_f, default: tl_hd_scheb_u_)((x), tl_hd_to_i64((double)(y)))
#define E_shifted_chebyshev_polynomial_v_F(T, U, x, y) _Generic((x), float: tl_hd_scheb_v_f, default: tl_hd_scheb_v_)((x), tl_hd_to_i64((double)(y)))
#define E_shifted_chebyshev_polynomial_w_F(T, U, x, y) _Generic((x), float: tl_hd_scheb_w_f, default: tl_hd_scheb_w_)((x), tl_hd_to_i64((double)(y)))
#define E_hermite_polynomial_h_F(T, U, x, y) _Generic((x), float: tl_hd_hermite_h_f, default: tl_hd_hermite_h_)((x), tl_hd_to_i64((double)(y)))
#define E_hermite_polynomial_he_F(T, U, x, y) _Generic((x), float: tl_hd_hermite_he_f, default: tl_hd_hermite_he_)((x), tl_hd_to_i64((double)(y)))
#define E_laguerre_polynomial_l_F(T, U, x, y) _Generic((x), float: tl_hd_laguerre_l_f, default: tl_hd_laguerre_l_)((x), tl_hd_to_i64((double)(y)))
#define E_legendre_polynomial_p_F(T, U, x, y) _Generic((x), float: tl_hd_legendre_p_f, default: tl_hd_legendre_p_)((x), tl_hd_to_i64((double)(y)))
#define E_logaddexp_F(T, U, x, y) LOGADDEXP(T, x, y)
#define E_logaddexp_C(T, U, x, y) ({ T m_ = creal(x) > creal(y) ? (x) : (y); m_ + log(exp((x) - m_) + exp((y) - m_)); })
#define E_lerp_s_F(T, U, x, y) (fabs(p0) < 0.5 ? (x) + p0 * ((y) - (x)) : (y) - ((y) - (x)) * ((T)1 - p0))
#define E_lerp_s_C E_lerp_s_F
#define E_eq_B(T, U, x, y) ((x) == (y))
#define E_eq_U E_eq_B
#define E_eq_I E_eq_B
#define E_eq_F E_eq_B
#define E_eq_C E_eq_B
#define E_ne_B(T, U, x, y) ((x) != (y))
#define E_ne_U E_ne_B
#define E_ne_I E_ne_B
#define E_ne_F E_ne_B
#define E_ne_C E_ne_B
#define E_lt_B(T, U, x, y) ((x) < (y))
#define E_lt_U E_lt_B
#define E_lt_I E_lt_B
#define E_lt_F E_lt_B
#define E_le_B(T, U, x, y) ((x) <= (y))
#define E_le_U E_le_B
#define E_le_I E_le_B
#define E_le_F E_le_B
#define E_gt_B(T, U, x, y) ((x) > (y))
#define E_gt_U E_gt_B
#define E_gt_I E_gt_B
#define E_gt_F E_gt_B
#define E_ge_B(T, U, x, y) ((x) >= (y))
#define E_ge_U E_ge_B
#define E_ge_I E_ge_B
#define E_ge_F E_ge_B
#define E_logical_and_B(T, U, x, y) ((x) != 0 && (y) != 0)
#define E_logical_and_U E_logical_and_B
#define E_logical_and_I E_logical_and_B
#define E_logical_and_F E_logical_and_B
#define E_logical_and_C E_logical_and_B
#define E_logical_or_B(T, U, x, y) ((x) != 0 || (y) != 0)
#define E_logical_or_U E_logical_or_B
#define E_logical_or_I E_logical_or_B
#define E_logical_or_F E_logical_or_B
#define E_logical_or_C E_logical_or_B
#define E_logical_xor_B(T, U, x, y) (((x) != 0) != ((y) != 0))
#define E_logical_xor_U E_logical_xor_B
#define E_logical_xor_I E_logical_xor_B
#define E_logical_xor_F E_logical_xor_B
#define E_logical_xor_C E_logical_xor_B
#define E_bitwise_and_B(T, U, x, y) ((T)((x) & (y)))
#define E_bitwise_and_U E_bitwise_and_B
#define E_bitwise_and_I E_bitwise_and_B
#define E_bitwise_or_B(T, U, x, y) ((T)((x) | (y)))
#define E_bitwise_or_U E_bitwise_or_B
#define E_bitwise_or_I E_bitwise_or_B
#define E_bitwise_xor_B(T, U, x, y) ((T)((x) ^ (y)))
#define E_bitwise_xor_U E_bitwise_xor_B
#define E_bitwise_xor_I E_bitwise_xor_B
#define E_lshift_U(T, U, x, y) (tl_hd_shift_out((int64_t)(y), BITS(T)) ? (T)0 : IWRAP(T, U, (U)(x) << (y)))
#define E_lshift_I E_lshift_U
#define E_rshift_U(T, U, x, y) (tl_hd_shift_out((int64_t)(y), BITS(T)) ? (T)((x) >> (BITS(T) - 1)) : (T)((x) >> (y)))
#define E_rshift_I E_rshift_U
/* isclose: prm->d[0] rtol, d[1] atol, flag equal_nan (the formulas: kernels/hd_math.h). */
#define E_isclose_B(T, U, x, y) ((x) == (y))
#define E_isclose_U(T, U, x, y) TL_HD_ISCLOSE_I(x, y, prm->d[0], prm->d[1])
#define E_isclose_I E_isclose_U
#define E_isclose_F(T, U, x, y) TL_HD_ISCLOSE_F(TL_HD_TG, T, x, y, prm->d[0], prm->d[1], prm->flag)
#define E_isclose_C(T, U, x, y) \
    TL_HD_ISCLOSE_C(TL_HD_TG, creal(x), cimag(x), creal(y), cimag(y), prm->d[0], prm->d[1], prm->flag)

/* Kernels with a bool output (comparisons, logical ops, isclose) carry AVX2 and AVX-512
 * clones: their values do not depend on the vector width, and the compare-to-byte
 * narrowing is where the baseline SSE2 body spends its time (a shuffle chain per 16
 * lanes against a k-mask compare and one narrowing per 64 lanes with AVX-512). */
#define KB_CLONES_SAME
#define KB_CLONES_REAL
#define KB_CLONES_BOOL TL_CLONES_WIDE
#define KB(op, out, ID, T, U, RT, CAT)                                                      \
    KB_CLONES_##out static void kb_##op##_##ID(char **d, const int64_t *s, int64_t n, void *ctx)           \
    {                                                                                       \
        typedef EW_OUT_##out(T, RT) OT;                                                     \
        EW_BEGIN(T);                                                                        \
        if (s[0] == sizeof(OT) && s[1] == sizeof(T) && s[2] == sizeof(T)) {                 \
            OT *o = (OT *)d[0];                                                             \
            const T *a = (const T *)d[1], *b = (const T *)d[2];                             \
            for (int64_t i = 0; i < n; i++) { const T x = a[i], y = b[i]; o[i] = (OT)(E_##op##_##CAT(T, U, x, y)); } \
        } else if (s[0] == sizeof(OT) && s[1] == sizeof(T) && s[2] == 0) {                  \
            OT *o = (OT *)d[0];                                                             \
            const T *a = (const T *)d[1];                                                   \
            const T y = *(const T *)d[2];                                                   \
            for (int64_t i = 0; i < n; i++) { const T x = a[i]; o[i] = (OT)(E_##op##_##CAT(T, U, x, y)); } \
        } else if (s[0] == sizeof(OT) && s[1] == 0 && s[2] == sizeof(T)) {                  \
            OT *o = (OT *)d[0];                                                             \
            const T *b = (const T *)d[2];                                                   \
            const T x = *(const T *)d[1];                                                   \
            for (int64_t i = 0; i < n; i++) { const T y = b[i]; o[i] = (OT)(E_##op##_##CAT(T, U, x, y)); } \
        } else {                                                                            \
            char *d0 = d[0];                                                                \
            const char *d1 = d[1], *d2 = d[2]; /* locals: stores may alias d and s */        \
            const int64_t s0 = s[0], s1 = s[1], s2 = s[2];                                  \
            for (int64_t i = 0; i < n; i++) {                                               \
                const T x = *(const T *)(d1 + i * s1), y = *(const T *)(d2 + i * s2);       \
                *(OT *)(d0 + i * s0) = (OT)(E_##op##_##CAT(T, U, x, y));                    \
            }                                                                               \
        }                                                                                   \
        EW_END;                                                                             \
    }
#define KB_OP(op, out, flags, b, u, i, f, c) EW_GEN_ALL(KB, op, out, b, u, i, f, c)
TL_BINARY_OPS(KB_OP)
#define KB_W(op, out) EW_GEN_W(KB, op, out)
TL_BINARY_WIDE_UINT(KB_W)

#define KB_ENTRY(op, out, ID, T, U, RT, CAT) [TL_##ID] = kb_##op##_##ID,
#define KB_ROW(op, out, flags, b, u, i, f, c) [TL_BOP_##op] = {EW_GEN_ALL(KB_ENTRY, op, out, b, u, i, f, c)},
#define KB_WENTRY(op, out, ID, T, U, RT, CAT) [TL_BOP_##op][TL_##ID] = kb_##op##_##ID,
#define KB_WROW(op, out) EW_GEN_W(KB_WENTRY, op, out)
static const tl_loop_fn binary_table[TL_NUM_BOPS][TL_NUM_DTYPES] = {TL_BINARY_OPS(KB_ROW) TL_BINARY_WIDE_UINT(KB_WROW)};

tl_loop_fn tl_ew_binary_kernel(tl_bop op, tl_dtype compute) { return binary_table[op][compute]; }
