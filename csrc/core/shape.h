/* shape.h - overflow-checked size, stride and extent arithmetic: the one place that
 * multiplies sizes. */
#ifndef TL_SHAPE_H
#define TL_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_MAX_DIMS 64

/* *out = a * b; returns -1 (RuntimeError set) on overflow. */
int tl_mul_checked(int64_t a, int64_t b, int64_t *out);
/* Product of sizes with overflow and negative-size checks. */
int tl_numel_checked(const int64_t *sizes, int ndim, int64_t *out);
/* Validates a user shape: non-negative, rank <= 64, numel and the contiguous strides fit
 * in int64 (zero-length dims multiply as 1 there, so (0, 2**62, 2**62) is refused). */
int tl_check_shape(const int64_t *sizes, int ndim);
/* Contiguous (row-major) strides in elements, for a shape tl_check_shape accepted. */
void tl_contiguous_strides(const int64_t *sizes, int ndim, int64_t *strides);
/* Strides of a dense tensor laid out in the order `perm` (perm[0] outermost). */
void tl_strides_for_order(const int64_t *sizes, int ndim, const int *perm, int64_t *strides);
/* Min and max element offsets touched relative to the base offset; 0,0 when empty.
 * Only for geometry that tl_check_geometry accepted (it cannot overflow there). */
void tl_extent(const int64_t *sizes, const int64_t *strides, int ndim, int64_t *lo, int64_t *hi);
/* tl_extent for untrusted geometry: -1 (torch's "Storage size calculation overflowed")
 * when a size is negative or a term or the sum overflows. */
int tl_extent_checked(const int64_t *sizes, const int64_t *strides, int ndim, int64_t *lo, int64_t *hi);
/* The one validation of a tensor geometry (every view constructor, set_, resize_ and
 * foreign import go through it): rank <= 64, sizes >= 0 with an int64 numel, strides >= 0,
 * offset >= 0, and the byte offset of the last element (zero-length dims counted as length
 * 1, so empty views obey it too) representable in int64; when the view has elements, every
 * byte it touches lies inside [0, nbytes). *need (if not NULL) receives the bytes the view
 * requires (0 when empty). After it, index * stride * itemsize arithmetic cannot overflow. */
int tl_check_geometry(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset, int itemsize,
                      size_t nbytes, int64_t *need);
/* Wraps a possibly negative dim into [0, ndim); IndexError with torch's text otherwise. */
int tl_wrap_dim(int64_t dim, int ndim, int *out);
/* Broadcast shape of two shapes with torch's error text; out has max(na, nb) dims. */
int tl_broadcast_shapes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout);
/* Formats a shape as "[2, 3]" into buf. */
const char *tl_shape_str(const int64_t *sizes, int ndim, char *buf, int buflen);

#endif
