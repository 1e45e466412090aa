/* semi.h - 2:4 semi-structured sparsity on the CPU (semi.c): compression into kept values
 * and metadata, decompression, and the products reading only the kept values. */
#ifndef TL_SPARSE_SEMI_H
#define TL_SPARSE_SEMI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor.h"

/* Whether the dtype can be compressed (float16, bfloat16, float32, int8). */
bool tl_semi_supports(tl_dtype d);
/* values (rows, cols / 2) and metadata (rows, cols / 16) int16 (int8: (rows, cols / 32)
 * int32) of a 2-D tensor whose every group of 4 row elements holds at most 2 non-zeros;
 * RuntimeError naming the first group that breaks the pattern, the shape or the dtype. */
int tl_semi_compress(tl_tensor *values, tl_tensor *meta, const tl_tensor *dense);
/* The dense (rows, cols) tensor of values and metadata. */
int tl_semi_to_dense(tl_tensor *out, const tl_tensor *values, const tl_tensor *meta, int64_t cols);
/* left: out = S @ dense; else out = dense @ S, for S given by float32 (or int32) values and
 * its metadata; dense of the values' dtype. Rows of the result split across threads. */
int tl_semi_mm(tl_tensor *out, const tl_tensor *values, const tl_tensor *meta, const tl_tensor *dense, bool left);

/* Pins the float32 S @ B kernel variant (-1: the best the CPU has; 1 baseline, 3 AVX2+FMA;
 * a level the CPU lacks falls to the baseline); returns the previous setting. */
int tl_semi_set_kernel(int level);

#endif
