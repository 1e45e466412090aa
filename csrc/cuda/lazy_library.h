// lazy_library.h - a CUDA math library the module opens with dlopen on first use (cuBLAS in
// blas.cu, cuSPARSE in sparse.cu): the toolkit that builds the module may lack it, and a
// CPU-only user never needs it. One handle per device, created on first use and kept for the
// process (torch keeps its handles too), and one lock per device under which a call binds the
// handle's state (its stream, its math mode) and queues its work: threads (products release
// the GIL) take turns there, and queueing is quick, the work runs later.
#ifndef TL_CUDA_LAZY_LIBRARY_H
#define TL_CUDA_LAZY_LIBRARY_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "cuda/cuda_backend.h"

// Fns holds the library's function pointers and describes it:
//   static constexpr const char *name       "cuBLAS" (messages)
//   static constexpr const char *soname     "libcublas" (messages)
//   static constexpr const char *need       what needs it ("matrix products of CUDA tensors")
//   static constexpr const char *functions  the functions it must have (named when one is missing)
//   static constexpr const char *files[]    file names dlopen tries, in order (the first is named)
//   bool resolve(void *so)                  looks them up; false when one is missing
//   int create(Handle *)                    a new handle: the library's status, 0 on success
//   static int error(int status, const char *what)  the core's error for a failed call; -1
template <typename Handle, typename Fns>
struct LazyLibrary {
    static constexpr int kMaxDevices = 64;
    Fns fns{};
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;  // loading and the handle table
    bool loaded = false;
    char load_error[384] = "";
    Handle handles[kMaxDevices] = {};
    pthread_mutex_t call_locks[kMaxDevices];

    LazyLibrary()
    {
        for (pthread_mutex_t &m : call_locks) pthread_mutex_init(&m, nullptr);
    }

    // Opens the library once (lock held); false with load_error set when it or a function is missing.
    bool load_locked()
    {
        if (loaded) return true;
        if (load_error[0]) return false;
        void *so = nullptr;
        for (const char *n : Fns::files)
            if ((so = dlopen(n, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
        if (!so) {
            const char *e = dlerror();
            snprintf(load_error, sizeof load_error, "tensorlib: %s need %s, and %s could not be loaded (%s)", Fns::need,
                     Fns::name, Fns::files[0], e ? e : "not found");
            return false;
        }
        if (!fns.resolve(so)) {
            snprintf(load_error, sizeof load_error, "tensorlib: %s lacks a function tensorlib uses (%s)", Fns::soname,
                     Fns::functions);
            dlclose(so);
            return false;
        }
        loaded = true;
        return true;
    }

    // The handle of device dev (created on first use); nullptr after the error is set
    // (create_what: the creating call, named in the error).
    Handle handle_of(int dev, const char *create_what)
    {
        if (dev < 0 || dev >= kMaxDevices) {
            tlc_error(TL_ERR_RUNTIME, cudaSuccess, "tensorlib: %s on cuda:%d is not supported", Fns::name, dev);
            return nullptr;
        }
        pthread_mutex_lock(&lock);
        if (!load_locked()) {
            pthread_mutex_unlock(&lock);
            tlc_error(TL_ERR_RUNTIME, cudaSuccess, "%s", load_error);
            return nullptr;
        }
        int s = handles[dev] ? 0 : fns.create(&handles[dev]);
        Handle h = s == 0 ? handles[dev] : nullptr;
        if (s != 0) handles[dev] = nullptr;
        pthread_mutex_unlock(&lock);
        if (!h) Fns::error(s, create_what);
        return h;
    }
};

#endif
