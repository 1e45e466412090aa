/* dtype.c - the dtype table instantiated from TL_DTYPE_LIST. */
#include "core/dtype.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const tl_dtype_info tl_dtype_infos[TL_NUM_DTYPES] = {
#define TL_X_INFO(ID, name, ctype, size, kind, sgn, shell, fmt, cname) \
    [TL_##ID] = {#name, cname, fmt, size, kind, sgn, shell},
    TL_DTYPE_LIST(TL_X_INFO)
#undef TL_X_INFO
};

int tl_dtype_from_name(const char *name)
{
    for (int i = 0; i < TL_NUM_DTYPES; i++)
        if (strcmp(tl_dtype_infos[i].name, name) == 0) return i;
    return -1;
}

tl_dtype tl_dtype_to_complex(tl_dtype d)
{
    switch (d) {
    case TL_FLOAT16: return TL_COMPLEX32;
    case TL_FLOAT64: return TL_COMPLEX128;
    case TL_COMPLEX32: case TL_COMPLEX64: case TL_COMPLEX128: return d;
    default: return TL_COMPLEX64;
    }
}

tl_dtype tl_dtype_to_real(tl_dtype d)
{
    switch (d) {
    case TL_COMPLEX32: return TL_FLOAT16;
    case TL_COMPLEX64: return TL_FLOAT32;
    case TL_COMPLEX128: return TL_FLOAT64;
    default: return d;
    }
}

/* caffe2::TypeMeta's spelling of a dtype (torch names dtypes this way in several messages). */
const char *tl_dtype_typemeta(tl_dtype d)
{
    switch (d) {
    case TL_BOOL: return "bool";
    case TL_UINT8: return "unsigned char";
    case TL_INT8: return "signed char";
    case TL_INT16: return "short int";
    case TL_INT32: return "int";
    case TL_INT64: return "long int";
    case TL_FLOAT16: return "c10::Half";
    case TL_BFLOAT16: return "c10::BFloat16";
    case TL_FLOAT32: return "float";
    case TL_FLOAT64: return "double";
    case TL_COMPLEX32: return "c10::complex<c10::Half>";
    case TL_COMPLEX64: return "c10::complex<float>";
    case TL_COMPLEX128: return "c10::complex<double>";
    case TL_FLOAT8_E4M3FN: return "c10::Float8_e4m3fn";
    case TL_FLOAT8_E5M2: return "c10::Float8_e5m2";
    case TL_FLOAT8_E4M3FNUZ: return "c10::Float8_e4m3fnuz";
    case TL_FLOAT8_E5M2FNUZ: return "c10::Float8_e5m2fnuz";
    case TL_FLOAT8_E8M0FNU: return "c10::Float8_e8m0fnu";
    default: return tl_dtype_infos[d].name;
    }
}

int tl_err_dispatch(tl_errkind kind, tl_dtype d, const char *kernel_fmt, ...)
{
    char kernel[128];
    va_list ap;
    va_start(ap, kernel_fmt);
    vsnprintf(kernel, sizeof kernel, kernel_fmt, ap);
    va_end(ap);
    return tl_err(kind, "\"%s\" not implemented for '%s'", kernel, tl_dtype_infos[d].cname);
}
