"""Generates tensorlib's type stubs (tensorlib/**/*.pyi) from the live module.

    .venv/bin/python scripts/gen_stubs.py [OUTDIR]      (default: the tensorlib package itself)

One source of truth: the stubs are built by introspecting what `import tensorlib` registers --
the module functions, Tensor's methods and properties, dtypes, layouts, classes and the
submodules -- and taking each signature from, in this order:
  1. SIG_OVERRIDES below (what introspection cannot know: operators, overloaded C entries);
  2. inspect.signature() of Python functions (Tensor methods that are generic wrappers take
     the signature of the module function of the same name, `input` becoming `self`);
  3. the first docstring line of C functions when it reads `name(args) [-> Ret]`;
  4. _ops.UNARY / _ops.BINARY, the tables the elementwise C entries are registered from;
  5. `(*args: Any, **kwargs: Any)` for the rest.
Parameter types come from their names (PARAM_TYPES), return types from RETURNS, the docstring's
`-> Ret`, or the module's default (Tensor for the tensor namespaces). tests/test_stubs.py
regenerates into a temporary folder and fails when the committed stubs differ.
"""
import builtins
import importlib
import inspect
import os
import re
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tensorlib as tl  # noqa: E402
import tensorlib.array_api  # noqa: E402,F401
import tensorlib.cuda  # noqa: E402,F401
from tensorlib import _C, _ops  # noqa: E402

# (module name, stub path relative to the package, default return type of its functions)
MODULES = [
    ("tensorlib", "__init__.pyi", "Tensor"),
    ("tensorlib.linalg", "linalg.pyi", "Tensor"),
    ("tensorlib.fft", "fft.pyi", "Tensor"),
    ("tensorlib.special", "special.pyi", "Tensor"),
    ("tensorlib.signal.windows", "signal/windows.pyi", "Tensor"),
    ("tensorlib.sparse", "sparse.pyi", "Tensor"),
    ("tensorlib.testing", "testing.pyi", "None"),
    ("tensorlib.cuda", "cuda.pyi", "Any"),
    ("tensorlib.nn", "nn/__init__.pyi", "Any"),
    ("tensorlib.nn.functional", "nn/functional.pyi", "Tensor"),
    ("tensorlib.array_api", "array_api/__init__.pyi", "Tensor"),
    ("tensorlib.array_api.linalg", "array_api/linalg.pyi", "Tensor"),
    ("tensorlib.array_api.fft", "array_api/fft.pyi", "Tensor"),
]

# Shared aliases, defined once in __init__.pyi and imported by the submodule stubs. tensorlib
# binds `bool`, `int`, `float` to dtypes, so the stubs spell Python's types builtins.X.
ALIASES = """\
_bool = builtins.bool
_int = builtins.int
_float = builtins.float
_complex = builtins.complex
_Number: TypeAlias = builtins.bool | builtins.int | builtins.float | builtins.complex
_TensorOrScalar: TypeAlias = Tensor | _Number | numpy.ndarray[Any, Any]
_Dims: TypeAlias = builtins.int | builtins.str | Sequence[builtins.int | builtins.str] | None
_Shape: TypeAlias = builtins.int | Sequence[builtins.int]
_DType: TypeAlias = dtype
_Device: TypeAlias = device | builtins.str | builtins.int
_Layout: TypeAlias = layout
_MemoryFormat: TypeAlias = memory_format
"""
SHARED = ["Tensor", "Generator", "Size", "_bool", "_int", "_float", "_complex", "_Number", "_TensorOrScalar",
          "_Dims", "_Shape", "_DType", "_Device", "_Layout", "_MemoryFormat"]

# Parameter types by parameter name (an unlisted name stays unannotated, i.e. Any).
PARAM_TYPES = {
    "input": "Tensor", "self": None, "other": "_TensorOrScalar", "x": "Tensor", "x1": "_TensorOrScalar",
    "x2": "_TensorOrScalar", "dim": "_Dims", "axis": "_Dims", "keepdim": "_bool", "keepdims": "_bool",
    "dtype": "_DType | None", "device": "_Device | None", "layout": "_Layout | None", "out": "Tensor | None",
    "requires_grad": "_bool", "pin_memory": "_bool", "memory_format": "_MemoryFormat",
    "generator": "Generator | None", "alpha": "_Number", "size": "_Shape", "shape": "_Shape",
    "A": "Tensor", "B": "Tensor", "tensors": "Sequence[Tensor]", "descending": "_bool", "stable": "_bool",
    "copy": "_bool | None", "dim0": "_int | str", "dim1": "_int | str", "seed": "_int", "condition": "Tensor", "y": "_TensorOrScalar", "non_blocking": "_bool", "unbiased": "_bool",
}
VARARG_TYPES = {"dims": "_int | str | Sequence[_int | str]", "size": "_int | Sequence[_int]",
                "shape": "_int | Sequence[_int]", "tensors": "Tensor"}

# Signatures introspection cannot know (C entries without a signature line, operators, overloads).
_BIN = "(self, other: _TensorOrScalar) -> Tensor"
_CMP = "(self, other: _TensorOrScalar) -> Tensor  # type: ignore[override]"
_UN = "(self) -> Tensor"
SIG_OVERRIDES = {
    **{f"Tensor.__{n}__": _BIN for n in (
        "add radd iadd sub rsub isub mul rmul imul truediv rtruediv itruediv floordiv rfloordiv ifloordiv mod "
        "rmod imod pow rpow ipow matmul rmatmul imatmul and rand iand or ror ior xor rxor ixor lshift rlshift "
        "ilshift rshift rrshift irshift lt le gt ge").split()},
    "Tensor.__eq__": _CMP, "Tensor.__ne__": _CMP,
    **{f"Tensor.__{n}__": _UN for n in ("neg", "pos", "abs", "invert")},
    "Tensor.__getitem__": "(self, indices: Any) -> Tensor",
    "Tensor.__setitem__": "(self, indices: Any, value: _TensorOrScalar) -> None",
    "Tensor.__len__": "(self) -> _int", "Tensor.__iter__": "(self) -> Iterator[Tensor]",
    "Tensor.__bool__": "(self) -> _bool", "Tensor.__int__": "(self) -> _int", "Tensor.__index__": "(self) -> _int",
    "Tensor.__float__": "(self) -> _float", "Tensor.__complex__": "(self) -> _complex",
    "Tensor.__contains__": "(self, element: Any) -> _bool",
    "Tensor.__array__": "(self, dtype: Any = ..., copy: _bool | None = ...) -> numpy.ndarray[Any, Any]",
    "Tensor.__dlpack__": "(self, stream: Any = ..., *, max_version: tuple[_int, _int] | None = ..., "
                         "dl_device: tuple[_int, _int] | None = ..., copy: _bool | None = ...) -> Any",
    "Tensor.__dlpack_device__": "(self) -> tuple[_int, _int]",
    "Tensor.__init__": "(self, *args: Any, **kwargs: Any) -> None",
    "tensorlib.where": "(condition: Tensor, input: _TensorOrScalar | None = ..., other: _TensorOrScalar | None = ..., "
                       "*, out: Tensor | None = ...) -> Tensor",
    "Tensor.size": "(self, dim: _int | str | None = ...) -> Any",
    "Tensor.view": "(self, *shape: Any) -> Tensor",
    "Tensor.reshape": "(self, *shape: _int | Sequence[_int]) -> Tensor",
    "Tensor.to": "(self, *args: Any, **kwargs: Any) -> Tensor",
    **{"tensorlib." + n: "(*size: _int | Sequence[_int], out: Tensor | None = ..., dtype: _DType | None = ..., "
       "layout: _Layout | None = ..., device: _Device | None = ..., requires_grad: _bool = ..., pin_memory: _bool = "
       "..., memory_format: _MemoryFormat = ..., names: Any = ...) -> Tensor" for n in ("empty", "zeros", "ones")},
    "tensorlib.full": "(size: _Shape, fill_value: _Number, *, out: Tensor | None = ..., dtype: _DType | None = ..., "
                      "layout: _Layout | None = ..., device: _Device | None = ..., requires_grad: _bool = ..., "
                      "pin_memory: _bool = ..., names: Any = ...) -> Tensor",
    "tensorlib.get_default_dtype": "() -> _DType", "tensorlib.set_default_dtype": "(d: _DType, /) -> None",
    "tensorlib.set_default_device": "(device: _Device | None, /) -> None",
    "tensorlib.get_num_threads": "() -> _int", "tensorlib.set_num_threads": "(int: _int, /) -> None",
    "Tensor.requires_grad_": "(self, requires_grad: _bool = ...) -> Tensor",
    "Tensor.uniform_": "(self, from_: _float = ..., to: _float = ..., *, generator: Generator | None = ...) -> Tensor",
    "Tensor.random_": "(self, from_: _int = ..., to: _int | None = ..., *, generator: Generator | None = ...) -> Tensor",
    "Tensor.rename": "(self, *names: str | None, **rename_map: str) -> Tensor",
    "Tensor.rename_": "(self, *names: str | None, **rename_map: str) -> Tensor",
    "Size.__init__": "(self, sizes: Iterable[_int] = ...) -> None",
    "Size.numel": "(self) -> _int",
    "device.__init__": "(self, type: str | _int | device, index: _int | None = ...) -> None",
    "dtype.to_real": "(self) -> _DType", "dtype.to_complex": "(self) -> _DType",
}
for _n in _ops.BINARY:
    SIG_OVERRIDES.setdefault(f"tensorlib.{_n}", "(input: _TensorOrScalar, other: _TensorOrScalar, *, "
                             "out: Tensor | None = ...) -> Tensor")
    SIG_OVERRIDES.setdefault(f"Tensor.{_n}", "(self, other: _TensorOrScalar) -> Tensor")
    SIG_OVERRIDES.setdefault(f"Tensor.{_n}_", "(self, other: _TensorOrScalar) -> Tensor")
for _n in ("add", "sub", "subtract"):
    SIG_OVERRIDES[f"tensorlib.{_n}"] = ("(input: _TensorOrScalar, other: _TensorOrScalar, *, alpha: _Number = ..., "
                                        "out: Tensor | None = ...) -> Tensor")
    for _m in (_n, _n + "_"):
        SIG_OVERRIDES[f"Tensor.{_m}"] = "(self, other: _TensorOrScalar, *, alpha: _Number = ...) -> Tensor"
for _n in ("div", "divide"):
    SIG_OVERRIDES[f"tensorlib.{_n}"] = ("(input: _TensorOrScalar, other: _TensorOrScalar, *, rounding_mode: str | "
                                        "None = ..., out: Tensor | None = ...) -> Tensor")
    for _m in (_n, _n + "_"):
        SIG_OVERRIDES[f"Tensor.{_m}"] = "(self, other: _TensorOrScalar, *, rounding_mode: str | None = ...) -> Tensor"
for _n in _ops.UNARY:
    SIG_OVERRIDES.setdefault(f"tensorlib.{_n}", "(input: Tensor, *, out: Tensor | None = ...) -> Tensor")
    SIG_OVERRIDES.setdefault(f"Tensor.{_n}", "(self) -> Tensor")
    SIG_OVERRIDES.setdefault(f"Tensor.{_n}_", "(self) -> Tensor")

# Return types by qualified name (tensorlib.cuda.manual_seed), else by function or method name.
_NAMED = "Any"    # torch.return_types-style results: a tuple of tensors with named fields
RETURNS = {
    **dict.fromkeys("dim ndimension numel nelement element_size data_ptr storage_offset get_device nnz _nnz "
                    "dense_dim sparse_dim get_num_threads seed initial_seed".split(), "_int"),
    **dict.fromkeys("equal allclose is_tensor is_storage is_nonzero is_same_size can_cast has_names is_coalesced "
                    "is_contiguous is_floating_point is_complex is_signed is_inference is_pinned is_shared "
                    "is_set_to is_conj is_neg is_grad_enabled is_inference_mode_enabled "
                    "is_non_overlapping_and_dense".split(), "_bool"),
    **dict.fromkeys("item tolist stride type storage untyped_storage max min median nanmedian mode kthvalue sort "
                    "topk aminmax cummax cummin var_mean std_mean frexp histogram unique unique_consecutive "
                    "slogdet qr svd eig eigh lu lu_factor lu_factor_ex lstsq geqrf cholesky_ex inv_ex solve_ex "
                    "ldl_factor ldl_factor_ex nonzero load split chunk tensor_split unbind meshgrid "
                    "broadcast_tensors atleast_1d atleast_2d atleast_3d hsplit vsplit dsplit unique_all "
                    "unique_counts unique_inverse __array_namespace__ __reduce_ex__ __getstate__ __setstate__ "
                    "__array_function__ __array_ufunc__ __deepcopy__ __copy__".split(), _NAMED),
    **dict.fromkeys("is_available is_initialized is_built".split(), "_bool"),  # tensorlib.cuda
    **dict.fromkeys("device_count current_device memory_allocated max_memory_allocated memory_reserved "
                    "max_memory_reserved".split(), "_int"),
    "get_device_name": "str", "tensorlib.cuda.manual_seed": "None", "tensorlib.cuda.manual_seed_all": "None",
    "tensorlib.cuda.seed": "None", "tensorlib.cuda.seed_all": "None", "tensorlib.cuda.set_rng_state_all": "None",
    "tensorlib.cuda.get_rng_state_all": "list[Tensor]",
    "numpy": "numpy.ndarray[Any, Any]", "to_scipy": "Any", "dim_order": "tuple[_int, ...]",
    "result_type": "_DType", "promote_types": "_DType",
    "get_default_dtype": "_DType", "get_default_device": "device", "manual_seed": "Generator",
    "broadcast_shapes": "Size", "get_rng_state": "Tensor", "get_printoptions": "dict[str, Any]",
    "__repr__": "str", "__str__": "str", "__format__": "str", "__hash__": "_int", "__sizeof__": "_int",
    "__dir__": "Iterable[str]",
}
for _n in ("set_default_dtype set_default_device set_num_threads set_printoptions set_rng_state save "
           "set_flush_denormal use_deterministic_algorithms").split():
    RETURNS[_n] = "None"

# Property types of Tensor and of the small classes (an unlisted property is Any).
PROPERTY_TYPES = {
    "Tensor": {"shape": "Size", "dtype": "_DType", "device": "device", "layout": "_Layout", "ndim": "_int",
               "T": "Tensor", "mT": "Tensor", "H": "Tensor", "mH": "Tensor", "real": "Tensor", "imag": "Tensor",
               "names": "tuple[str | None, ...]", "grad": "Tensor | None", "requires_grad": "_bool",
               "itemsize": "_int", "nbytes": "_int", "data": "Tensor", **{k: "_bool" for k in (
                   "is_cpu is_cuda is_leaf is_meta is_mkldnn is_nested is_quantized is_sparse is_sparse_csr").split()}},
    "dtype": {"is_floating_point": "_bool", "is_complex": "_bool", "is_signed": "_bool", "itemsize": "_int"},
    "device": {"type": "str", "index": "_int | None"},
    "finfo": {k: "_float" for k in "eps max min tiny smallest_normal resolution".split()} | {"bits": "_int"},
    "iinfo": {"bits": "_int", "max": "_int", "min": "_int"},
}
# C methods whose docstrings have no signature line
NO_ARG_METHODS = set("dim item t t_ detach detach_ zero_ tolist data_ptr element_size nelement ndimension numel "
                     "storage_offset is_coalesced dense_dim sparse_dim has_names is_shared share_memory_ "
                     "untyped_storage is_non_overlapping_and_dense".split())
CAST_METHODS = set("float double half int long bool byte char short bfloat16 cfloat cdouble chalf".split())
CLASS_DUNDERS = ("__init__", "__call__", "__enter__", "__exit__", "__iter__", "__next__", "__len__", "__getitem__")
TENSOR_DUNDERS = [k.split(".", 1)[1] for k in SIG_OVERRIDES if k.startswith("Tensor.__")] + [
    "__array_namespace__", "__array_function__", "__array_ufunc__", "__deepcopy__", "__copy__", "__reduce_ex__",
    "__hash__", "__repr__", "__format__"]

_SIMPLE_TYPES = {"Tensor": "Tensor", "Size": "Size", "int": "_int", "bool": "_bool", "float": "_float",
                 "None": "None", "dtype": "_DType", "str": "str", "device": "device"}


def _doc_signature(obj, name):
    """(parameter text, return text or None) from a `name(args) -> Ret` first docstring line."""
    first = (getattr(obj, "__doc__", None) or "").strip().split("\n", 1)[0]
    m = re.match(r"%s\((.*?)\)(?:\s*->\s*([\w.]+))?" % re.escape(name), first)
    if not m:
        return None
    try:  # the argument list must parse as Python's
        params = inspect.signature(eval("lambda %s: None" % m.group(1), {"tensorlib": tl})).parameters
    except Exception:
        return None
    params = list(params.values())
    return None if _generic(params) else (params, m.group(2))


def _python_signature(obj):
    """inspect's parameters, or None for a wrapper's (input, *args, **kwargs) that says nothing."""
    try:
        params = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return None
    return None if _generic(params) else params


def _generic(params):
    """A forwarding wrapper's ([input,] *args, **kwargs): it says nothing about the arguments."""
    params = [p for p in params if not (p.kind == p.KEYWORD_ONLY and p.name.startswith("_"))]  # a bound helper
    kinds = [p.kind for p in params]
    return inspect.Parameter.VAR_POSITIONAL in kinds and inspect.Parameter.VAR_KEYWORD in kinds and len(params) <= 3


def _annotate(p):
    if p.annotation is not p.empty and isinstance(p.annotation, str):
        ann = p.annotation
    elif p.kind == p.VAR_POSITIONAL:
        ann = VARARG_TYPES.get(p.name, "Any")
    elif p.kind == p.VAR_KEYWORD:
        ann = "Any"
    else:
        ann = PARAM_TYPES.get(p.name)
        if ann and p.default is None and "None" not in ann and ann != "_Dims":
            ann += " | None"
    star = "*" if p.kind == p.VAR_POSITIONAL else "**" if p.kind == p.VAR_KEYWORD else ""
    text = star + p.name + (": " + ann if ann else "")
    if p.default is not p.empty:
        text += " = ..." if ann else "=..."
    return text


def _render_params(params):
    out, seen_kwonly, had_posonly = [], False, False
    for p in params:
        if p.kind == p.POSITIONAL_ONLY:
            had_posonly = True
        elif had_posonly:
            out.append("/")
            had_posonly = False
        if p.kind == p.KEYWORD_ONLY and not seen_kwonly:
            out.append("*")
        if p.kind in (p.KEYWORD_ONLY, p.VAR_POSITIONAL):
            seen_kwonly = True
        out.append(_annotate(p))
    if had_posonly:
        out.append("/")
    return ", ".join(out)


def _return_type(qual, name, doc_ret, default):
    if qual in RETURNS:
        return RETURNS[qual]
    if name in RETURNS:
        return RETURNS[name]
    if doc_ret:
        return _SIMPLE_TYPES.get(doc_ret.split(".")[-1], "Any")
    if name.endswith("_") and not name.endswith("__") and default == "Tensor":
        return "Tensor"
    if name.startswith(("is_", "has_")):
        return "_bool"
    return default


_SELF = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
_INPUT = inspect.Parameter("input", inspect.Parameter.POSITIONAL_OR_KEYWORD)
_VARARGS = [inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)]


def _method_params(name, obj, module_fn):
    """(parameters after self, docstring return) of a Tensor method, or (None, None)."""
    for fn in (obj, module_fn):
        found = fn is not None and _python_signature(fn)
        if found and found[0].kind != found[0].VAR_POSITIONAL:
            if fn is module_fn and name.endswith("_"):  # an in-place method writes into self, not out=
                found = [p for p in found if p.name != "out"]
            return found[1:], None  # a Python method's self, or the module function's input
    parsed = _doc_signature(obj, name)
    if parsed:
        return parsed
    base = name[:-1]
    if name.endswith("_") and not name.endswith("__") and hasattr(tl.Tensor, base):
        return _method_params(base, getattr(tl.Tensor, base), vars(tl).get(base))  # x.transpose_ as x.transpose
    if name in NO_ARG_METHODS:
        return [], None
    if name in CAST_METHODS:
        return [inspect.Parameter("memory_format", inspect.Parameter.KEYWORD_ONLY, default=None)], None
    return None, None


def _signature(qual, name, obj, default, method, module_fn=None):
    """The text after `def name` for one function or method."""
    if qual in SIG_OVERRIDES:
        return SIG_OVERRIDES[qual]
    doc_ret = None
    if method:
        rest, doc_ret = _method_params(name, obj, module_fn)
        found = None if rest is None else [_SELF] + rest
        if found is None:
            found = [_SELF.replace(kind=inspect.Parameter.POSITIONAL_ONLY)] + _VARARGS
    else:
        found = _python_signature(obj)
        if found is None:
            found, doc_ret = _doc_signature(obj, name) or (None, None)
        if found is None and qual == "tensorlib." + name and "Tensor." + name in SIG_OVERRIDES:
            return SIG_OVERRIDES["Tensor." + name].replace("(self", "(input: Tensor", 1)
        if found is None and qual == "tensorlib." + name and hasattr(tl.Tensor, name):
            # a module-level form of a Tensor method (tensorlib.transpose(x, 0, 1))
            rest, doc_ret = _method_params(name, getattr(tl.Tensor, name), None)
            found = None if rest is None else [_INPUT] + rest
        if found is None:
            found = _VARARGS
    ret = _return_type(qual, name, doc_ret, default)
    if name == "__init__":
        ret = "None"
    return "(%s) -> %s" % (_render_params(found), ret)


def _def(name, sig):
    """`def name(...) -> R: ...`, moving a trailing `# type: ignore[...]` of an override after the body."""
    sig, _, comment = sig.partition("  #")
    return "def %s%s: ...%s" % (name, sig, "  #" + comment if comment else "")


def _is_function(obj):
    return isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, type(_C.empty))) or (
        callable(obj) and not isinstance(obj, type) and hasattr(obj, "__name__"))


def _emit_class(cls, name, lines, key):
    """A small class (Size, dtype, device, Generator, finfo, no_grad, ...) from its members and
    those of its tensorlib base classes. `key`: the class's name in SIG_OVERRIDES and PROPERTY_TYPES
    (tensorlib's classes by their name, a submodule's as module.name: tensorlib.cuda.device is not
    tensorlib.device)."""
    bases = "tuple[_int, ...]" if issubclass(cls, tuple) else (
        "Exception" if issubclass(cls, BaseException) else "Tensor" if issubclass(cls, tl.Tensor) else "")
    lines.append("class %s%s:" % (name, "(%s)" % bases if bases else ""))
    body = []
    props = PROPERTY_TYPES.get(key, {})
    members = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.startswith("tensorlib") and not issubclass(tl.Tensor, klass):
            members.update(vars(klass))
    for attr in sorted(members):
        if attr.startswith("_") and attr not in CLASS_DUNDERS:
            continue
        member = members[attr]
        if isinstance(member, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
            body.append("    @property\n    def %s(self) -> %s: ..." % (attr, props.get(attr, "Any")))
        elif isinstance(member, (staticmethod, classmethod)):
            continue
        elif callable(member) and not isinstance(member, type):
            if attr == "__init__" and "%s.__init__" % key not in SIG_OVERRIDES and cls.__init__ is object.__init__:
                continue
            body.append("    " + _def(attr, _signature("%s.%s" % (key, attr), attr, member, "Any", True)))
    if "__init__" not in members and "%s.__init__" % key in SIG_OVERRIDES:
        body.insert(0, "    def __init__%s: ..." % SIG_OVERRIDES["%s.__init__" % key])
    lines.extend(body or ["    ..."])
    lines.append("")


def _emit_tensor(lines):
    T = tl.Tensor
    lines.append("class Tensor:")
    lines.append("    def __init__%s: ..." % SIG_OVERRIDES["Tensor.__init__"])
    props = PROPERTY_TYPES["Tensor"]
    for attr in sorted(dir(T)):
        if attr.startswith("_") and attr not in TENSOR_DUNDERS:
            continue
        if attr == "__init__":
            continue
        member = inspect.getattr_static(T, attr)
        if isinstance(member, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
            lines.append("    @property\n    def %s(self) -> %s: ..." % (attr, props.get(attr, "Any")))
            if isinstance(member, property) and member.fset is not None or attr in ("requires_grad", "names"):
                lines.append("    @%s.setter\n    def %s(self, value: %s) -> None: ..." % (
                    attr, attr, props.get(attr, "Any")))
            continue
        obj = getattr(T, attr)
        if isinstance(obj, type):
            continue
        if not callable(obj):
            continue
        base = attr[:-1] if attr.endswith("_") and not attr.endswith("__") else attr
        module_fn = vars(tl).get(attr, vars(tl).get(base))
        lines.append("    " + _def(attr, _signature("Tensor." + attr, attr, obj, "Tensor", True, module_fn)))
    lines.append("")


def _public_names(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    if mod is tl:  # tensorlib has no __all__: its namespace is what it binds (cuda loads lazily on access;
        # array_api only when imported, as this script does)
        names = [n for n in vars(mod) if not n.startswith("_") and n != "array_api"] + ["cuda"]
    return sorted(set(names))


def generate(modname, default):
    mod = importlib.import_module(modname)
    pkg = modname == "tensorlib"
    head = ['"""Type stubs of %s, generated by scripts/gen_stubs.py from the live module: do not edit."""' % modname,
            "import builtins", "from collections.abc import Iterable, Iterator, Sequence",
            "from typing import Any", "from typing_extensions import TypeAlias" if pkg else "", "", "import numpy", ""]
    if not pkg:
        own = set(_public_names(mod))
        head.append("from tensorlib import %s" % ", ".join(
            n for n in SHARED + ["dtype", "device", "layout", "memory_format"] if n not in own))
        head.append("")
    lines, classes, values, subs = [], [], [], []
    for name in _public_names(mod):
        obj = getattr(mod, name)
        if isinstance(obj, types.ModuleType):
            if obj.__name__.startswith("tensorlib.") and obj.__name__.rsplit(".", 1)[0] == modname:
                subs.append("from . import %s as %s" % (name, name))
            elif obj.__name__.startswith("tensorlib"):
                subs.append("import %s as %s" % (obj.__name__, name))
            continue
        if isinstance(obj, type):
            if obj is tl.Tensor:
                continue
            if not pkg and getattr(tl, name, None) is obj:
                values.append("from tensorlib import %s as %s" % (name, name))
                continue
            if pkg or obj.__module__.startswith(modname):
                classes.append((name, obj))
            else:
                values.append("%s: Any" % name)
            continue
        if isinstance(obj, (_C.dtype, _C.layout, _C.memory_format, _C.device, tl.Generator)):
            values.append("%s: %s" % (name, {_C.dtype: "_DType", _C.layout: "_Layout", _C.memory_format:
                                              "_MemoryFormat", _C.device: "device", tl.Generator: "Generator"}
                                      [type(obj)]))
        elif isinstance(obj, (builtins.bool, builtins.int, builtins.float, str)):
            values.append("%s: %s" % (name, {builtins.bool: "_bool", builtins.int: "_int", builtins.float: "_float",
                                             str: "str"}[type(obj)]))
        elif obj is None:
            values.append("%s: None" % name)
        elif _is_function(obj):
            lines.append(_def(name, _signature("%s.%s" % (modname, name), name, obj, default, False)))
        else:
            values.append("%s: Any" % name)
    out = head + subs + [""]
    if pkg:
        _emit_tensor(out)
        for name, cls in sorted(classes, key=lambda c: not issubclass(c[1], tuple)):  # Size before its users
            _emit_class(cls, name, out, name)
        out.append(ALIASES)
    else:
        for name, cls in classes:
            _emit_class(cls, name, out, "%s.%s" % (modname, name))
    out += values + [""] + lines
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
    return text


def main(outdir):
    for modname, rel, default in MODULES:
        path = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(generate(modname, default))
    with open(os.path.join(outdir, "py.typed"), "w") as f:
        f.write("")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tensorlib"))
