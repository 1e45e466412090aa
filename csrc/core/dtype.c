/* dtype.c - the dtype table instantiated from TL_DTYPE_LIST. */
#include "core/dtype.h"

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
