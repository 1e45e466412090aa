/* ew_unary.c - unary elementwise kernels, one per (op, compute dtype), generated from
 * TL_UNARY_OPS (ops/ew_ops.h). Special functions without a C library routine (erfinv,
 * digamma) follow torch's implementations. The formulas of the ops with parameters and of
 * erfinv and digamma live in kernels/hd_math.h, shared with the device kernels. */
#include "kernels/hd_math.h"

#include <tgmath.h>

#include "kernels/ew_gen.h"
#include "kernels/vmath.h"

#define PI_D 3.14159265358979323846

/* erfinv and digamma: kernels/hd_math.h, shared with the device kernels */
#define ERFINV(T, x) ((T)tl_hd_erfinv((double)(x)))
#define DIGAMMA(x) _Generic((x), float: tl_hd_digamma_f, default: tl_hd_digamma_)(x)

#define IWRAP(T, U, e) ((T)(U)(e))

#define E_abs_B(T, U, x) (x)
#define E_abs_U E_abs_B
#define E_abs_I(T, U, x) ((x) < 0 ? IWRAP(T, U, (U)0 - (U)(x)) : (x))
#define E_abs_F(T, U, x) fabs(x)
#define E_abs_C(T, U, x) fabs(x)
#define E_neg_U(T, U, x) IWRAP(T, U, (U)0 - (U)(x))
#define E_neg_I E_neg_U
#define E_neg_F(T, U, x) (-(x))
#define E_neg_C E_neg_F
#define E_sign_B(T, U, x) (x)
#define E_sign_U(T, U, x) ((T)((x) != 0))
#define E_sign_I(T, U, x) ((T)(((x) > 0) - ((x) < 0)))
#define E_sign_F(T, U, x) ((T)(((x) > 0) - ((x) < 0)))
#define E_sgn_B E_sign_B
#define E_sgn_U E_sign_U
#define E_sgn_I E_sign_I
#define E_sgn_F E_sign_F
#define E_sgn_C(T, U, x) ((x) == 0 ? (T)0 : (x) / fabs(x))
#define E_ceil_U(T, U, x) (x)
#define E_ceil_I E_ceil_U
#define E_ceil_F(T, U, x) ceil(x)
#define E_floor_U E_ceil_U
#define E_floor_I E_ceil_U
#define E_floor_F(T, U, x) floor(x)
#define E_trunc_U E_ceil_U
#define E_trunc_I E_ceil_U
#define E_trunc_F(T, U, x) trunc(x)
#define E_round_U E_ceil_U
#define E_round_I E_ceil_U
#define E_round_F(T, U, x) nearbyint(x)
/* round(decimals): p0 = 10^|decimals|, flag = decimals < 0 */
#define E_round_dec_F(T, U, x) TL_HD_ROUND_DEC(TL_HD_TG, x, p0, prm->flag)
#define E_frac_F(T, U, x) ((x) - trunc(x))
#define E_sqrt_F(T, U, x) sqrt(x)
#define E_sqrt_C E_sqrt_F
#define E_rsqrt_F(T, U, x) ((T)1 / sqrt(x))
#define E_rsqrt_C E_rsqrt_F
#define E_square_U(T, U, x) IWRAP(T, U, (U)(x) * (U)(x))
#define E_square_I E_square_U
#define E_square_F(T, U, x) ((x) * (x))
#define E_square_C E_square_F
#define E_exp_F(T, U, x) exp(x)
#define E_exp_C E_exp_F
#define E_exp2_F(T, U, x) exp2(x)
/* complex by a real constant: part by part, as torch (a complex constant's product and
 * quotient made NaN parts at infinities and zeros: log2(0) gave -inf + NaN i) */
#define EW_CSCALE(T, z, OP, k) ({ T z_ = (z); typedef __typeof__(creal(z_)) R_; EW_MKC(T, creal(z_) OP (R_)(k), cimag(z_) OP (R_)(k)); })
#define E_exp2_C(T, U, x) exp(EW_CSCALE(T, x, *, 0.693147180559945309417232121458176568))
#define E_expm1_F(T, U, x) expm1(x)
#define E_expm1_C(T, U, x) (exp(x) - (T)1)
#define E_log_F(T, U, x) log(x)
#define E_log_C E_log_F
#define E_log2_F(T, U, x) log2(x)
#define E_log2_C(T, U, x) EW_CSCALE(T, log(x), /, 0.693147180559945309417232121458176568)
#define E_log10_F(T, U, x) log10(x)
#define E_log10_C(T, U, x) EW_CSCALE(T, log(x), /, 2.30258509299404568401799145468436421)
#define E_log1p_F(T, U, x) log1p(x)
#define E_log1p_C(T, U, x) log((T)1 + (x))
#define E_sin_F(T, U, x) sin(x)
#define E_sin_C E_sin_F
#define E_cos_F(T, U, x) cos(x)
#define E_cos_C E_cos_F
#define E_tan_F(T, U, x) tan(x)
#define E_tan_C E_tan_F
#define E_asin_F(T, U, x) asin(x)
#define E_asin_C E_asin_F
#define E_acos_F(T, U, x) acos(x)
#define E_acos_C E_acos_F
#define E_atan_F(T, U, x) atan(x)
#define E_atan_C E_atan_F
#define E_sinh_F(T, U, x) sinh(x)
#define E_sinh_C E_sinh_F
#define E_cosh_F(T, U, x) cosh(x)
#define E_cosh_C E_cosh_F
#define E_tanh_F(T, U, x) tanh(x)
#define E_tanh_C E_tanh_F
#define E_asinh_F(T, U, x) asinh(x)
#define E_asinh_C E_asinh_F
#define E_acosh_F(T, U, x) acosh(x)
#define E_acosh_C E_acosh_F
#define E_atanh_F(T, U, x) atanh(x)
#define E_atanh_C E_atanh_F
#define E_sigmoid_F(T, U, x) ((T)1 / ((T)1 + exp(-(x))))
#define E_sigmoid_C E_sigmoid_F
/* logit: flag = eps given, p0 = eps, i[1] the half type whose steps it rounds to (hd_math.h) */
#define E_logit_F(T, U, x) _Generic((x), float: tl_hd_logit_f, default: tl_hd_logit_)(x, p0, prm->flag, (int)prm->i[1])
#define E_relu_U(T, U, x) (x)
#define E_relu_I(T, U, x) ((x) < 0 ? (T)0 : (x))
#define E_relu_F(T, U, x) ((x) < 0 ? (T)0 : (x))
#define E_gelu_F(T, U, x) ((x) * (T)0.5 * ((T)1 + erf((x) * (T)0.70710678118654752440)))
#define E_gelu_tanh_F(T, U, x) ((T)0.5 * (x) * ((T)1 + tanh((T)0.79788456080286535588 * ((x) + (T)0.044715 * (x) * (x) * (x)))))
#define E_silu_F(T, U, x) ((x) / ((T)1 + exp(-(x))))
#define E_silu_C E_silu_F
#define E_mish_F(T, U, x) ((x) * tanh(log1p(exp(x))))
#define E_erf_F(T, U, x) erf(x)
#define E_erfc_F(T, U, x) erfc(x)
#define E_erfinv_F(T, U, x) ERFINV(T, x)
#define E_digamma_F(T, U, x) DIGAMMA(x)
#define E_frexp_mant_F(T, U, x) _Generic((x), float: tl_hd_frexpm_f, default: tl_hd_frexpm_)(x)
/* sinc: sin(pi x) / (pi x), 1 at 0, pi and the product in the compute type as torch's kernel */
#define E_sinc_F(T, U, x) ((x) == 0 ? (T)1 : sin((T)PI_D * (x)) / ((T)PI_D * (x)))
#define E_sinc_C E_sinc_F
#define E_airy_ai_F(T, U, x) ((T)tl_hd_airy_ai((double)(x)))
#define E_frexp_exp_F(T, U, x) _Generic((x), float: tl_hd_frexpe_f, default: tl_hd_frexpe_)(x)
/* polygamma: i[0] = n (hd_math.h) */
#define E_polygamma_F(T, U, x) _Generic((x), float: tl_hd_polygamma_f, default: tl_hd_polygamma_)(x, prm->i[0])
#define E_erfcx_F(T, U, x) ((T)tl_hd_erfcx((double)(x)))
#define E_ndtri_F(T, U, x) ((T)tl_hd_ndtri((double)(x)))
#define E_log_ndtr_F(T, U, x) ((T)tl_hd_log_ndtr((double)(x)))
#define E_ndtr_F(T, U, x) ((T)tl_hd_ndtr((double)(x)))
#define E_bessel_j0_F(T, U, x) ((T)tl_hd_bessel_j0((double)(x)))
#define E_bessel_j1_F(T, U, x) ((T)tl_hd_bessel_j1((double)(x)))
#define E_bessel_y0_F(T, U, x) ((T)tl_hd_bessel_y0((double)(x)))
#define E_bessel_y1_F(T, U, x) ((T)tl_hd_bessel_y1((double)(x)))
#define E_spherical_bessel_j0_F(T, U, x) ((T)tl_hd_spherical_j0((double)(x)))
#define E_i0_F(T, U, x) ((T)tl_hd_bessel_i0((double)(x)))
#define E_i0e_F(T, U, x) ((T)tl_hd_bessel_i0e((double)(x)))
#define E_i1_F(T, U, x) ((T)tl_hd_bessel_i1((double)(x)))
#define E_i1e_F(T, U, x) ((T)tl_hd_bessel_i1e((double)(x)))
#define E_modified_bessel_i0_F(T, U, x) ((T)tl_hd_bessel_i0((double)(x)))
#define E_modified_bessel_i1_F(T, U, x) ((T)tl_hd_bessel_i1((double)(x)))
#define E_modified_bessel_k0_F(T, U, x) ((T)tl_hd_bessel_k0((double)(x)))
#define E_modified_bessel_k1_F(T, U, x) ((T)tl_hd_bessel_k1((double)(x)))
#define E_scaled_modified_bessel_k0_F(T, U, x) ((T)tl_hd_bessel_k0e((double)(x)))
#define E_scaled_modified_bessel_k1_F(T, U, x) ((T)tl_hd_bessel_k1e((double)(x)))
#define E_entr_F(T, U, x) ((x) != (x) ? (x) : (x) > 0 ? -(x) * log(x) : (x) == 0 ? (T)0 : -(T)INFINITY)
#define E_lgamma_F(T, U, x) lgamma(x)
#define E_reciprocal_F(T, U, x) ((T)1 / (x))
#define E_reciprocal_C E_reciprocal_F
#define E_deg2rad_F(T, U, x) ((x) * (T)(PI_D / 180.0))
#define E_rad2deg_F(T, U, x) ((x) * (T)(180.0 / PI_D))
#define E_angle_F(T, U, x) ((x) != (x) ? (x) : (x) < 0 ? (T)PI_D : (T)0)
#define E_angle_C(T, U, x) carg(x)
#define E_conj_physical_B(T, U, x) (x)
#define E_conj_physical_U E_conj_physical_B
#define E_conj_physical_I E_conj_physical_B
#define E_conj_physical_F E_conj_physical_B
#define E_conj_physical_C(T, U, x) conj(x)
#define E_isnan_B(T, U, x) ((void)(x), 0)
#define E_isnan_U E_isnan_B
#define E_isnan_I E_isnan_B
#define E_isnan_F(T, U, x) ((x) != (x))
#define E_isnan_C(T, U, x) ((x) != (x))
#define E_isinf_B(T, U, x) ((void)(x), 0)
#define E_isinf_U E_isinf_B
#define E_isinf_I E_isinf_B
#define E_isinf_F(T, U, x) (fabs(x) == (T)INFINITY)
#define E_isinf_C(T, U, x) (isinf(creal(x)) || isinf(cimag(x)))
#define E_isposinf_B E_isinf_B
#define E_isposinf_U E_isinf_B
#define E_isposinf_I E_isinf_B
#define E_isposinf_F(T, U, x) ((x) == (T)INFINITY)
#define E_isneginf_B E_isinf_B
#define E_isneginf_U E_isinf_B
#define E_isneginf_I E_isinf_B
#define E_isneginf_F(T, U, x) ((x) == -(T)INFINITY)
#define E_isfinite_B(T, U, x) ((void)(x), 1)
#define E_isfinite_U E_isfinite_B
#define E_isfinite_I E_isfinite_B
#define E_isfinite_F(T, U, x) (fabs(x) < (T)INFINITY)
#define E_isfinite_C(T, U, x) (isfinite(creal(x)) && isfinite(cimag(x)))
#define E_isreal_B(T, U, x) ((void)(x), 1)
#define E_isreal_U E_isreal_B
#define E_isreal_I E_isreal_B
#define E_isreal_F E_isreal_B
#define E_isreal_C(T, U, x) (cimag(x) == 0)
#define E_signbit_B(T, U, x) ((void)(x), 0)
#define E_signbit_U E_signbit_B
#define E_signbit_I(T, U, x) ((x) < 0)
#define E_signbit_F(T, U, x) (signbit(x) != 0)
/* nan_to_num: d[0] nan, d[1] posinf, d[2] neginf (already resolved to the dtype's limits) */
#define NTN(R, v) TL_HD_NTN(R, v, (R)prm->d[0], (R)prm->d[1], (R)prm->d[2])
#define E_nan_to_num_B(T, U, x) (x)
#define E_nan_to_num_U E_nan_to_num_B
#define E_nan_to_num_I E_nan_to_num_B
#define E_nan_to_num_F(T, U, x) NTN(T, x)
#define E_nan_to_num_C(T, U, x) EW_MKC(T, NTN(__typeof__(creal(x)), creal(x)), NTN(__typeof__(creal(x)), cimag(x)))
#define E_logical_not_B(T, U, x) ((x) == 0)
#define E_logical_not_U E_logical_not_B
#define E_logical_not_I E_logical_not_B
#define E_logical_not_F E_logical_not_B
#define E_logical_not_C E_logical_not_B
#define E_bitwise_not_B(T, U, x) ((T)!(x))
#define E_bitwise_not_U(T, U, x) ((T)~(x))
#define E_bitwise_not_I E_bitwise_not_U
#define E_clamp_s_U(T, U, x) ({ T t_ = (x) < p0 ? p0 : (x); t_ > p1 ? p1 : t_; })
#define E_clamp_s_I E_clamp_s_U
/* floats: a NaN element or a NaN bound gives NaN (torch, NumPy) */
#define E_clamp_s_F(T, U, x) ((x) != (x) ? (x) : p0 != p0 ? p0 : p1 != p1 ? p1 : E_clamp_s_U(T, U, x))
#define E_clamp_min_s_U(T, U, x) ((x) < p0 ? p0 : (x))
#define E_clamp_min_s_I E_clamp_min_s_U
#define E_clamp_min_s_F(T, U, x) (p0 != p0 ? p0 : E_clamp_min_s_U(T, U, x))
#define E_clamp_max_s_U(T, U, x) ((x) > p1 ? p1 : (x))
#define E_clamp_max_s_I E_clamp_max_s_U
#define E_clamp_max_s_F(T, U, x) (p1 != p1 ? p1 : E_clamp_max_s_U(T, U, x))

/* Vectorized loops (vmath.c) taking over the contiguous float32/float64 case of some ops;
 * constant-indexed, so each kernel below folds to a direct call or to nothing. */
#define VM_ROW(op) [TL_UOP_##op] = {[TL_FLOAT32] = tl_vm_##op##_f32, [TL_FLOAT64] = tl_vm_##op##_f64},
static const tl_vm_fn vm_table[TL_NUM_UOPS][TL_NUM_DTYPES] = {TL_VM_OPS(VM_ROW)};

#define KU(op, out, ID, T, U, RT, CAT)                                                      \
    static void ku_##op##_##ID(char **d, const int64_t *s, int64_t n, void *ctx)           \
    {                                                                                       \
        typedef EW_OUT_##out(T, RT) OT;                                                     \
        EW_BEGIN(T);                                                                        \
        if (s[0] == sizeof(OT) && s[1] == sizeof(T) && vm_table[TL_UOP_##op][TL_##ID]) {     \
            vm_table[TL_UOP_##op][TL_##ID](d[0], d[1], n);                                  \
        } else if (s[0] == sizeof(OT) && s[1] == sizeof(T)) {                               \
            OT *o = (OT *)d[0];                                                             \
            const T *a = (const T *)d[1];                                                   \
            for (int64_t i = 0; i < n; i++) { const T x = a[i]; o[i] = (OT)(E_##op##_##CAT(T, U, x)); } \
        } else {                                                                            \
            char *d0 = d[0];                                                                \
            const char *d1 = d[1]; /* locals: stores may alias d and s */                   \
            const int64_t s0 = s[0], s1 = s[1];                                             \
            for (int64_t i = 0; i < n; i++) {                                               \
                const T x = *(const T *)(d1 + i * s1);                                      \
                *(OT *)(d0 + i * s0) = (OT)(E_##op##_##CAT(T, U, x));                       \
            }                                                                               \
        }                                                                                   \
        EW_END;                                                                             \
    }
#define KU_OP(op, out, flags, b, u, i, f, c) EW_GEN_ALL(KU, op, out, b, u, i, f, c)
TL_UNARY_OPS(KU_OP)
#define KU_W(op, out) EW_GEN_W(KU, op, out)
TL_UNARY_WIDE_UINT(KU_W)

#define KU_ENTRY(op, out, ID, T, U, RT, CAT) [TL_##ID] = ku_##op##_##ID,
#define KU_ROW(op, out, flags, b, u, i, f, c) [TL_UOP_##op] = {EW_GEN_ALL(KU_ENTRY, op, out, b, u, i, f, c)},
#define KU_WENTRY(op, out, ID, T, U, RT, CAT) [TL_UOP_##op][TL_##ID] = ku_##op##_##ID,
#define KU_WROW(op, out) EW_GEN_W(KU_WENTRY, op, out)
static const tl_loop_fn unary_table[TL_NUM_UOPS][TL_NUM_DTYPES] = {TL_UNARY_OPS(KU_ROW) TL_UNARY_WIDE_UINT(KU_WROW)};

tl_loop_fn tl_ew_unary_kernel(tl_uop op, tl_dtype compute) { return unary_table[op][compute]; }
