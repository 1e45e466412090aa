/* sort.h - ordering along one dim: sort, topk, and the order-statistic reductions
 * (kthvalue, median, nanmedian, mode, and max/min with a dim) returning (values,
 * indices); plus unique, searchsorted and histc (search.c), and scans (scan.c).
 * NaN orders above +inf (torch's rule); -0.0 and 0.0 compare equal. */
#ifndef TL_OPS_SORT_H
#define TL_OPS_SORT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor.h"

/* The one lists of the (values, indices) reductions and the scans: enums here, codes for
 * tensorlib/_reduce.py through _C._reduce_op_codes. */
#define TL_IDX_OPS(X) X(MAX) X(MIN) X(KTHVALUE) X(MEDIAN) X(NANMEDIAN) X(MODE)
#define TL_SCAN_OPS(X) X(CUMSUM) X(CUMPROD) X(CUMMAX) X(CUMMIN) X(LOGCUMSUMEXP)
#define TL_IDX_ENUM(code) TL_IDX_##code,
#define TL_SCAN_ENUM(code) TL_SCAN_##code,
typedef enum { TL_IDX_OPS(TL_IDX_ENUM) } tl_idx_op;
typedef enum { TL_SCAN_OPS(TL_SCAN_ENUM) } tl_scan_op;
#undef TL_IDX_ENUM
#undef TL_SCAN_ENUM

int tl_sort(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int64_t dim, bool descending);
int tl_topk(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int64_t k, int64_t dim, bool largest,
            bool sorted);
/* Order statistics along dim; k is 1-based (kthvalue only; -1 for median/nanmedian says
 * the caller reduces every element, which only changes torch's error text). */
int tl_reduce_index(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, tl_idx_op op, int64_t dim,
                    bool keepdim, int64_t k);
/* cumsum/cumprod (indices NULL; dtype -1 for none), cummax/cummin and logcumsumexp (floating and
 * complex only, dtype -1). */
int tl_scan(tl_tensor *out, tl_tensor *indices, const tl_tensor *x, tl_scan_op op, int64_t dim, int dtype);

/* unique of the flattened input, sorted; inverse (x's shape) and counts when asked. */
int tl_unique(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, bool want_inverse,
              bool want_counts);
/* unique of the slices along dim (flat: of the elements, inverse shaped like x), sorted
 * lexicographically unless consecutive (unique_consecutive: runs only); inverse (the
 * group of each slice) and counts are filled when not NULL (unique.c). */
int tl_unique_dim(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, int64_t dim,
                  bool flat, bool consecutive);
/* out[r, i] = #{j : b[r, j] <= v[r, i]} (int64) for [rows, B] and [rows, V] tensors of one dtype
 * on a backend's device, B and V > 0 (search.c: one sort of each row of both, a cumulative count,
 * a scatter; multinomial's search). */
int tl_count_le_rows(tl_tensor *out, const tl_tensor *b, const tl_tensor *v);
/* The runs of a sorted sequence on a backend's device (search.c; unique's steps): the length of
 * each run from the U run starts of n elements, and each element's run from the run-start flags. */
int tl_run_counts(tl_tensor *counts, const tl_tensor *starts, int64_t n);
int tl_run_ids(tl_tensor *ids, const tl_tensor *flags);
/* Indices where values would be inserted into the innermost dim of sorted (1-D, or with
 * leading dims matching values'); sorter NULL or the argsort of sorted. */
int tl_searchsorted(tl_tensor *out, const tl_tensor *sorted, const tl_tensor *values, const tl_tensor *sorter,
                    bool right, bool out_int32);
int tl_histc(tl_tensor *out, const tl_tensor *x, int64_t bins, double lo, double hi);

/* Buffer dtype whose elements tl_sort_keys reads for elements of dtype d: float64 for the
 * floats, uint64 for the 64-bit unsigned ints (from the dtype table), int64 otherwise. */
tl_dtype tl_sort_key_dtype(tl_dtype d);
typedef struct { uint64_t key; int64_t idx; } tl_kv;
/* kv[i] = (order-preserving unsigned key of row[i], i) for a float32, float64, int64 or
 * uint64 buffer row (NaN largest, -0 == 0; uint64 values keep their order above 2^63). */
void tl_sort_keys(tl_kv *kv, const char *row, int64_t n, tl_dtype bt);
/* Stable sort of n (key, index) pairs by key; tmp holds 2n more. */
void tl_sort_kv(tl_kv *a, int64_t n, tl_kv *tmp);

#endif
