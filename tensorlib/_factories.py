"""Factories written in Python over the C primitives: tensor(), as_tensor(), arange,
linspace, logspace, eye and the *_like family."""
import builtins
import math
import numbers
import warnings

from . import _C

__all__ = ["tensor", "as_tensor", "asarray", "arange", "range", "linspace", "logspace", "eye",
           "empty_like", "zeros_like", "ones_like", "full_like", "scalar_tensor", "from_numpy", "frombuffer",
           "empty_permuted"]

from_numpy = _C.from_numpy
frombuffer = _C.frombuffer

_np = None


def _numpy():
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


def _check_no_grad(requires_grad):
    if requires_grad:
        raise RuntimeError("tensorlib has no autograd yet: requires_grad=True is not supported")


def _device_ok(device):
    """The device object (None for None); a CUDA device loads tensorlib.cuda, which raises
    torch's error when CUDA cannot be used; meta needs nothing; other devices have no backend."""
    if device is None:
        return None
    d = device if isinstance(device, _C.device) else _C.device(device)
    if d.type == "cuda":
        from . import cuda
        cuda._lazy_init()
    elif d.type not in ("cpu", "meta"):
        raise RuntimeError(f"tensorlib: no backend is loaded for device type '{d.type}'")
    return d


def _infer_scalar_dtype(x):
    if isinstance(x, bool):
        return _C.bool
    if isinstance(x, numbers.Integral):
        return _C.int64
    if isinstance(x, complex):
        return _C.get_default_dtype().to_complex()
    return _C.get_default_dtype()


def _not_a_number(x, dtype):
    """torch's error for a leaf of tensor() data that is not a number: the dtype cannot be
    inferred, or (dtype given) the value does not convert to it."""
    if dtype is None:
        return RuntimeError(f"Could not infer dtype of {type(x).__name__}")
    if dtype.is_floating_point or dtype.is_complex:
        return TypeError(f"must be real number, not {type(x).__name__}")
    return TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")


def _from_nested(data, dtype):
    """Copies nested sequences of Python numbers (and one-element tensors, NumPy arrays
    and scalars) into a new tensor, with torch's shape, dtype and conversion rules.

    The shape follows the first elements (torch's compute_sizes); other elements must
    agree. Tensors inside a list are scalars (one element each); NumPy arrays are
    sequences. The dtype is the promotion of every leaf's dtype (Python bool, int,
    float and complex count as bool, int64, the default dtype and its complex type).
    """
    np = _numpy()
    shape = []
    x = data
    while isinstance(x, (list, tuple, np.ndarray)):
        if isinstance(x, np.ndarray):
            shape.extend(x.shape)
            break
        shape.append(len(x))
        if len(x) == 0:
            break
        x = x[0]
        if isinstance(x, str):  # torch's compute_sizes descends into strings without end
            raise ValueError("too many dimensions 'str'")
    ndim = len(shape)
    leaves, kinds, tensor_kinds = [], set(), set()

    def walk(x, depth):
        if depth == ndim:
            if isinstance(x, _C.TensorBase):
                if x.numel() != 1:
                    leaves.append(x)  # raises when converted, with torch's message
                else:
                    leaves.append(x.item())
                kinds.add(x.dtype)
                tensor_kinds.add(x.dtype)
            elif isinstance(x, (np.generic, np.ndarray)) and np.ndim(x) == 0 and x.dtype != object:
                leaves.append(x.item())
                kinds.add(_dtype_of_numpy(x.dtype))
            elif isinstance(x, (bool, numbers.Number)):
                leaves.append(x)
                kinds.add(_infer_scalar_dtype(x))
            elif isinstance(x, (list, tuple, np.ndarray)):
                raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
            elif isinstance(x, str):
                raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
            else:
                raise _not_a_number(x, dtype)
            return
        if isinstance(x, np.ndarray):
            if x.shape != tuple(shape[depth:depth + x.ndim]) or depth + x.ndim != ndim:
                raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} (got {len(x)})")
            if x.dtype == object:
                for e in x:
                    walk(e, depth + 1)
                return
            leaves.extend(x.reshape(-1).tolist())
            kinds.add(_dtype_of_numpy(x.dtype))
            return
        if isinstance(x, str):
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
        if not isinstance(x, (list, tuple)):
            raise TypeError("not a sequence")
        if len(x) != shape[depth]:
            raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} (got {len(x)})")
        for e in x:
            walk(e, depth + 1)

    walk(data, 0)
    if dtype is None:
        dtype = _C.get_default_dtype()
        first = True
        for k in kinds:
            dtype = k if first else _promote(dtype, k)
            first = False
    # torch stores a one-element tensor through __index__ into integer and bool dtypes and
    # through __float__ into floating ones
    if not (dtype.is_floating_point or dtype.is_complex) and any(k.is_floating_point or k.is_complex
                                                                 for k in tensor_kinds):
        raise TypeError("only integer tensors of a single element can be converted to an index")
    if dtype.is_floating_point and any(k.is_complex for k in tensor_kinds):
        raise RuntimeError("value cannot be converted to type double without overflow")
    arr = _convert_leaves(leaves, dtype, np)
    out = _C.empty(shape, dtype=dtype)
    if arr.size:
        src = _C.from_numpy(arr.reshape(shape))
        out.copy_(src)
    return out


_SIGNED_INTS = ["int8", "int16", "int32", "int64"]
_FLOATS = ["float16", "bfloat16", "float32", "float64"]


def _promote(a, b):
    """torch.promote_types for the dtypes tensor() infers (non-shell dtypes)."""
    if a == b:
        return a
    if a._is_shell or b._is_shell:
        raise RuntimeError(f"Promotion for {a} and {b} types is not supported")
    cat_a, cat_b = _category(a), _category(b)
    if cat_a != cat_b:
        hi, lo = (a, b) if cat_a > cat_b else (b, a)
        if hi.is_complex and lo.is_floating_point:
            return _promote(hi.to_real(), lo).to_complex() if hi != _C.complex32 or lo != _C.float16 else hi
        return hi
    if cat_a == 3:
        return _promote(a.to_real(), b.to_real()).to_complex()
    if cat_a == 2:
        if {a, b} == {_C.float16, _C.bfloat16}:
            return _C.float32
        return a if a.itemsize > b.itemsize else b
    if cat_a == 1:
        if a == _C.uint8 or b == _C.uint8:
            other = b if a == _C.uint8 else a
            return _C.int16 if other == _C.int8 else other
        return a if a.itemsize > b.itemsize else b
    return a


_INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-2 ** 15, 2 ** 15 - 1),
              "int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1),
              "uint16": (0, 2 ** 16 - 1), "uint32": (0, 2 ** 32 - 1), "uint64": (0, 2 ** 64 - 1)}


def _convert_leaves(leaves, dtype, np):
    """The leaves as a flat NumPy array ready to be cast to dtype, with torch's checks
    (store_scalar): range-checked integers, no complex into real dtypes."""
    name = str(dtype).split(".")[-1]
    for v in leaves:
        if isinstance(v, _C.TensorBase):
            if dtype.is_floating_point or dtype.is_complex:
                raise ValueError("only one element tensors can be converted to Python scalars")
            raise TypeError("only integer tensors of a single element can be converted to an index")
    if dtype == _C.bool:
        return np.array([bool(v) for v in leaves], dtype=np.bool_)
    if dtype.is_complex:
        return np.array(leaves, dtype=np.complex128)
    if dtype.is_floating_point:
        if any(isinstance(v, complex) for v in leaves):
            raise TypeError("must be real number, not complex")
        try:
            return np.array([float(v) for v in leaves], dtype=np.float64)
        except OverflowError:
            raise ValueError("Overflow when unpacking double") from None
    # integers: torch's c10::checked_convert
    lo, hi = _INT_RANGE[name]
    vals = []
    for v in leaves:
        if isinstance(v, complex):
            raise TypeError("'complex' object cannot be interpreted as an integer")
        if isinstance(v, float):
            if not (math.isfinite(v) and lo <= v <= hi):
                raise RuntimeError(f"value cannot be converted to type {name} without overflow")
            v = int(v)
        else:
            v = int(v)
            if not -2 ** 63 <= v < 2 ** 63 and name != "uint64":
                raise ValueError("Overflow when unpacking long long")
            if lo == 0 and v < 0:
                if -v > hi:
                    raise RuntimeError(f"value cannot be converted to type {name} without overflow")
                v += hi + 1  # unsigned types wrap small negative values, like torch
            elif not lo <= v <= hi:
                raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        vals.append(v)
    npdt = {"uint8": np.uint8, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
            "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64}[name]
    return np.array(vals, dtype=npdt)


def _category(dt):
    return 3 if dt.is_complex else 2 if dt.is_floating_point else 0 if dt == _C.bool else 1


def _dtype_of_numpy(npdtype):
    """The tensorlib dtype of a NumPy dtype (anything np.dtype() takes); ours pass through."""
    if isinstance(npdtype, _C.dtype):
        return npdtype
    return _C.from_numpy(_numpy().empty(0, dtype=npdtype)).dtype


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False, names=None):
    """Copies `data` into a new tensor.

    data may be a Python number, nested sequences of numbers or tensors, a NumPy array or
    scalar, a tensor, or any buffer-protocol object. The dtype is inferred like torch:
    bool, int64 for ints, the default dtype for floats, its complex counterpart for
    complex numbers; NumPy inputs keep their dtype.
    """
    _check_no_grad(requires_grad)
    d = _device_ok(device)
    if d is not None and d.type != "cpu":  # built on the host, then copied
        return _pinned(tensor(data, dtype=dtype, names=names).to(d), pin_memory)
    np = _numpy() if not isinstance(data, (int, float, bool, complex)) else None
    if dtype is not None and not isinstance(dtype, _C.dtype):
        dtype = _C.empty(0, dtype=dtype).dtype
    if isinstance(data, _C.TensorBase):
        out = data.to(dtype if dtype is not None else data.dtype, copy=True)
    elif isinstance(data, (bool, numbers.Number)) and not (np is not None and isinstance(data, np.generic)):
        out = _from_nested([data], dtype).reshape(())
    elif isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    elif np is not None and isinstance(data, (np.ndarray, np.generic)):
        arr = np.asarray(data)
        if arr.dtype == object:
            return tensor(arr.tolist(), dtype=dtype, names=names, pin_memory=pin_memory)
        src = _from_numpy_any(arr)  # a view; the copy keeps its strides where dense (torch)
        out = src.to(dtype if dtype is not None else src.dtype, copy=True)
    elif isinstance(data, (list, tuple)):
        out = _from_nested(data, dtype)
    elif isinstance(data, (bytes, bytearray, memoryview)) or hasattr(data, "__buffer__"):
        arr = np.array(memoryview(data))
        return tensor(arr, dtype=dtype, names=names, pin_memory=pin_memory)
    elif hasattr(data, "__array__") or hasattr(data, "__array_interface__"):
        return tensor(np.asarray(data), dtype=dtype, names=names, pin_memory=pin_memory)
    else:
        try:
            mv = memoryview(data)
        except TypeError:
            raise _not_a_number(data, dtype) from None
        return tensor(np.array(mv), dtype=dtype, names=names, pin_memory=pin_memory)
    if names is not None:
        out = out.refine_names(*names)
    return _pinned(out, pin_memory)


def _from_numpy_any(arr):
    """from_numpy that also accepts negative strides (by copying)."""
    if any(s < 0 for s in arr.strides):
        arr = arr.copy()
    if not arr.flags.aligned or not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="), copy=True)
    return _C.from_numpy(arr)


def as_tensor(data, dtype=None, device=None):
    """Like tensor(), but shares memory with a tensor or NumPy array when dtype and device allow."""
    d = _device_ok(device)
    if d is not None and d.type != "cpu":
        return as_tensor(data, dtype=dtype).to(d)
    if isinstance(data, _C.TensorBase):
        return data if dtype is None or dtype == data.dtype else data.to(dtype)
    np = _numpy()
    if isinstance(data, np.ndarray) and data.dtype != object:
        # _from_numpy_any copies only what from_numpy cannot share (negative strides,
        # swapped byte order, misalignment); the copy is then private to the tensor
        t = _from_numpy_any(data)
        return t if dtype is None or dtype == t.dtype else t.to(dtype)
    return tensor(data, dtype=dtype)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """Converts obj to a tensor, sharing memory when possible (copy=True forces a copy)."""
    _check_no_grad(requires_grad)
    if copy:
        return tensor(obj, dtype=dtype, device=device)
    t = as_tensor(obj, dtype=dtype, device=device)
    if copy is False and isinstance(obj, _C.TensorBase) and t is not obj:
        raise ValueError("asarray: copy=False but a copy is needed")
    return t


def scalar_tensor(s, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
    """A 0-d tensor holding s (default dtype unless given)."""
    _check_no_grad(requires_grad)
    return _C.full((), s, dtype=dtype or _C.get_default_dtype(), device=device, pin_memory=pin_memory)


def _resolve(dtype, device, requires_grad):
    """(where the C fill runs, where the result goes) for the filled factories (arange,
    linspace, logspace, eye, range): (None, None) for the CPU, (meta, None) for meta, where the
    C fill only shapes the result, and (None, device) for a backend's device (CUDA): the fill
    runs on the host and the result is copied over once."""
    _check_no_grad(requires_grad)
    d = _device_ok(device if device is not None else _C._get_default_device())
    if d is None or d.type == "cpu":
        return None, None
    if d.type == "meta":
        return d, None
    return None, d


def _pinned(r, pin_memory):
    """pin_memory=True: r moved to pinned host memory (torch's RuntimeError without a pinned
    allocator); meta results ignore it, as torch's."""
    if not pin_memory or r.device.type == "meta":
        return r
    if r.device.type != "cpu":
        raise RuntimeError("Only dense CPU tensors can be pinned")
    if r.layout != _C.strided:  # pins the components: torch's wording of pin_memory()
        from ._tensor import _rebuild_sparse, _sparse_components
        return _rebuild_sparse(r, [_C._pin_memory(c, False) for c in _sparse_components(r)])
    return _C._pin_memory(r, True)


def _moved(r, target):
    """r (made on the host) on the factory's device."""
    return r if target is None else r.to(target)


def arange(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False):
    """arange(start=0, end, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    A 1-D tensor of the values from start (inclusive) to end (exclusive) spaced by step;
    ``arange(n)`` counts from 0. The dtype is int64 when every argument is an integer, else
    the default dtype.

        >>> tl.arange(5)
        tensor([0, 1, 2, 3, 4])
        >>> tl.arange(0, 1, 0.25)
        tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    dev, target = _resolve(dtype, device, requires_grad)
    if end is None:
        start, end = 0, start
    for v in (start, end, step):
        if isinstance(v, _C.TensorBase) and v.numel() != 1:
            raise RuntimeError("arange: only one-element tensors can be converted to Python scalars")
    vals = [v.item() if isinstance(v, _C.TensorBase) else v for v in (start, end, step)]
    if dtype is None:
        if all(isinstance(v, numbers.Integral) for v in vals):
            dtype = _C.int64
        else:
            dtype = _C.get_default_dtype()
    r = _moved(_C._arange(vals[0], vals[1], vals[2], dtype, dev), target)
    if out is not None:
        return _into(out, r)
    return _pinned(r, pin_memory)


def range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    Deprecated (as in torch): a 1-D tensor of the values from start to end, *both included*,
    spaced by step: ``floor((end - start) / step) + 1`` of them. The dtype is the default
    dtype even for integer arguments; an integer dtype= truncates start, end and step first.
    Use ``arange``, whose end is excluded.

        >>> tl.range(1, 4)
        tensor([1., 2., 3., 4.])
    """
    warnings.warn("tensorlib.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use tensorlib.arange, which produces values "
                  "in [start, end).", UserWarning, stacklevel=2)
    vals = []
    for v, nm, pos in ((start, "start", 1), (end, "end", 2), (step, "step", 3)):
        if isinstance(v, _C.TensorBase):
            if v.numel() != 1:
                raise RuntimeError("a Tensor with %d elements cannot be converted to Scalar" % v.numel())
            v = v.item()
        if not isinstance(v, numbers.Number) or isinstance(v, complex):
            raise TypeError(f"range(): argument '{nm}' (position {pos}) must be Number, not {type(v).__name__}")
        vals.append(v)
    dev, target = _resolve(dtype, device, requires_grad)
    dtype = dtype or _C.get_default_dtype()
    if dtype == _C.bool or dtype.is_complex:  # torch's kernel has no such instance
        raise NotImplementedError(f'"range_cpu" not implemented for \'{dtype._cname}\'')
    if not dtype.is_floating_point:  # torch's accumulate type of an integer dtype is int64
        if not all(math.isfinite(v) and -2 ** 63 <= v < 2 ** 63 for v in vals):
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        vals = [int(v) for v in vals]
    start, end, step = vals
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = (end - start) // step + 1 if isinstance(step, int) and isinstance(start, int) and isinstance(end, int) \
        else int(math.floor((end - start) / step)) + 1
    # arange over [start, start + (n - 1/2) step): exactly n values, each start + i * step
    r = _moved(_C._arange(start, start + (n - 0.5) * step, step, dtype, dev), target)
    return _into(out, r) if out is not None else _pinned(r, pin_memory)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    An uninitialized tensor of shape ``size`` whose memory holds the dimensions in the order
    ``physical_layout`` gives (outermost first): ``physical_layout[-1]`` has stride 1. For
    ``(0, 1, ..., n-1)`` it is ``empty(size)``; ``(0, 2, 3, 1)`` of a 4-D size is channels_last.

        >>> tl.empty_permuted((2, 3, 4), (2, 0, 1)).stride()
        (3, 1, 6)
    """
    for v, nm, pos in ((size, "size", 1), (physical_layout, "physical_layout", 2)):
        if not isinstance(v, (tuple, list, _C.Size)):
            raise TypeError(f"empty_permuted(): argument '{nm}' (position {pos}) must be tuple of ints, "
                            f"not {type(v).__name__}")
        for i, e in enumerate(v):
            if not isinstance(e, numbers.Integral) or isinstance(e, bool):
                raise TypeError(f"empty_permuted(): argument '{nm}' (position {pos}) must be tuple of ints, but "
                                f"found element of type {type(e).__name__} at pos {i}")
    size, perm = [int(e) for e in size], [int(e) for e in physical_layout]
    n = len(size)
    if len(perm) != n:
        raise RuntimeError("Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {n} is not equal to len(physical_layout) = {len(perm)}")
    seen = [False] * n
    for i, p in enumerate(perm):
        if not 0 <= p < n:
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and {n - 1}, but got {p} at "
                               f"index {i}).  NB: negative dims not currently supported; file an issue if you "
                               "want it.")
        if seen[p]:
            raise RuntimeError("Duplicate dim not allowed")
        seen[p] = True
    physical = _C.empty([size[p] for p in perm], dtype=dtype, layout=layout, device=device,
                        requires_grad=requires_grad, pin_memory=pin_memory)
    inverse = [0] * n
    for i, p in enumerate(perm):
        inverse[p] = i
    return physical.permute(inverse)


def _into(out, r):
    """out= of the factories: out resized to r's shape, names by seed 003's out= rule (the
    computed names are all None, so a named out is refused), then r copied in."""
    _C._resize_as_(out, r)
    out.copy_(r)
    return out


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    A 1-D tensor of ``steps`` evenly spaced values from start to end, both included, in the
    default dtype unless dtype= says otherwise.

        >>> tl.linspace(0, 1, 5)
        tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    dev, target = _resolve(dtype, device, requires_grad)
    s, e = _scal(start), _scal(end)
    if dtype is None:
        dtype = _C.get_default_dtype().to_complex() if isinstance(s, complex) or isinstance(e, complex) \
            else _C.get_default_dtype()
    r = _moved(_C._linspace(s, e, _steps(steps), dtype, 0.0, dev), target)
    return _into(out, r) if out is not None else _pinned(r, pin_memory)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """base ** linspace(start, end, steps)."""
    dev, target = _resolve(dtype, device, requires_grad)
    s, e = _scal(start), _scal(end)
    if dtype is None:
        dtype = _C.get_default_dtype()
    r = _moved(_C._linspace(s, e, _steps(steps), dtype, float(base), dev), target)
    return _into(out, r) if out is not None else _pinned(r, pin_memory)


def _scal(v):
    if isinstance(v, _C.TensorBase):
        if v.dim() != 0:
            raise RuntimeError("linspace(): argument 'start' must be a 0-dimensional tensor or a number")
        return v.item()
    return v


def _steps(steps):
    if not isinstance(steps, numbers.Integral) or isinstance(steps, bool):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return int(steps)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    A 2-D tensor with ones on the diagonal and zeros elsewhere, n rows by m columns (m
    defaults to n), in the default dtype unless dtype= says otherwise.

        >>> tl.eye(2, 3)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    dev, target = _resolve(dtype, device, requires_grad)
    for v, nm in ((n, "n"), (m, "m")):
        if v is not None and (not isinstance(v, numbers.Integral) or isinstance(v, bool)):
            raise TypeError(f"eye(): argument '{nm}' must be int, not {type(v).__name__}")
    r = _moved(_C._eye(n, n if m is None else m, dtype or _C.get_default_dtype(), dev), target)
    return _into(out, r) if out is not None else _pinned(r, pin_memory)


def _like(input, dtype, layout, device, requires_grad, memory_format, pin_memory):
    return _pinned(_like_here(input, dtype, layout, device, requires_grad, memory_format), pin_memory)


def _like_here(input, dtype, layout, device, requires_grad, memory_format):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"empty_like(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    dev, target = _resolve(dtype, device, requires_grad)
    if device is None:
        return _C._empty_like(input, dtype, memory_format)
    want = dev or target or _C.device("cpu")
    if want == input.device:
        return _C._empty_like(input, dtype, memory_format)
    if want.type == "meta":  # *_like(cpu, device="meta"): its geometry, no data
        return _C._empty_like(input.to("meta"), dtype, memory_format)
    # another backend's device (or the CPU from one): the geometry of a meta stand-in, then the tensor there
    geom = _C._empty_like(_C.empty_strided(input.shape, input.stride(), dtype=input.dtype, device="meta"),
                          dtype, memory_format)
    return _C.empty_strided(geom.shape, geom.stride(), dtype=geom.dtype, device=want)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None, pin_memory=False):
    """An uninitialized tensor shaped like input (its dtype, strides by preserve_format)."""
    return _like(input, dtype, layout, device, requires_grad, memory_format, pin_memory)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
               pin_memory=False):
    """zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None, pin_memory=False) -> Tensor

    A tensor of zeros with input's shape, and its dtype, layout and device unless given;
    memory_format (default preserve_format) decides the strides. Sparse input gives an
    empty sparse tensor of the same layout.

        >>> tl.zeros_like(tl.tensor([[1., 2.], [3., 4.]]), dtype=tl.int32)
        tensor([[0, 0],
                [0, 0]], dtype=tensorlib.int32)
    """
    return _like(input, dtype, layout, device, requires_grad, memory_format, pin_memory).zero_()


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
              pin_memory=False):
    """ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None, pin_memory=False) -> Tensor

    A tensor of ones with input's shape and names, and its dtype and device unless given;
    memory_format (default preserve_format) decides the strides. Strided input only.

        >>> tl.ones_like(tl.tensor([[1., 5.], [3., 2.]]))
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _like(input, dtype, layout, device, requires_grad, memory_format, pin_memory).fill_(1)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, pin_memory=False):
    """full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None, pin_memory=False)

    A tensor with input's shape and names, every element fill_value, in input's dtype and
    on its device unless given (returns a Tensor). Strided input only.

        >>> tl.full_like(tl.tensor([[1., 5.], [3., 2.]]), 7)
        tensor([[7., 7.],
                [7., 7.]])
    """
    return _like(input, dtype, layout, device, requires_grad, memory_format, pin_memory).fill_(fill_value)


def _rebuild_tensor(data, dtype, shape, stride, names, device=None):
    """Unpickling: rebuilds a contiguous tensor from its bytes (on ``device`` when given)."""
    raw = bytearray(data)
    n = 1
    for s in shape:
        n *= s
    t = _C.empty(shape, dtype=dtype)
    if n:
        src = _C.frombuffer(raw, dtype=_C.uint8)
        t.view(_C.uint8).reshape(-1).copy_(src) if t.dim() else t.reshape(1).view(_C.uint8).copy_(src)
    if names is not None:
        t = t.refine_names(*names)
    return t if device is None else t.to(device)
