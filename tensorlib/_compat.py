"""torch names that tensor code written for torch carries without needing new kernels:
softmax / log_softmax (composed from amax, exp and sum), the math constants, the in-place
view methods (unsqueeze_, transpose_, ...: set_ onto the out-of-place view), float_power_,
the grad-mode context managers (no-ops: tensorlib has no autograd), the legacy typed
constructors (FloatTensor(5, 7, 3), LongTensor([1, 2]), ..., ``x.new(...)``, ``resize``), the
per-element Python callbacks (``apply_``, ``map_``, ``map2_``), ``typename``, ``rms_norm`` and
torch's determinism switches."""
import functools
import math
import numbers
import threading

from . import _C
from ._util import dim_index as _dim_index, wrap_dim as _wrap

pi = math.pi
e = math.e
inf = math.inf
nan = math.nan
newaxis = None

__all__ = ["softmax", "log_softmax", "pi", "e", "inf", "nan", "newaxis", "no_grad", "enable_grad",
           "inference_mode", "set_grad_enabled", "is_grad_enabled", "is_inference_mode_enabled", "typename", "rms_norm",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "get_deterministic_debug_mode",
           "set_deterministic_debug_mode"]


# ---- softmax / log_softmax ----

def _softmax(op, input, dim, dtype):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if dim is None:
        raise TypeError(f"{op}() missing required argument 'dim' (pos 2)")
    names = input.names if input.has_names() else None
    d = _wrap(_dim_index(input, dim), max(input.dim(), 1))
    x = input.rename(None) if names else input
    if dtype is not None:
        x = x.to(dtype)
    if not x.dtype.is_floating_point:
        kernel = "lastdim_kernel_impl" if d == max(x.dim(), 1) - 1 else "kernel_impl"
        raise NotImplementedError(f'"{op}_{kernel}" not implemented for \'{x.dtype._cname}\'')
    if x.numel() == 0:
        r = x.clone()
    else:
        shifted = x - x.amax(d, keepdim=True)  # exp never overflows: the largest term is exp(0)
        if op == "softmax":
            ex = shifted.exp()
            r = ex / ex.sum(d, keepdim=True)
        else:
            r = shifted - shifted.exp().sum(d, keepdim=True).log()
    return r.rename(*names) if names else r


def softmax(input, dim, dtype=None):
    """softmax(input, dim, dtype=None) -> Tensor

    exp(x) / sum(exp(x)) along dim (an index or a dim name; names are kept), computed as
    exp(x - max) so large inputs do not overflow. dtype casts the input first (the way to
    take the softmax of an integer tensor)."""
    return _softmax("softmax", input, dim, dtype)


def log_softmax(input, dim, dtype=None):
    """log_softmax(input, dim, dtype=None) -> Tensor

    log(softmax(x)) along dim, computed as (x - max) - log(sum(exp(x - max))), which
    stays finite where softmax underflows to 0."""
    return _softmax("log_softmax", input, dim, dtype)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """rms_norm(input, normalized_shape, weight=None, eps=None) -> Tensor

    input / sqrt(mean(input ** 2 over the last len(normalized_shape) dims) + eps), times
    weight when given; float16/bfloat16 computed in float32, the result in input's dtype; eps
    defaults to the machine epsilon of the compute dtype."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"rms_norm(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if isinstance(normalized_shape, _C.TensorBase) or not isinstance(normalized_shape, (int, tuple, list, _C.Size)) \
            or (weight is not None and not isinstance(weight, _C.TensorBase)) \
            or (eps is not None and not isinstance(eps, numbers.Real)):
        raise ValueError("an argument of the wrong type")  # (tensorlib/_argcheck.py words torch's TypeError)
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if not all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in shape):
        raise ValueError("normalized_shape holds a non-int")
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {shape}")
    if weight is not None and list(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{list(weight.shape)} and normalized_shape = {shape}")
    k = len(shape)
    if input.dim() < k or list(input.shape[input.dim() - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [*{', '.join(map(str, shape))}]"
                           f", but got input of size{list(input.shape)}")
    dt = input.dtype
    if not (dt.is_floating_point or dt.is_complex) or dt._is_shell:
        raise NotImplementedError(f'"rms_norm" not implemented for \'{dt._cname}\'')
    work = _C.float32 if dt in (_C.float16, _C.bfloat16) else dt
    x = input.to(work)
    if eps is None:
        from ._finfo import finfo
        eps = finfo(work).eps
    dims = list(range(input.dim() - k, input.dim()))
    r = x * (x * x).mean(dims, keepdim=True).add_(eps).rsqrt()
    if weight is not None:
        r = r * weight.to(work)
    return r.to(dt)


# ---- torch's determinism switches: tensorlib's kernels are deterministic (same input, same bits,
# any thread count), so the switches are remembered and answer back, nothing else ----

_determinism = {"on": False, "warn_only": False, "debug_mode": 0}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Remembers torch's determinism switch; tensorlib's kernels give the same bits run to run
    and for any thread count whether it is on or off."""
    if not isinstance(mode, bool):
        raise TypeError(f"use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    _determinism.update(on=mode, warn_only=bool(warn_only), debug_mode=(1 if warn_only else 2) if mode else 0)


def are_deterministic_algorithms_enabled():
    """Whether use_deterministic_algorithms(True) is in force."""
    return _determinism["on"]


def is_deterministic_algorithms_warn_only_enabled():
    """Whether use_deterministic_algorithms(True, warn_only=True) is in force."""
    return _determinism["on"] and _determinism["warn_only"]


def get_deterministic_debug_mode():
    """0 (default), 1 (warn) or 2 (error), as torch's."""
    return _determinism["debug_mode"]


def set_deterministic_debug_mode(debug_mode):
    """Sets the determinism switch by torch's debug mode: 0/"default", 1/"warn", 2/"error"."""
    modes = {"default": 0, "warn": 1, "error": 2}
    if isinstance(debug_mode, str):
        if debug_mode not in modes:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


# ---- in-place views: self takes the geometry of the out-of-place view ----

def _become(self, view, op):
    if self.has_names():
        raise RuntimeError(f"{op} is not yet supported with named tensors. Please drop names via "
                           "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names on "
                           "the result of the operation.")
    if self.layout == _C.sparse_coo:  # the components of the out-of-place result (torch: t_, transpose_, ...)
        return self._set_coo_(view._indices(), view._values(), view.shape, view.is_coalesced())
    return self.set_(view, view.storage_offset(), view.shape, view.stride())


def _inplace_view(name):
    def method(self, *args, **kwargs):
        if name in ("unsqueeze", "squeeze") and self.layout == _C.sparse_coo:  # torch: as_strided_, no COO kernel
            raise NotImplementedError("Could not run 'aten::as_strided_' with arguments from the 'SparseCPU' backend. "
                                      "This could be because the operator doesn't exist for this backend.")
        return _become(self, getattr(self, name)(*args, **kwargs), name + "_")
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"{name}_(...) -> Tensor\n\nIn-place {name}: self takes the view's sizes and strides (same storage)."
    return method


def _as_strided_(self, size, stride, storage_offset=None):
    """as_strided_(size, stride, storage_offset=None) -> Tensor

    In-place as_strided: self views its storage with the given geometry."""
    return _become(self, self.as_strided(size, stride, storage_offset), "as_strided_")


def _float_power_(self, exponent):
    """float_power_(exponent) -> Tensor

    In-place float_power; self must be float64 (complex128 for complex operands), the
    dtype float_power computes in."""
    from . import _ops
    r = _ops.float_power(self, exponent)
    if r.dtype != self.dtype:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype._cname} but the operation's "
                           f"result requires dtype {r.dtype._cname}")
    return self.copy_(r)


# ---- grad mode: no-ops with torch's shapes (context managers that also decorate) ----

_state = threading.local()


def is_grad_enabled():
    """True unless inside no_grad / set_grad_enabled(False) (tensorlib has no autograd; this
    only tracks the mode for code that reads it)."""
    return getattr(_state, "grad", True)


def is_inference_mode_enabled():
    """True inside inference_mode()."""
    return getattr(_state, "inference", False)


class _GradMode:
    """Base of the grad-mode context managers: `with m:` sets the mode and restores it,
    `@m` (or `@cls` bare) runs the decorated function inside it."""
    _field, _value = "grad", True

    def __enter__(self):
        self._prev = getattr(_state, self._field, self._default)
        setattr(_state, self._field, self._value)

    def __exit__(self, *exc):
        setattr(_state, self._field, self._prev)
        return False

    def clone(self):
        return self.__class__()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def __new__(cls, orig_func=None, *args, **kwargs):
        if cls in (no_grad, enable_grad) and callable(orig_func) and not args and not kwargs:
            return cls()(orig_func)  # bare @no_grad
        return super().__new__(cls)


class no_grad(_GradMode):
    """Context manager / decorator turning gradient tracking off (a no-op in tensorlib,
    which has no autograd; is_grad_enabled() reads False inside)."""
    _field, _value, _default = "grad", False, True

    def __init__(self, orig_func=None):
        pass


class enable_grad(_GradMode):
    """Context manager / decorator turning gradient tracking on (a no-op in tensorlib)."""
    _field, _value, _default = "grad", True, True

    def __init__(self, orig_func=None):
        pass


class set_grad_enabled(_GradMode):
    """set_grad_enabled(mode): sets the grad mode at once, and restores the previous mode
    when used as a context manager (`with tl.set_grad_enabled(False):`) or decorator."""
    _field, _default = "grad", True

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'mode' must be bool, not {type(mode).__name__}")
        self._prev = is_grad_enabled()
        self._value = mode
        _state.grad = mode

    def __enter__(self):
        pass  # already set by the constructor

    def clone(self):
        return set_grad_enabled(self._value)


class inference_mode(_GradMode):
    """inference_mode(mode=True): context manager / decorator for inference (a no-op in
    tensorlib; is_inference_mode_enabled() and is_grad_enabled() read it)."""
    _field, _default = "inference", False

    def __init__(self, mode=True):
        self._value = bool(mode)

    def __enter__(self):
        self._prev_grad = is_grad_enabled()
        super().__enter__()
        if self._value:
            _state.grad = False

    def __exit__(self, *exc):
        _state.grad = self._prev_grad
        return super().__exit__(*exc)

    def clone(self):
        return inference_mode(self._value)


# ---- Tensor.storage(): torch's (legacy) typed view of the whole storage ----

class TypedStorage:
    """The elements of a tensor's whole storage in its dtype (torch.TypedStorage, read
    side): len, indexing to Python numbers, iteration, tolist, size(), dtype, device,
    data_ptr(), nbytes(), element_size(). Shares memory with the tensor."""

    def __init__(self, tensor):
        n = tensor.untyped_storage().numel() // tensor.element_size()
        self._flat = tensor.as_strided((n,), (1,), 0)

    dtype = property(lambda self: self._flat.dtype)
    device = property(lambda self: self._flat.device)

    def size(self):
        return self._flat.numel()

    __len__ = size

    def element_size(self):
        return self._flat.element_size()

    def nbytes(self):
        return self.size() * self.element_size()

    def data_ptr(self):
        return self._flat.data_ptr()

    def tolist(self):
        return self._flat.tolist()

    def __getitem__(self, i):
        r = self._flat[i]
        return r.item() if r.dim() == 0 else TypedStorage(r.clone())

    def __setitem__(self, i, value):
        self._flat[i] = value

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self):
        body = "\n".join(f" {v}" for v in self.tolist())
        head = f"[tensorlib.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {self.size()}]"
        return (body + "\n" + head) if body else head


def _storage(self):
    """storage() -> TypedStorage

    The whole storage self views, as elements of self's dtype (from index 0, not from
    self's storage_offset), sharing memory with self."""
    return TypedStorage(self)


# ---- legacy typed constructors ----

class _LegacyMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, _C.TensorBase) and obj.dtype == cls._dtype and obj.layout == _C.strided

    def __call__(cls, *args, device=None):
        """FloatTensor() -> empty 1-D; FloatTensor(5, 7, 3) / FloatTensor(Size) -> uninitialized
        of that size; FloatTensor(data) -> a copy of the (nested) sequence."""
        return _legacy_new(cls._dtype, args, device)


def _legacy_new(dtype, args, device, like=None):
    """torch's legacy constructor forms (FloatTensor(...), x.new(...)): no arguments -> empty
    1-D; ints or a Size -> uninitialized of that size; a tensor -> an alias of it (x.new
    only, same dtype and device); other data -> a copy of the (nested) sequence."""
    from . import _factories
    if like is not None and len(args) == 1 and isinstance(args[0], _C.TensorBase):
        other = args[0]
        if other.dtype != like.dtype or other.device != like.device:
            raise TypeError(f"expected {like.type()} (got {other.type()})")
        return _C.empty(0, dtype=dtype, device=other.device).set_(other, other.storage_offset(), other.shape,
                                                                  other.stride())
    if len(args) == 1 and not isinstance(args[0], int) and not isinstance(args[0], _C.Size):
        return _factories.tensor(args[0], dtype=dtype, device=device)
    sizes = tuple(args[0]) if len(args) == 1 and isinstance(args[0], _C.Size) else args if args else (0,)
    for i, s in enumerate(sizes):
        if not isinstance(s, int):
            raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type(s).__name__}\"")
    return _C.empty(sizes, dtype=dtype, device=device)


def _new(self, *args, device=None):
    """new(*args, device=None) -> Tensor

    torch's legacy constructor in self's dtype (and device): ``x.new(2, 3)`` is uninitialized
    of shape (2, 3), ``x.new([1, 2])`` a copy of the data, ``x.new(t)`` an alias of the
    tensor ``t`` (same dtype and device), ``x.new()`` empty. Prefer ``new_empty``,
    ``new_tensor`` and friends."""
    if device is not None and _C.device(device).type != self.device.type:
        raise RuntimeError(f"legacy constructor expects device type: {self.device.type} but device type: "
                           f"{_C.device(device).type} was passed")
    return _legacy_new(self.dtype, args, self.device if device is None else device, like=self)


def _resize(self, *sizes):
    """resize(*sizes) -> Tensor

    torch's deprecated out-of-place resize: a tensor over self's storage with the given
    shape and contiguous strides; the number of elements must stay the same."""
    shape = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, _C.Size)) else sizes
    for i, s in enumerate(shape):
        if not isinstance(s, numbers.Integral) or isinstance(s, bool):
            raise TypeError(f"resize(): argument 'size' (position 1) must be tuple of ints, but found element of type "
                            f"{type(s).__name__} at pos {i}")
    n = 1
    for s in shape:
        n *= s
    if n != self.numel():
        raise RuntimeError(f"requested resize to {'x'.join(map(str, shape))} ({n} elements in total), but the given "
                           f"tensor has a size of {'x'.join(map(str, self.shape))} ({self.numel()} elements). "
                           "autograd's resize can only change the shape of a given tensor, while preserving the "
                           "number of elements. ")
    return _new(self, self).resize_(shape)


def _resize_as(self, the_template):
    """resize_as(the_template) -> Tensor

    ``resize(the_template.shape)``."""
    return _resize(self, the_template.shape)


def _apply_values(self, op, fn, others):
    """self[i] = fn(self[i], *(o[i] for o in others)) over every element (a Python call per
    element, CPU only, as torch's apply_/map_/map2_); others broadcast to self's shape and
    must have self's dtype."""
    if not callable(fn):
        raise TypeError(f"'{type(fn).__name__}' object is not callable")
    if self.is_meta:
        return self
    if self.device.type != "cpu":
        raise TypeError(f"{op} is only implemented on CPU tensors")
    cols = [self.reshape(-1).tolist()]
    for name, o in zip(("other", "other2"), others):
        if o.dtype != self.dtype:
            raise TypeError(f"{op}: expected {self.type()} for '{name}' (got {o.type()})")
        cols.append(o.expand(self.shape).reshape(-1).tolist())
    vals = []
    for args in zip(*cols):
        v = fn(*args)
        if not isinstance(v, numbers.Number) or (isinstance(v, complex) and not self.is_complex()):
            raise TypeError(f"must be real number, not {type(v).__name__}")
        vals.append(v)
    if vals:
        from . import _factories
        self.copy_(_factories.tensor(vals).reshape(self.shape))
    return self


def _apply_(self, callable):
    """apply_(callable) -> Tensor

    Replaces each element x of self (a CPU tensor) by ``callable(x)``, one Python call per
    element; slow, for tests and odd jobs."""
    return _apply_values(self, "apply_", callable, ())


def _map_(self, tensor, callable):
    """map_(tensor, callable) -> Tensor

    self[i] = ``callable(self[i], tensor[i])`` for every element, ``tensor`` broadcast to
    self's shape (same dtype, CPU)."""
    return _apply_values(self, "map_", callable, (tensor,))


def _map2_(self, x, y, callable):
    """map2_(x, y, callable) -> Tensor

    self[i] = ``callable(self[i], x[i], y[i])`` for every element, x and y broadcast to
    self's shape (same dtype, CPU)."""
    return _apply_values(self, "map2_", callable, (x, y))


def _const_data_ptr(self):
    """const_data_ptr() -> int

    ``data_ptr()`` (torch's read-only spelling)."""
    return self.data_ptr()


def typename(obj):
    """typename(obj) -> str

    The qualified name of obj's type: a tensor's ``type()`` (``'tensorlib.FloatTensor'``),
    else the module and qualified name of obj (a class or function) or of its class.

        >>> tl.typename(tl.ones(2))
        'tensorlib.FloatTensor'
    """
    if isinstance(obj, _C.TensorBase):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _legacy_types():
    table = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
             "BFloat16Tensor": "bfloat16", "ByteTensor": "uint8", "CharTensor": "int8", "ShortTensor": "int16",
             "IntTensor": "int32", "LongTensor": "int64", "BoolTensor": "bool"}
    out = {}
    for name, dt in table.items():
        out[name] = _LegacyMeta(name, (), {"_dtype": getattr(_C, dt), "__module__": "tensorlib",
                                           "__doc__": f"Legacy constructor of {dt} tensors (torch.{name})."})
    return out


globals().update(_legacy_types())
__all__ += list(_legacy_types())


def install(cls):
    """Adds the Tensor methods of this module."""
    for name in ("unsqueeze", "squeeze", "t", "transpose", "swapdims", "swapaxes"):
        setattr(cls, name + "_", _inplace_view(name))
    cls.as_strided_ = _as_strided_
    cls.new, cls.resize, cls.resize_as = _new, _resize, _resize_as
    cls.apply_, cls.map_, cls.map2_ = _apply_, _map_, _map2_
    cls.const_data_ptr = _const_data_ptr
    for name in ("is_ipu", "is_xla", "is_mps", "is_xpu", "is_maia", "is_mtia", "is_vulkan"):  # no such backends
        setattr(cls, name, property(lambda self: False, doc=f"False: tensorlib has no {name[3:]} backend."))
    cls.float_power_ = _float_power_
    cls.storage = _storage

    def softmax_method(self, dim, dtype=None):
        """softmax(dim, dtype=None) -> Tensor. See tensorlib.softmax."""
        return _softmax("softmax", self, dim, dtype)

    def log_softmax_method(self, dim, dtype=None):
        """log_softmax(dim, dtype=None) -> Tensor. See tensorlib.log_softmax."""
        return _softmax("log_softmax", self, dim, dtype)
    softmax_method.__name__ = "softmax"
    log_softmax_method.__name__ = "log_softmax"
    cls.softmax = softmax_method
    cls.log_softmax = log_softmax_method
