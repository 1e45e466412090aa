/* blas.h - the one place that knows how OpenBLAS's symbols are spelled.
 *
 * setup.py links either the scipy-openblas32 wheel (symbols prefixed "scipy_",
 * TL_BLAS_PREFIX=scipy_) or the system libopenblas (no prefix). TL_BLAS(name) pastes
 * the prefix so callers write TL_BLAS(cblas_sgemm) and both builds resolve. */
#ifndef TL_OPS_BLAS_H
#define TL_OPS_BLAS_H

#ifndef TL_BLAS_PREFIX
#define TL_BLAS_PREFIX
#endif

/* The wheel names its header cblas.h in some releases and scipy_openblas.h in others. */
#if defined(TL_BLAS_HEADER) && defined(__has_include)
#if __has_include(TL_BLAS_HEADER)
#include TL_BLAS_HEADER
#else
#include <cblas.h>
#endif
#else
#include <cblas.h>
#endif

#define TL_BLAS_CAT2(a, b) a##b
#define TL_BLAS_CAT(a, b) TL_BLAS_CAT2(a, b)
#define TL_BLAS(name) TL_BLAS_CAT(TL_BLAS_PREFIX, name)

/* BLAS integers: scipy-openblas32 and the system build both use 32-bit blasint. */
#define TL_BLAS_INT_MAX 2147483647

#endif
