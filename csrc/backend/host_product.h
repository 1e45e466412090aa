/* host_product.h (backend) - the element steps the host runners of the product entries share
 * (gemm.c, spmm.c): an element of any float or complex dtype read as a double complex, and
 * C = alpha * acc + beta * C stored rounded once to C's dtype (float16 and bfloat16 through a
 * float32 value, as the devices' float32 accumulators round). */
#ifndef TL_BACKEND_HOST_PRODUCT_H
#define TL_BACKEND_HOST_PRODUCT_H

#include <complex.h>
#include <stdbool.h>

#include "backend/backend.h"
#include "kernels/hd_math.h"

static inline double complex tl_host_load(const char *p, int dt)
{
    double z[2];
    tl_hd_convert(z, TL_BDT_COMPLEX128, p, dt);
    return z[0] + z[1] * I;
}

/* beta == 0 (beta0): C is not read, so a NaN in it does not propagate. */
static inline void tl_host_store(char *dst, int dt, double complex acc, double complex alpha, double complex beta,
                                 bool beta0)
{
    double complex v = alpha * acc + (beta0 ? 0 : beta * tl_host_load(dst, dt));
    bool cplx = dt == TL_BDT_COMPLEX64 || dt == TL_BDT_COMPLEX128;
    double out[2] = {creal(v), cplx ? cimag(v) : 0};
    if (dt == TL_BDT_FLOAT16 || dt == TL_BDT_BFLOAT16) {
        float f = (float)out[0];
        tl_hd_convert(dst, dt, &f, TL_BDT_FLOAT32);
    } else {
        tl_hd_convert(dst, dt, out, TL_BDT_COMPLEX128);
    }
}

#endif
