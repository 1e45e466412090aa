/* fft.h - the discrete Fourier transform of complex lines (tensorlib.fft's one kernel).
 * Real and Hermitian transforms, n=/norm= handling and the n-dimensional forms are composed
 * from it in tensorlib/fft.py. */
#ifndef TL_OPS_FFT_H
#define TL_OPS_FFT_H

#include <stdbool.h>

#include "core/tensor.h"

/* In place, unnormalized DFT of every contiguous row (the last dim) of x, which must be a
 * contiguous, writable complex64 or complex128 tensor; inverse flips the exponent's sign.
 * Any length: mixed radix (4, 2, 3, 5, ... small primes) or Bluestein's chirp-z for lengths
 * with a large prime factor. Computes in double precision. */
int tl_fft_c2c_rows(tl_tensor *x, bool inverse);
/* The n / 2 + 1 non-negative frequencies of every row of the real contiguous x (float32 or
 * float64, rows of even length n >= 2) into the contiguous out (complex64 / complex128), through
 * one complex transform of length n / 2. */
int tl_fft_r2c_rows(tl_tensor *out, const tl_tensor *x);

#endif
