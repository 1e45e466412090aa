"""tensorlib.sparse: torch.sparse's namespace (what exists so far: the invariant-check
switch, mm, sum and SciPy interop). The COO layer itself is in tensorlib/_sparse.py."""
from ._sparse import check_sparse_tensor_invariants, from_scipy  # noqa: F401
from ._sparse import _mm_impl, _reduce, _is_sparse

__all__ = ["check_sparse_tensor_invariants", "from_scipy", "mm", "sum"]


def mm(mat1, mat2):
    """Product of a 2-D COO tensor and a strided matrix (or the reverse); strided result."""
    return _mm_impl("mm", mat1, mat2)


def sum(input, dim=None, dtype=None):
    """Sum of all elements of a COO tensor (a 0-d strided tensor); sums over some dims are
    not supported yet and raise."""
    if not _is_sparse(input):
        return input.sum(dtype=dtype) if dim is None else input.sum(dim, dtype=dtype)
    return _reduce(input, 0, dim, False, dtype, 0.0)
