"""tensorlib.sparse: torch.sparse's namespace (the invariant-check switch, mm, addmm, sum,
softmax, log_softmax, spdiags and SciPy interop). The COO layer itself is in tensorlib/_sparse.py."""
from ._sparse import check_sparse_tensor_invariants, from_scipy  # noqa: F401
from ._sparse import _is_sparse, _tensor_input
from ._sparse_ops import sparse_sum, sparse_addmm as addmm, _mm, softmax, log_softmax, spdiags  # noqa: F401

__all__ = ["check_sparse_tensor_invariants", "from_scipy", "mm", "sum", "addmm", "softmax", "log_softmax", "spdiags"]


def mm(mat1, mat2, reduce=None):
    """Product of a 2-D COO tensor and a strided matrix (or the reverse): strided; of two
    2-D COO tensors: a coalesced COO tensor. ``reduce`` (torch's CSR-only option) refuses."""
    if reduce is not None:
        raise NotImplementedError("Could not run 'aten::_sparse_mm_reduce_impl' with arguments from the 'SparseCPU' "
                                  "backend.")
    return _mm(mat1, mat2)


def sum(input, dim=None, dtype=None):
    """Sum of a COO tensor: over every element (a 0-d strided tensor, of the coalesced
    tensor) or over ``dim`` (an int or a sequence): strided when every sparse dim is
    reduced, else a coalesced COO tensor keeping the values' dtype unless ``dtype`` is given
    (torch.sparse.sum's rules; ``Tensor.sum`` sums integers and bools in int64)."""
    _tensor_input("sum", input)
    if not _is_sparse(input):
        return input.sum(dtype=dtype) if dim is None else input.sum(dim, dtype=dtype)
    return sparse_sum(input, dim, False, dtype, promote=False)
