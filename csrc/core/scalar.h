/* scalar.h - tagged scalars: Python numbers on their way into ops. Their conversions
 * to and from elements live with the cast loops (kernels/cast.h). */
#ifndef TL_SCALAR_H
#define TL_SCALAR_H

#include <complex.h>
#include <stdint.h>

#include "core/dtype.h"

typedef struct {
    tl_kind kind;            /* BOOL and INT use i, FLOAT uses d, COMPLEX uses c */
    union {
        int64_t i;
        double d;
        double complex c;
    } v;
} tl_scalar;

static inline tl_scalar tl_scalar_int(int64_t i) { tl_scalar s; s.kind = TL_KIND_INT; s.v.i = i; return s; }
static inline tl_scalar tl_scalar_bool(int b) { tl_scalar s; s.kind = TL_KIND_BOOL; s.v.i = b != 0; return s; }
static inline tl_scalar tl_scalar_double(double d) { tl_scalar s; s.kind = TL_KIND_FLOAT; s.v.d = d; return s; }
static inline tl_scalar tl_scalar_complex(double complex c) { tl_scalar s; s.kind = TL_KIND_COMPLEX; s.v.c = c; return s; }

#endif
