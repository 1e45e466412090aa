/* parallel.h - the one thread pool every op shares (csrc/core/parallel.c: pthreads, chunks
 * claimed through an atomic counter, the caller working too), sized by tl_set_num_threads.
 * OpenBLAS is told the same number. */
#ifndef TL_PARALLEL_H
#define TL_PARALLEL_H

#include <stdint.h>

/* Below this many elements an op runs on the calling thread. */
#define TL_GRAIN_SIZE 32768
/* A split along an op's innermost (contiguous) dim keeps each piece at least this many
 * bytes wide: narrower pieces turn one long loop into many short ones on every thread. */
#define TL_MIN_RUN_BYTES 2048

/* Set by the linalg code so tl_set_num_threads also sets OpenBLAS's thread count. */
extern void (*tl_blas_set_threads_hook)(int);

int tl_get_num_threads(void);
void tl_set_num_threads(int n);
/* Calls fn(begin, end, ctx) over [0, n) split into contiguous chunks of at least `grain`
 * that the calling thread and up to tl_get_num_threads()-1 workers claim one at a time.
 * Runs fn(0, n, ctx) on the calling thread when n <= grain, one thread is configured,
 * the call is nested in a region, or another thread's region holds the pool; after a
 * timed first chunk it runs the rest there too when waking a worker would not pay (see
 * parallel.c). fn must not depend on which thread runs which chunk or on where the chunk
 * edges fall. */
void tl_parallel_for(int64_t n, int64_t grain, void (*fn)(int64_t begin, int64_t end, void *ctx), void *ctx);
/* Tests: one region over [0, n) that adds 1 to counts[i] for every index it visits (nested:
 * each chunk runs half of itself through a nested tl_parallel_for; wake: wake the workers
 * whatever the timing says). Returns how many regions woke workers. */
uint64_t tl_parallel_cover(int64_t n, int64_t grain, int nested, int wake, int32_t *counts);
/* The pool's running averages of a woken worker's start latency and of the wake call's cost
 * (ns), and how many regions have woken workers (diagnostics). */
void tl_parallel_stats(int64_t *latency_ns, int64_t *cost_ns, uint64_t *woken);

#endif
