/* module.c - the tensorlib._C extension module: assembles the types and functions. */
#include "python/binding.h"

#include "core/iter.h"
#include "core/parallel.h"

static PyObject *m_get_num_threads(PyObject *m, PyObject *u) { return PyLong_FromLong(tl_get_num_threads()); }
static PyObject *m_set_num_threads(PyObject *m, PyObject *n)
{
    long v = PyLong_AsLong(n);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "set_num_threads expects a positive integer");
        return NULL;
    }
    tl_set_num_threads((int)v);
    Py_RETURN_NONE;
}

/* _tiled_loops(): how many loops ran through the iterator's tiled path (for the tests). */
static PyObject *m_tiled_loops(PyObject *m, PyObject *u)
{
    return PyLong_FromLongLong(__atomic_load_n(&tl_iter_tiled_runs, __ATOMIC_RELAXED));
}

/* _pool_cover(n, grain, nested, wake) -> (bytes of n int32 visit counts, regions woken):
 * one tl_parallel_for region over [0, n) (for the tests). */
static PyObject *m_pool_cover(PyObject *m, PyObject *args)
{
    long long n, grain;
    int nested, wake;
    if (!PyArg_ParseTuple(args, "LLpp", &n, &grain, &nested, &wake)) return NULL;
    if (n < 0 || n > (1LL << 28)) return PyErr_Format(PyExc_ValueError, "_pool_cover: n out of range");
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * 4);
    if (!b) return NULL;
    int32_t *counts = (int32_t *)PyBytes_AS_STRING(b);
    memset(counts, 0, (size_t)n * 4);
    uint64_t woke;
    Py_BEGIN_ALLOW_THREADS
    woke = tl_parallel_cover(n, grain, nested, wake, counts);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(NK)", b, (unsigned long long)woke);
}

/* _pool_stats() -> (wake latency ns, wake call cost ns, regions woken): diagnostics. */
static PyObject *m_pool_stats(PyObject *m, PyObject *u)
{
    int64_t lat, cost;
    uint64_t woken;
    tl_parallel_stats(&lat, &cost, &woken);
    return Py_BuildValue("(LLK)", (long long)lat, (long long)cost, (unsigned long long)woken);
}

/* _write_out(result, out, fname, exact_dtype): out= for ops computed by value in Python. */
static PyObject *m_write_out(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 4) return PyErr_Format(PyExc_TypeError, "_write_out expects 4 arguments, got %zd", n);
    const char *fname = PyUnicode_AsUTF8(a[2]);
    if (!fname) return NULL;
    if (!tl_is_tensor(a[0]))
        return PyErr_Format(PyExc_TypeError, "%s(): result must be Tensor, not %s", fname, Py_TYPE(a[0])->tp_name);
    int exact = PyObject_IsTrue(a[3]);
    if (exact < 0) return NULL;
    Py_INCREF(a[0]);
    return tl_finish_out((TensorObject *)a[0], a[1], fname, exact);
}

static PyMethodDef module_methods[] = {
    {"_write_out", (PyCFunction)(void (*)(void))m_write_out, METH_FASTCALL, "_write_out(result, out, fname, exact_dtype)"},
    {"_pool_cover", m_pool_cover, METH_VARARGS, "_pool_cover(n, grain, nested, wake) (tests)."},
    {"_pool_stats", m_pool_stats, METH_NOARGS, "_pool_stats() -> (wake latency ns, wake cost ns, regions woken)."},
    {"_tiled_loops", m_tiled_loops, METH_NOARGS, "How many loops took the iterator's tiled path (tests)."},
    {"get_num_threads", m_get_num_threads, METH_NOARGS, "Number of threads tensorlib's ops (and OpenBLAS) use."},
    {"set_num_threads", m_set_num_threads, METH_O, "Sets the number of threads for tensorlib's ops and OpenBLAS."},
    {NULL},
};

/* Every binding file that adds module functions or Tensor methods lists its table here:
 * adding an op family is one line in each list. */
static PyMethodDef *const module_tables[] = {
    tl_module_methods_factory,
    tl_module_methods_backend,
    tl_module_methods_interop,
    tl_module_methods_dlpack,
    tl_module_methods_linalg,
    tl_module_methods_lapack,
    tl_module_methods_random,
    tl_module_methods_index,
    tl_module_methods_reduce,
    tl_module_methods_unique,
    tl_module_methods_fft,
    tl_module_methods_arith,
    NULL,
};
static PyMethodDef *const tensor_tables[] = {
    tl_tensor_methods_interop,
    tl_tensor_methods_dlpack,
    tl_tensor_methods_linalg,
    tl_tensor_methods_random,
    tl_tensor_methods_arith,
    tl_tensor_methods_sparse,
    NULL,
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "tensorlib._C", "tensorlib's C core.", -1, module_methods};

PyMODINIT_FUNC PyInit__C(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    tl_init_arith();
    tl_linalg_install_operators();
    if (tl_init_errors(m) < 0 || tl_py_add_backend_api(m) < 0 || tl_init_types(m) < 0
        || tl_init_tensor(m, tensor_tables) < 0 || tl_random_init(m) < 0)
        goto fail;
    /* module functions go through the layout gate (python/gate.c); the sparse primitives
     * through its device check only */
    PyMethodDef *const primitive_tables[] = {tl_module_methods_sparse, tl_module_methods_sparse_compressed, NULL};
    for (int p = 0; p < 2; p++) {
        PyMethodDef *const *tables = p ? primitive_tables : module_tables;
        for (int i = 0; tables[i]; i++)
            for (PyMethodDef *d = tables[i]; d->ml_name; d++) {
                PyObject *f = p ? tl_gate_new_primitive(d, m) : tl_gate_new(d, m);
                if (!f || PyModule_AddObject(m, d->ml_name, f) < 0) {
                    Py_XDECREF(f);
                    goto fail;
                }
            }
    }
    if (PyModule_AddFunctions(m, tl_module_methods_gate) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
