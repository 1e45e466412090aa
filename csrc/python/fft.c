/* fft.c (binding) - _fft_c2c_rows, _fft_r2c_rows: the kernels of tensorlib.fft (ops/fft.c);
 * the transforms' argument forms, sizes and normalization are in tensorlib/fft.py. */
#include "python/binding.h"

#include "ops/fft.h"

/* _fft_c2c_rows(x, inverse) -> None: x (contiguous complex) transformed in place along its last dim. */
static PyObject *m_fft_c2c_rows(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "_fft_c2c_rows expects 2 arguments, got %zd", nargs);
    if (!tl_is_tensor(args[0]))
        return PyErr_Format(PyExc_TypeError, "_fft_c2c_rows(): x must be Tensor, not %s", Py_TYPE(args[0])->tp_name);
    int inverse = PyObject_IsTrue(args[1]);
    if (inverse < 0) return NULL;
    if (tl_fft_c2c_rows(TL_TENSOR(args[0]), inverse) < 0) return tl_raise();
    Py_RETURN_NONE;
}

/* _fft_r2c_rows(out, x) -> None: the non-negative frequencies of x's even-length real rows into out. */
static PyObject *m_fft_r2c_rows(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "_fft_r2c_rows expects 2 arguments, got %zd", nargs);
    if (!tl_is_tensor(args[0]) || !tl_is_tensor(args[1]))
        return PyErr_Format(PyExc_TypeError, "_fft_r2c_rows(): out and x must be Tensors");
    if (tl_fft_r2c_rows(TL_TENSOR(args[0]), TL_TENSOR(args[1])) < 0) return tl_raise();
    Py_RETURN_NONE;
}

PyMethodDef tl_module_methods_fft[] = {
    {"_fft_c2c_rows", (PyCFunction)(void (*)(void))m_fft_c2c_rows, METH_FASTCALL,
     "_fft_c2c_rows(x, inverse): unnormalized DFT of each row of a contiguous complex tensor, in place."},
    {"_fft_r2c_rows", (PyCFunction)(void (*)(void))m_fft_r2c_rows, METH_FASTCALL,
     "_fft_r2c_rows(out, x): the n / 2 + 1 non-negative frequencies of each even-length real row of x."},
    {NULL},
};
