"""tensorlib.linalg: torch.linalg's functions. The decompositions and solvers run on the
LAPACK of the OpenBLAS tensorlib links (tensorlib/_linalg_lapack.py over csrc/ops/lapack.c),
batched over leading dims, for float32/float64/complex64/complex128.

    >>> import tensorlib as tl
    >>> tl.linalg.svdvals(tl.tensor([[3., 0.], [0., 4.]])).tolist()
    [4.0, 3.0]
    >>> tl.linalg.solve(tl.tensor([[2., 0.], [0., 4.]]), tl.tensor([2., 2.])).tolist()
    [1.0, 0.5]
"""
from ._linalg import matrix_norm
from ._linalg_lapack import *  # noqa: F401,F403
from ._linalg_lapack import __all__ as _lapack_all

__all__ = list(_lapack_all) + ["matrix_norm"]
