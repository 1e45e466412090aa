"""2:4 semi-structured sparsity on the CPU (torch has it on CUDA only).

``to_sparse_semi_structured(dense)`` keeps, of every group of 4 consecutive elements of a
row, 2 (the non-zeros, padded with the lowest free positions as stored zeros) and records
their positions as metadata: 2 bits per kept element, the group's nibble holding the first
position in its low bits, consecutive groups filling int16 words from their low bits (int32
words for int8) -- torch's order (``[0, 0, 1, 1]`` tiles give torch's ``-4370``). The
products (csrc/sparse/semi.c) read only the kept values: half the bytes and multiplies of
the dense product.

On a CUDA device (tensorlib/_sparse_device.py hands values and metadata there as host round
trips) a float16, bfloat16 or int8 matrix also keeps the backend's compressed buffer of the
stored matrix (cuSPARSELt's opaque format, a uint8 tensor on the device; one per side of the
product: both built at construction from a CUDA tensor; for a matrix moved there, built on the
first product of each side from the dense matrix of values and metadata, a host round trip), and
its products run on the device through the backend's 2:4 entry (csrc/backend/semi.c).
float32 (cuSPARSELt's float sparsity is 1:2, not 2:4) and anything the entry does not cover
run as today: the CPU kernel on host copies.
"""
from . import _C

__all__ = ["SparseSemiStructuredTensor", "to_sparse_semi_structured"]


class SparseSemiStructuredTensor:
    """A 2-D 2:4 semi-structured sparse matrix: ``values()`` (rows, cols / 2) holds the
    kept elements, ``indices()`` the metadata ((rows, cols / 16) int16; int8 values:
    (rows, cols / 32) int32). ``t()`` gives the transposed matrix (a flag, as torch's)."""

    def __init__(self, shape, values, metadata, transposed=False, _cache=None):
        self.shape = _C.Size(shape)
        self._values = values
        self._meta = metadata
        self.transposed = transposed
        # the backend's compressed buffers of the stored matrix by side (True: S @ B), shared
        # with t(); False: the backend has no entry for this matrix
        self._cache = {} if _cache is None else _cache

    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)
    layout = property(lambda self: _C.strided)

    def dim(self):
        return 2

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def values(self):
        """The kept elements, (rows, cols / 2) of the stored (untransposed) matrix."""
        return self._values

    def indices(self):
        """The metadata: 2 bits per kept element, its position in its group of 4."""
        return self._meta

    def to_dense(self):
        """The strided matrix."""
        stored = self.shape[::-1] if self.transposed else self.shape
        d = _C._semi_to_dense(self._values, self._meta, stored[1])
        return d.t() if self.transposed else d

    def t(self):
        """The transposed matrix, sharing values and metadata."""
        return SparseSemiStructuredTensor(self.shape[::-1], self._values, self._meta, not self.transposed, self._cache)

    def to(self, device):
        """The matrix with values and metadata on `device` (the compressed buffer is rebuilt
        there on its first product)."""
        v = self._values.to(device)
        if v.device == self._values.device:
            return self
        return SparseSemiStructuredTensor(self.shape, v, self._meta.to(device), self.transposed)

    def cuda(self, device=None):
        """The matrix on a CUDA device (the current one by default)."""
        return self.to("cuda" if device is None else device if not isinstance(device, int) else f"cuda:{device}")

    def cpu(self):
        """The matrix on the CPU."""
        return self.to("cpu")

    def _stored_dense(self):
        stored = self.shape[::-1] if self.transposed else self.shape
        return _C._semi_to_dense(self._values, self._meta, stored[1])

    def _device_buffer(self, left, dense=None):
        """The backend's compressed buffer of the stored matrix for side `left` (built from
        `dense`, the pruned stored matrix, or from values and metadata), or None where the
        backend's 2:4 entry does not cover the matrix (NotImplementedError: no entry, float32,
        no cuSPARSELt or a device it does not support): the products then run on host copies."""
        if self._cache.get("none"):
            return None
        buf = self._cache.get(left)
        if buf is None:
            d = self._stored_dense() if dense is None else dense
            try:
                size = _C._semi_device(d, left, None)
            except NotImplementedError:
                self._cache["none"] = True
                return None
            buf = _C.empty(size, dtype=_C.uint8, device=d.device)
            _C._semi_device(d, left, buf)
            self._cache[left] = buf
        return buf

    def detach(self):
        return self

    def __repr__(self):
        return (f"SparseSemiStructuredTensor(shape={self.shape!r}, transposed={self.transposed}, "
                f"values={self._values!r}, metadata={self._meta!r})")

    def __matmul__(self, other):
        return mm(self, other)

    def __rmatmul__(self, other):
        return mm(other, self)


def to_sparse_semi_structured(original_tensor, transposed=False):
    """A :class:`SparseSemiStructuredTensor` of a 2-D float16, bfloat16, float32 or int8
    tensor whose every group of 4 consecutive row elements holds at most 2 non-zeros (the
    number of columns a multiple of 16, of 32 for int8); RuntimeError naming the first
    group that breaks the 2:4 pattern, or the unsupported shape or dtype.

        >>> a = tensorlib.tensor([0., 0, 1, 1]).tile((2, 4))
        >>> s = tensorlib.sparse.to_sparse_semi_structured(a)
        >>> s.indices()
        tensor([[-4370],
                [-4370]], dtype=tensorlib.int16)
    """
    t = original_tensor
    if not isinstance(t, _C.TensorBase) or t.layout != _C.strided:
        raise RuntimeError("to_sparse_semi_structured: expected a strided tensor")
    if transposed:
        raise RuntimeError("to_sparse_semi_structured: transposed=True is deprecated in torch and not supported")
    values, meta = _C._semi_compress(t)
    s = SparseSemiStructuredTensor(tuple(t.shape), values, meta)
    if _on_device(t) and t.dtype in _DEVICE_DTYPES and t.numel():
        # t passed the 2:4 check: it is its own pruned matrix; both sides now, so that no
        # product ever needs the dense matrix back from values and metadata (a host round trip)
        if s._device_buffer(True, t) is not None:
            s._device_buffer(False, t)
    return s


# dtypes of the backend's 2:4 entry (cuSPARSELt's float32 sparsity is 1:2)
_DEVICE_DTYPES = (_C.float16, _C.bfloat16, _C.int8)


def _on_device(t):
    return t.device.type not in ("cpu", "meta")


def _is_semi(x):
    return isinstance(x, SparseSemiStructuredTensor)


def _kernel_dtype(d):
    return _C.int32 if d == _C.int8 else _C.float32


def _semi_mm(s, dense, left):
    """S @ dense (left) or dense @ S for an untransposed S, in S's dtype."""
    if not isinstance(dense, _C.TensorBase) or dense.dim() != 2:
        raise RuntimeError("semi-structured mm: expected a 2-D strided tensor operand")
    if dense.dtype != s.dtype:
        raise RuntimeError(f"expected scalar type {s.dtype._cname} but found {dense.dtype._cname}")
    rows, cols = s.shape
    if (_on_device(s._values) and s.dtype in _DEVICE_DTYPES and dense.device == s.device and
            dense.layout == _C.strided and rows and cols and dense.shape[0 if left else 1] == (cols if left else rows)):
        buf = s._device_buffer(left)
        if buf is not None:
            try:
                return _C._semi_device(buf, rows, cols, s.dtype, dense, left)
            except NotImplementedError:  # no libcusparseLt, a GPU before sm_80, an unsupported layout
                s._cache["none"] = True
    kd = _kernel_dtype(s.dtype)
    r = _C._semi_mm(s._values.to(kd), s._meta, dense.to(kd), left)
    return r.to(s.dtype)


def mm(a, b):
    """a @ b with one 2:4 operand (either side, transposed or not): a strided result."""
    if _is_semi(a) and _is_semi(b):
        raise RuntimeError("mm: at most one operand may be semi-structured sparse")
    if _is_semi(a):
        if not a.transposed:
            return _semi_mm(a, b, True)              # S @ B
        return _semi_mm(a.t(), b.t(), False).t()     # S^T @ B = (B^T @ S)^T
    if not b.transposed:
        return _semi_mm(b, a, False)                 # A @ S
    return _semi_mm(b.t(), a.t(), True).t()          # A @ S^T = (S @ A^T)^T


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2) with one 2:4 operand."""
    p = mm(mat1, mat2)
    if alpha != 1:
        p = p * alpha
    return p + (input * beta if beta != 1 else input) if beta != 0 else p


def linear(input, weight, bias=None):
    """input @ weight.t() (+ bias) with a 2:4 weight (out_features, in_features)."""
    r = mm(input, weight.t())
    return r if bias is None else r + bias


def wrap(name, dense_fn):
    """tensorlib.<name> taking a semi-structured operand anywhere, else the dense function."""
    semi_fn = {"mm": mm, "matmul": mm, "addmm": addmm}[name]

    def f(*args, **kwargs):
        if any(_is_semi(a) for a in args):
            return semi_fn(*args, **kwargs)
        return dense_fn(*args, **kwargs)
    f.__name__ = name
    f.__doc__ = dense_fn.__doc__
    return f
