/* dlpack.c - DLPack exchange: Tensor.__dlpack__, __dlpack_device__ and from_dlpack.
 * The structs below are the DLPack 1.x ABI (dlpack.h), declared here so the build
 * needs no extra header. */
#include "python/binding.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct { uint32_t major, minor; } DLPackVersion;
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3 };
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6,
       kDLFloat8_e4m3fn = 10, kDLFloat8_e4m3fnuz = 11, kDLFloat8_e5m2 = 12, kDLFloat8_e5m2fnuz = 13,
       kDLFloat8_e8m0fnu = 14, kDLFloat4_e2m1fn = 17 };
#define DLPACK_FLAG_READ_ONLY (1ULL << 0)
#define DLPACK_FLAG_IS_COPIED (1ULL << 1)

/* dtype <-> DLPack type code, one table. */
static const struct { tl_dtype dt; uint8_t code, bits; uint16_t lanes; } dl_types[] = {
    {TL_BOOL, kDLBool, 8, 1}, {TL_UINT8, kDLUInt, 8, 1}, {TL_INT8, kDLInt, 8, 1}, {TL_INT16, kDLInt, 16, 1},
    {TL_INT32, kDLInt, 32, 1}, {TL_INT64, kDLInt, 64, 1}, {TL_UINT16, kDLUInt, 16, 1}, {TL_UINT32, kDLUInt, 32, 1},
    {TL_UINT64, kDLUInt, 64, 1}, {TL_FLOAT16, kDLFloat, 16, 1}, {TL_BFLOAT16, kDLBfloat, 16, 1},
    {TL_FLOAT32, kDLFloat, 32, 1}, {TL_FLOAT64, kDLFloat, 64, 1}, {TL_COMPLEX32, kDLComplex, 32, 1},
    {TL_COMPLEX64, kDLComplex, 64, 1}, {TL_COMPLEX128, kDLComplex, 128, 1},
    {TL_FLOAT8_E4M3FN, kDLFloat8_e4m3fn, 8, 1}, {TL_FLOAT8_E5M2, kDLFloat8_e5m2, 8, 1},
    {TL_FLOAT8_E4M3FNUZ, kDLFloat8_e4m3fnuz, 8, 1}, {TL_FLOAT8_E5M2FNUZ, kDLFloat8_e5m2fnuz, 8, 1},
    {TL_FLOAT8_E8M0FNU, kDLFloat8_e8m0fnu, 8, 1}, {TL_FLOAT4_E2M1FN_X2, kDLFloat4_e2m1fn, 4, 2},
};
#define N_DL_TYPES (sizeof dl_types / sizeof *dl_types)

/* What an exported capsule owns: a storage reference and the shape/strides arrays. */
typedef struct {
    tl_storage *storage;
    int64_t dims[2 * TL_MAX_DIMS];
} export_ctx;

static void release_ctx(export_ctx *ctx)
{
    PyGILState_STATE g = PyGILState_Ensure();
    tl_storage_release(ctx->storage);
    PyGILState_Release(g);
    free(ctx);
}
static void deleter_v0(DLManagedTensor *m) { release_ctx(m->manager_ctx); free(m); }
static void deleter_v1(DLManagedTensorVersioned *m) { release_ctx(m->manager_ctx); free(m); }

static void capsule_v0(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, "dltensor")) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
        if (m && m->deleter) m->deleter(m);
    }
}
static void capsule_v1(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
        if (m && m->deleter) m->deleter(m);
    }
}

static int fill_dltensor(const tl_tensor *t, DLTensor *dl, export_ctx *ctx)
{
    size_t i;
    for (i = 0; i < N_DL_TYPES; i++)
        if (dl_types[i].dt == t->dtype) break;
    if (i == N_DL_TYPES) {
        PyErr_Format(PyExc_BufferError, "DLPack has no type for %s", tl_dtype_infos[t->dtype].name);
        return -1;
    }
    ctx->storage = tl_storage_retain(t->storage);
    memcpy(ctx->dims, t->sizes, sizeof(int64_t) * t->ndim);
    memcpy(ctx->dims + TL_MAX_DIMS, t->strides, sizeof(int64_t) * t->ndim);
    dl->data = tl_data(t);
    dl->device.device_type = t->device.type == TL_DEV_CUDA ? kDLCUDA : kDLCPU;
    dl->device.device_id = t->device.index < 0 ? 0 : t->device.index;
    dl->ndim = t->ndim;
    dl->dtype.code = dl_types[i].code;
    dl->dtype.bits = dl_types[i].bits;
    dl->dtype.lanes = dl_types[i].lanes;
    dl->shape = ctx->dims;
    dl->strides = ctx->dims + TL_MAX_DIMS;
    dl->byte_offset = 0;
    return 0;
}

static PyObject *t_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"stream", "max_version", "dl_device", "copy", NULL};
    PyObject *a[4];
    if (tl_parse_args(args, nargs, kwnames, "__dlpack__", names, 0, 1, a) < 0) return NULL;
    const tl_tensor *t = TL_TENSOR(self);
    if (t->layout != TL_LAYOUT_STRIDED) {
        PyErr_SetString(PyExc_BufferError, "Can't export sparse tensors through DLPack; call to_dense() first");
        return NULL;
    }
    if (t->device.type != TL_DEV_CPU && t->device.type != TL_DEV_CUDA) {
        PyErr_Format(PyExc_BufferError, "Cannot pack tensors on %s", tl_device_type_names[t->device.type]);
        return NULL;
    }
    if (a[2] && a[2] != Py_None) {
        int dtype_, idx;
        if (!PyTuple_Check(a[2]))
            return PyErr_Format(PyExc_TypeError, "__dlpack__(): dl_device must be a tuple (device_type, device_id), not %s",
                                Py_TYPE(a[2])->tp_name);
        if (!PyArg_ParseTuple(a[2], "ii", &dtype_, &idx)) return NULL;
        if (dtype_ != kDLCPU || t->device.type != TL_DEV_CPU) {
            PyErr_SetString(PyExc_BufferError, "__dlpack__: cross-device export is not supported");
            return NULL;
        }
    }
    int copy = a[3] && a[3] != Py_None ? PyObject_IsTrue(a[3]) : 0;
    if (copy < 0) return NULL;
    if (a[0] && a[0] != Py_None && (!PyLong_Check(a[0]) || PyBool_Check(a[0]))) {
        PyErr_SetString(PyExc_TypeError, "stream must be ``int`` or ``none``");
        return NULL;
    }
    if (t->device.type == TL_DEV_CPU && a[0] && a[0] != Py_None) {
        long v = PyLong_AsLong(a[0]);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v != -1) {
            PyErr_SetString(PyExc_AssertionError, "stream should be None on cpu.");
            return NULL;
        }
    }
    if (t->device.type == TL_DEV_CUDA && a[0] && a[0] != Py_None) {
        /* the consumer's stream waits for the work queued on ours (tensorlib.cuda._dlpack_sync) */
        PyObject *mod = PyImport_ImportModule("tensorlib.cuda");
        PyObject *r = mod ? PyObject_CallMethod(mod, "_dlpack_sync", "iO", (int)t->device.index, a[0]) : NULL;
        Py_XDECREF(mod);
        if (!r) return NULL;
        Py_DECREF(r);
    }
    PyObject *src = self;
    if (copy) {
        src = PyObject_CallMethod(self, "clone", NULL);
        if (!src) return NULL;
    }
    t = TL_TENSOR(src);
    int versioned = 0;
    if (a[1] && a[1] != Py_None) {
        unsigned int major = 0, minor = 0;
        if (!PyTuple_Check(a[1])) {
            PyErr_Format(PyExc_TypeError, "__dlpack__(): max_version must be a tuple (major, minor), not %s",
                         Py_TYPE(a[1])->tp_name);
            goto fail;
        }
        if (!PyArg_ParseTuple(a[1], "II", &major, &minor)) goto fail;
        versioned = major >= 1;
    }
    export_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) { tl_no_memory(); goto fail; }
    PyObject *cap;
    if (versioned) {
        DLManagedTensorVersioned *m = calloc(1, sizeof *m);
        if (!m || fill_dltensor(t, &m->dl_tensor, ctx) < 0) {
            if (!m) tl_no_memory();
            free(m);
            free(ctx);
            goto fail;
        }
        m->version.major = 1;
        m->version.minor = 1;
        m->manager_ctx = ctx;
        m->deleter = deleter_v1;
        m->flags = (t->storage->readonly ? DLPACK_FLAG_READ_ONLY : 0) | (copy ? DLPACK_FLAG_IS_COPIED : 0);
        cap = PyCapsule_New(m, "dltensor_versioned", capsule_v1);
        if (!cap) deleter_v1(m);
    } else {
        DLManagedTensor *m = calloc(1, sizeof *m);
        if (!m || fill_dltensor(t, &m->dl_tensor, ctx) < 0) {
            if (!m) tl_no_memory();
            free(m);
            free(ctx);
            goto fail;
        }
        m->manager_ctx = ctx;
        m->deleter = deleter_v0;
        cap = PyCapsule_New(m, "dltensor", capsule_v0);
        if (!cap) deleter_v0(m);
    }
    if (copy) Py_DECREF(src);
    return cap;
fail:
    if (copy) Py_DECREF(src);
    return NULL;
}

static PyObject *t_dlpack_device(PyObject *self, PyObject *u)
{
    const tl_tensor *t = TL_TENSOR(self);
    if (t->device.type != TL_DEV_CPU && t->device.type != TL_DEV_CUDA)
        return PyErr_Format(PyExc_ValueError, "Unknown device type %s for Dlpack", tl_device_type_names[t->device.type]);
    return Py_BuildValue("(ii)", t->device.type == TL_DEV_CUDA ? kDLCUDA : kDLCPU, t->device.index < 0 ? 0 : t->device.index);
}

/* A consumed capsule's managed tensor, released when the storage dies. */
typedef struct { void *managed; int versioned; } import_owner;
static void release_import(void *p)
{
    import_owner *o = p;
    if (o->versioned) {
        DLManagedTensorVersioned *m = o->managed;
        if (m->deleter) m->deleter(m);
    } else {
        DLManagedTensor *m = o->managed;
        if (m->deleter) m->deleter(m);
    }
    free(o);
}

static PyObject *from_capsule(PyObject *cap)
{
    int versioned = PyCapsule_IsValid(cap, "dltensor_versioned");
    if (!versioned && !PyCapsule_IsValid(cap, "dltensor")) {
        PyErr_SetString(PyExc_ValueError, "from_dlpack: expected a DLPack capsule that has not been consumed yet");
        return NULL;
    }
    void *managed = PyCapsule_GetPointer(cap, versioned ? "dltensor_versioned" : "dltensor");
    DLTensor *dl;
    int readonly = 0;
    if (versioned) {
        DLManagedTensorVersioned *m = managed;
        if (m->version.major > 1) {
            PyErr_Format(PyExc_BufferError, "from_dlpack: unsupported DLPack version %u.%u", m->version.major, m->version.minor);
            return NULL;
        }
        dl = &m->dl_tensor;
        readonly = (m->flags & DLPACK_FLAG_READ_ONLY) != 0;
    } else {
        dl = &((DLManagedTensor *)managed)->dl_tensor;
    }
    tl_device dev = {TL_DEV_CPU, -1};
    if (dl->device.device_type == kDLCUDA) { /* device memory: a CUDA tensor (loads the backend) */
        dev = (tl_device){TL_DEV_CUDA, (int16_t)dl->device.device_id};
        if (tl_py_device_ready(&dev) < 0) return NULL;
    } else if (dl->device.device_type != kDLCPU && dl->device.device_type != kDLCUDAHost) {
        PyErr_Format(PyExc_RuntimeError, "from_dlpack: device type %d needs a backend tensorlib has not loaded",
                     dl->device.device_type);
        return NULL;
    }
    size_t i;
    for (i = 0; i < N_DL_TYPES; i++)
        if (dl_types[i].code == dl->dtype.code && dl_types[i].bits == dl->dtype.bits && dl_types[i].lanes == dl->dtype.lanes)
            break;
    if (i == N_DL_TYPES) {
        PyErr_Format(PyExc_BufferError, "from_dlpack: unsupported DLPack dtype (code %d, bits %d, lanes %d)",
                     dl->dtype.code, dl->dtype.bits, dl->dtype.lanes);
        return NULL;
    }
    if (dl->ndim < 0 || dl->ndim > TL_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "from_dlpack: rank %d is not supported", dl->ndim);
        return NULL;
    }
    tl_dtype dt = dl_types[i].dt;
    int isz = tl_dtype_itemsize(dt);
    int64_t st[TL_MAX_DIMS];
    if (!dl->strides && tl_check_shape(dl->shape, dl->ndim) < 0) return tl_raise();
    if (dl->strides) memcpy(st, dl->strides, sizeof(int64_t) * dl->ndim);
    else tl_contiguous_strides(dl->shape, dl->ndim, st);
    int64_t lo, hi;
    if (tl_extent_checked(dl->shape, st, dl->ndim, &lo, &hi) < 0) return tl_raise();
    if (lo < 0) {
        PyErr_SetString(PyExc_BufferError, "from_dlpack: negative strides are not supported");
        return NULL;
    }
    if (dl->byte_offset % isz) {
        PyErr_SetString(PyExc_BufferError, "from_dlpack: byte_offset is not a multiple of the element size");
        return NULL;
    }
    import_owner *own = malloc(sizeof *own);
    if (!own) return tl_no_memory();
    own->managed = managed;
    own->versioned = versioned;
    char *base = (char *)dl->data + dl->byte_offset;
    tl_storage *s = tl_storage_new_foreign(base, (size_t)(hi + 1) * isz, dev, own, release_import, readonly);
    if (!s) { free(own); return tl_raise(); }
    /* from here the storage owns the managed tensor: mark the capsule consumed */
    PyCapsule_SetName(cap, versioned ? "used_dltensor_versioned" : "used_dltensor");
    TensorObject *r = tl_tensor_alloc();
    if (!r) { tl_storage_release(s); return NULL; }
    int rc = tl_tensor_init(&r->t, s, 0, dl->ndim, dl->shape, st, dt);
    tl_storage_release(s);
    if (rc < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

static PyObject *from_dlpack(PyObject *m, PyObject *obj)
{
    if (PyCapsule_CheckExact(obj)) return from_capsule(obj);
    PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
    if (!fn) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got %s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    /* a CUDA producer gets the stream the result will be used on (torch's from_dlpack) */
    bool has_dev = PyObject_HasAttrString(obj, "__dlpack_device__");
    PyObject *stream = NULL, *devt = has_dev ? PyObject_CallMethod(obj, "__dlpack_device__", NULL) : NULL;
    if (has_dev && !devt) { /* the producer refuses (torch: a meta tensor) */
        Py_DECREF(fn);
        return NULL;
    }
    int dtype_ = 0, idx = 0;
    if (devt && PyArg_ParseTuple(devt, "ii", &dtype_, &idx) && dtype_ == kDLCUDA) {
        PyObject *mod = PyImport_ImportModule("tensorlib.cuda");
        stream = mod ? PyObject_CallMethod(mod, "_dlpack_stream", "i", idx) : NULL;
        Py_XDECREF(mod);
        if (!stream) {
            Py_XDECREF(devt);
            Py_DECREF(fn);
            return NULL;
        }
    }
    PyErr_Clear(); /* a producer with an odd __dlpack_device__ is asked without a stream */
    Py_XDECREF(devt);
    PyObject *kw = stream ? Py_BuildValue("{s(ii)sO}", "max_version", 1, 1, "stream", stream)
                          : Py_BuildValue("{s(ii)}", "max_version", 1, 1);
    PyObject *empty = PyTuple_New(0);
    PyObject *cap = kw && empty ? PyObject_Call(fn, empty, kw) : NULL;
    Py_XDECREF(kw);
    if (!cap && empty && PyErr_ExceptionMatches(PyExc_TypeError)) { /* producer predates max_version */
        PyErr_Clear();
        kw = stream ? Py_BuildValue("{sO}", "stream", stream) : NULL;
        cap = !stream || kw ? PyObject_Call(fn, empty, kw) : NULL;
        Py_XDECREF(kw);
    }
    Py_XDECREF(stream);
    Py_XDECREF(empty);
    Py_DECREF(fn);
    if (!cap) return NULL;
    PyObject *r = from_capsule(cap);
    Py_DECREF(cap);
    return r;
}

PyMethodDef tl_module_methods_dlpack[] = {
    {"from_dlpack", (PyCFunction)from_dlpack, METH_O,
     "from_dlpack(obj) -> Tensor\n\nA tensor sharing memory with any DLPack producer (an object with __dlpack__, or a capsule)."},
    {NULL},
};

PyMethodDef tl_tensor_methods_dlpack[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))t_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__(stream=None, max_version=None, dl_device=None, copy=None) -> PyCapsule"},
    {"__dlpack_device__", (PyCFunction)t_dlpack_device, METH_NOARGS, "(device_type, device_id) in DLPack's codes."},
    {NULL},
};
