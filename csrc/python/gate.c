/* gate.c - the one place where layouts are dispatched. Every C function and Tensor method
 * of the binding (and TensorBase's operator slots, getters, indexing and buffer export) is
 * registered through a gate: when no argument is a sparse tensor (a tensor, or a tensor in
 * a list/tuple argument) it calls the strided implementation directly; otherwise it calls
 * the handler registered for that op name by tensorlib/_sparse.py (the (op, layout) table),
 * or raises torch's NotImplementedError (a RuntimeError) naming the op and the backend.
 * Dense kernels therefore never see a sparse tensor. Tensors on other devices (meta, CUDA)
 * pass only into the ops listed as handling them (device_ops below); results are checked
 * for views (Tensor._base). The sparse primitives themselves (python/sparse.c,
 * sparse_compressed.c) skip the layout dispatch: those that read no component data take device
 * tensors, the others hand them to the handler registered under their name (tensorlib/
 * _sparse_device.py: host round trips) or refuse them. The layout-blind queries listed in
 * `passthrough` are not gated. */
#include "python/binding.h"

#include <string.h>

#include "backend/backend.h"

static PyObject *handlers; /* dict: op name -> callable taking the op's arguments */

static inline bool is_sparse(PyObject *o) { return tl_is_tensor(o) && TL_TENSOR(o)->layout != TL_LAYOUT_STRIDED; }
/* A tensor that needs the gate: sparse, or on a device other than the CPU. */
static inline bool is_special(const tl_tensor *t) { return t->layout != TL_LAYOUT_STRIDED || t->device.type != TL_DEV_CPU; }

/* The first sparse tensor among args (or in a list/tuple arg), or a sparse layout object
 * (a factory's layout=); else the first tensor on a device other than the CPU; NULL when
 * there is neither (one scan, as cheap as the sparse test alone). */
static PyObject *first_special(PyObject *const *args, Py_ssize_t n)
{
    PyObject *dev = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = args[i];
        if (tl_is_tensor(o)) {
            if (!is_special(TL_TENSOR(o))) continue;
            if (TL_TENSOR(o)->layout != TL_LAYOUT_STRIDED) return o;
            if (!dev) dev = o;
        } else if (Py_TYPE(o) == &Layout_Type) {
            if (((LayoutObject *)o)->layout != TL_LAYOUT_STRIDED) return o;
        } else if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
            Py_ssize_t m = PySequence_Fast_GET_SIZE(o);
            PyObject **items = PySequence_Fast_ITEMS(o);
            for (Py_ssize_t j = 0; j < m; j++) {
                if (!tl_is_tensor(items[j]) || !is_special(TL_TENSOR(items[j]))) continue;
                if (is_sparse(items[j])) return items[j];
                if (!dev) dev = items[j];
            }
        }
    }
    return dev;
}

/* The first tensor on a device other than the CPU among args (or in a list/tuple arg). */
static PyObject *first_device(PyObject *const *args, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = args[i];
        if (tl_is_tensor(o) && TL_TENSOR(o)->device.type != TL_DEV_CPU) return o;
        if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
            Py_ssize_t m = PySequence_Fast_GET_SIZE(o);
            PyObject **items = PySequence_Fast_ITEMS(o);
            for (Py_ssize_t j = 0; j < m; j++)
                if (tl_is_tensor(items[j]) && TL_TENSOR(items[j])->device.type != TL_DEV_CPU) return items[j];
        }
    }
    return NULL;
}

static PyObject *first_sparse(PyObject *const *args, Py_ssize_t n)
{
    PyObject *o = first_special(args, n);
    return o && (!tl_is_tensor(o) || is_sparse(o)) ? o : NULL;
}

/* Sparse primitives that read no component data (shapes, flags, wrapping trusted components;
 * the constructors read indices only to validate or infer a size, which the core refuses for
 * device components: tensorlib/_sparse_device.py validates host copies) or that run on the
 * device (_sparse_device_mm through the backend's spmm entry): device tensors pass. */
static const char *const device_blind_primitives[] = {
    "_indices", "_values", "_nnz", "sparse_dim", "dense_dim", "is_coalesced", "_coalesced_", "_set_coo_",
    "_sparse_coo_new", "_sparse_compressed_new", "_compressed_parts", "_set_compressed_", "_sparse_device_mm",
    "_semi_device", NULL};

/* ---- device tensors ----
 * Ops whose C implementation handles tensors on other devices: geometry only (views, queries),
 * the strided iterator (element-wise ops, copies, casts, fills: it runs no loop for meta
 * and refuses other devices), or an explicit meta path that shapes the result and returns
 * (reductions, sort/topk/max(dim), products, cat: meta_path_ops, for meta tensors
 * only). Every other op refuses a device tensor here, before any kernel could read device
 * memory on the host (meta memory is a guard page). The element-wise tables (arith.c) are
 * accepted as a whole. */
static const char *const device_ops[] = {
    /* geometry, queries, copies */
    "as_strided", "contiguous", "clone", "copy_", "data_ptr", "detach", "diagonal", "expand", "narrow", "permute",
    "reshape", "select", "squeeze", "unsqueeze", "storage_offset", "stride", "t", "transpose", "unfold", "view", "to",
    "is_contiguous", "is_non_overlapping_and_dense", "is_shared", "item", "tolist", "numpy", "requires_grad_",
    "fill_", "zero_", "untyped_storage", "bfloat16", "bool", "byte", "cdouble", "cfloat", "chalf", "char", "double",
    "float", "half", "int", "long", "short", "_hd_apply", "_flip", "_repeat", "_view_as_real", "_view_as_complex", "_record_stream", "__dlpack__", "__dlpack_device__", "from_dlpack",
    /* factories */
    "empty", "empty_strided", "zeros", "ones", "full", "_empty_like",
    /* the in-place samplers: meta returns before drawing, a backend device runs its random
     * entry (ops/random.c) */
    "uniform_", "normal_", "random_", "exponential_", "cauchy_", "log_normal_", "geometric_", "bernoulli_", "_normal",
    /* randperm: random keys sorted on the device (ops/random.c) */
    "_randperm_",
    /* poisson, binomial: meta gives the shape (poisson) or torch's refusal (binomial); a backend
     * device's tensors are sampled on the host with its generator (ops/random_count.c) */
    "_poisson", "_binomial",
    NULL};

/* Ops with an explicit meta path (shapes only) whose data path runs host kernels: they take
 * meta tensors, and refuse other devices' tensors here (reading device memory on the host
 * would crash) until a backend has kernels for them. */
static const char *const meta_path_ops[] = {
    "_cat", "_reduce", "_reduce_index", "_sort", "_topk", "mm", "bmm", "matmul", "mv", "dot", "addmm", "addmv",
    "baddbmm", NULL};

/* Ops without a meta path that run on a backend's device: meta tensors are refused as for an op
 * without a device path. nonzero, masked_select and unique (their result's shape depends on the
 * data) use the select entry (ops/mask.c, search.c), as do unique(dim=)/unique_consecutive (ops/unique.c);
 * multinomial composes the random, scan, reduce and sort entries (ops/random.c); the products
 * reach the gemm entry. */
static const char *const no_meta_ops[] = {"_nonzero", "_masked_select", "_unique", "_unique_dim", "_multinomial", "vdot",
                                          "addbmm", "outer", "ger", "addr", NULL};

/* Of those and of meta_ops below, the ones that run on a backend's device too: the reductions
 * through its reduce entry, the scans through its scan entry, cat through copies, indexing,
 * gather/scatter, index_select, take/put_ and masked_scatter_ through its index entry, sort/topk through its sort
 * entry, the products through its gemm entry. */
static const char *const backend_ops[] = {"_reduce", "_reduce_index", "_scan", "_cat", "_index", "_index_put_", "_gather",
                                          "_scatter_", "_index_select", "_take", "_put_", "_masked_scatter_", "_sort", "_topk",
                                          "mm", "bmm", "matmul", "mv", "dot", "addmm", "addmv", "baddbmm", NULL};

/* Primitives with a meta path that shapes and checks, then skips the data. They read host
 * memory directly otherwise, so they take meta tensors only: a CUDA tensor is refused as for
 * an op without a device path. Each has a device rule, since they take several tensors and
 * read the data of all of them on the host: SAME ops (LAPACK, FFT, tril, cross, searchsorted)
 * want every tensor on the first one's device (a 0-d CPU tensor goes with any); SELF ops
 * (indexing, gather/scatter) make their result on self's device, and a meta self takes CPU
 * indices or values as torch's meta kernels do (nothing is read), while a CPU self refuses
 * meta ones (torch would hand back an unfilled CPU tensor); INDEX ops (x[i], index_put_) are
 * SELF ops whose CPU tensors a backend device's self takes too (moved there: torch's CUDA x[i]
 * takes CPU indices); ANY ops check nothing more.
 * Checked only once a device tensor was found, so the CPU path pays nothing. */
enum { DEV_ANY, DEV_SAME, DEV_SELF, DEV_INDEX };
static const struct { const char *name; char rule; } meta_ops[] = {
    {"_index", DEV_INDEX}, {"_index_put_", DEV_INDEX}, {"_gather", DEV_SELF}, {"_scatter_", DEV_SELF},
    {"_index_select", DEV_SELF}, {"_take", DEV_SELF}, {"_put_", DEV_SELF}, {"_masked_scatter_", DEV_SELF},
    {"_fft_c2c_rows", DEV_SAME}, {"_fft_r2c_rows", DEV_SAME},
    {"_lapack_getrf", DEV_SAME}, {"_lapack_getrs", DEV_SAME}, {"_lapack_perm", DEV_SAME}, {"_lapack_potrf", DEV_SAME},
    {"_lapack_geqrf", DEV_SAME}, {"_lapack_orgqr", DEV_SAME}, {"_lapack_syevd", DEV_SAME}, {"_lapack_gesdd", DEV_SAME},
    {"_lapack_geev", DEV_SAME}, {"_lapack_trsm", DEV_SAME}, {"_lapack_sytrf", DEV_SAME}, {"_lapack_sytrs", DEV_SAME},
    {"_tril_", DEV_SAME}, {"_cross", DEV_SAME},
    {"_searchsorted", DEV_SAME}, {"_repeat_interleave_index", DEV_ANY}, {"_scan", DEV_ANY}, {"_histc", DEV_ANY},
    {NULL, DEV_ANY}};

/* The entry of meta_ops for name, or -1. */
static int meta_op(const char *name)
{
    for (int i = 0; meta_ops[i].name; i++)
        if (!strcmp(meta_ops[i].name, name)) return i;
    return -1;
}

/* Visits the tensors among args (and in list/tuple args) in order; stops at a nonzero return. */
static int check_devices(int rule, PyObject *const *args, Py_ssize_t n)
{
    const tl_tensor *first = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = args[i];
        PyObject *const *items = &args[i];
        Py_ssize_t m = 1;
        if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
            m = PySequence_Fast_GET_SIZE(o);
            items = PySequence_Fast_ITEMS(o);
        }
        for (Py_ssize_t j = 0; j < m; j++) {
            if (!tl_is_tensor(items[j])) continue;
            const tl_tensor *t = TL_TENSOR(items[j]);
            if (!first) {
                first = t;
                continue;
            }
            if (tl_device_eq(t->device, first->device) || (t->device.type == TL_DEV_CPU && t->ndim == 0)) continue;
            if ((rule == DEV_SELF || rule == DEV_INDEX) && first->device.type == TL_DEV_META && t->device.type == TL_DEV_CPU)
                continue;
            if (rule == DEV_INDEX && t->device.type == TL_DEV_CPU) continue; /* moved to self's device (ops/index.c) */
            if (tl_device_expect_same(first->device, t->device) < 0) {
                tl_raise();
                return -1;
            }
        }
    }
    return 0;
}

/* The torch op named in the meta refusal of a primitive: the table's, else the name without
 * its leading underscore. */
static const char *meta_name(const char *op)
{
    static const char *const names[][2] = {{"_unique", "_unique2"}, {"_lapack_gels", "linalg_lstsq.out"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i][0], op)) return names[i][1];
    return op[0] == '_' ? op + 1 : op;
}

/* Ops whose meta answer is torch's refusal with its own text: the result's shape would
 * depend on the data. */
static const char *meta_refusal(const char *op)
{
    if (!strcmp(op, "_nonzero"))
        return "The register_meta function for torch.nonzero() raises unimplemented by default, as a correct "
               "data-independent implementation does not exist. This implementation returns a fake value, assuming "
               "all elements of the tensor are non-zero. To enable this registration, please set "
               "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.";
    return NULL;
}

static bool in_table(const PyMethodDef *d, const PyMethodDef *table)
{
    for (; table->ml_name; table++)
        if (table == d) return true;
    return false;
}

static bool in_list(const char *const *list, const char *name)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], name)) return true;
    return false;
}

static bool device_ok(const PyMethodDef *d)
{
    if (in_table(d, tl_module_methods_arith) || in_table(d, tl_tensor_methods_arith)) return true;
    return in_list(device_ops, d->ml_name) || in_list(meta_path_ops, d->ml_name) || in_list(no_meta_ops, d->ml_name) ||
           meta_op(d->ml_name) >= 0;
}

/* torch's refusal of an op without a kernel for the tensor's device. */
static PyObject *refuse_device(const char *op, PyObject *t)
{
    tl_device dev = TL_TENSOR(t)->device;
    if (dev.type == TL_DEV_META) {
        const char *msg = meta_refusal(op);
        if (msg) return PyErr_Format(PyExc_NotImplementedError, "%s", msg);
        tl_meta_refuse(meta_name(op));
        return tl_raise();
    }
    return PyErr_Format(PyExc_NotImplementedError,
                        "Could not run 'aten::%s' with arguments from the '%s' backend. This could be because the "
                        "operator doesn't exist for this backend.", op[0] == '_' ? op + 1 : op,
                        dev.type == TL_DEV_CUDA ? "CUDA" : tl_device_type_names[dev.type]);
}

static const char *backend_name(PyObject *t)
{
    bool coo = (tl_is_tensor(t) ? TL_TENSOR(t)->layout : ((LayoutObject *)t)->layout) == TL_LAYOUT_SPARSE_COO;
    if (tl_is_tensor(t) && TL_TENSOR(t)->device.type == TL_DEV_CUDA) return coo ? "SparseCUDA" : "SparseCsrCUDA";
    if (tl_is_tensor(t) && TL_TENSOR(t)->device.type == TL_DEV_META) return coo ? "SparseMeta" : "SparseCsrMeta";
    return coo ? "SparseCPU" : "SparseCsrCPU";
}

PyObject *tl_gate_refuse(const char *op, PyObject *sparse)
{
    return PyErr_Format(PyExc_NotImplementedError,
                        "Could not run 'aten::%s' with arguments from the '%s' backend. This could be because the "
                        "operator doesn't exist for this backend.", op, backend_name(sparse));
}

/* A sparse argument was found: the registered handler, or the refusal. */
static PyObject *dispatch_sparse(const char *name, PyObject *sparse, PyObject *const *args, size_t nargs,
                                 PyObject *kwnames)
{
    PyObject *h = handlers ? PyDict_GetItemString(handlers, name) : NULL;
    if (h) return PyObject_Vectorcall(h, args, nargs, kwnames);
    return tl_gate_refuse(name, sparse);
}

/* ---- view tracking (Tensor._base) ----
 * Every op's result passes here, so views are recognised in one place: a fresh tensor that
 * shares the storage of a tensor argument is a view of it, and its _base is that argument's
 * root (torch keeps the root, never a view). A result that is one of the arguments (in-place
 * ops, out=, ops returning self) is not a new view. torch does not count detach() and
 * view(dtype) as views, although they share storage. */

/* torch does not count these as views although their results share storage. */
static bool not_a_view_op(const char *op, PyObject *const *args, Py_ssize_t n)
{
    return !strcmp(op, "detach") || (!strcmp(op, "view") && n > 1 && Py_TYPE(args[1]) == &Dtype_Type);
}

/* r (a tensor without a base, not o itself) becomes a view of o's root. */
static void mark_view(PyObject *r, PyObject *o)
{
    PyObject *root = ((TensorObject *)o)->base ? ((TensorObject *)o)->base : o;
    ((TensorObject *)r)->base = Py_NewRef(root);
}

static void set_base(PyObject *r, const char *op, PyObject *const *args, Py_ssize_t n)
{
    if (!tl_is_tensor(r) || ((TensorObject *)r)->base) return;
    const tl_storage *s = TL_TENSOR(r)->storage;
    for (Py_ssize_t i = 0; i < n; i++)
        if (args[i] == r) return;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = args[i];
        if (!tl_is_tensor(o) || TL_TENSOR(o)->storage != s) continue;
        if (!not_a_view_op(op, args, n)) mark_view(r, o);
        return;
    }
}

/* Marks the views among an op's result (a tensor, or a tuple/list of them); returns r. */
static PyObject *note_views(PyObject *r, const char *op, PyObject *const *args, Py_ssize_t n)
{
    if (!r) return r;
    if (PyTuple_Check(r) || PyList_Check(r)) {
        Py_ssize_t m = PySequence_Fast_GET_SIZE(r);
        PyObject **items = PySequence_Fast_ITEMS(r);
        for (Py_ssize_t j = 0; j < m; j++) set_base(items[j], op, args, n);
    } else {
        set_base(r, op, args, n);
    }
    return r;
}

/* ---- the gated callable: module functions and (as a method descriptor) Tensor methods ---- */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyMethodDef *def;
    bool device_ok; /* device_ok(def) */
    char devrule;   /* the meta_ops entry's device rule (DEV_ANY for other ops) */
    bool meta_only; /* in meta_ops: device tensors other than meta are refused */
    bool no_meta;   /* in no_meta_ops: meta tensors are refused */
    bool primitive; /* a sparse primitive: no layout dispatch; device tensors go to the handler
                     * registered under its name, or are refused */
    bool device_blind; /* a primitive in device_blind_primitives: device tensors pass */
    PyObject *module; /* self passed to module functions; NULL for methods */
} GateObject;

typedef PyObject *(*fast_fn)(PyObject *, PyObject *const *, Py_ssize_t);
typedef PyObject *(*fastkw_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

static PyObject *call_def(PyMethodDef *d, PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int flags = d->ml_flags & (METH_VARARGS | METH_KEYWORDS | METH_NOARGS | METH_O | METH_FASTCALL);
    if (nkw && !(flags & METH_KEYWORDS))
        return PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", d->ml_name);
    switch (flags) {
    case METH_NOARGS:
        if (n) return PyErr_Format(PyExc_TypeError, "%s() takes no arguments (%zd given)", d->ml_name, n);
        return d->ml_meth(self, NULL);
    case METH_O:
        if (n != 1) return PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%zd given)", d->ml_name, n);
        return d->ml_meth(self, args[0]);
    case METH_FASTCALL:
        return ((fast_fn)(void (*)(void))d->ml_meth)(self, args, n);
    case METH_FASTCALL | METH_KEYWORDS:
        return ((fastkw_fn)(void (*)(void))d->ml_meth)(self, args, n, kwnames);
    default: { /* METH_VARARGS [| METH_KEYWORDS] */
        PyObject *tup = PyTuple_New(n), *kw = NULL, *r = NULL;
        if (!tup) return NULL;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_INCREF(args[i]);
            PyTuple_SET_ITEM(tup, i, args[i]);
        }
        if (nkw && !(kw = PyDict_New())) goto out;
        for (Py_ssize_t i = 0; i < nkw; i++)
            if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[n + i]) < 0) goto out;
        if (flags & METH_KEYWORDS)
            r = ((PyCFunctionWithKeywords)(void (*)(void))d->ml_meth)(self, tup, kw);
        else
            r = d->ml_meth(self, tup);
    out:
        Py_DECREF(tup);
        Py_XDECREF(kw);
        return r;
    }
    }
}

static PyObject *gate_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    GateObject *g = (GateObject *)callable;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf), nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *sp = g->primitive ? (g->device_blind ? NULL : first_device(args, n + nkw)) : first_special(args, n + nkw);
    /* a primitive handed a device tensor: the handler registered under its name (tensorlib/
     * _sparse_device.py), else the refusal */
    if (sp && g->primitive) {
        PyObject *h = handlers ? PyDict_GetItemString(handlers, g->def->ml_name) : NULL;
        if (h) return PyObject_Vectorcall(h, args, (size_t)n, kwnames);
        return is_sparse(sp) ? tl_gate_refuse(g->def->ml_name, sp) : refuse_device(g->def->ml_name, sp);
    }
    if (sp && (!tl_is_tensor(sp) || is_sparse(sp))) return dispatch_sparse(g->def->ml_name, sp, args, (size_t)n, kwnames);
    if (sp && (!g->device_ok || (g->meta_only && TL_TENSOR(sp)->device.type != TL_DEV_META) ||
               (g->no_meta && TL_TENSOR(sp)->device.type == TL_DEV_META)))
        return refuse_device(g->def->ml_name, sp);
    if (sp && g->devrule && check_devices(g->devrule, args, n + nkw) < 0) return NULL;
    const char *op = g->def->ml_name;
    if (g->module) return note_views(call_def(g->def, g->module, args, n, kwnames), op, args, n + nkw);
    if (n < 1 || !tl_is_tensor(args[0]))
        return PyErr_Format(PyExc_TypeError, "descriptor '%s' for 'tensorlib._C.TensorBase' objects needs an argument",
                            op);
    return note_views(call_def(g->def, args[0], args + 1, n - 1, kwnames), op, args, n + nkw);
}

static PyObject *gate_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (!obj || ((GateObject *)self)->module) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static void gate_dealloc(GateObject *g)
{
    Py_XDECREF(g->module);
    PyObject_Free(g);
}

static PyObject *gate_name(GateObject *g, void *c) { return PyUnicode_FromString(g->def->ml_name); }
static PyObject *gate_doc(GateObject *g, void *c)
{
    if (!g->def->ml_doc) Py_RETURN_NONE;
    return PyUnicode_FromString(g->def->ml_doc);
}
/* __text_signature__, which inspect.signature reads: the parenthesised arguments of a first
 * docstring line `name(args) [-> Ret]` ($self first for a method), else None. */
static PyObject *gate_text_signature(GateObject *g, void *c)
{
    const char *doc = g->def->ml_doc, *name = g->def->ml_name;
    size_t len = strlen(name);
    if (!doc || strncmp(doc, name, len) || doc[len] != '(') Py_RETURN_NONE;
    const char *p = doc + len;
    int depth = 0;
    for (const char *q = p; *q && *q != '\n'; q++) {
        depth += (*q == '(' || *q == '[') - (*q == ')' || *q == ']');
        if (depth) continue;
        if (g->module) return PyUnicode_FromStringAndSize(p, q - p + 1);
        PyObject *rest = PyUnicode_FromStringAndSize(p + 1, q - p), *r;
        if (!rest) return NULL;
        r = PyUnicode_FromFormat("($self%s%U", q == p + 1 ? "" : ", ", rest);
        Py_DECREF(rest);
        return r;
    }
    Py_RETURN_NONE;
}
static PyObject *gate_repr(GateObject *g) { return PyUnicode_FromFormat("<built-in function %s>", g->def->ml_name); }

static PyGetSetDef gate_getset[] = {
    {"__name__", (getter)gate_name, NULL, NULL, NULL},
    {"__qualname__", (getter)gate_name, NULL, NULL, NULL},
    {"__doc__", (getter)gate_doc, NULL, NULL, NULL},
    {"__text_signature__", (getter)gate_text_signature, NULL, NULL, NULL},
    {NULL},
};

static PyTypeObject Gate_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib._C.builtin_function",
    .tp_basicsize = sizeof(GateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_vectorcall_offset = offsetof(GateObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_descr_get = gate_descr_get,
    .tp_dealloc = (destructor)gate_dealloc,
    .tp_repr = (reprfunc)gate_repr,
    .tp_getset = gate_getset,
};

/* Layout-blind queries: they read only the size/dtype a sparse tensor has too. */
static const char *const passthrough[] = {"size", "dim", "ndimension", "numel", "nelement", "element_size",
                                          "get_device", "is_floating_point", "is_complex", "is_signed",
                                          "has_names", "__len__", NULL};

static bool passes(const char *name)
{
    for (int i = 0; passthrough[i]; i++)
        if (!strcmp(passthrough[i], name)) return true;
    return false;
}

static PyObject *gate_new(PyMethodDef *def, PyObject *module, bool primitive)
{
    if (passes(def->ml_name))
        return module ? PyCFunction_NewEx(def, module, NULL) : PyDescr_NewMethod(&TensorBase_Type, def);
    GateObject *g = PyObject_New(GateObject, &Gate_Type);
    if (!g) return NULL;
    g->vectorcall = gate_vectorcall;
    g->def = def;
    g->device_ok = !primitive && device_ok(def);
    int k = meta_op(def->ml_name);
    g->devrule = k >= 0 ? meta_ops[k].rule : DEV_ANY;
    /* reductions and scans reach a backend's entries (ops/reduce.c, sort.c, scan.c refuse what
     * they lack) */
    g->meta_only = (k >= 0 || in_list(meta_path_ops, def->ml_name)) && !in_list(backend_ops, def->ml_name);
    g->no_meta = in_list(no_meta_ops, def->ml_name);
    g->primitive = primitive;
    g->device_blind = primitive && in_list(device_blind_primitives, def->ml_name);
    g->module = module;
    Py_XINCREF(module);
    return (PyObject *)g;
}

PyObject *tl_gate_new(PyMethodDef *def, PyObject *module) { return gate_new(def, module, false); }
PyObject *tl_gate_new_primitive(PyMethodDef *def, PyObject *module) { return gate_new(def, module, true); }

/* ---- TensorBase's slots: each original is kept and called through a gated twin ---- */

#define GATED_BINARY(X) X(nb_add, "add") X(nb_subtract, "sub") X(nb_multiply, "mul") X(nb_true_divide, "div") \
    X(nb_floor_divide, "floor_divide") X(nb_remainder, "remainder") X(nb_and, "bitwise_and")                    \
    X(nb_or, "bitwise_or") X(nb_xor, "bitwise_xor") X(nb_lshift, "__lshift__") X(nb_rshift, "__rshift__")        \
    X(nb_matrix_multiply, "matmul") X(nb_inplace_add, "add_") X(nb_inplace_subtract, "sub_")                      \
    X(nb_inplace_multiply, "mul_") X(nb_inplace_true_divide, "div_") X(nb_inplace_floor_divide, "floor_divide_")  \
    X(nb_inplace_remainder, "remainder_") X(nb_inplace_and, "bitwise_and_") X(nb_inplace_or, "bitwise_or_")       \
    X(nb_inplace_xor, "bitwise_xor_") X(nb_inplace_lshift, "__ilshift__") X(nb_inplace_rshift, "__irshift__")     \
    X(nb_inplace_matrix_multiply, "matmul_")
#define GATED_UNARY(X) X(nb_negative, "neg") X(nb_positive, "positive") X(nb_absolute, "abs") \
    X(nb_invert, "bitwise_not") X(nb_int, "_local_scalar_dense") X(nb_float, "_local_scalar_dense")  \
    X(nb_index, "_local_scalar_dense")
#define GATED_TERNARY(X) X(nb_power, "pow") X(nb_inplace_power, "pow_")

#define DEF_BIN(slot, op)                                                               \
    static binaryfunc orig_##slot;                                                      \
    static PyObject *gated_##slot(PyObject *a, PyObject *b)                             \
    {                                                                                   \
        PyObject *args[2] = {a, b}, *sp = first_sparse(args, 2);                        \
        return sp ? dispatch_sparse(op, sp, args, 2, NULL) : orig_##slot(a, b);        \
    }
#define DEF_UN(slot, op)                                                                \
    static unaryfunc orig_##slot;                                                       \
    static PyObject *gated_##slot(PyObject *a)                                          \
    {                                                                                   \
        return is_sparse(a) ? dispatch_sparse(op, a, &a, 1, NULL) : orig_##slot(a);    \
    }
#define DEF_TER(slot, op)                                                               \
    static ternaryfunc orig_##slot;                                                     \
    static PyObject *gated_##slot(PyObject *a, PyObject *b, PyObject *c)                \
    {                                                                                   \
        PyObject *args[2] = {a, b}, *sp = first_sparse(args, 2);                        \
        return sp ? dispatch_sparse(op, sp, args, 2, NULL) : orig_##slot(a, b, c);     \
    }
GATED_BINARY(DEF_BIN)
GATED_UNARY(DEF_UN)
GATED_TERNARY(DEF_TER)

static inquiry orig_nb_bool;
static int gated_nb_bool(PyObject *a)
{
    if (!is_sparse(a)) return orig_nb_bool(a);
    PyObject *r = dispatch_sparse("is_nonzero", a, &a, 1, NULL);
    if (!r) return -1;
    int v = PyObject_IsTrue(r);
    Py_DECREF(r);
    return v;
}

static richcmpfunc orig_richcompare;
static PyObject *gated_richcompare(PyObject *a, PyObject *b, int op)
{
    static const char *const names[] = {"lt", "le", "eq", "ne", "gt", "ge"};
    PyObject *args[2] = {a, b}, *sp = first_sparse(args, 2);
    return sp ? dispatch_sparse(names[op], sp, args, 2, NULL) : orig_richcompare(a, b, op);
}

static binaryfunc orig_mp_subscript;
static PyObject *gated_mp_subscript(PyObject *a, PyObject *key)
{
    if (is_sparse(a)) {
        PyObject *args[2] = {a, key};
        return dispatch_sparse("__getitem__", a, args, 2, NULL);
    }
    /* set_base for one tensor argument and an op that always counts as a view */
    PyObject *r = orig_mp_subscript(a, key);
    if (r && r != a && tl_is_tensor(r) && !((TensorObject *)r)->base && TL_TENSOR(r)->storage == TL_TENSOR(a)->storage)
        mark_view(r, a);
    return r;
}

static objobjargproc orig_mp_ass_subscript;
static int gated_mp_ass_subscript(PyObject *a, PyObject *key, PyObject *v)
{
    if (is_sparse(a)) {
        PyErr_SetString(PyExc_TypeError, "Cannot assign to a sparse tensor");
        return -1;
    }
    return orig_mp_ass_subscript(a, key, v);
}

static getbufferproc orig_getbuffer;
static int gated_getbuffer(PyObject *a, Py_buffer *view, int flags)
{
    if (is_sparse(a)) {
        PyErr_Format(PyExc_TypeError, "memoryview: a bytes-like object is required, not '%s'", Py_TYPE(a)->tp_name);
        return -1;
    }
    return orig_getbuffer(a, view, flags);
}

/* getters: the closure points at the original definition */
typedef struct { getter get; const char *name; } getter_orig;
static getter_orig getter_origs[64];

static PyObject *gated_get(PyObject *self, void *closure)
{
    getter_orig *o = closure;
    if (is_sparse(self)) return dispatch_sparse(o->name, self, &self, 1, NULL);
    return note_views(o->get(self, NULL), o->name, &self, 1);
}

static const char *const getter_passthrough[] = {"shape", "dtype", "device", "layout", "ndim", "is_cuda", "is_cpu",
                                                 "is_meta", "is_sparse", "is_sparse_csr", "is_quantized",
                                                 "is_mkldnn", "is_nested", "requires_grad", "is_leaf", "grad",
                                                 "grad_fn", "itemsize", "names", "_base", NULL};

int tl_gate_init_type(void)
{
    PyNumberMethods *nb = &tl_tensor_as_number;
#define SAVE(slot, op) if (nb->slot) { orig_##slot = nb->slot; nb->slot = gated_##slot; }
    GATED_BINARY(SAVE) GATED_UNARY(SAVE) GATED_TERNARY(SAVE) SAVE(nb_bool, "")
#undef SAVE
    PyTypeObject *t = &TensorBase_Type;
    if (t->tp_richcompare) { orig_richcompare = t->tp_richcompare; t->tp_richcompare = gated_richcompare; }
    orig_mp_subscript = t->tp_as_mapping->mp_subscript;
    t->tp_as_mapping->mp_subscript = gated_mp_subscript;
    orig_mp_ass_subscript = t->tp_as_mapping->mp_ass_subscript;
    t->tp_as_mapping->mp_ass_subscript = gated_mp_ass_subscript;
    orig_getbuffer = t->tp_as_buffer->bf_getbuffer;
    t->tp_as_buffer->bf_getbuffer = gated_getbuffer;
    int k = 0;
    for (PyGetSetDef *d = t->tp_getset; d->name; d++) {
        bool pass = false;
        for (int i = 0; getter_passthrough[i]; i++) pass |= !strcmp(getter_passthrough[i], d->name);
        if (pass || !d->get) continue;
        if (k == (int)(sizeof getter_origs / sizeof getter_origs[0])) {
            PyErr_SetString(PyExc_SystemError, "gate.c: too many getters");
            return -1;
        }
        getter_origs[k] = (getter_orig){d->get, d->name};
        d->get = gated_get;
        d->closure = &getter_origs[k++];
    }
    return PyType_Ready(&Gate_Type);
}

/* Replaces TensorBase's own (PyType_Ready-made) method descriptors by gated ones. */
int tl_gate_type_methods(void)
{
    for (PyMethodDef *d = TensorBase_Type.tp_methods; d->ml_name; d++) {
        if (passes(d->ml_name) || d->ml_name[0] == '_') continue;
        PyObject *f = tl_gate_new(d, NULL);
        if (!f || PyDict_SetItemString(TensorBase_Type.tp_dict, d->ml_name, f) < 0) return -1;
        Py_DECREF(f);
    }
    return 0;
}

/* _set_sparse_handlers(dict): tensorlib/_sparse.py registers the sparse implementations. */
static PyObject *m_set_sparse_handlers(PyObject *m, PyObject *d)
{
    if (!PyDict_Check(d)) return PyErr_Format(PyExc_TypeError, "_set_sparse_handlers expects a dict");
    Py_INCREF(d);
    Py_XSETREF(handlers, d);
    Py_RETURN_NONE;
}

/* _meta_refuse(op): raises torch's NotImplementedError for an op without a meta kernel (for
 * the Python compositions whose torch op has none although their primitives have a meta path). */
static PyObject *m_meta_refuse(PyObject *m, PyObject *op)
{
    if (!PyUnicode_Check(op)) return PyErr_Format(PyExc_TypeError, "_meta_refuse expects a str");
    tl_meta_refuse(PyUnicode_AsUTF8(op));
    return tl_raise();
}

/* _add_docstr(fn, doc): stores doc into the PyMethodDef of a C function or method (a gated one,
 * a builtin_function_or_method or a method_descriptor), a C property (getset descriptor), an
 * operator slot wrapper or a C class, as torch's _add_docstr does. The str is
 * kept alive here, its UTF-8 buffer being what ml_doc points at. tensorlib/__init__.py calls it
 * at import. */
static PyObject *doc_keep; /* list of the attached strings */
static PyObject *m_add_docstr(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 2 || !PyUnicode_Check(a[1])) return PyErr_Format(PyExc_TypeError, "_add_docstr(fn, doc) takes a str doc");
    PyObject *f = a[0];
    PyMethodDef *def;
    if (Py_IS_TYPE(f, &Gate_Type)) def = ((GateObject *)f)->def;
    else if (PyCFunction_Check(f)) def = ((PyCFunctionObject *)f)->m_ml;
    else if (Py_IS_TYPE(f, &PyMethodDescr_Type)) def = ((PyMethodDescrObject *)f)->d_method;
    else if (Py_IS_TYPE(f, &PyGetSetDescr_Type) || Py_IS_TYPE(f, &PyWrapperDescr_Type) || PyType_Check(f)) def = NULL;
    else return PyErr_Format(PyExc_TypeError, "_add_docstr: '%s' is not a C function", Py_TYPE(f)->tp_name);
    const char *s = PyUnicode_AsUTF8(a[1]);
    if (!s || (!doc_keep && !(doc_keep = PyList_New(0))) || PyList_Append(doc_keep, a[1]) < 0) return NULL;
    if (def) {
        def->ml_doc = s;
    } else if (Py_IS_TYPE(f, &PyGetSetDescr_Type)) { /* a C property: its PyGetSetDef's doc */
        ((PyGetSetDescrObject *)f)->d_getset->doc = s;
    } else if (Py_IS_TYPE(f, &PyWrapperDescr_Type)) {
        /* an operator slot (Tensor.__add__): its wrapperbase is CPython's table shared by every
         * type, so this descriptor gets its own copy carrying the doc (same slot and wrapper) */
        PyWrapperDescrObject *w = (PyWrapperDescrObject *)f;
        const char *old = w->d_base->doc, *end = old ? strstr(old, ")\n--\n\n") : NULL;
        if (end && strncmp(old, w->d_base->name, strlen(w->d_base->name)) == 0) {
            /* keep CPython's "__add__($self, value, /)\n--\n\n" head: __text_signature__ (and
             * inspect.signature) read it, __doc__ shows what follows */
            PyObject *head = PyUnicode_FromStringAndSize(old, end + 6 - old);
            PyObject *full = head ? PyUnicode_Concat(head, a[1]) : NULL;
            Py_XDECREF(head);
            if (!full) return NULL;
            int rc = PyList_Append(doc_keep, full);
            Py_DECREF(full);
            if (rc < 0 || !(s = PyUnicode_AsUTF8(full))) return NULL;
        }
        struct wrapperbase *own = PyMem_Malloc(sizeof *own);
        if (!own) return PyErr_NoMemory();
        *own = *w->d_base;
        own->doc = s;
        w->d_base = own; /* kept for the life of the process, as the descriptor is */
    } else { /* a C class: __doc__ reads tp_doc (a static type's); its dict holds the copy made
              * when it was readied */
        PyTypeObject *t = (PyTypeObject *)f;
        if (t->tp_flags & Py_TPFLAGS_HEAPTYPE)
            return PyErr_Format(PyExc_TypeError, "_add_docstr: set %s.__doc__ instead", t->tp_name);
        t->tp_doc = s;
        if (PyDict_SetItemString(t->tp_dict, "__doc__", a[1]) < 0) return NULL;
        PyType_Modified(t);
    }
    Py_RETURN_NONE;
}

PyMethodDef tl_module_methods_gate[] = {
    {"_set_sparse_handlers", m_set_sparse_handlers, METH_O, "Registers the sparse implementations by op name."},
    {"_meta_refuse", m_meta_refuse, METH_O, "_meta_refuse(op): raises torch's refusal of an op without a meta kernel."},
    {"_add_docstr", (PyCFunction)(void (*)(void))m_add_docstr, METH_FASTCALL, "_add_docstr(fn, doc): sets a C function's docstring."},
    {NULL},
};
