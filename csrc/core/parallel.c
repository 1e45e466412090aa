/* parallel.c - OpenMP-backed parallel_for and the shared thread count. */
#include "core/parallel.h"

#include <omp.h>

static int num_threads;

/* The BLAS is told about thread changes through this hook (set by the linalg code). */
void (*tl_blas_set_threads_hook)(int) = 0;

int tl_get_num_threads(void)
{
    if (num_threads <= 0) num_threads = omp_get_max_threads();
    return num_threads;
}

void tl_set_num_threads(int n)
{
    num_threads = n > 0 ? n : 1;
    omp_set_num_threads(num_threads);
    if (tl_blas_set_threads_hook) tl_blas_set_threads_hook(num_threads);
}

void tl_parallel_for(int64_t n, int64_t grain, void (*fn)(int64_t, int64_t, void *), void *ctx)
{
    int nt = tl_get_num_threads();
    if (n <= 0) return;
    if (nt <= 1 || n < grain || omp_in_parallel()) {
        fn(0, n, ctx);
        return;
    }
    int64_t max_chunks = (n + grain - 1) / grain;
    if (nt > max_chunks) nt = (int)max_chunks;
#pragma omp parallel num_threads(nt)
    {
        int tid = omp_get_thread_num(), cnt = omp_get_num_threads();
        int64_t chunk = (n + cnt - 1) / cnt;
        int64_t b = tid * chunk, e = b + chunk < n ? b + chunk : n;
        if (b < e) fn(b, e, ctx);
    }
}
