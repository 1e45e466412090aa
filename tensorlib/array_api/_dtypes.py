"""The Array API namespace's data types, their functions (astype, can_cast, finfo, iinfo, isdtype,
result_type) and the inspection object (__array_namespace_info__).

The namespace offers the standard's dtypes that tensorlib's kernels support fully: bool, int8-64,
uint8, float32/64, complex64/128. uint16/32/64 exist in tensorlib (as in torch 2.13) only for
storage and interop: most arithmetic refuses them, so they are left out of the namespace rather
than advertised and failing. Among the offered dtypes tensorlib's (torch's) promotion is the
standard's table; mixed kinds promote as torch does (int with float gives the float).
"""
from collections import namedtuple

import tensorlib as tl

DTYPES = {"bool": tl.bool, "int8": tl.int8, "int16": tl.int16, "int32": tl.int32, "int64": tl.int64,
          "uint8": tl.uint8, "float32": tl.float32, "float64": tl.float64, "complex64": tl.complex64,
          "complex128": tl.complex128}

_KINDS = {
    "bool": lambda d: d == tl.bool,
    "signed integer": lambda d: d in (tl.int8, tl.int16, tl.int32, tl.int64),
    "unsigned integer": lambda d: d in (tl.uint8, tl.uint16, tl.uint32, tl.uint64),
    "integral": lambda d: _KINDS["signed integer"](d) or _KINDS["unsigned integer"](d),
    "real floating": lambda d: d in (tl.float16, tl.bfloat16, tl.float32, tl.float64),
    "complex floating": lambda d: d in (tl.complex32, tl.complex64, tl.complex128),
    "numeric": lambda d: d != tl.bool and (_KINDS["integral"](d) or _KINDS["real floating"](d)
                                           or _KINDS["complex floating"](d)),
}


def _dtype_of(x):
    if isinstance(x, tl.Tensor):
        return x.dtype
    if not isinstance(x, tl.dtype):
        raise TypeError(f"expected a dtype or an array, got {type(x).__name__}")
    return x


def isdtype(dtype, kind):
    """True when dtype is of kind: a dtype, one of the standard's kind names ('bool', 'signed
    integer', 'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric'),
    or a tuple of those."""
    if not isinstance(dtype, tl.dtype):
        raise TypeError(f"isdtype: expected a dtype, got {type(dtype).__name__}")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, tl.dtype):
        return dtype == kind
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}")
        return _KINDS[kind](dtype)
    raise TypeError(f"isdtype: kind must be a dtype, a str or a tuple, not {type(kind).__name__}")


def _scalar_kind_ok(dtype, value):
    """Whether a Python scalar keeps dtype (the standard's weak scalars)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return dtype != tl.bool
    if isinstance(value, float):
        return dtype.is_floating_point or dtype.is_complex
    return dtype.is_complex


def result_type(*arrays_and_dtypes):
    """The dtype the standard's promotion gives for arrays, dtypes and (2024.12) Python scalars;
    scalars do not widen an array's dtype of a compatible kind."""
    dtypes = [_dtype_of(a) for a in arrays_and_dtypes if not isinstance(a, (bool, int, float, complex))]
    scalars = [a for a in arrays_and_dtypes if isinstance(a, (bool, int, float, complex))]
    if not dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    out = dtypes[0]
    for d in dtypes[1:]:
        out = tl.promote_types(out, d)
    for s in scalars:
        if not _scalar_kind_ok(out, s):
            out = tl.result_type(tl.empty(0, dtype=out), s)
    return out


def can_cast(from_, to, /):
    """True when from_ (a dtype or an array) casts safely to to: within a family (bool; integers;
    real and complex floats) when promoting the two gives to, across families as torch allows
    (bool to anything, integers to floats)."""
    from_ = _dtype_of(from_)
    if not isinstance(to, tl.dtype):
        raise TypeError(f"can_cast(): 'to' must be a dtype, got {type(to).__name__}")
    if _family(from_) == _family(to):
        return tl.promote_types(from_, to) == to
    return tl.can_cast(from_, to)


def _family(d):
    return 0 if d == tl.bool else 2 if d.is_floating_point or d.is_complex else 1


FinfoResult = namedtuple("finfo_object", "bits eps max min smallest_normal dtype")
IinfoResult = namedtuple("iinfo_object", "bits max min dtype")


def finfo(type, /):
    """Machine limits of a floating dtype (or an array's); for complex dtypes, of their real
    component, as the standard asks. ``dtype`` is the real dtype itself."""
    d = _dtype_of(type)
    real = d.to_real() if d.is_complex else d
    f = tl.finfo(real)
    return FinfoResult(f.bits, float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real)


def iinfo(type, /):
    """Machine limits of an integer dtype (or an array's)."""
    d = _dtype_of(type)
    i = tl.iinfo(d)
    return IinfoResult(i.bits, int(i.max), int(i.min), d)


def astype(x, dtype, /, *, copy=True, device=None):
    """x cast to dtype (a new array unless copy=False and nothing changes)."""
    if device is not None:
        x = x.to(device)
    if not copy and x.dtype == dtype:
        return x
    return x.to(dtype, copy=True)


class _Info:
    """What ``__array_namespace_info__()`` returns: the namespace's devices, dtypes and capabilities."""

    __module__ = "tensorlib.array_api"

    def capabilities(self):
        """Optional features: boolean indexing, data-dependent shapes and the most dims."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The device the creation functions use when none is given."""
        return tl.get_default_device()

    def devices(self):
        """The devices arrays can be placed on."""
        return [tl.device("cpu")]

    def default_dtypes(self, *, device=None):
        """The default dtype per kind (float32 unless tl.set_default_dtype changed it)."""
        real = tl.get_default_dtype()
        return {"real floating": real, "complex floating": real.to_complex(), "integral": tl.int64,
                "indexing": tl.int64}

    def dtypes(self, *, device=None, kind=None):
        """The dtypes of the namespace, optionally only those of kind (see isdtype)."""
        if kind is None:
            return dict(DTYPES)
        return {n: d for n, d in DTYPES.items() if isdtype(d, kind)}


def __array_namespace_info__():
    """The namespace's inspection object (devices, default dtypes, dtypes, capabilities)."""
    return _Info()
