/* iter.h - the strided iterator: the one place that knows broadcasting, dimension
 * reordering and coalescing. Kernels only see 1-D loops.
 *
 * Operands are outputs first, then inputs. Every operand is broadcast to the
 * iteration shape (outputs too when TL_ITER_ALLOW_OUTPUT_BROADCAST is given, for
 * reductions). Dimensions are sorted so the first output's strides increase inward
 * (keeps channels_last and transposed outputs streaming), then coalesced. */
#ifndef TL_ITER_H
#define TL_ITER_H

#include <stdint.h>

#include "core/tensor.h"

#define TL_ITER_MAX_OPS 8

/* TL_ITER_TILE_INPUTS: operand 0 is the only one the loop writes and the loop touches
 * operands only through data[k] and strides[k], so the iterator may feed inputs through
 * a scratch buffer (the tiled loop of iter_tile.c for operands in different layouts). */
/* TL_ITER_GEOMETRY: the iterator only describes the operands' layout for a backend's kernel
 * (backend/ew.c): the devices were checked by the caller, no loop runs on the host. */
enum { TL_ITER_ALLOW_OUTPUT_BROADCAST = 1, TL_ITER_NO_REORDER = 2, TL_ITER_TILE_INPUTS = 4, TL_ITER_GEOMETRY = 8 };

/* data[k] points at operand k's element; strides[k] is its byte stride; n elements. */
typedef void (*tl_loop_fn)(char **data, const int64_t *strides, int64_t n, void *ctx);

typedef struct tl_iter {
    int nops;
    int flags;                                 /* tl_iter_init's flags */
    int ndim;                                  /* after coalescing; dim 0 is innermost */
    int64_t numel;
    int64_t shape[TL_MAX_DIMS];
    int64_t strides[TL_MAX_DIMS][TL_ITER_MAX_OPS]; /* byte strides */
    char *data[TL_ITER_MAX_OPS];
    int64_t isz[TL_ITER_MAX_OPS];              /* itemsize of each operand */
} tl_iter;

/* Builds the iteration over `shape` (ndim dims, outermost first) for nops operands. */
int tl_iter_init(tl_iter *it, int nops, const tl_tensor *const *ops, const int64_t *shape, int ndim, int flags);
/* Runs fn over every element, split across threads above `grain` elements (0: serial). */
void tl_iter_run(const tl_iter *it, tl_loop_fn fn, void *ctx, int64_t grain);
/* Runs fn over the linear index range [begin, end) (used by tl_iter_run's workers). */
void tl_iter_run_range(const tl_iter *it, tl_loop_fn fn, void *ctx, int64_t begin, int64_t end);
/* tl_iter_run's tiled loop (iter_tile.c): runs fn and returns 1 when the iterator allows
 * it (TL_ITER_TILE_INPUTS) and an input is contiguous along another dim than the inner one
 * (a transposed operand); returns 0, having run nothing, otherwise. */
int tl_iter_run_tiled(const tl_iter *it, tl_loop_fn fn, void *ctx, int64_t grain);
/* How many loops took the tiled path since the module loaded (tests check they did). */
extern int64_t tl_iter_tiled_runs;

#endif
