/* backend.h - the device-backend registry: the versioned tables of function pointers that
 * join an out-of-tree backend (tensorlib._C_cuda) to the core. The core owns the registry;
 * a backend module receives a tl_core_api through the PyCapsule tensorlib._C._backend_api
 * and hands back its tl_device_backend. Plain C, no CUDA types: csrc/cuda/ includes this
 * header, the core never includes CUDA headers. */
#ifndef TL_BACKEND_H
#define TL_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "core/device.h"

/* Bump on any change to the two structs below; a backend built for another version is
 * refused at registration (the capsule name carries the version too). */
#define TL_BACKEND_ABI_VERSION 1
#define TL_BACKEND_CAPSULE_NAME "tensorlib._C._backend_api.v1"

/* Element-wise operations a backend may implement on contiguous operands of one dtype. */
#define TL_BACKEND_BINARY_LIST(X) X(ADD) X(SUB) X(MUL) X(DIV)
#define TL_BACKEND_UNARY_LIST(X) X(NEG) X(ABS) X(EXP)
typedef enum {
#define TL_X_OP(N) TL_BOP_##N,
    TL_BACKEND_BINARY_LIST(TL_X_OP)
#undef TL_X_OP
    TL_NUM_BOPS
} tl_backend_binary_op;
typedef enum {
#define TL_X_OP(N) TL_UOP_##N,
    TL_BACKEND_UNARY_LIST(TL_X_OP)
#undef TL_X_OP
    TL_NUM_UOPS
} tl_backend_unary_op;

/* What a backend provides. Every function returns 0, or -1 after api->set_error. Pointers
 * are device pointers of `device_index`; copies move contiguous bytes in any direction
 * between the host (index -1) and a device. */
typedef struct tl_device_backend {
    uint32_t abi_version;  /* TL_BACKEND_ABI_VERSION */
    uint32_t size;         /* sizeof(tl_device_backend) */
    const char *name;
    int (*current_device)(void);
    void *(*alloc)(size_t nbytes, int device_index);  /* NULL after set_error */
    void (*free)(void *ptr, size_t nbytes, int device_index);
    int (*copy)(void *dst, tl_device dst_dev, const void *src, tl_device src_dev, size_t nbytes);
    int (*memset_zero)(void *dst, size_t nbytes, int device_index);
    /* out[i] = a[i] op b[i] over n elements of dtype (tl_dtype value); -1 "not supported" */
    int (*binary)(int op, int dtype, void *out, const void *a, const void *b, int64_t n, int device_index);
    int (*unary)(int op, int dtype, void *out, const void *a, int64_t n, int device_index);
} tl_device_backend;

/* What the core offers a backend (exported by tensorlib._C in the capsule). */
typedef struct tl_core_api {
    uint32_t abi_version;  /* TL_BACKEND_ABI_VERSION */
    uint32_t size;         /* sizeof(tl_core_api) */
    /* Registers (or, with NULL, removes) the backend of a device type; -1 on a version or
     * size mismatch, with the error set. The table must outlive the registration. */
    int (*register_backend)(int device_type, const tl_device_backend *backend);
    /* Sets the core's error slot: kind is a tl_errkind, the message torch's text. */
    void (*set_error)(int kind, const char *msg);
    /* Size in bytes of a tl_dtype (0 if out of range). */
    size_t (*dtype_itemsize)(int dtype);
    /* The tl_dtype value of a dtype name ("float32"), -1 if unknown: a backend learns the
     * dtype table from the core instead of compiling in core/dtype.h. */
    int (*dtype_from_name)(const char *name);
} tl_core_api;

/* The meta device's backend (backend/meta.c), registered from the start. */
extern const tl_device_backend tl_meta_backend;
/* torch's NotImplementedError for an op that has no meta implementation; returns -1. */
int tl_meta_refuse(const char *op);
/* The registered backend of a device type, or NULL. */
const tl_device_backend *tl_backend_get(int device_type);
int tl_backend_register(int device_type, const tl_device_backend *backend);
/* The core's table, for the capsule. */
const tl_core_api *tl_core_api_get(void);
/* 0 when tensors can live on `device` (CPU, or a registered backend); else -1 with torch's
 * RuntimeError naming the device type. */
int tl_backend_check(tl_device device);

struct tl_tensor;
/* out = src moved to dev (one side is the CPU, the other a registered backend). */
int tl_backend_to_device(struct tl_tensor *out, const struct tl_tensor *src, tl_device dev, int dtype);

#endif
