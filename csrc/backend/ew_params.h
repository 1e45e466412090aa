/* ew_params.h - the parameters of a backend element-wise call (tl_backend_ew_call's prm): apart
 * from backend.h so that ops/elementwise.c, whose registry enums clash with backend.h's, can
 * fill them (through backend/ew_core.h). */
#ifndef TL_BACKEND_EW_PARAMS_H
#define TL_BACKEND_EW_PARAMS_H

#include <stdint.h>

/* As the CPU kernels take them (kernels/ew_kernels.h's tl_ew_params). */
typedef struct tl_backend_ew_params {
    double d[3];     /* float compute dtypes */
    int64_t i[3];    /* bool and integer compute dtypes; i[2]: the flag of an op with at most two */
    double c[3][2];  /* complex compute dtypes: real, imaginary */
} tl_backend_ew_params;

#endif
