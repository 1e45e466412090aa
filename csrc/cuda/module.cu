// module.cu - the tensorlib._C_cuda extension module: device queries, initialisation
// (torch's errors when there is no driver or no device) and registration of the CUDA
// backend with the core through the capsule tensorlib._C._backend_api.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_backend.h"

const tl_core_api *tlc_api = nullptr;
#define TLC_DTYPE_DEF(S, ...) int tlc_##S = -1;
TL_HD_DTYPES(TLC_DTYPE_DEF)
#undef TLC_DTYPE_DEF

int tlc_error(int kind, cudaError_t e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e != cudaSuccess && n >= 0 && (size_t)n < sizeof msg)
        snprintf(msg + n, sizeof msg - (size_t)n, ": %s", cudaGetErrorString(e));
    if (tlc_api) tlc_api->set_error(kind, msg);
    return -1;
}

int tlc_current_device(void)
{
    int d = -1;
    cudaError_t e = cudaGetDevice(&d);
    return e == cudaSuccess ? d : tlc_error(TL_ERR_RUNTIME, e, "cudaGetDevice failed");
}

static const tl_device_backend cuda_backend = {
    TL_BACKEND_ABI_VERSION, (uint32_t)sizeof(tl_device_backend), "cuda",
    tlc_current_device, tlc_alloc, tlc_free, tlc_copy, tlc_memset_zero, tlc_binary, tlc_unary,
    tlc_elementwise,
    tlc_host_alloc, tlc_host_free, tlc_copy_async, tlc_record_stream,
    // random
    tlc_random,
    // reductions (ABI 3)
    tlc_reduce,
    // scans (ABI 3)
    tlc_scan,
    // indexing (ABI 4)
    tlc_index,
    // sorting (ABI 4)
    tlc_sort,
    // dense products (ABI 4)
    tlc_gemm,
    // selection (ABI 4)
    tlc_select,
    // sparse products (ABI 5)
    tlc_spmm,
    // 2:4 semi-structured products (ABI 5)
    tlc_semi,
};

// Device count, 0 when the driver or device is missing (never raises, like torch).
static int count_devices(cudaError_t *err)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (err) *err = e;
    if (e != cudaSuccess) {
        cudaGetLastError();  // clear the sticky-free error so later calls start clean
        return 0;
    }
    return n;
}

static PyObject *raise_cuda(cudaError_t e, const char *what)
{
    PyErr_Format(PyExc_RuntimeError, "%s: %s", what, cudaGetErrorString(e));
    return nullptr;
}

static PyObject *m_device_count(PyObject *, PyObject *) { return PyLong_FromLong(count_devices(nullptr)); }

static PyObject *m_init(PyObject *, PyObject *)
{
    cudaError_t e;
    int n = count_devices(&e);
    if (e == cudaErrorInsufficientDriver) {  // also what a machine without any driver reports
        PyErr_SetString(PyExc_RuntimeError,
                        "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
                        "and installed a driver from http://www.nvidia.com/Download/index.aspx");
        return nullptr;
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
        PyErr_SetString(PyExc_RuntimeError, "No CUDA GPUs are available");
        return nullptr;
    }
    if (e != cudaSuccess) return raise_cuda(e, "CUDA initialisation failed");
    Py_RETURN_NONE;
}

static PyObject *m_register(PyObject *, PyObject *cap)
{
    const tl_core_api *api = (const tl_core_api *)PyCapsule_GetPointer(cap, TL_BACKEND_CAPSULE_NAME);
    if (!api) return nullptr;
    if (api->abi_version != TL_BACKEND_ABI_VERSION || api->size != sizeof(tl_core_api)) {
        PyErr_Format(PyExc_RuntimeError, "tensorlib._C_cuda was built for backend ABI version %d, "
                     "tensorlib._C has version %u; rebuild tensorlib", TL_BACKEND_ABI_VERSION, api->abi_version);
        return nullptr;
    }
    tlc_api = api;
#define TLC_DTYPE_ID(S, ID, NAME, ...) tlc_##S = api->dtype_from_name(NAME);
    TL_HD_DTYPES(TLC_DTYPE_ID)
#undef TLC_DTYPE_ID
    if (api->register_backend(TL_DEV_CUDA, &cuda_backend) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "tensorlib: registering the CUDA backend failed");
        return nullptr;
    }
    Py_RETURN_NONE;
}

static PyObject *m_current_device(PyObject *, PyObject *)
{
    int d = 0;
    cudaError_t e = cudaGetDevice(&d);
    return e == cudaSuccess ? PyLong_FromLong(d) : raise_cuda(e, "cudaGetDevice failed");
}

static PyObject *m_set_device(PyObject *, PyObject *arg)
{
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) return nullptr;
    cudaError_t e = cudaSetDevice((int)d);
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise_cuda(e, "CUDA error");
}

static PyObject *m_synchronize(PyObject *, PyObject *arg)
{
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) return nullptr;
    cudaError_t e;
    {
        DeviceGuard guard((int)d);
        Py_BEGIN_ALLOW_THREADS
        e = cudaDeviceSynchronize();
        Py_END_ALLOW_THREADS
    }
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise_cuda(e, "CUDA error");
}

// (name, total_memory, major, minor, multi_processor_count)
static PyObject *m_device_properties(PyObject *, PyObject *arg)
{
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) return nullptr;
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, (int)d);
    if (e != cudaSuccess) return raise_cuda(e, "CUDA error");
    return Py_BuildValue("(sKiii)", p.name, (unsigned long long)p.totalGlobalMem, p.major, p.minor,
                         p.multiProcessorCount);
}

static PyObject *m_memory_stat(PyObject *, PyObject *args)
{
    const char *name;
    int dev;
    if (!PyArg_ParseTuple(args, "si", &name, &dev)) return nullptr;
    size_t v = 0;
    if (tlc_memory_stat(name, dev, &v) < 0) {
        PyErr_Format(PyExc_ValueError, "unknown memory statistic '%s' or device %d", name, dev);
        return nullptr;
    }
    return PyLong_FromSize_t(v);
}

static PyObject *m_reset_peak(PyObject *, PyObject *arg)
{
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) return nullptr;
    tlc_reset_peak((int)d);
    Py_RETURN_NONE;
}

static PyObject *m_empty_cache(PyObject *, PyObject *)
{
    tlc_empty_cache();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"device_count", m_device_count, METH_NOARGS, "Number of usable CUDA devices (0 without driver/device)."},
    {"init", m_init, METH_NOARGS, "Raises torch's RuntimeError when CUDA cannot be used."},
    {"register", m_register, METH_O, "Registers the CUDA backend with the core (capsule argument)."},
    {"current_device", m_current_device, METH_NOARGS, "Index of the current device."},
    {"set_device", m_set_device, METH_O, "Selects the current device."},
    {"synchronize", m_synchronize, METH_O, "Waits for all work on a device."},
    {"device_properties", m_device_properties, METH_O,
     "(name, total_memory, major, minor, multi_processor_count) of a device."},
    {"memory_stat", m_memory_stat, METH_VARARGS, "A caching-allocator statistic in bytes."},
    {"reset_peak", m_reset_peak, METH_O, "Resets the peak statistics of a device."},
    {"empty_cache", m_empty_cache, METH_NOARGS, "Frees the cached blocks."},
    {nullptr, nullptr, 0, nullptr},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_C_cuda", "tensorlib's CUDA backend.", -1, methods,
                                        nullptr, nullptr, nullptr, nullptr};

extern PyMethodDef tlc_stream_methods[];  // stream.cu

PyMODINIT_FUNC PyInit__C_cuda(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (m && PyModule_AddFunctions(m, tlc_stream_methods) < 0) Py_CLEAR(m);
    return m;
}
