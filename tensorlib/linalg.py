"""tensorlib.linalg: torch.linalg's functions. The decompositions and solvers run on the
LAPACK of the OpenBLAS tensorlib links (tensorlib/_linalg_lapack.py over csrc/ops/lapack.c;
tensorlib/_linalg_compose.py builds pinv, matrix_exp, norms, ... from them), batched over
leading dims, for float32/float64/complex64/complex128. See docs/linalg.md.

    >>> import tensorlib as tl
    >>> tl.linalg.svdvals(tl.tensor([[3., 0.], [0., 4.]])).tolist()
    [4.0, 3.0]
    >>> tl.linalg.solve(tl.tensor([[2., 0.], [0., 4.]]), tl.tensor([2., 2.])).tolist()
    [1.0, 0.5]
"""
from ._linalg import matrix_norm
from ._linalg_lapack import *  # noqa: F401,F403
from ._linalg_compose import *  # noqa: F401,F403
from ._linalg_more import *  # noqa: F401,F403
from . import _linalg_lapack, _linalg_compose, _linalg_more

__all__ = list(_linalg_lapack.__all__) + list(_linalg_compose.__all__) + list(_linalg_more.__all__) + ["matrix_norm"]
del _linalg_lapack, _linalg_compose, _linalg_more
