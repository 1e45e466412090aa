/* simd.h - runtime CPU dispatch and 32-byte vector types, one definition for the core.
 *
 * TL_CLONES compiles a function for AVX2 and for the baseline and picks one at load time
 * (GCC ifunc, x86-64 Linux only; elsewhere a plain function). TL_CLONES_WIDE adds an
 * AVX-512 clone for the math kernels that profit from it; sanitizer builds keep one body.
 * Building with -DTL_NO_CLONES keeps the baseline body everywhere (to test it alone).
 * The clones must compute the same values: only kernels whose arithmetic does not depend
 * on the vector width (or whose tests bound every clone) carry them.
 *
 * TL_VDECL(T, VT, I, MT) declares a 32-byte vector VT of T and a mask type MT of integer
 * lanes of the same width through GCC/Clang vector extensions (plain scalars elsewhere);
 * TL_VSEL picks a where the mask m is set (all ones), b elsewhere. */
#ifndef TL_CORE_SIMD_H
#define TL_CORE_SIMD_H

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && !defined(TL_NO_CLONES)
#define TL_CLONES __attribute__((target_clones("avx2", "default")))
#if !defined(__SANITIZE_ADDRESS__)
#define TL_CLONES_WIDE __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
#endif
#ifndef TL_CLONES
#define TL_CLONES
#endif
#ifndef TL_CLONES_WIDE
#define TL_CLONES_WIDE
#endif

#if defined(__GNUC__)
#define TL_HAVE_VECTORS 1
#define TL_VDECL(T, VT, I, MT)                     \
    typedef T VT __attribute__((vector_size(32))); \
    typedef I MT __attribute__((vector_size(32)));
#define TL_VSEL(MT, VT, m, a, b) ((VT)(((MT)(a) & (m)) | ((MT)(b) & ~(m))))
#else
#define TL_HAVE_VECTORS 0
#define TL_VDECL(T, VT, I, MT) typedef T VT; typedef int MT;
#define TL_VSEL(MT, VT, m, a, b) ((m) ? (a) : (b))
#endif

/* 1 where kernels may carry hand-written AVX-512 loops beside their portable ones (x86-64
 * GCC; not in sanitizer or TL_NO_CLONES builds, which keep the portable loop). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(TL_NO_CLONES)
#define TL_AVX512_KERNELS 1
#else
#define TL_AVX512_KERNELS 0
#endif

/* The run-time switch of such a kernel (argmax rows, CSR SpMV): *state is -1 until the first
 * call asks the CPU (AVX-512 F, VL, DQ and BW; never without TL_AVX512_KERNELS), then 1 or 0.
 * tl_avx512_pin(state, 0) pins the portable loop for the tests (1 asks the CPU again); it
 * returns the previous choice. */
static inline int tl_avx512_use(int *state)
{
    int v = __atomic_load_n(state, __ATOMIC_RELAXED);
    if (v < 0) {
        v = 0;
#if TL_AVX512_KERNELS
        __builtin_cpu_init();
        v = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
#endif
        __atomic_store_n(state, v, __ATOMIC_RELAXED);
    }
    return v;
}
static inline int tl_avx512_pin(int *state, int on)
{
    int old = tl_avx512_use(state);
    __atomic_store_n(state, on ? -1 : 0, __ATOMIC_RELAXED);
    return old;
}

#endif
