/* device.h - where a tensor's bytes live. */
#ifndef TL_DEVICE_H
#define TL_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_DEVICE_TYPE_LIST(X) X(CPU, "cpu") X(CUDA, "cuda") X(META, "meta") X(MPS, "mps") \
    X(XPU, "xpu") X(XLA, "xla") X(HIP, "hip") X(MTIA, "mtia") X(HPU, "hpu") X(PRIVATEUSE1, "privateuseone")

typedef enum {
#define TL_X_DEV(ID, s) TL_DEV_##ID,
    TL_DEVICE_TYPE_LIST(TL_X_DEV)
#undef TL_X_DEV
    TL_NUM_DEVICE_TYPES
} tl_device_type;

typedef struct {
    int16_t type;   /* tl_device_type */
    int16_t index;  /* -1: no index given */
} tl_device;

extern const char *const tl_device_type_names[TL_NUM_DEVICE_TYPES];

static inline bool tl_device_eq(tl_device a, tl_device b) { return a.type == b.type && a.index == b.index; }
/* A device whose memory only a registered backend reaches (CUDA): not the CPU, not meta. */
static inline bool tl_device_on_backend(tl_device d) { return d.type != TL_DEV_CPU && d.type != TL_DEV_META; }
/* Parses "cpu", "cuda:1", "meta"; returns -1 with the error set on a malformed string. */
int tl_device_parse(const char *s, tl_device *out);
/* "cuda:0", "cpu" (no index): written into buf (n bytes), returned. */
const char *tl_device_str(tl_device d, char *buf, size_t n);
/* torch's RuntimeError "Tensor on device X is not on the expected device Y!" when got and
 * expected differ; 0 otherwise. */
int tl_device_expect(tl_device expected, tl_device got);
/* torch's RuntimeError of a device mix: "Expected all tensors to be on the same device, but
 * found at least two devices, cuda:0 and cpu!" (the common device first); returns -1. */
int tl_device_mix_error(tl_device common, tl_device other);
/* As tl_device_expect, but a mix involving a backend's device (not the CPU or meta) gets
 * tl_device_mix_error's text, as torch's dispatcher gives for CUDA ops. */
int tl_device_expect_same(tl_device expected, tl_device got);

#endif
