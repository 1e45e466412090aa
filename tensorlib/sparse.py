"""tensorlib.sparse: torch.sparse's namespace (what exists so far: the invariant-check
switch and SciPy interop). The COO layer itself is in tensorlib/_sparse.py."""
from ._sparse import check_sparse_tensor_invariants, from_scipy  # noqa: F401

__all__ = ["check_sparse_tensor_invariants", "from_scipy"]
