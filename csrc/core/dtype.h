/* dtype.h - the dtype table: the one list every per-dtype fact is derived from.
 *
 * X(ID, name, ctype, itemsize, kind, is_signed, is_shell, buffer_format, torch_cname)
 *   ID            enum suffix (TL_FLOAT32 ...)
 *   name          Python-visible name (tensorlib.float32)
 *   ctype         C storage type of one element
 *   kind          category used by type promotion (BOOL < INT < FLOAT < COMPLEX)
 *   is_shell      shell dtypes: creation, views and copies only, no arithmetic
 *   buffer_format struct-module format for the buffer protocol ("" = none)
 *   torch_cname   torch's ScalarType name, used in error messages ("Float")
 */
#ifndef TL_DTYPE_H
#define TL_DTYPE_H

#include <stdbool.h>
#include <stdint.h>
#include <complex.h>

#include "core/error.h"

typedef struct { uint16_t re, im; } tl_complex32; /* two float16 bit patterns */

/* Buffer-protocol format of the 64-bit integers: the C type NumPy calls int64 on this
 * platform ('l' where long is 64 bits), so np.asarray(t) gives np.int64, not np.longlong. */
#if defined(__LP64__)
#define TL_FMT_I64 "l"
#define TL_FMT_U64 "L"
#else
#define TL_FMT_I64 "q"
#define TL_FMT_U64 "Q"
#endif

#define TL_DTYPE_LIST(X)                                                              \
    X(BOOL, bool, uint8_t, 1, TL_KIND_BOOL, 0, 0, "?", "Bool")                        \
    X(UINT8, uint8, uint8_t, 1, TL_KIND_INT, 0, 0, "B", "Byte")                       \
    X(INT8, int8, int8_t, 1, TL_KIND_INT, 1, 0, "b", "Char")                          \
    X(INT16, int16, int16_t, 2, TL_KIND_INT, 1, 0, "h", "Short")                      \
    X(INT32, int32, int32_t, 4, TL_KIND_INT, 1, 0, "i", "Int")                        \
    X(INT64, int64, int64_t, 8, TL_KIND_INT, 1, 0, TL_FMT_I64, "Long")                \
    X(UINT16, uint16, uint16_t, 2, TL_KIND_INT, 0, 1, "H", "UInt16")                  \
    X(UINT32, uint32, uint32_t, 4, TL_KIND_INT, 0, 1, "I", "UInt32")                  \
    X(UINT64, uint64, uint64_t, 8, TL_KIND_INT, 0, 1, TL_FMT_U64, "UInt64")           \
    X(FLOAT16, float16, uint16_t, 2, TL_KIND_FLOAT, 1, 0, "e", "Half")                \
    X(BFLOAT16, bfloat16, uint16_t, 2, TL_KIND_FLOAT, 1, 0, "", "BFloat16")           \
    X(FLOAT32, float32, float, 4, TL_KIND_FLOAT, 1, 0, "f", "Float")                  \
    X(FLOAT64, float64, double, 8, TL_KIND_FLOAT, 1, 0, "d", "Double")                \
    X(COMPLEX32, complex32, tl_complex32, 4, TL_KIND_COMPLEX, 1, 0, "", "ComplexHalf") \
    X(COMPLEX64, complex64, float complex, 8, TL_KIND_COMPLEX, 1, 0, "Zf", "ComplexFloat") \
    X(COMPLEX128, complex128, double complex, 16, TL_KIND_COMPLEX, 1, 0, "Zd", "ComplexDouble") \
    X(FLOAT8_E4M3FN, float8_e4m3fn, uint8_t, 1, TL_KIND_FLOAT, 1, 1, "", "Float8_e4m3fn") \
    X(FLOAT8_E5M2, float8_e5m2, uint8_t, 1, TL_KIND_FLOAT, 1, 1, "", "Float8_e5m2")   \
    X(FLOAT8_E4M3FNUZ, float8_e4m3fnuz, uint8_t, 1, TL_KIND_FLOAT, 1, 1, "", "Float8_e4m3fnuz") \
    X(FLOAT8_E5M2FNUZ, float8_e5m2fnuz, uint8_t, 1, TL_KIND_FLOAT, 1, 1, "", "Float8_e5m2fnuz") \
    X(FLOAT8_E8M0FNU, float8_e8m0fnu, uint8_t, 1, TL_KIND_FLOAT, 0, 1, "", "Float8_e8m0fnu") \
    X(FLOAT4_E2M1FN_X2, float4_e2m1fn_x2, uint8_t, 1, TL_KIND_FLOAT, 1, 1, "", "Float4_e2m1fn_x2")

typedef enum { TL_KIND_BOOL = 0, TL_KIND_INT = 1, TL_KIND_FLOAT = 2, TL_KIND_COMPLEX = 3 } tl_kind;

typedef enum {
#define TL_X_ENUM(ID, ...) TL_##ID,
    TL_DTYPE_LIST(TL_X_ENUM)
#undef TL_X_ENUM
    TL_NUM_DTYPES
} tl_dtype;

typedef struct {
    const char *name;        /* "float32" */
    const char *cname;       /* torch's ScalarType name: "Float" */
    const char *buffer_format;
    int itemsize;
    tl_kind kind;
    bool is_signed;
    bool is_shell;
} tl_dtype_info;

extern const tl_dtype_info tl_dtype_infos[TL_NUM_DTYPES];
/* caffe2::TypeMeta's spelling ("float", "long int", "c10::Half"), used in torch's out= dtype messages. */
const char *tl_dtype_typemeta(tl_dtype d);

/* torch's dtype-dispatch refusal, `"<kernel>" not implemented for '<ScalarType>'`, raised
 * where torch's kernel has no case for dtype d: tensorlib refuses the same inputs on purpose
 * (raise-vs-not matches torch), so this is behaviour, not a gap. kind: NotImplementedError
 * (TL_ERR_NOTIMPL) for most kernels, RuntimeError for the few torch raises that way; the
 * kernel name is a printf format. Returns -1. */
int tl_err_dispatch(tl_errkind kind, tl_dtype d, const char *kernel_fmt, ...) __attribute__((format(printf, 3, 4)));

static inline const tl_dtype_info *tl_dtype_info_of(tl_dtype d) { return &tl_dtype_infos[d]; }
static inline int tl_dtype_itemsize(tl_dtype d) { return tl_dtype_infos[d].itemsize; }
static inline tl_kind tl_dtype_kind(tl_dtype d) { return tl_dtype_infos[d].kind; }
static inline bool tl_dtype_is_shell(tl_dtype d) { return tl_dtype_infos[d].is_shell; }
static inline bool tl_dtype_is_float(tl_dtype d) { return tl_dtype_infos[d].kind == TL_KIND_FLOAT; }
/* The five float8 formats (shell dtypes: torch computes on them only in a few ops). */
static inline bool tl_dtype_is_float8(tl_dtype d) { return d >= TL_FLOAT8_E4M3FN && d <= TL_FLOAT8_E8M0FNU; /* adjacent in the table */ }
static inline bool tl_dtype_is_complex(tl_dtype d) { return tl_dtype_infos[d].kind == TL_KIND_COMPLEX; }
/* Integral in torch's sense (includeBool=false): no bool. */
static inline bool tl_dtype_is_integral(tl_dtype d) { return tl_dtype_infos[d].kind == TL_KIND_INT; }

/* Looks a dtype up by its name ("float32"); returns -1 when unknown. */
int tl_dtype_from_name(const char *name);

/* Complex dtype with float components of `d` (float32 -> complex64); `d` if already complex. */
tl_dtype tl_dtype_to_complex(tl_dtype d);
/* Real dtype of a complex one (complex64 -> float32); `d` otherwise. */
tl_dtype tl_dtype_to_real(tl_dtype d);

#endif
