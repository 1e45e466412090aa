"""2:4 semi-structured sparsity on the CPU (torch has it on CUDA only).

``to_sparse_semi_structured(dense)`` keeps, of every group of 4 consecutive elements of a
row, 2 (the non-zeros, padded with the lowest free positions as stored zeros) and records
their positions as metadata: 2 bits per kept element, the group's nibble holding the first
position in its low bits, consecutive groups filling int16 words from their low bits (int32
words for int8) -- torch's order (``[0, 0, 1, 1]`` tiles give torch's ``-4370``). The
products (csrc/sparse/semi.c) read only the kept values: half the bytes and multiplies of
the dense product.
"""
from . import _C

__all__ = ["SparseSemiStructuredTensor", "to_sparse_semi_structured"]


class SparseSemiStructuredTensor:
    """A 2-D 2:4 semi-structured sparse matrix: ``values()`` (rows, cols / 2) holds the
    kept elements, ``indices()`` the metadata ((rows, cols / 16) int16; int8 values:
    (rows, cols / 32) int32). ``t()`` gives the transposed matrix (a flag, as torch's)."""

    def __init__(self, shape, values, metadata, transposed=False):
        self.shape = _C.Size(shape)
        self._values = values
        self._meta = metadata
        self.transposed = transposed

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
        return SparseSemiStructuredTensor(self.shape[::-1], self._values, self._meta, not self.transposed)

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
    return SparseSemiStructuredTensor(tuple(t.shape), values, meta)


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
