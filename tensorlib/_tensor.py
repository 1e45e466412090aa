"""The Python half of tensorlib.Tensor: methods composed from the C primitives.

``Tensor`` subclasses the C type ``tensorlib._C.TensorBase``, which holds the data and
implements the hot methods (views, copies, arithmetic). What is here is glue: argument
forms, composites (split, chunk, flatten, ...), named-tensor helpers, printing and the
Python protocols (pickle, copy, NumPy's __array__, iteration).
"""
import builtins
import collections
import numbers

from . import _C
from ._util import dim_index as _dim_index, legacy_type as _legacy_type, unflatten_sizes as _unflatten_sizes, \
    wrap_dim as _wrap_dim

# tensor_split(n) makes n tensors; far more empty ones than the dim has elements is a mistake
# that would otherwise run until memory is exhausted
_MAX_EMPTY_SECTIONS = 1 << 20

__all__ = ["Tensor"]





# __cuda_array_interface__ type strings (NumPy's array-interface codes)
_CAI_TYPESTR = {"bool": "|b1", "uint8": "|u1", "int8": "|i1", "int16": "<i2", "int32": "<i4", "int64": "<i8",
                "uint16": "<u2", "uint32": "<u4", "uint64": "<u8", "float16": "<f2", "float32": "<f4",
                "float64": "<f8", "complex64": "<c8", "complex128": "<c16"}


class Tensor(_C.TensorBase):
    """A multi-dimensional array with PyTorch's tensor semantics.

    Create tensors with the factories (``tensorlib.tensor``, ``zeros``, ``arange``...);
    ``Tensor`` itself cannot be instantiated directly.
    """

    __slots__ = ()
    __array_priority__ = 1000

    # ---- protocols -------------------------------------------------------------

    def __repr__(self, *, tensor_contents=None):
        from ._printing import tensor_repr
        return tensor_repr(self)

    def __format__(self, spec):
        if self.dim() == 0 and spec:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reduce_ex__(self, proto):
        from ._factories import _rebuild_tensor
        if self.layout != _C.strided:
            from ._sparse import _new
            return (_new, (self._indices(), self._values(), tuple(self.shape), self.is_coalesced()))
        t = self.contiguous().cpu()  # a device tensor's bytes from a host copy; rebuilt on its device
        data = t.numpy().tobytes() if self.dtype not in _NO_NUMPY else bytes(memoryview(t.view(_C.uint8)))
        dev = (str(self.device),) if self.device.type != "cpu" else ()
        return (_rebuild_tensor, (data, self.dtype, tuple(self.shape), tuple(self.stride()),
                                  self.names if self.has_names() else None) + dev)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        r = self.clone()
        memo[id(self)] = r
        return r

    def __copy__(self):
        return self.detach()

    def __array__(self, dtype=None, copy=None):
        if copy is False and dtype is not None and dtype != self.numpy().dtype:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        a = self.numpy()
        if dtype is not None:
            a = a.astype(dtype, copy=bool(copy))
        elif copy:
            a = a.copy()
        return a

    @property
    def __cuda_array_interface__(self):
        if self.device.type != "cuda":  # AttributeError: hasattr() is False for these, as torch's
            raise AttributeError("Can't get __cuda_array_interface__ on non-CUDA tensor type: %s If CUDA data is "
                                 "required use tensor.cuda() to copy tensor to device memory." % self.type())
        if self.layout != _C.strided:
            raise AttributeError("Can't get __cuda_array_interface__ on sparse type: %s Use Tensor.to_dense() to "
                                 "convert to a dense tensor first." % self.type())
        typestr = _CAI_TYPESTR.get(str(self.dtype).rsplit(".", 1)[-1])
        if typestr is None:
            raise TypeError("%s has no __cuda_array_interface__ type string" % self.dtype)
        itemsize = self.element_size()
        strides = None if self.is_contiguous() else tuple(s * itemsize for s in self.stride())
        return {"typestr": typestr, "shape": tuple(self.shape), "strides": strides,
                "data": (self.data_ptr() if self.numel() > 0 else 0, False), "version": 2}

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from ._numpy_proto import array_ufunc
        return array_ufunc(self, ufunc, method, *inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from ._numpy_proto import array_function
        return array_function(self, func, types, args, kwargs)

    def __array_namespace__(self, /, *, api_version=None):
        """The Array API standard's namespace for this array: ``tensorlib.array_api``
        (api_version None or one of its supported versions, else ValueError)."""
        from . import array_api
        if api_version is not None and api_version not in array_api.SUPPORTED_VERSIONS:
            raise ValueError(f"Unrecognized array API version: {api_version!r}; tensorlib.array_api implements "
                             f"{', '.join(array_api.SUPPORTED_VERSIONS)}")
        return array_api

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        """This tensor converted to ``dtype`` (a tensorlib dtype or anything ``np.dtype()``
        accepts), as NumPy's ``ndarray.astype``: a new tensor, or this one when ``copy=False``
        and it already has that dtype. Not in torch: dask and other NumPy-style libraries call
        it on their chunks. ``casting`` other than "unsafe" is checked with ``np.can_cast``
        (TypeError when refused); ``order`` and ``subok`` are accepted and ignored."""
        from ._factories import _dtype_of_numpy
        dtype = _dtype_of_numpy(dtype)
        if casting != "unsafe":
            from ._factories import _numpy
            np = _numpy()
            src, dst = np.dtype(self.dtype), np.dtype(dtype)
            if not np.can_cast(src, dst, casting):
                raise TypeError(f"Cannot cast array data from {src!r} to {dst!r} according to the rule {casting!r}")
        return self.to(dtype, copy=bool(copy))

    def to_device(self, device, /, *, stream=None):
        """The array on device (the Array API's spelling of ``to(device)``); itself when already there."""
        if stream is not None:
            raise ValueError("to_device: stream is not supported on the CPU")
        return self.to(device)

    def __hash__(self):
        return id(self)

    def __contains__(self, element):
        if not isinstance(element, (Tensor, numbers.Number)):
            raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                               f"{type(element)}.")
        return bool((self == element).any())

    def __dir__(self):
        return sorted(set(object.__dir__(self)))

    # ---- shape composites --------------------------------------------------------

    def dim_order(self):
        """The dims ordered from outermost to innermost by stride."""
        st = self.stride()
        return tuple(sorted(range(self.dim()), key=lambda i: -st[i]))

    def view_as(self, other):
        """A view of self with other's shape."""
        return self.view(other.size())

    def reshape_as(self, other):
        """reshape(other.shape)."""
        return self.reshape(other.size())

    def expand_as(self, other):
        """expand(other.shape)."""
        return self.expand(other.size())

    def type_as(self, other):
        """to(other.dtype)."""
        return self.to(other.dtype)

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """With no argument, the legacy type string ('tensorlib.FloatTensor'); else to(dtype)."""
        if dtype is None:  # torch's names: tensorlib[.cuda|.meta][.sparse].FloatTensor
            dev = self.device.type
            if self.layout not in (_C.strided, _C.sparse_coo):
                raise RuntimeError(f"Unimplemented backend SparseCsr{dev.upper() if dev != 'meta' else 'Meta'}")
            where = ("" if dev == "cpu" else dev + ".") + ("sparse." if self.layout == _C.sparse_coo else "")
            return _legacy_type(self.dtype).replace("tensorlib.", "tensorlib." + where)
        if isinstance(dtype, str):
            name = dtype.split(".")[-1]
            for dt in {v for v in vars(_C).values() if isinstance(v, _C.dtype)}:
                if dt._cname + "Tensor" == name:
                    dtype = dt
                    break
            else:
                raise ValueError(f"invalid type: '{dtype}'")
        return self.to(dtype)

    def unbind(self, dim=0):
        """The slices along dim, as a tuple of views."""
        dim = self._dim_index(dim)
        return tuple(self.select(dim, i) for i in range(self.size(dim)))

    def split(self, split_size_or_sections, dim=0):
        """Views of consecutive chunks of size split_size (last may be smaller), or of the given sizes."""
        dim = self._dim_index(dim)
        if self.dim() == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        size = self.size(dim)
        if isinstance(split_size_or_sections, (list, tuple)):
            sections = [int(s) for s in split_size_or_sections]
            if any(s < 0 for s in sections) or builtins.sum(sections) != size:
                raise RuntimeError(
                    f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
                    f"dimension {dim}), but got split_sizes={list(sections)}")
            out, start = [], 0
            for s in sections:
                out.append(self.narrow(dim, start, s))
                start += s
            return tuple(out)
        step = int(split_size_or_sections)
        if step < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={step}")
        if step == 0:
            if size != 0:
                raise RuntimeError(
                    f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
            return (self,)
        n = builtins.max((size + step - 1) // step, 1)
        return tuple(self.narrow(dim, i * step, builtins.min(step, size - i * step)) for i in range(n))

    def chunk(self, chunks, dim=0):
        """Splits into `chunks` views of size ceil(size/chunks) (fewer when not divisible)."""
        if self.dim() == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        dim = self._dim_index(dim)
        size = self.size(dim)
        step = (size + chunks - 1) // chunks
        if step == 0:
            return tuple(self.narrow(dim, 0, 0) for _ in range(chunks)) if size == 0 else ()
        return self.split(step, dim)

    def tensor_split(self, indices_or_sections, dim=0):
        """NumPy's array_split: `n` near-equal parts, or split at the given indices."""
        dim = self._dim_index(dim)
        size = self.size(dim)
        if isinstance(indices_or_sections, int):
            n = indices_or_sections
            if n <= 0:
                raise RuntimeError(f"number of sections must be larger than 0, got {n}")
            if n - size > _MAX_EMPTY_SECTIONS:  # each one a tensor object: memory runs out first
                raise RuntimeError(f"tensor_split(): cannot split a dimension of size {size} into {n} sections "
                                   f"(more than {_MAX_EMPTY_SECTIONS} of them would be empty)")
            q, r = divmod(size, n)
            bounds, start = [], 0
            for i in range(n):
                ln = q + (1 if i < r else 0)
                bounds.append((start, ln))
                start += ln
        else:
            # piece k is self[idx[k-1]:idx[k]] along dim, with Python's slice rules (as torch):
            # negative indices count from the end, an end before its start gives an empty piece
            def clamp(i):
                return builtins.min(builtins.max(i + size if i < 0 else i, 0), size)

            idx = [int(i) for i in indices_or_sections]
            bounds, prev = [], 0
            for i in idx + [size]:
                s, e = clamp(prev), clamp(i)
                bounds.append((s, builtins.max(e - s, 0)))
                prev = i
        return tuple(self.narrow(dim, s, ln) for s, ln in bounds)

    def flatten(self, start_dim=0, end_dim=-1, out_dim=None):
        """Merges dims start_dim..end_dim into one (a view when possible).

        Named form: flatten(dims, out_dim) merges the named dims into a dim called out_dim.
        """
        from . import _named
        if out_dim is not None and not isinstance(start_dim, (list, tuple)):
            # flatten(start, end, out_dim): torch's int and Dimname range forms
            s, e = self._dim_index(start_dim), self._dim_index(end_dim)
            if s > e:
                raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
            return _named.flatten_named(self, list(range(s, e + 1)), out_dim)
        if out_dim is not None or isinstance(start_dim, (list, tuple)) and start_dim and isinstance(start_dim[0], str):
            return _named.flatten_named(self, start_dim if out_dim is None else start_dim,
                                        out_dim if out_dim is not None else end_dim)
        nd = self.dim()
        if nd == 0:
            return self.reshape(1)
        s = self._dim_index(start_dim)
        e = self._dim_index(end_dim)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = list(self.shape)
        merged = 1
        for d in shape[s:e + 1]:
            merged *= d
        new = shape[:s] + [merged] + shape[e + 1:]
        if self.has_names():
            names = list(self.names)
            return self.rename(None).reshape(new).refine_names(*(names[:s] + [None] + names[e + 1:]))
        return self.reshape(new)

    def unflatten(self, dim, sizes):
        """Splits dim into the given sizes (one may be -1). Named form: sizes is an OrderedDict or a
        sequence of (name, size) pairs; a named tensor needs that form (torch 1.13)."""
        from . import _named
        if isinstance(sizes, collections.OrderedDict) or (
                isinstance(sizes, (tuple, list)) and sizes and isinstance(sizes[0], (tuple, list))):
            return _named.unflatten_named(self, dim, sizes)
        if len(sizes) == 0:
            raise RuntimeError("unflatten: sizes must be non-empty")
        if isinstance(dim, str):
            raise TypeError("unflatten(): argument 'dim' (position 1) must be int, not str")
        if self.has_names():
            raise RuntimeError("unflatten: input is a named tensor but no names were given for unflattened sizes")
        d = self._dim_index(dim)
        new = _unflatten_sizes(self.size(d), sizes)
        if new is None:
            raise RuntimeError(f"unflatten: Provided sizes {[int(s) for s in sizes]} don't multiply up to the size of "
                               f"dim {dim} ({self.size(d)}) in the input tensor")
        shape = list(self.shape)
        return self.reshape(shape[:d] + new + shape[d + 1:])

    def movedim(self, source, destination):
        """Moves dims from source positions to destination positions (a view)."""
        src = [source] if isinstance(source, (int, str)) else list(source)
        dst = [destination] if isinstance(destination, (int, str)) else list(destination)
        if len(src) != len(dst):
            raise RuntimeError(
                f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same number of "
                f"dims as destination ({dst} dims)")
        nd = self.dim()
        src = [self._dim_index(s) for s in src]
        dst = [_wrap_dim(d, nd) for d in dst]
        if len(set(src)) != len(src):
            raise RuntimeError(f"movedim: repeated dim in `source` ({source})")
        if len(set(dst)) != len(dst):
            raise RuntimeError(f"movedim: repeated dim in `destination` ({destination})")
        order = [-1] * nd
        for s, d in zip(src, dst):
            order[d] = s
        rest = iter(d for d in range(nd) if d not in src)
        order = [o if o != -1 else next(rest) for o in order]
        return self.permute(order)

    moveaxis = movedim

    def swapaxes(self, axis0, axis1):
        """Alias of transpose."""
        return self.transpose(axis0, axis1)

    swapdims = swapaxes

    @property
    def data(self):
        """The data as a new tensor sharing the storage (torch's ``x.data``: no autograd here,
        so the same as ``detach()``)."""
        return self.detach()

    @data.setter
    def data(self, value):
        self._set_data(value)

    @property
    def H(self):
        """Conjugate transpose of a matrix."""
        if self.dim() not in (0, 2):
            raise RuntimeError("tensor.H is only supported on matrices (2-D tensors).")
        t = self.t() if self.dim() == 2 else self
        return t.conj() if self.is_complex() else t

    @property
    def mH(self):
        """Conjugate transpose of the last two dims."""
        if self.dim() < 2:
            raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got {self.dim()}-D "
                               "tensor.")
        t = self.mT
        return t.conj() if self.is_complex() else t

    def adjoint(self):
        """Conjugate transpose of the last two dims (mH)."""
        if self.dim() < 2:
            raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                               f"{self.dim()}-D tensor.")
        return self.mH

    def is_floating_point(self):
        """True for floating point dtypes."""
        return self.dtype.is_floating_point

    def is_complex(self):
        """True for complex dtypes."""
        return self.dtype.is_complex

    def is_signed(self):
        """True for signed dtypes."""
        return self.dtype.is_signed

    def get_device(self):
        """-1 for CPU tensors, else the device index."""
        return -1 if self.device.type == "cpu" else self.device.index

    def detach_(self):
        """Detaches in place: self (tensorlib keeps no autograd graph); views refuse, as torch."""
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        return self

    def _is_view(self):
        """True when this tensor is a view of another (its ``_base``), as torch."""
        return self._base is not None

    def is_inference(self):
        """False: tensorlib has no inference mode, so no tensor is an inference tensor."""
        return False

    def is_set_to(self, tensor):
        """True when both tensors view the same storage with the same offset, sizes and strides."""
        if not isinstance(tensor, _C.TensorBase):
            raise TypeError(f"is_set_to(): argument 'tensor' must be Tensor, not {type(tensor).__name__}")
        return (self._storage_ptr() == tensor._storage_ptr() and self.storage_offset() == tensor.storage_offset()
                and self.shape == tensor.shape and self.stride() == tensor.stride())

    def is_same_size(self, other):
        """True when both tensors have the same shape."""
        return self.shape == other.shape

    def is_nonzero(self):
        """The truth value of a one-element tensor (RuntimeError for any other size); a
        sparse one's element is the sum of its entries."""
        return builtins.bool(self.to_dense() if self.layout == _C.sparse_coo else self)

    def to_dense(self, dtype=None, *, masked_grad=None):
        """A strided tensor: self when already strided (cast when dtype is given)."""
        return self if dtype is None or dtype == self.dtype else self.to(dtype)

    def ravel(self):
        """The elements as a 1-D tensor: a view when possible, else a copy."""
        return self.reshape(-1)

    def cpu(self, *, memory_format=None):
        """A copy in host memory; self when already on the CPU."""
        if memory_format is None:
            return self.to("cpu") if self.device.type != "cpu" else self
        return self.to("cpu", memory_format=memory_format)

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """Copies to a CUDA device (needs the CUDA backend)."""
        return self.to(device if device is not None else "cuda", non_blocking=non_blocking)

    def is_pinned(self, device=None):
        """True when the tensor lives in pinned (page-locked) host memory."""
        if device is not None:
            _deprecated_device_arg("is_pinned")
        if self.device.type != "cpu":
            return False
        if self.layout != _C.strided:
            return all(c.is_pinned() for c in _sparse_components(self))
        return _C._is_pinned(self)

    def pin_memory(self, device=None):
        """A copy in pinned host memory (self when already pinned); needs the CUDA backend."""
        if device is not None:
            _deprecated_device_arg("pin_memory")
            if _C.device(device).type == "cpu":
                raise RuntimeError("CPU device type not an accelerator.")
        if self.device.type != "cpu":
            raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
        if self.is_pinned():
            return self
        if self.layout != _C.strided:
            return _rebuild_sparse(self, [c.pin_memory() for c in _sparse_components(self)])
        return _C._pin_memory(self, False)

    def record_stream(self, stream):
        """Marks the memory as used by a CUDA stream: once freed, it is reused only after the
        work queued on that stream by then is done."""
        from .cuda import Stream
        if not isinstance(stream, Stream):
            raise TypeError(f"record_stream(): argument 'stream' must be Stream, not {type(stream).__name__}")
        _C._record_stream(self, stream.cuda_stream)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        """empty(size) with self's dtype and device by default."""
        return _C.empty(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        """zeros(size) with self's dtype and device by default."""
        return _C.zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        """ones(size) with self's dtype and device by default."""
        return _C.ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False, **kw):
        """full(size, fill_value) with self's dtype and device by default."""
        return _C.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                       requires_grad=requires_grad)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        """tensor(data) with self's dtype and device by default."""
        from ._factories import tensor
        return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    # ---- names -------------------------------------------------------------------

    def _dim_index(self, dim):
        return _dim_index(self, dim)

    def rename(self, *names, **rename_map):
        """A view with new names: rename(*names) (with '...'), rename(None) or rename(old=new)."""
        from . import _named
        return _named.rename(self, names, rename_map, inplace=False)

    def rename_(self, *names, **rename_map):
        """In-place rename."""
        from . import _named
        return _named.rename(self, names, rename_map, inplace=True)

    def refine_names(self, *names):
        """Names unnamed dims (a '...' expands to the dims it covers); named dims must keep their names."""
        from . import _named
        return _named.refine_names(self, names)

    def align_to(self, *names):
        """Permutes (and inserts size-1 dims) to match the order of `names` ('...' allowed)."""
        from . import _named
        return _named.align_to(self, names)

    def align_as(self, other):
        """align_to(*other.names)."""
        return self.align_to(*other.names)


def _deprecated_device_arg(method):
    import warnings
    warnings.warn(f"The argument 'device' of Tensor.{method}() is deprecated. Please do not pass this argument.",
                  DeprecationWarning, stacklevel=3)


def _sparse_components(t):
    """The component tensors of a sparse tensor (indices..., values)."""
    if t.layout == _C.sparse_coo:
        return [t._indices(), t._values()]
    return list(_C._compressed_parts(t))


def _rebuild_sparse(t, parts):
    """t's sparse tensor over new component tensors of the same shapes."""
    if t.layout == _C.sparse_coo:
        from ._sparse import _new
        return _new(parts[0], parts[1], t.shape, t.is_coalesced())
    from ._sparse_compressed import _new
    return _new(parts[0], parts[1], parts[2], t.shape, t.layout)


_NO_NUMPY = (_C.complex32, _C.float4_e2m1fn_x2, _C.bfloat16, _C.float8_e4m3fn, _C.float8_e5m2,
             _C.float8_e4m3fnuz, _C.float8_e5m2fnuz, _C.float8_e8m0fnu)

_C._set_tensor_class(Tensor)
