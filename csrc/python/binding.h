/* binding.h - what the binding's files share: the Python objects for tensors, dtypes,
 * devices, layouts and memory formats, error conversion and argument parsing. */
#ifndef TL_BINDING_H
#define TL_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core/error.h"
#include "core/scalar.h"
#include "core/tensor.h"

typedef struct {
    PyObject_HEAD
    tl_tensor t;
    PyObject *weakreflist;
    /* Tensor._base: the tensor a view was made from (the root, never itself a view), owned;
     * NULL for tensors that are not views. Set in one place, the gate (python/gate.c). */
    PyObject *base;
} TensorObject;

typedef struct { PyObject_HEAD tl_dtype dtype; } DtypeObject;
typedef struct { PyObject_HEAD tl_device device; } DeviceObject;
typedef struct { PyObject_HEAD tl_layout layout; } LayoutObject;
typedef struct { PyObject_HEAD tl_memory_format fmt; } MemFmtObject;

extern PyTypeObject TensorBase_Type, Dtype_Type, Device_Type, Layout_Type, MemFmt_Type, Size_Type;
/* The Python class tensors are created as (tensorlib.Tensor, a subclass of TensorBase). */
extern PyTypeObject *tl_tensor_class;
extern PyObject *tl_dtype_objs[TL_NUM_DTYPES];
extern PyObject *tl_layout_objs[TL_NUM_LAYOUTS];
extern PyObject *tl_memfmt_objs[TL_NUM_MEMFMTS];
/* Default device for factories (the default dtype is core/promote.h's tl_default_float). */
extern tl_device tl_default_device;

#define TL_TENSOR(o) (&((TensorObject *)(o))->t)
/* The exact class first (tensorlib.Tensor, what every op returns): PyType_IsSubtype walks
 * the MRO, a cost every argument of every op would pay. */
static inline int tl_is_tensor(PyObject *o)
{
    return Py_TYPE(o) == tl_tensor_class || PyObject_TypeCheck(o, &TensorBase_Type);
}

/* Raises the Python exception matching the core's error slot; returns NULL. */
PyObject *tl_raise(void);
/* Same, returning -1. */
int tl_raise_int(void);
/* tensorlib.OutOfMemoryError (RuntimeError and MemoryError): raised for TL_ERR_MEMORY. */
extern PyObject *tl_exc_oom;
int tl_init_errors(PyObject *m);
/* Raises OutOfMemoryError("out of memory"); returns NULL (use instead of PyErr_NoMemory). */
PyObject *tl_no_memory(void);

/* A new, empty tensor object whose tl_tensor the caller fills; NULL on failure. */
TensorObject *tl_tensor_alloc(void);
/* Allocates a tensor object and runs fill(&obj->t, ...); returns it or raises. */
#define TL_NEW_TENSOR(var, call)                                          \
    TensorObject *var = tl_tensor_alloc();                                \
    if (!var) return NULL;                                                \
    if ((call) < 0) { Py_DECREF(var); return tl_raise(); }

PyObject *tl_dtype_obj(tl_dtype d);
PyObject *tl_device_obj(tl_device d);
PyObject *tl_size_new(const int64_t *sizes, int n);

/* Argument conversion. Each returns 0 on success, -1 with a Python exception set. */
int tl_parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                  const char *const *names, int nrequired, int npositional, PyObject **out);
int tl_conv_dtype(PyObject *o, tl_dtype *out);           /* None leaves *out unchanged */
int tl_conv_device(PyObject *o, tl_device *out);         /* None leaves *out unchanged */
/* 0 when tensors can be made on *dev; a CUDA device first loads tensorlib.cuda (torch's
 * AssertionError/RuntimeError when CUDA cannot be used) and gets the current device's index
 * when none was given. */
int tl_py_device_ready(tl_device *dev);
int tl_py_add_backend_api(PyObject *m);
PyObject *tl_py_to_device(PyObject *self, tl_device dev, tl_dtype dtype, bool non_blocking);
/* Loads the CUDA backend, where a device is usable, before a pinned allocation; -1 with a
 * Python error. */
int tl_py_pinned_ready(void);
/* self.cpu().<method>(): item()/tolist() of a device tensor read a host copy. */
PyObject *tl_py_call_on_host(PyObject *self, const char *method);
int tl_conv_memfmt(PyObject *o, tl_memory_format *out);  /* None leaves *out unchanged */
int tl_conv_int64(PyObject *o, int64_t *out, const char *what);
/* A size given as varargs ints or one sequence (tuple/list/Size); n receives the rank. */
int tl_conv_size_args(PyObject *const *args, Py_ssize_t nargs, int64_t *sizes, int *n, const char *fname);
int tl_conv_int_list(PyObject *o, int64_t *out, int *n, const char *what);
/* A dim given as int or name (str) against tensor t. */
int tl_conv_dim(PyObject *o, const tl_tensor *t, int64_t *out);
int tl_conv_scalar(PyObject *o, tl_scalar *out);
/* A Python int as a scalar: OverflowError (torch's text) beyond 64 bits. */
int tl_conv_pyint(PyObject *o, tl_scalar *out);
/* A flag's truth value (0/1) into *out; -1 with the truth test's exception set (a Tensor of
 * several elements raises): a failed PyObject_IsTrue is never read as "true". */
int tl_conv_flag(PyObject *o, int *out);
PyObject *tl_scalar_to_py(tl_scalar s);

/* Module init pieces. */
int tl_init_types(PyObject *m);
/* Readies TensorBase with its own methods plus each table in `extra` (NULL-terminated). */
int tl_init_tensor(PyObject *m, PyMethodDef *const *extra);
/* Long work without the GIL (nogil.c): tl_nogil_begin replaces the n input pointers (NULL
 * entries are skipped) by private, pinned views and releases the GIL when the inputs are big
 * enough (returns 1), else leaves everything as it is (0); tl_nogil_end takes the GIL back and
 * unpins. The op between them must write only fresh tensors and touch no Python object. */
#define TL_NOGIL_MAX_ARGS 4
typedef struct {
    PyThreadState *ts;
    int n;
    tl_tensor in[TL_NOGIL_MAX_ARGS];
} tl_nogil;
int tl_nogil_begin(tl_nogil *g, const tl_tensor **ts, int n);
void tl_nogil_end(tl_nogil *g);
/* TL_DEBUG_CHECKS builds: wraps a type's slots and getters (before PyType_Ready) to abort when
 * one returns a value with an exception set or an error without one (debug.c); else nothing. */
int tl_debug_wrap_type(PyTypeObject *t);
extern const int tl_debug_checks;
/* TensorBase's number slots: files defining operators fill them before tl_init_tensor. */
extern PyNumberMethods tl_tensor_as_number;
extern PyMethodDef tl_module_methods_factory[];
extern PyMethodDef tl_module_methods_backend[];  /* python/backend.c */
extern PyMethodDef tl_module_methods_interop[];
extern PyMethodDef tl_tensor_methods_interop[];
/* An ndarray operand of an operator as a tensor: 1 converted (*out new ref), 0 not one, -1 error. */
int tl_ndarray_operand(PyObject *o, PyObject **out);
/* The NumPy dtype of a tensor dtype (ml_dtypes' for bfloat16/float8); TypeError if none. */
PyObject *tl_dtype_as_numpy(tl_dtype dt);
extern PyMethodDef tl_module_methods_dlpack[];
extern PyMethodDef tl_tensor_methods_dlpack[];
extern PyMethodDef tl_module_methods_linalg[], tl_tensor_methods_linalg[]; /* python/linalg.c */
extern PyMethodDef tl_module_methods_lapack[]; /* python/lapack.c */
void tl_linalg_install_operators(void);                                    /* python/linalg.c */
extern PyMethodDef tl_module_methods_random[], tl_tensor_methods_random[]; /* python/random.c */
int tl_random_init(PyObject *m);                                           /* python/random.c */
extern PyMethodDef tl_module_methods_index[];                              /* python/index.c */
extern PyMethodDef tl_module_methods_reduce[];                             /* python/reduce.c */
extern PyMethodDef tl_module_methods_unique[];                             /* python/unique.c */
extern PyMethodDef tl_module_methods_fft[];                                /* python/fft.c */
extern PyBufferProcs tl_tensor_as_buffer;
extern PyMethodDef tl_module_methods_arith[];
extern PyMethodDef tl_tensor_methods_arith[];
/* Tensor.sum/nansum/mean/nanmean fast paths (python/reduce.c), installed outside the gate. */
extern PyMethodDef tl_tensor_methods_reduce_fast[];
/* Fills the operator slots (nb_add ...) and tp_richcompare; call before tl_init_tensor. */
void tl_init_arith(void);
/* out= of an op computed into a fresh result r (reference stolen): returns r when out is
 * None, else writes r into out (ops/copy.h tl_write_out, torch's resize warning) and
 * returns out. */
PyObject *tl_finish_out(TensorObject *r, PyObject *out, const char *fname, bool exact_dtype);
/* torch's UserWarning for an out= tensor with elements that was resized; -1 if it raised. */
int tl_warn_out_resized(const char *old_shape, const char *new_shape);
/* The layout gate (python/gate.c): a callable for `def` that runs it on strided arguments
 * and dispatches sparse ones to the registered sparse implementation or refuses them with
 * torch's NotImplementedError. module NULL makes a Tensor method descriptor. */
PyObject *tl_gate_new(PyMethodDef *def, PyObject *module);
/* For the sparse primitives: no layout dispatch, but tensors on other devices refused. */
PyObject *tl_gate_new_primitive(PyMethodDef *def, PyObject *module);
/* Gates TensorBase's operator slots, getters, indexing and buffer export (before PyType_Ready). */
int tl_gate_init_type(void);
/* Gates TensorBase's own methods (after PyType_Ready). */
int tl_gate_type_methods(void);
/* torch's refusal of an op on a sparse tensor; returns NULL. */
PyObject *tl_gate_refuse(const char *op, PyObject *sparse);
extern PyMethodDef tl_module_methods_gate[];
extern PyMethodDef tl_module_methods_sparse[], tl_tensor_methods_sparse[]; /* python/sparse.c */
extern PyMethodDef tl_module_methods_sparse_compressed[];                  /* python/sparse_compressed.c */
/* Names: Python list/tuple <-> interned ids. */
int tl_conv_names(PyObject *o, int n, int32_t *ids);
/* One dim name (str) to its interned id. */
int tl_conv_name(PyObject *o, int32_t *id);
PyObject *tl_names_tuple(const tl_tensor *t);

#endif
