// stream.cu - CUDA streams and events for tensorlib.cuda.Stream / Event: a pool of streams
// per device and priority (created on first use and kept for the process, as torch pools
// its streams), the current stream of each device and thread (the one kernels are launched on; 0 is
// the legacy default stream), and events (create/destroy/record/query/synchronize/elapsed
// time/wait). Streams are created blocking, so the synchronous copies and cudaMemset on
// the legacy default stream stay ordered with the work on them.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <vector>

#include "cuda/cuda_backend.h"

namespace {

constexpr int kPoolSize = 32;  // streams per device and priority, handed out round-robin

struct DevicePool {
    std::vector<cudaStream_t> streams[2];  // [0] priority 0 (low), [1] the highest priority
    unsigned next[2] = {0, 0};
};
std::vector<DevicePool> pools;
// The current stream of each device, per thread as torch's (a thread starts on the legacy
// default stream, nullptr, of every device).
thread_local std::vector<cudaStream_t> current_streams;

cudaStream_t *current_slot(int dev)
{
    if (dev < 0) dev = tlc_current_device();
    if (dev < 0) return nullptr;
    if ((size_t)dev >= current_streams.size()) current_streams.resize((size_t)dev + 1, nullptr);
    return &current_streams[(size_t)dev];
}

DevicePool *pool_of(int dev)
{
    if (dev < 0) dev = tlc_current_device();
    if (dev < 0) return nullptr;
    if ((size_t)dev >= pools.size()) pools.resize((size_t)dev + 1);
    return &pools[(size_t)dev];
}

PyObject *raise(cudaError_t e, const char *what)
{
    PyErr_Format(PyExc_RuntimeError, "%s: %s", what, cudaGetErrorString(e));
    return nullptr;
}

PyObject *handle_value(const void *h) { return PyLong_FromVoidPtr(const_cast<void *>(h)); }

bool handle_arg(PyObject *o, void **h)
{
    *h = PyLong_AsVoidPtr(o);
    return !(*h == nullptr && PyErr_Occurred());
}

// stream_create(device, priority) -> handle: a pooled stream of that device; priority 0 or
// negative (higher), clamped to the device's range as torch does.
PyObject *m_stream_create(PyObject *, PyObject *args)
{
    int dev, priority;
    if (!PyArg_ParseTuple(args, "ii", &dev, &priority)) return nullptr;
    DevicePool *p = pool_of(dev);
    if (!p) return nullptr;
    int hi = priority < 0 ? 1 : 0;
    std::vector<cudaStream_t> &v = p->streams[hi];
    if (v.size() < (size_t)kPoolSize) {
        DeviceGuard g(dev);
        int least = 0, greatest = 0;
        cudaDeviceGetStreamPriorityRange(&least, &greatest);
        cudaStream_t s = nullptr;
        cudaError_t e = cudaStreamCreateWithPriority(&s, cudaStreamDefault, hi ? greatest : least);
        if (e != cudaSuccess) return raise(e, "cudaStreamCreateWithPriority failed");
        v.push_back(s);
        return handle_value(s);
    }
    return handle_value(v[p->next[hi]++ % (unsigned)kPoolSize]);
}

PyObject *m_stream_query(PyObject *, PyObject *arg)
{
    void *h;
    if (!handle_arg(arg, &h)) return nullptr;
    cudaError_t e = cudaStreamQuery((cudaStream_t)h);
    if (e == cudaErrorNotReady) {
        cudaGetLastError();
        Py_RETURN_FALSE;
    }
    return e == cudaSuccess ? (Py_INCREF(Py_True), Py_True) : raise(e, "cudaStreamQuery failed");
}

PyObject *m_stream_synchronize(PyObject *, PyObject *arg)
{
    void *h;
    if (!handle_arg(arg, &h)) return nullptr;
    cudaError_t e;
    Py_BEGIN_ALLOW_THREADS
    e = cudaStreamSynchronize((cudaStream_t)h);
    Py_END_ALLOW_THREADS
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise(e, "cudaStreamSynchronize failed");
}

// stream_wait_event(stream, event): later work on stream waits for the event.
PyObject *m_stream_wait_event(PyObject *, PyObject *args)
{
    PyObject *so, *eo;
    void *s, *ev;
    if (!PyArg_ParseTuple(args, "OO", &so, &eo) || !handle_arg(so, &s) || !handle_arg(eo, &ev)) return nullptr;
    cudaError_t e = cudaStreamWaitEvent((cudaStream_t)s, (cudaEvent_t)ev, 0);
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise(e, "cudaStreamWaitEvent failed");
}

PyObject *m_get_stream(PyObject *, PyObject *arg)
{
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) return nullptr;
    cudaStream_t *c = current_slot((int)d);
    if (!c) return nullptr;
    return handle_value(*c);
}

PyObject *m_set_stream(PyObject *, PyObject *args)
{
    PyObject *so;
    int dev;
    void *s;
    if (!PyArg_ParseTuple(args, "Oi", &so, &dev) || !handle_arg(so, &s)) return nullptr;
    cudaStream_t *c = current_slot(dev);
    if (!c) return nullptr;
    *c = (cudaStream_t)s;
    Py_RETURN_NONE;
}

// event_create(device, enable_timing, blocking, interprocess) -> handle
PyObject *m_event_create(PyObject *, PyObject *args)
{
    int dev, timing, blocking, interprocess;
    if (!PyArg_ParseTuple(args, "ippp", &dev, &timing, &blocking, &interprocess)) return nullptr;
    unsigned flags = (timing ? 0u : cudaEventDisableTiming) | (blocking ? cudaEventBlockingSync : 0u) |
                     (interprocess ? cudaEventInterprocess : 0u);
    DeviceGuard g(dev);
    cudaEvent_t ev = nullptr;
    cudaError_t e = cudaEventCreateWithFlags(&ev, flags);
    return e == cudaSuccess ? handle_value(ev) : raise(e, "cudaEventCreateWithFlags failed");
}

PyObject *m_event_destroy(PyObject *, PyObject *arg)
{
    void *h;
    if (!handle_arg(arg, &h)) return nullptr;
    cudaError_t e = cudaEventDestroy((cudaEvent_t)h);
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise(e, "cudaEventDestroy failed");
}

// event_record(event, stream)
PyObject *m_event_record(PyObject *, PyObject *args)
{
    PyObject *eo, *so;
    void *ev, *s;
    if (!PyArg_ParseTuple(args, "OO", &eo, &so) || !handle_arg(eo, &ev) || !handle_arg(so, &s)) return nullptr;
    cudaError_t e = cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)s);
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise(e, "cudaEventRecord failed");
}

PyObject *m_event_query(PyObject *, PyObject *arg)
{
    void *h;
    if (!handle_arg(arg, &h)) return nullptr;
    cudaError_t e = cudaEventQuery((cudaEvent_t)h);
    if (e == cudaErrorNotReady) {
        cudaGetLastError();
        Py_RETURN_FALSE;
    }
    return e == cudaSuccess ? (Py_INCREF(Py_True), Py_True) : raise(e, "cudaEventQuery failed");
}

PyObject *m_event_synchronize(PyObject *, PyObject *arg)
{
    void *h;
    if (!handle_arg(arg, &h)) return nullptr;
    cudaError_t e;
    Py_BEGIN_ALLOW_THREADS
    e = cudaEventSynchronize((cudaEvent_t)h);
    Py_END_ALLOW_THREADS
    return e == cudaSuccess ? (Py_INCREF(Py_None), Py_None) : raise(e, "cudaEventSynchronize failed");
}

// event_elapsed(start, end) -> milliseconds
PyObject *m_event_elapsed(PyObject *, PyObject *args)
{
    PyObject *ao, *bo;
    void *a, *b;
    if (!PyArg_ParseTuple(args, "OO", &ao, &bo) || !handle_arg(ao, &a) || !handle_arg(bo, &b)) return nullptr;
    float ms = 0;
    cudaError_t e;
    Py_BEGIN_ALLOW_THREADS
    e = cudaEventSynchronize((cudaEvent_t)b);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, (cudaEvent_t)a, (cudaEvent_t)b);
    Py_END_ALLOW_THREADS
    return e == cudaSuccess ? PyFloat_FromDouble(ms) : raise(e, "cudaEventElapsedTime failed");
}

}  // namespace

cudaStream_t tlc_current_stream(int dev)
{
    cudaStream_t *c = current_slot(dev);
    return c ? *c : nullptr;
}

PyMethodDef tlc_stream_methods[] = {
    {"stream_create", m_stream_create, METH_VARARGS, "A pooled stream of (device, priority); its handle."},
    {"stream_query", m_stream_query, METH_O, "True when all work on the stream has finished."},
    {"stream_synchronize", m_stream_synchronize, METH_O, "Waits for the stream's work."},
    {"stream_wait_event", m_stream_wait_event, METH_VARARGS, "Later work on the stream waits for the event."},
    {"get_stream", m_get_stream, METH_O, "Handle of the device's current stream (0: legacy default)."},
    {"set_stream", m_set_stream, METH_VARARGS, "Selects the current stream (handle, device)."},
    {"event_create", m_event_create, METH_VARARGS, "An event of (device, enable_timing, blocking, interprocess)."},
    {"event_destroy", m_event_destroy, METH_O, "Destroys an event."},
    {"event_record", m_event_record, METH_VARARGS, "Records (event, stream)."},
    {"event_query", m_event_query, METH_O, "True when the recorded work has finished."},
    {"event_synchronize", m_event_synchronize, METH_O, "Waits for the recorded work."},
    {"event_elapsed", m_event_elapsed, METH_VARARGS, "Milliseconds between two recorded events."},
    {nullptr, nullptr, 0, nullptr},
};
