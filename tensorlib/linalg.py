"""tensorlib.linalg: the torch.linalg functions tensorlib provides so far.

    >>> import tensorlib as tl
    >>> tl.linalg.svdvals(tl.tensor([[3., 0.], [0., 4.]])).tolist()
    [4.0, 3.0]
"""
from ._linalg import LinAlgError, matrix_norm, svdvals

__all__ = ["LinAlgError", "matrix_norm", "svdvals"]
