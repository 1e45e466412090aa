"""tl.finfo / tl.iinfo: machine limits of tensorlib's dtypes, with torch's values.

The numbers are torch 2.13's (torch.finfo / torch.iinfo), including its choices for the
float8 formats: float8_e5m2fnuz reports eps 0.125, float8_e8m0fnu reports eps 1 and a
positive min (2**-127), and every float8 format reports resolution 1.0. float4_e2m1fn_x2
raises NotImplementedError as torch does. Complex dtypes report their real component's
limits (complex64 -> float32).
"""

__all__ = ["finfo", "iinfo"]

# name: (bits, eps, max, min, tiny (= smallest_normal), resolution)
_FINFO = {
    "float16": (16, 2.0 ** -10, 65504.0, -65504.0, 2.0 ** -14, 0.001),
    "bfloat16": (16, 2.0 ** -7, float.fromhex("0x1.fep+127"), -float.fromhex("0x1.fep+127"),
                 2.0 ** -126, 0.01),
    "float32": (32, 2.0 ** -23, float.fromhex("0x1.fffffep+127"),
                -float.fromhex("0x1.fffffep+127"), 2.0 ** -126, 1e-06),
    "float64": (64, 2.0 ** -52, float.fromhex("0x1.fffffffffffffp+1023"),
                -float.fromhex("0x1.fffffffffffffp+1023"), 2.0 ** -1022, 1e-15),
    "float8_e4m3fn": (8, 0.125, 448.0, -448.0, 2.0 ** -6, 1.0),
    "float8_e5m2": (8, 0.25, 57344.0, -57344.0, 2.0 ** -14, 1.0),
    "float8_e4m3fnuz": (8, 0.125, 240.0, -240.0, 2.0 ** -7, 1.0),
    "float8_e5m2fnuz": (8, 0.125, 57344.0, -57344.0, 2.0 ** -15, 1.0),
    "float8_e8m0fnu": (8, 1.0, 2.0 ** 127, 2.0 ** -127, 2.0 ** -127, 1.0),
}

_COMPLEX_REAL = {"complex32": "float16", "complex64": "float32", "complex128": "float64"}

# name: (bits, min, max)
_IINFO = {
    "uint8": (8, 0, 2 ** 8 - 1),
    "int8": (8, -2 ** 7, 2 ** 7 - 1),
    "int16": (16, -2 ** 15, 2 ** 15 - 1),
    "int32": (32, -2 ** 31, 2 ** 31 - 1),
    "int64": (64, -2 ** 63, 2 ** 63 - 1),
    "uint16": (16, 0, 2 ** 16 - 1),
    "uint32": (32, 0, 2 ** 32 - 1),
    "uint64": (64, 0, 2 ** 64 - 1),
}

_NO_ARG = object()


def _dtype_name(dtype, who):
    """The dtype's short name ('float32'); TypeError when `dtype` is not a tensorlib dtype."""
    import tensorlib

    dtype_type = getattr(tensorlib, "dtype", None)
    if isinstance(dtype_type, type):
        ok = isinstance(dtype, dtype_type)
    else:  # binding not complete yet: recognise a dtype by its attributes
        ok = hasattr(dtype, "is_floating_point") and hasattr(dtype, "itemsize")
    if not ok:
        raise TypeError("%s(): argument 'type' (position 1) must be tensorlib.dtype, not %s"
                        % (who, type(dtype).__name__))
    return str(dtype).split(".")[-1]


class _Info:
    """Read-only record with torch's repr and field-wise equality (unhashable, like torch)."""

    __slots__ = ("_vals",)
    _fields = ()

    def __setattr__(self, name, value):
        raise AttributeError("attribute '%s' of 'tensorlib.%s' objects is not writable"
                             % (name, type(self).__name__))

    def _set(self, **kw):
        object.__setattr__(self, "_vals", kw)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._vals == other._vals

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __repr__(self):
        parts = ["%s=%g" % (f, getattr(self, f)) for f in self._fields]
        parts.append("dtype=%s" % self.dtype)
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))

    __str__ = __repr__


def _field(name, torch_name):
    def get(self):
        try:
            return self._vals[name]
        except KeyError:
            # Only float4_e2m1fn_x2 lacks fields: torch builds its finfo but every
            # field other than bits raises.
            raise NotImplementedError("\"%s\" not implemented for 'Float4_e2m1fn_x2'"
                                      % torch_name) from None
    return property(get)


class finfo(_Info):
    """Limits of a floating point (or complex: its real part) dtype, like torch.finfo.

    finfo() uses tl.get_default_dtype(); finfo(None) is a TypeError, as in torch.
    finfo(float4_e2m1fn_x2) has bits == 8 and raises NotImplementedError for every other
    field, as torch does.
    """

    __slots__ = ()
    _fields = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    bits = _field("bits", "bits")
    eps = _field("eps", "epsilon")
    max = _field("max", "max")
    min = _field("min", "lowest")
    tiny = _field("tiny", "min")
    smallest_normal = _field("smallest_normal", "min")
    resolution = _field("resolution", "digits10")
    dtype = _field("dtype", "dtype")

    def __init__(self, type=_NO_ARG):
        if type is _NO_ARG:
            import tensorlib

            type = tensorlib.get_default_dtype()
        name = _dtype_name(type, "finfo")
        name = _COMPLEX_REAL.get(name, name)
        if name == "float4_e2m1fn_x2":
            self._set(bits=8)
            return
        if name not in _FINFO:
            raise TypeError("tensorlib.finfo() requires a floating point input type. "
                            "Use tensorlib.iinfo to handle 'tensorlib.finfo'")
        bits, eps, mx, mn, tiny, resolution = _FINFO[name]
        self._set(bits=bits, eps=eps, max=mx, min=mn, tiny=tiny, smallest_normal=tiny,
                  resolution=resolution, dtype=name)


class iinfo(_Info):
    """Limits of an integer dtype, like torch.iinfo (bool is a TypeError)."""

    __slots__ = ()
    _fields = ("min", "max")

    bits = _field("bits", "bits")
    max = _field("max", "max")
    min = _field("min", "min")
    dtype = _field("dtype", "dtype")

    def __init__(self, type):
        name = _dtype_name(type, "iinfo")
        if name == "bool":
            raise TypeError("tensorlib.bool is not supported by tensorlib.iinfo")
        if name not in _IINFO:
            raise TypeError("tensorlib.iinfo() requires an integer input type. "
                            "Use tensorlib.finfo to handle 'tensorlib.iinfo'")
        bits, mn, mx = _IINFO[name]
        self._set(bits=bits, max=mx, min=mn, dtype=name)
