/* tensor.h - the strided tensor: storage + offset + sizes + strides + dtype + device
 * + layout + names. A tl_tensor lives inside its Python object and is never moved:
 * core functions fill a caller-provided tl_tensor (tl_*(tl_tensor *out, ...)). */
#ifndef TL_TENSOR_H
#define TL_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/device.h"
#include "core/dtype.h"
#include "core/layout.h"
#include "core/names.h"
#include "core/shape.h"
#include "core/storage.h"

#define TL_SMALL_DIMS 5

typedef struct tl_tensor {
    tl_storage *storage;   /* owned reference; NULL only for an uninitialized tensor */
    int64_t offset;        /* in elements */
    int64_t *sizes;        /* point into small[] for ndim <= TL_SMALL_DIMS, else to the heap */
    int64_t *strides;      /* in elements */
    int32_t *names;        /* NULL when no dim is named */
    int32_t ndim;
    uint8_t dtype;         /* tl_dtype */
    uint8_t layout;        /* tl_layout */
    tl_device device;
    /* Sparse layouts only (NULL for strided): the component tensors (csrc/sparse/sparse.h).
     * A sparse tensor's own storage is one zeroed element under all-zero strides, so a dense
     * kernel that were ever handed one reads zeros, never absent memory. */
    struct tl_sparse *sparse;
    int64_t small[2 * TL_SMALL_DIMS];
} tl_tensor;

/* Frees a sparse tensor's components (csrc/sparse/sparse.c). */
void tl_sparse_free(struct tl_sparse *s);

/* (Re)sizes the dim arrays for `ndim` dims; contents undefined afterwards. Drops names. */
int tl_tensor_set_ndim(tl_tensor *t, int ndim);
/* Initializes `t` as a view of `storage` (a new reference is taken). strides NULL = contiguous.
 * The geometry is validated against the storage first (tl_check_geometry): on failure `t`
 * is unchanged. Every view, set_ and import goes through here. */
int tl_tensor_init(tl_tensor *t, tl_storage *storage, int64_t offset, int ndim, const int64_t *sizes,
                   const int64_t *strides, tl_dtype dtype);
/* Releases everything `t` holds; `t` may be reinitialized afterwards. */
void tl_tensor_clear(tl_tensor *t);
/* A fresh contiguous tensor (zero-filled when `zero`). */
int tl_tensor_empty(tl_tensor *t, int ndim, const int64_t *sizes, tl_dtype dtype, tl_device device, bool zero);
/* A fresh tensor with the given strides; storage sized for its extent. */
int tl_tensor_empty_strided(tl_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
                            tl_dtype dtype, tl_device device);
/* A fresh tensor shaped like `src` in memory format `fmt` (PRESERVE keeps dense strides). */
int tl_tensor_empty_like(tl_tensor *t, const tl_tensor *src, tl_dtype dtype, tl_memory_format fmt);
/* A view: `t` shares src's storage with new geometry; names are not copied. */
int tl_tensor_view_init(tl_tensor *t, const tl_tensor *src, int ndim, const int64_t *sizes,
                        const int64_t *strides, int64_t offset);
/* The same view without the geometry check, for a geometry derived from src's own by steps
 * that stay inside src's extent (select, slice, unsqueeze: ops/view.h's tl_geom steps). */
int tl_tensor_view_within(tl_tensor *t, const tl_tensor *src, int ndim, const int64_t *sizes,
                          const int64_t *strides, int64_t offset);
/* A borrowed geometry over base's storage (sizes/strides arrays supplied by the caller):
 * no reference is taken, names are dropped, and it must never be cleared. */
static inline tl_tensor tl_tensor_geom(const tl_tensor *base, int ndim, int64_t *sizes, int64_t *strides)
{
    tl_tensor v = *base;
    v.ndim = ndim;
    v.sizes = sizes;
    v.strides = strides;
    v.names = NULL;
    return v;
}
/* Makes `t` (already initialized) point at `src`'s storage and geometry, keeping names. */
int tl_tensor_alias(tl_tensor *t, const tl_tensor *src);

/* Sets names (copied); NULL or all-none clears them. */
int tl_tensor_set_names(tl_tensor *t, const int32_t *names);
int tl_tensor_copy_names(tl_tensor *t, const tl_tensor *src);

static inline int64_t tl_numel(const tl_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++) n *= t->sizes[i];
    return n;
}
static inline int tl_itemsize(const tl_tensor *t) { return tl_dtype_infos[t->dtype].itemsize; }
static inline char *tl_data(const tl_tensor *t) { return t->storage->data + t->offset * tl_itemsize(t); }

bool tl_is_contiguous(const tl_tensor *t);
bool tl_is_contiguous_format(const tl_tensor *t, tl_memory_format fmt);
/* Dense and non-overlapping in some order (every element once, no holes). */
bool tl_is_non_overlapping_and_dense(const tl_tensor *t);
/* Memory format torch's suggest_memory_format would pick. */
tl_memory_format tl_suggest_memory_format(const tl_tensor *t);
/* RuntimeError when `t` cannot be written (read-only import). */
int tl_check_writable(const tl_tensor *t);

#endif
