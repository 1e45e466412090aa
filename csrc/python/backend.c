/* backend.c (binding) - the capsule that hands the core API to backend modules, and the
 * first-use hook that imports tensorlib.cuda when a CUDA device is asked for. */
#include "python/binding.h"

#include "backend/backend.h"
#include "backend/hd_check.h"

int tl_py_device_ready(tl_device *dev)
{
    if (dev->type == TL_DEV_CUDA && !tl_backend_get(TL_DEV_CUDA)) {
        /* raises AssertionError (not built) or RuntimeError (no driver/device) like torch */
        PyObject *mod = PyImport_ImportModule("tensorlib.cuda");
        PyObject *r = mod ? PyObject_CallMethod(mod, "_lazy_init", NULL) : NULL;
        Py_XDECREF(mod);
        if (!r) return -1;
        Py_DECREF(r);
    }
    const tl_device_backend *b = tl_backend_get(dev->type);
    if (tl_backend_check(*dev) < 0) { tl_raise(); return -1; }
    if (b && b->current_device && dev->index < 0) {
        int idx = b->current_device();
        if (idx < 0) { tl_raise(); return -1; }
        dev->index = (int16_t)idx;
    }
    return 0;
}

int tl_py_pinned_ready(void)
{
    if (tl_backend_get(TL_DEV_CUDA)) return 0;
    /* loads and initialises the CUDA backend when a device is usable; else nothing, and the
     * pinned allocation raises torch's error */
    PyObject *mod = PyImport_ImportModule("tensorlib.cuda");
    PyObject *r = mod ? PyObject_CallMethod(mod, "_init_if_available", NULL) : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

int tl_py_add_backend_api(PyObject *m)
{
    PyObject *cap = PyCapsule_New((void *)tl_core_api_get(), TL_BACKEND_CAPSULE_NAME, NULL);
    int rc = cap ? PyModule_AddObjectRef(m, "_backend_api", cap) : -1;
    Py_XDECREF(cap);
    /* the addresses of the host runners of the backend entries, for the tests' stand-in backend */
    static const struct { const char *name; void *fn; } hosts[] = {
        {"_backend_ew_host", (void *)(uintptr_t)tl_backend_ew_host},
        {"_backend_random_host", (void *)(uintptr_t)tl_backend_random_host},
        {"_backend_reduce_host", (void *)(uintptr_t)tl_backend_reduce_host},
        {"_backend_scan_host", (void *)(uintptr_t)tl_backend_scan_host},
        {"_backend_index_host", (void *)(uintptr_t)tl_backend_index_host},
        {"_backend_sort_host", (void *)(uintptr_t)tl_backend_sort_host},
        {"_backend_gemm_host", (void *)(uintptr_t)tl_backend_gemm_host},
        {"_backend_select_host", (void *)(uintptr_t)tl_backend_select_host},
        {"_backend_spmm_host", (void *)(uintptr_t)tl_backend_spmm_host},
        {"_backend_semi_host", (void *)(uintptr_t)tl_backend_semi_host},
    };
    for (size_t i = 0; rc == 0 && i < sizeof hosts / sizeof hosts[0]; i++) {
        PyObject *host = PyLong_FromVoidPtr(hosts[i].fn);
        rc = host ? PyModule_AddObjectRef(m, hosts[i].name, host) : -1;
        Py_XDECREF(host);
    }
    return rc;
}

PyObject *tl_py_to_device(PyObject *self, tl_device dev, tl_dtype dtype, bool non_blocking)
{
    TL_NEW_TENSOR(r, tl_backend_to_device(&r->t, &((TensorObject *)self)->t, dev, dtype, non_blocking));
    return (PyObject *)r;
}

PyObject *tl_py_call_on_host(PyObject *self, const char *method)
{
    PyObject *host = PyObject_CallMethod(self, "cpu", NULL);
    PyObject *r = host ? PyObject_CallMethod(host, method, NULL) : NULL;
    Py_XDECREF(host);
    return r;
}

/* _hd_apply(op, a, b=None): the backend element math (kernels/hd_math.h) run on the CPU,
 * for the tests; op is a backend op name such as "ADD" or "EXP". */
static PyObject *m_hd_apply(PyObject *m, PyObject *args)
{
    const char *name;
    PyObject *a, *b = Py_None;
    if (!PyArg_ParseTuple(args, "sO|O:_hd_apply", &name, &a, &b)) return NULL;
    if (!tl_is_tensor(a) || (b != Py_None && !tl_is_tensor(b))) {
        PyErr_SetString(PyExc_TypeError, "_hd_apply expects tensors");
        return NULL;
    }
    int op = tl_hd_op_code(name, b != Py_None);
    if (op < 0) return tl_raise();
    TL_NEW_TENSOR(r, tl_hd_apply(&r->t, op, &((TensorObject *)a)->t, b != Py_None ? &((TensorObject *)b)->t : NULL));
    return (PyObject *)r;
}

/* _pin_memory(t, factory): a copy of the dense CPU tensor t in pinned memory (the CUDA
 * backend's); factory picks the wording of the error without an allocator. */
static PyObject *m_pin_memory(PyObject *m, PyObject *args)
{
    PyObject *a;
    int factory;
    if (!PyArg_ParseTuple(args, "O!p:_pin_memory", &TensorBase_Type, &a, &factory) || tl_py_pinned_ready() < 0) return NULL;
    TL_NEW_TENSOR(r, tl_backend_pin(&r->t, &((TensorObject *)a)->t, factory));
    return (PyObject *)r;
}

static PyObject *m_is_pinned(PyObject *m, PyObject *a)
{
    if (!tl_is_tensor(a)) {
        PyErr_SetString(PyExc_TypeError, "_is_pinned expects a tensor");
        return NULL;
    }
    const tl_tensor *t = &((TensorObject *)a)->t;
    return PyBool_FromLong(t->layout == TL_LAYOUT_STRIDED && t->storage && t->storage->pinned);
}

/* _record_stream(t, handle): Tensor.record_stream with the stream's handle. */
static PyObject *m_record_stream(PyObject *m, PyObject *args)
{
    PyObject *a;
    unsigned long long handle;
    if (!PyArg_ParseTuple(args, "O!K:_record_stream", &TensorBase_Type, &a, &handle)) return NULL;
    if (tl_backend_record_stream(&((TensorObject *)a)->t, (uintptr_t)handle) < 0) return tl_raise();
    Py_RETURN_NONE;
}

/* _gemm_flags(flags=None): the TL_BGEMM_* flags of the later device products (set by
 * tl.backends.cuda.matmul), returned as they were before. */
static PyObject *m_gemm_flags(PyObject *m, PyObject *args)
{
    int flags = -1;
    if (!PyArg_ParseTuple(args, "|i:_gemm_flags", &flags)) return NULL;
    int old = tl_backend_gemm_get_flags();
    if (flags >= 0) tl_backend_gemm_set_flags(flags);
    return PyLong_FromLong(old);
}

PyMethodDef tl_module_methods_backend[] = {
    {"_gemm_flags", m_gemm_flags, METH_VARARGS, "The flags of the device products (tl.backends.cuda.matmul)."},
    {"_hd_apply", m_hd_apply, METH_VARARGS, "Backend element math on the CPU (tests)."},
    {"_pin_memory", m_pin_memory, METH_VARARGS, "A copy of a dense CPU tensor in pinned host memory."},
    {"_is_pinned", m_is_pinned, METH_O, "Whether a tensor's memory is pinned host memory."},
    {"_record_stream", m_record_stream, METH_VARARGS, "Tensor.record_stream with a stream handle."},
    {NULL, NULL, 0, NULL},
};
