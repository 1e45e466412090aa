/* reduce_core.h - the reduction drivers' (ops/reduce.c, ops/sort.c) calls into a device
 * backend's reduce entry (backend/reduce.c). */
#ifndef TL_BACKEND_REDUCE_CORE_H
#define TL_BACKEND_REDUCE_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor.h"

/* Kept apart from backend.h, whose op enums the element-wise registry's would clash with: ops
 * are named by their tl_red_op codes (ops/reduce.h) here. */
/* 0 when the backend of `dev` runs reduction `op` (a tl_red_op) on in_dtype into out_dtype
 * (tl_dtype values; -1: no values output); else -1 with a NotImplementedError naming the op
 * (`name`), the device and the dtype. */
int tl_backend_reduce_supported(const char *name, int op, int in_dtype, int out_dtype, tl_device dev);
/* Runs op over x's dims in mask on x's device into the allocated results: values (the
 * result shape, with the reduced dims kept as size 1 when keepdim, else dropped; NULL for
 * argmax/argmin) and indices (int64, same shape; max/min/argmax/argmin only, else NULL). */
int tl_backend_reduce(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int op, uint64_t mask,
                      bool keepdim, double param, const char *name);

#endif
