"""Randomized low-rank factorizations of dense and sparse matrices: svd_lowrank and
pca_lowrank (Halko, Martinsson and Tropp 2009, algorithms 4.4 and 5.1, as torch 2.13 runs
them), composed from matmul, linalg.qr and linalg.svd. A sparse A (COO, or a compressed
layout, multiplied as COO) is only ever multiplied by dense matrices: products with A^H are
taken as (Q^H A)^H, so nothing of A's size is made dense."""
from . import _C


def _floating(dtype):
    """The dtype the factorization runs in: float16/32/64 and complex dtypes stay, others are float32."""
    if dtype in (_C.float16, _C.float32, _C.float64) or dtype.is_complex:
        return dtype
    return _C.float32


def _is_sparse(a):
    return a.layout != _C.strided


def _as_coo(a):
    """Compressed layouts multiply as COO (their products with dense matrices of either side)."""
    return a.to_sparse_coo() if _is_sparse(a) and a.layout != _C.sparse_coo else a


def _mhmm(a, b):
    """a^H @ b without transposing a sparse a: (b^H @ a)^H."""
    return (b.mH @ a).mH if _is_sparse(a) else a.mH @ b


def _basis(A, q, niter, M, mH):
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M, where A
    stands for A^H when mH (A is never transposed itself). Subspace iteration from a
    Gaussian start, orthonormalized by QR after every product."""
    from . import linalg
    from ._random import randn

    def times(X):  # (A - M) @ X
        Y = _mhmm(A, X) if mH else A @ X
        return Y if M is None else Y - M @ X

    def times_h(X):  # (A - M)^H @ X
        Y = A @ X if mH else _mhmm(A, X)
        return Y if M is None else Y - M.mH @ X

    n = A.shape[-2] if mH else A.shape[-1]
    dtype = A.dtype if A.dtype.is_complex else _floating(A.dtype)
    Q = linalg.qr(times(randn(n, q, dtype=dtype))).Q
    for _ in range(2 if niter is None else niter):
        Q = linalg.qr(times_h(Q)).Q
        Q = linalg.qr(times(Q)).Q
    return Q


def _svd_lowrank(A, q, niter, M):
    from . import linalg
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    A = _as_coo(A)
    tall = m >= n  # work on the tall one of A and A^H
    if not tall and M is not None:
        M = M.mH
    Q = _basis(A, q, niter, M, not tall)
    B = Q.mH @ A if tall else (A @ Q).mH  # Q^H (A or A^H)
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = linalg.svd(B, full_matrices=False)
    U = Q @ U
    V = Vh.mH
    return (U, S, V) if tall else (V, S, U)


def svd_lowrank(A, q=6, niter=2, M=None):
    r"""svd_lowrank(A, q=6, niter=2, M=None) -> (U, S, V)

    A randomized SVD with ``A ≈ U diag(S) V^H`` (of ``A - M`` when M is
    given, M broadcast to A's shape), as torch.svd_lowrank.

    ``A`` is a matrix or a batch of matrices, or a sparse matrix (COO or a compressed
    layout; never made dense). ``q`` is a slightly overestimated rank (U is ``(*, m, q)``,
    S ``(*, q)``, V ``(*, n, q)``), ``niter`` the number of subspace iterations. The start is
    random (``tl.manual_seed`` makes it repeatable); for an exactly rank-k matrix and
    q >= k, the k leading singular values are exact to rounding.

    Example::

        >>> _ = tl.manual_seed(0)
        >>> A = tl.ones(5, 1) @ tl.tensor([[1., 2., 2.]])
        >>> U, S, V = tl.svd_lowrank(A, q=2)
        >>> round(S[0].item(), 4), U.shape, V.shape
        (6.7082, tensorlib.Size([5, 2]), tensorlib.Size([3, 2]))
    """
    return _svd_lowrank(A, q, niter, M)


def pca_lowrank(A, q=None, center=True, niter=2):
    r"""pca_lowrank(A, q=None, center=True, niter=2) -> (U, S, V)

    PCA of a low-rank matrix by a randomized SVD of ``A`` minus its column means
    (``center=True``), as torch.pca_lowrank: ``(U, S, V)`` where V's columns are the
    principal directions and ``S**2 / (m - 1)`` the variances along them.

    ``q`` defaults to ``min(6, m, n)`` and must lie in ``[0, min(m, n)]``; ``niter >= 0``.
    A sparse A (2-D COO or compressed; torch 2.13 refuses a CSR A with center=True) is
    centered without being made dense: the means enter as the rank-one M of svd_lowrank.

    Example::

        >>> _ = tl.manual_seed(0)
        >>> A = tl.tensor([[1., 0.], [3., 0.], [5., 0.]])
        >>> U, S, V = tl.pca_lowrank(A, q=1)
        >>> round(S[0].item(), 4), [round(v, 4) for v in V.abs().flatten().tolist()]
        (2.8284, [1.0, 0.0])
    """
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter, None)
    if _is_sparse(A):
        if A.dim() != 2:
            raise ValueError("pca_lowrank input is expected to be 2-dimensional tensor")
        from . import sparse
        # the column means as an (n, 1) COO tensor times a row of ones: M = (c 1^T)^T, dense (m, n)
        c = sparse.sum(_as_coo(A), dim=(-2,)) / m
        cols = c._indices()[0]
        ind = _C.zeros((2, cols.shape[0]), dtype=_C.int64)
        ind[0] = cols
        dtype = _floating(A.dtype)
        C_t = _C._sparse_coo_new(ind, c._values().to(dtype), (n, 1), False, None)
        M = (C_t @ _C.ones((1, m), dtype=dtype)).mT
        return _svd_lowrank(A, q, niter, M)
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter, None)
