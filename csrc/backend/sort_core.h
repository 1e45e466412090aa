/* sort_core.h - ops/sort.c's call into a device backend's sort entry (backend/sort.c). */
#ifndef TL_BACKEND_SORT_CORE_H
#define TL_BACKEND_SORT_CORE_H

#include <stdbool.h>

#include "core/tensor.h"

/* x (on a backend's device) sorted along dim d (ascending, or descending), stably: values (x's
 * dtype) and indices (int64) of x's shape with dim d cut to its first L elements (L = the
 * dim's size: sort; L = k: topk), contiguous, no names; with select (TL_BSS_KTH with k,
 * MEDIAN, NANMEDIAN of backend.h; L = 1) the one element of each row the CPU's kthvalue/median
 * picks. NotImplementedError naming `name` where the backend has no sort entry or lacks the
 * dtype. */
int tl_backend_sort(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int d, bool descending, int64_t L,
                    int select, int64_t k, const char *name);

#endif
