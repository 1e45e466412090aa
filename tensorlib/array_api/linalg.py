"""The Array API standard's linalg extension over tensorlib.linalg (LAPACK): the standard's
spellings (keyword-only ``axis``/``rtol``/``upper``/``mode``/``full_matrices``/``ord``) and its rule
that ``solve``'s x2 is a stack of matrices unless it is 1-D (torch also guesses vectors from the shape)."""
import tensorlib as tl

from . import _promoted, matmul, matrix_transpose, tensordot, vecdot  # noqa: F401

__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
           "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]


def cholesky(x, /, *, upper=False):
    """The Cholesky factor of a symmetric (Hermitian) positive-definite matrix (or stack)."""
    return tl.linalg.cholesky(x, upper=upper)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along axis, broadcasting the other dims (also
    between different ranks, which torch refuses)."""
    x1, x2 = _promoted(x1, x2)
    nd = max(x1.dim(), x2.dim())
    x1, x2 = (x.reshape((1,) * (nd - x.dim()) + tuple(x.shape)) for x in (x1, x2))
    return tl.linalg.cross(x1, x2, dim=axis)


def det(x, /):
    """The determinant of a square matrix (or stack)."""
    return tl.linalg.det(x)


def diagonal(x, /, *, offset=0):
    """The offset-th diagonal of the last two dims."""
    return tl.linalg.diagonal(x, offset=offset)


def eigh(x, /):
    """Eigenvalues (ascending) and eigenvectors of a symmetric (Hermitian) matrix (or stack)."""
    return tl.linalg.eigh(x)


def eigvalsh(x, /):
    """Eigenvalues (ascending) of a symmetric (Hermitian) matrix (or stack)."""
    return tl.linalg.eigvalsh(x)


def inv(x, /):
    """The inverse of a square matrix (or stack)."""
    return tl.linalg.inv(x)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """A matrix norm of the last two dims ('fro', 'nuc', 1, 2, inf, -1, -2, -inf)."""
    return tl.linalg.matrix_norm(x, ord=ord, keepdim=keepdims)


def matrix_power(x, n, /):
    """x multiplied by itself n times (n < 0: of its inverse; 0: the identity)."""
    return tl.linalg.matrix_power(x, n)


def matrix_rank(x, /, *, rtol=None):
    """The number of singular values above rtol times the largest."""
    return tl.linalg.matrix_rank(x, rtol=rtol)


def outer(x1, x2, /):
    """The outer product of two 1-D arrays."""
    return tl.outer(*_promoted(x1, x2))


def pinv(x, /, *, rtol=None):
    """The Moore-Penrose pseudo-inverse (singular values at most rtol times the largest dropped)."""
    return tl.linalg.pinv(x, rtol=rtol)


def qr(x, /, *, mode="reduced"):
    """The QR decomposition ('reduced' or 'complete')."""
    return tl.linalg.qr(x, mode=mode)


def slogdet(x, /):
    """The sign and the log of the absolute value of the determinant."""
    return tl.linalg.slogdet(x)


def solve(x1, x2, /):
    """The solution of x1 @ x = x2: x2 is a stack of matrices unless it is 1-D (a vector)."""
    x1, x2 = _promoted(x1, x2)
    if x2.dim() == 1:
        return tl.linalg.solve(x1, x2.unsqueeze(-1)).squeeze(-1)
    if x2.dim() == x1.dim() - 1:  # torch would read x2 as a stack of vectors; a unit batch dim keeps it matrices
        return tl.linalg.solve(x1, x2.unsqueeze(0))
    return tl.linalg.solve(x1, x2)


def svd(x, /, *, full_matrices=True):
    """The singular value decomposition (U, S, Vh)."""
    return tl.linalg.svd(x, full_matrices=full_matrices)


def svdvals(x, /):
    """The singular values (descending)."""
    return tl.linalg.svdvals(x)


def trace(x, /, *, offset=0, dtype=None):
    """The sum of the offset-th diagonal of the last two dims (integers accumulate in int64)."""
    if dtype is None and not (x.dtype.is_floating_point or x.dtype.is_complex):
        dtype = tl.int64
    return tl.linalg.diagonal(x, offset=offset).sum(-1, dtype=dtype)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """A vector norm over axis (all dims when None)."""
    return tl.linalg.vector_norm(x, ord=ord, dim=axis, keepdim=keepdims)


from . import _check_arrays  # noqa: E402

_check_arrays(globals())
