"""tensorlib.sparse: torch.sparse's namespace (what exists so far: the invariant-check
switch, mm, sum and SciPy interop). The COO layer itself is in tensorlib/_sparse.py."""
from ._sparse import check_sparse_tensor_invariants, from_scipy  # noqa: F401
from ._sparse import _mm_impl, _is_sparse
from ._sparse_ops import sparse_sum

__all__ = ["check_sparse_tensor_invariants", "from_scipy", "mm", "sum"]


def mm(mat1, mat2):
    """Product of a 2-D COO tensor and a strided matrix (or the reverse); strided result."""
    return _mm_impl("mm", mat1, mat2)


def sum(input, dim=None, dtype=None):
    """Sum of a COO tensor: over every element (a 0-d strided tensor, of the coalesced
    tensor) or over ``dim`` (an int or a sequence): strided when every sparse dim is
    reduced, else a coalesced COO tensor keeping the values' dtype unless ``dtype`` is given
    (torch.sparse.sum's rules; ``Tensor.sum`` sums integers and bools in int64)."""
    if not _is_sparse(input):
        return input.sum(dtype=dtype) if dim is None else input.sum(dim, dtype=dtype)
    return sparse_sum(input, dim, False, dtype, promote=False)
