/* view.h - view operations: new geometry over the same storage, with each view's
 * name rule (seed 003). `out` is a fresh (zeroed) tl_tensor; `t` is not modified. */
#ifndef TL_OPS_VIEW_H
#define TL_OPS_VIEW_H

#include "core/tensor.h"

int tl_transpose(tl_tensor *out, const tl_tensor *t, int64_t d0, int64_t d1);
int tl_permute(tl_tensor *out, const tl_tensor *t, const int64_t *dims, int n);
int tl_expand(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, int n);
/* dims NULL: squeeze every size-1 dim. */
int tl_squeeze(tl_tensor *out, const tl_tensor *t, const int64_t *dims, int n);
int tl_unsqueeze(tl_tensor *out, const tl_tensor *t, int64_t dim);

/* A view's geometry under construction: several view steps (basic indexing applies a chain
 * of them) edit it in place, and one tl_geom_view makes the tensor at the end, so a chain
 * costs one validated view instead of one per step. The steps below are the whole of
 * unsqueeze, slice and select; tl_unsqueeze/tl_slice/tl_select are each one step. */
typedef struct {
    int ndim;
    int64_t offset;
    int64_t sizes[TL_MAX_DIMS], strides[TL_MAX_DIMS];
    int32_t names[TL_MAX_DIMS]; /* TL_NAME_NONE where unnamed */
} tl_geom;
void tl_geom_of(tl_geom *g, const tl_tensor *t);
/* A size-1 dim inserted at d (0 <= d <= ndim). */
int tl_geom_unsqueeze(tl_geom *g, int d);
/* Dim d sliced (start/stop clamped to [0, size], step > 0). */
int tl_geom_slice(tl_geom *g, int d, int64_t start, int64_t stop, int64_t step);
/* Dim d removed at index (0 <= index < size, already checked). */
void tl_geom_select(tl_geom *g, int d, int64_t index);
/* out <- the view of t's storage with g's geometry; g's names where t has names. */
int tl_geom_view(tl_tensor *out, const tl_tensor *t, const tl_geom *g);
int tl_narrow(tl_tensor *out, const tl_tensor *t, int64_t dim, int64_t start, int64_t length);
/* Python-style slice on one dim (start/stop already clamped by the caller, step > 0). */
int tl_slice(tl_tensor *out, const tl_tensor *t, int dim, int64_t start, int64_t stop, int64_t step);
int tl_select(tl_tensor *out, const tl_tensor *t, int64_t dim, int64_t index);
/* The diagonal becomes the last dim, named outname (TL_NAME_NONE for none); the other dims
 * keep their names. */
int tl_diagonal(tl_tensor *out, const tl_tensor *t, int64_t offset, int64_t d1, int64_t d2, int32_t outname);
/* Names are dropped: the new geometry has no dims to carry them (as torch). */
int tl_as_strided(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, const int64_t *strides, int n,
                  int64_t offset);
/* view(shape) with one -1 allowed; fails with torch's hint when strides don't allow it. */
int tl_view(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, int n);
/* reshape: a view when possible, else a contiguous copy. */
int tl_reshape(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, int n);
/* Reinterprets the bytes as another dtype (last dim rescaled when itemsizes differ). */
int tl_view_dtype(tl_tensor *out, const tl_tensor *t, tl_dtype dtype);
/* view_as_real / view_as_complex: torch's views between complex and (re, im) pairs. */
int tl_view_as_real(tl_tensor *out, const tl_tensor *t);
int tl_view_as_complex(tl_tensor *out, const tl_tensor *t);
int tl_unfold(tl_tensor *out, const tl_tensor *t, int64_t dim, int64_t size, int64_t step);
/* Resolves -1 in a requested shape against numel; checks compatibility. */
int tl_infer_size(const int64_t *req, int n, int64_t numel, int64_t *out);

#endif
