"""torch.linalg's decompositions and solvers on LAPACK (the C primitives of
csrc/ops/lapack.c: getrf/getrs, potrf, geqrf/orgqr, syevd/heevd, gesdd, geev, gels*, trsm).

This module checks arguments with torch's messages, broadcasts batch dims, turns LAPACK's
per-matrix `info` into torch's LinAlgError text, and composes the higher-level functions
(det, slogdet, inv, pinv, matrix_rank, cond, lu, matrix_exp, ...) from the primitives."""
import math

import tensorlib as _tl  # the package, read at call time (this module loads during its import)

from . import _C
from ._reduce import return_types
from ._util import no_names as _no_names
from ._linalg import LinAlgError, matrix_norm as _matrix_norm

_LOW = ("float16", "bfloat16", "complex32")
_EPS = {"float32": 1.1920928955078125e-07, "float64": 2.220446049250313e-16}

for _name, _fields in [("linalg_slogdet", "sign logabsdet"), ("slogdet", "sign logabsdet"), ("linalg_qr", "Q R"),
                       ("qr", "Q R"), ("linalg_eigh", "eigenvalues eigenvectors"),
                       ("linalg_eig", "eigenvalues eigenvectors"), ("linalg_svd", "U S Vh"), ("svd", "U S V"),
                       ("linalg_lstsq", "solution residuals rank singular_values"), ("linalg_lu", "P L U"),
                       ("linalg_lu_factor", "LU pivots"), ("linalg_lu_factor_ex", "LU pivots info"),
                       ("linalg_inv_ex", "inverse info"), ("linalg_cholesky_ex", "L info"),
                       ("linalg_solve_ex", "result info")]:
    from collections import namedtuple as _nt
    _cls = _nt(_name, _fields)
    _cls.__module__ = "tensorlib.return_types"
    setattr(return_types, _name, _cls)
del _name, _fields, _cls


def _dn(dt):
    return str(dt).split(".")[-1]


def _real(dt):
    return {"complex64": _tl.float32, "complex128": _tl.float64}.get(_dn(dt), dt)


def _eps(dt):
    return _EPS[_dn(_real(dt))]


def _check(op, A, square=False, arg="A", kernel=None, kernel_any=False):
    """torch's checks of a linalg input: a tensor, >= 2 dims, floating or complex, not a
    low-precision dtype (kernel: the NotImplementedError name torch reports for those, and
    for every unsupported dtype when kernel_any), square when asked."""
    if not isinstance(A, _C.TensorBase):
        raise TypeError(f"{op.split('.')[-1]}(): argument '{arg}' (position 1) must be Tensor, not {type(A).__name__}")
    _no_names(op, A)
    if A.dim() < 2:
        raise RuntimeError(f"{op}: The input tensor {arg} must have at least 2 dimensions.")
    dt = A.dtype
    if kernel_any and (_dn(dt) in _LOW or not (dt.is_floating_point or dt.is_complex)):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dt._cname}\'')
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got {dt._cname}")
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{op}: {arg} must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if _dn(dt) in _LOW:
        if kernel:
            raise NotImplementedError(f'"{kernel}" not implemented for \'{dt._cname}\'')
        raise RuntimeError(f"{op}: Low precision dtypes not supported. Got {dt._cname}")


def _same_dtype(op, A, B, a="A", b="B"):
    if A.dtype != B.dtype:
        raise RuntimeError(f"{op}: Expected {a} and {b} to have the same dtype, but found {a} of type "
                           f"{A.dtype._cname} and {b} of type {B.dtype._cname} instead")


def _raise_info(api, info, msg, error=LinAlgError):
    """Raises torch's message for the first matrix whose LAPACK info is nonzero; msg(code)
    gives the text after the batch prefix."""
    if info.numel() == 0:
        return
    flat = info.reshape(-1)
    bad = flat.nonzero()
    if bad.numel() == 0:
        return
    i = int(bad[0, 0])
    where = f": (Batch element {i})" if info.dim() > 0 else ""
    raise error(f"{api}{where}: {msg(int(flat[i]))}")


def _batch_broadcast(A, B):
    """A [..., r, c] and B [..., p, q] with their batch dims broadcast together."""
    from ._join import broadcast_shapes
    batch = tuple(broadcast_shapes(tuple(A.shape[:-2]), tuple(B.shape[:-2])))
    return A.expand(batch + tuple(A.shape[-2:])), B.expand(batch + tuple(B.shape[-2:]))


def _eye_like(A, n=None):
    n = A.shape[-1] if n is None else n
    return _tl.eye(n, dtype=A.dtype).expand(tuple(A.shape[:-2]) + (n, n))


# ---- LU: determinants, inverses, solves ----

def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """lu_factor_ex(A, *, pivot=True, check_errors=False) -> (LU, pivots, info)

    LU factorization with partial pivoting (LAPACK getrf) of A [..., m, n]: LU packs L
    (unit lower) and U, pivots (int32, 1-based) the row swaps, info LAPACK's status per matrix."""
    _check("torch.linalg.lu_factor_ex", A, kernel="lu_cpu", kernel_any=True)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, piv, info = _C._lapack_getrf(A)
    if check_errors:
        _raise_info("torch.linalg.lu_factor_ex", info, lambda c: f"U[{c},{c}] is zero and using it on lu_solve "
                    "would result in a division by zero.", RuntimeError)
    return return_types.linalg_lu_factor_ex(LU, piv, info)


def lu_factor(A, *, pivot=True, out=None):
    """lu_factor(A, *, pivot=True) -> (LU, pivots)

    LU factorization with partial pivoting of A [..., m, n] (LAPACK getrf), the form
    lu_solve takes. Raises when U has a zero on its diagonal."""
    _check("torch.linalg.lu_factor", A, kernel="lu_cpu", kernel_any=True)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, piv, info = _C._lapack_getrf(A)
    _raise_info("torch.linalg.lu_factor", info, lambda c: f"U[{c},{c}] is zero and using it on lu_solve would result "
                "in a division by zero. If you still want to perform the factorization, consider calling "
                "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", RuntimeError)
    return return_types.linalg_lu_factor(LU, piv)


def lu(A, *, pivot=True, out=None):
    """lu(A, *, pivot=True) -> (P, L, U)

    A = P @ L @ U for A [..., m, n]: P a permutation matrix, L [..., m, k] unit lower
    triangular, U [..., k, n] upper triangular, k = min(m, n)."""
    _check("linalg.lu", A, kernel="lu_cpu", kernel_any=True)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    m, n = A.shape[-2], A.shape[-1]
    k = min(m, n)
    LU, piv, _ = _C._lapack_getrf(A)
    from ._join import tril, triu
    L = tril(LU[..., :, :k], -1) + _tl.eye(m, k, dtype=A.dtype)
    U = triu(LU[..., :k, :])
    perm = _C._lapack_perm(piv, m)
    P = _tl.eye(m, dtype=A.dtype)[perm].mT  # row perm[i] of A is row i of P^T A
    return return_types.linalg_lu(P.contiguous(), L, U)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """lu_solve(LU, pivots, B, *, left=True, adjoint=False) -> Tensor

    Solves A X = B (X A = B when left=False; with A^H when adjoint) from lu_factor's
    output (LAPACK getrs), batched and broadcast."""
    _check("linalg.lu_solve", LU, square=True, arg="LU")
    _same_dtype("linalg.lu_solve", LU, B, "LU", "B")
    if not left:
        return lu_solve(LU, pivots, B.mH, left=True, adjoint=not adjoint).mH
    if B.dim() < 2 or B.shape[-2] != LU.shape[-1]:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B "
                           f"({LU.shape[-2]}x{LU.shape[-1]} and {'x'.join(str(s) for s in B.shape[-2:])})")
    LUb, Bb = _batch_broadcast(LU, B)
    piv = pivots.expand(tuple(LUb.shape[:-2]) + (pivots.shape[-1],))
    trans = ("C" if LU.dtype.is_complex else "T") if adjoint else "N"
    return _C._lapack_getrs(LUb, piv, Bb, trans)


def _det_parts(op, A, kernel=None):
    _check(op, A, square=True, kernel=kernel)
    LU, piv, _ = _C._lapack_getrf(A)
    d = LU.diagonal(0, -2, -1)
    n = A.shape[-1]
    swaps = (piv != _tl.arange(1, n + 1, dtype=_tl.int32)).sum(-1)
    perm_sign = 1 - 2 * (swaps % 2)
    return d, perm_sign


def det(A, *, out=None):
    """det(A) -> Tensor

    Determinant of square matrices A [..., n, n]: the product of U's diagonal from an LU
    factorization, signed by the pivots (0 for singular matrices)."""
    d, s = _det_parts("linalg.det", A, "lu_cpu")
    return d.prod(-1) * s.to(A.dtype)


def slogdet(A, *, out=None):
    """slogdet(A) -> (sign, logabsdet)

    det(A) = sign * exp(logabsdet) without overflow: sign is +-1 (a unit complex number for
    complex A, 0 for singular A) and logabsdet real (-inf for singular A)."""
    d, s = _det_parts("linalg.slogdet", A)
    ad = d.abs()
    zero = ad == 0
    unit = d / _tl.where(zero, _tl.ones((), dtype=ad.dtype), ad).to(d.dtype)
    sign = _tl.where(zero.any(-1), _tl.zeros((), dtype=A.dtype), unit.prod(-1) * s.to(A.dtype))
    return return_types.linalg_slogdet(sign, ad.log().sum(-1))


def logdet(A):
    """logdet(A) -> Tensor

    log(det(A)): NaN when a real determinant is negative, -inf when it is 0."""
    sign, lad = slogdet(A)
    if A.dtype.is_complex:
        return sign.log() + lad
    return _tl.where(sign < 0, _tl.full((), math.nan, dtype=lad.dtype), lad)


def inv_ex(A, *, check_errors=False, out=None):
    """inv_ex(A, *, check_errors=False) -> (inverse, info)

    inv without raising for singular matrices: info > 0 marks them."""
    _check("linalg.inv", A, square=True)
    LU, piv, info = _C._lapack_getrf(A)
    if check_errors:
        _raise_info("linalg.inv", info, _inv_msg)
    return return_types.linalg_inv_ex(_C._lapack_getrs(LU, piv, _eye_like(A), "N"), info)


def _inv_msg(c):
    return (f"The diagonal element {c} is zero, the inversion could not be completed because the input matrix is "
            "singular.")


def inv(A, *, out=None):
    """inv(A) -> Tensor

    Inverse of square matrices A [..., n, n] (LAPACK getrf + getrs). Raises LinAlgError
    for singular matrices."""
    r, info = inv_ex(A)
    _raise_info("linalg.inv", info, _inv_msg)
    return r


def _solve_prep(A, B, left):
    _check("linalg.solve", A, square=True, kernel="lu_cpu")
    if not isinstance(B, _C.TensorBase):
        raise TypeError(f"linalg_solve(): argument 'B' (position 2) must be Tensor, not {type(B).__name__}")
    _same_dtype("linalg.solve", A, B)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    if vector:
        B = B.unsqueeze(-1 if left else -2)
    if not left:
        A, B = A.mT, B.mT
    if B.shape[-2] != A.shape[-1]:
        shp = (f"{A.shape[-2]}x{A.shape[-1]}", f"{B.shape[-2]}x{B.shape[-1]}")
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({shp[0]} and {shp[1]})")
    return A, B, vector


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """solve_ex(A, B, *, left=True, check_errors=False) -> (result, info)

    solve without raising for singular matrices: info > 0 marks them."""
    A2, B2, vector = _solve_prep(A, B, left)
    A2, B2 = _batch_broadcast(A2, B2)
    LU, piv, info = _C._lapack_getrf(A2)
    if check_errors:
        _raise_info("torch.linalg.solve_ex", info, lambda c: "The solver failed because the input matrix is singular.")
    X = _C._lapack_getrs(LU, piv, B2, "N")
    if not left:
        X = X.mT
    return return_types.linalg_solve_ex(X.squeeze(-1 if left else -2) if vector else X, info)


def solve(A, B, *, left=True, out=None):
    """solve(A, B, *, left=True) -> Tensor

    X with A X = B (X A = B when left=False) for square A [..., n, n]; B [..., n, k] or a
    batch of vectors [..., n]; batch dims broadcast. Raises LinAlgError for singular A."""
    X, info = solve_ex(A, B, left=left)
    _raise_info("torch.linalg.solve", info, lambda c: "The solver failed because the input matrix is singular.")
    return X


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """solve_triangular(A, B, *, upper, left=True, unitriangular=False) -> Tensor

    X with A X = B (X A = B when left=False) for triangular A (only its upper or lower
    triangle is read; unit diagonal assumed when unitriangular), via BLAS trsm."""
    _check("linalg.solve_triangular", A, square=True)
    _check("linalg.solve_triangular", B, arg="B")
    _same_dtype("linalg.solve_triangular", A, B)
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({A.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    A2, B2 = _batch_broadcast(A, B)
    return _C._lapack_trsm(A2, B2, left, upper, unitriangular)


# ---- Cholesky, QR ----

def _chol_msg(c):
    return ("The factorization could not be completed because the input is not positive-definite (the leading minor "
            f"of order {c} is not positive-definite).")


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """cholesky_ex(A, *, upper=False, check_errors=False) -> (L, info)

    cholesky without raising: info > 0 gives the order of the first non-positive minor."""
    _check("linalg.cholesky", A, square=True, kernel="cholesky_cpu")
    L, info = _C._lapack_potrf(A, upper)
    if check_errors:
        _raise_info("linalg.cholesky", info, _chol_msg)
    return return_types.linalg_cholesky_ex(L, info)


def cholesky(A, *, upper=False, out=None):
    """cholesky(A, *, upper=False) -> Tensor

    Cholesky factor L (A = L L^H) of Hermitian positive-definite A [..., n, n], or U
    (A = U^H U) when upper; only that triangle of A is read (LAPACK potrf). Raises
    LinAlgError when A is not positive-definite."""
    L, info = cholesky_ex(A, upper=upper)
    _raise_info("linalg.cholesky", info, _chol_msg)
    return L


def householder_product(A, tau, *, out=None):
    """householder_product(A, tau) -> Tensor

    The first n columns of the product of the Householder reflectors stored in A [..., m, n]
    (below the diagonal) with scalars tau [..., k] (LAPACK orgqr / ungqr)."""
    _check("torch.linalg.householder_product", A, kernel="orgqr_cpu")
    _same_dtype("torch.linalg.householder_product", A, tau, "input", "tau")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    return _C._lapack_orgqr(A, tau.expand(tuple(A.shape[:-2]) + (tau.shape[-1],)))


def qr(A, mode="reduced", *, out=None):
    """qr(A, mode='reduced') -> (Q, R)

    A = Q R with Q unitary columns and R upper triangular (LAPACK geqrf + orgqr). mode
    'reduced': Q [..., m, k], R [..., k, n]; 'complete': Q [..., m, m], R [..., m, n];
    'r': R only (Q empty). k = min(m, n)."""
    _check("linalg.qr", A, kernel="geqrf_cpu")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    from ._join import triu
    m, n = A.shape[-2], A.shape[-1]
    k = min(m, n)
    QR, tau = _C._lapack_geqrf(A)
    rows = m if mode == "complete" else k
    R = triu(QR[..., :rows, :]).contiguous()
    if mode == "r":
        return return_types.linalg_qr(_tl.empty(0, dtype=A.dtype), R)
    if mode == "complete" and m > n:
        from ._join import cat
        QR = cat([QR, _tl.zeros(tuple(A.shape[:-1]) + (m - n,), dtype=A.dtype)], -1)
        Q = _C._lapack_orgqr(QR, tau)
    else:
        Q = _C._lapack_orgqr(QR[..., :, :k], tau)
    return return_types.linalg_qr(Q, R)


# ---- eigenvalues and singular values ----

def _eigh(op, A, UPLO, vectors):
    _check("linalg.eigh", A, square=True, kernel="linalg_eigh_cpu", kernel_any=True)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    w, V, info = _C._lapack_syevd(A, UPLO == "U", vectors)
    _raise_info("linalg.eigh", info, lambda c: "The algorithm failed to converge because the input matrix is "
                f"ill-conditioned or has too many repeated eigenvalues (error code: {c}).")
    return w, V


def eigh(A, UPLO="L", *, out=None):
    """eigh(A, UPLO='L') -> (eigenvalues, eigenvectors)

    Eigen-decomposition of Hermitian (real symmetric) A [..., n, n] from its lower (or
    upper) triangle: real eigenvalues ascending, orthonormal eigenvectors as columns
    (LAPACK syevd / heevd)."""
    return return_types.linalg_eigh(*_eigh("linalg.eigh", A, UPLO, True))


def eigvalsh(A, UPLO="L", *, out=None):
    """eigvalsh(A, UPLO='L') -> Tensor

    Eigenvalues of Hermitian A, real, ascending."""
    return _eigh("linalg.eigvalsh", A, UPLO, False)[0]


def _eig(A, vectors):
    if isinstance(A, _C.TensorBase) and not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"Unknown Complex ScalarType for {A.dtype._cname}")
    _check("linalg.eig", A, square=True, kernel="linalg_eig_out_cpu")
    if A.numel() and not bool(A.isfinite().all()):
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    w, V, info = _C._lapack_geev(A, vectors)
    _raise_info("torch.linalg.eig", info, lambda c: "The algorithm failed to converge because the input matrix is "
                f"ill-conditioned or has too many repeated eigenvalues (error code: {c}).")
    return w, V


def eig(A, *, out=None):
    """eig(A) -> (eigenvalues, eigenvectors)

    Eigenvalues and right eigenvectors (unit-norm columns) of square A [..., n, n], both
    complex (LAPACK geev). Eigenvectors are unique only up to a complex phase."""
    return return_types.linalg_eig(*_eig(A, True))


def eigvals(A, *, out=None):
    """eigvals(A) -> Tensor

    Eigenvalues of square A, complex (LAPACK geev)."""
    return _eig(A, False)[0]


def _svd(op, A, jobz):
    _check("linalg.svd", A, kernel="linalg_svd_cpu")
    U, S, Vh, info = _C._lapack_gesdd(A, jobz)
    if info.numel() and bool((info != 0).any()):
        bad = int(info.reshape(-1).nonzero()[0, 0])
        Ab = A.reshape((-1,) + tuple(A.shape[-2:]))[bad]
        finite = bool(Ab.isfinite().all())
        _raise_info("linalg.svd", info, lambda c: "The algorithm failed to converge because the input matrix " + (
            f"is ill-conditioned or has too many repeated singular values (error code: {c})." if finite else
            "contained non-finite values."))
    return U, S, Vh


def svd(A, full_matrices=True, *, driver=None, out=None):
    """svd(A, full_matrices=True, *, driver=None) -> (U, S, Vh)

    A = U diag(S) Vh for A [..., m, n] (LAPACK gesdd): S real, descending; U [..., m, k]
    and Vh [..., k, n] with k = min(m, n), or square U and Vh when full_matrices.
    Singular vectors are unique only up to a sign (phase for complex A)."""
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    U, S, Vh = _svd("linalg.svd", A, "A" if full_matrices else "S")
    if min(A.shape[-2], A.shape[-1]) == 0 and A.numel() == 0:  # torch: the identity's columns
        U = _tl.eye(U.shape[-2], U.shape[-1], dtype=A.dtype).expand(tuple(U.shape)).contiguous()
        Vh = _tl.eye(Vh.shape[-2], Vh.shape[-1], dtype=A.dtype).expand(tuple(Vh.shape)).contiguous()
    return return_types.linalg_svd(U, S, Vh)


def svdvals(A, *, driver=None, out=None):
    """svdvals(A, *, driver=None) -> Tensor

    Singular values of A [..., m, n] in descending order, shape [..., min(m, n)], real
    dtype (LAPACK gesdd without vectors)."""
    if not isinstance(A, _C.TensorBase):
        raise TypeError(f"linalg_svdvals(): argument 'A' (position 1) must be Tensor, not {type(A).__name__}")
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs "
                           "with cuSOLVER backend.")
    _no_names("linalg_svdvals", A)
    r = _svd("linalg.svd", A, "N")[1]
    return r if out is None else _C._write_out(r, out, "linalg_svdvals", True)


# ---- least squares ----

_DRIVERS = {"gels": 0, "gelsy": 1, "gelsd": 2, "gelss": 3}


def lstsq(A, B, rcond=None, *, driver=None):
    """lstsq(A, B, rcond=None, *, driver=None) -> (solution, residuals, rank, singular_values)

    Least-squares solution of A X = B for A [..., m, n], B [..., m, k] (LAPACK gelsy by
    default; 'gels' for full-rank A, 'gelsd' / 'gelss' also give singular values). rank
    for the rank-revealing drivers; residuals ||A X - B||^2 per column when m > n and
    every matrix has full rank."""
    _check("torch.linalg.lstsq", A, arg="input")
    if not isinstance(B, _C.TensorBase):
        raise TypeError(f"linalg_lstsq(): argument 'b' (position 2) must be Tensor, not {type(B).__name__}")
    if A.dtype != B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           f"dtype {A.dtype._cname} and other's dtype {B.dtype._cname}")
    vector = B.dim() == A.dim() - 1
    if not (B.dim() == A.dim() or vector):
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                           "(input.dim() - other.dim()) <= 1")
    if vector:
        B = B.unsqueeze(-1)
    if A.shape[-2] != B.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    driver = "gelsy" if driver is None else driver
    if driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    m, n = A.shape[-2], A.shape[-1]
    if rcond is None:
        rcond = _eps(A.dtype) * max(m, n)
    A2, B2 = _batch_broadcast(A, B)
    X, rank, sv, info = _C._lapack_gels(A2, B2, _DRIVERS[driver], float(rcond))
    if driver == "gels":
        _raise_info("torch.linalg.lstsq", info, lambda c: "The least squares solution could not be computed because "
                    f"the input matrix does not have full rank (error code: {c}).")
    elif driver in ("gelsd", "gelss"):
        _raise_info("torch.linalg.lstsq", info, lambda c: "The algorithm failed to converge because the input matrix "
                    f"is ill-conditioned or has too many repeated singular values (error code: {c}).")
    sol = X[..., :n, :]
    rdt = _real(A.dtype)
    full_rank = driver == "gels" or (rank.numel() == 0 or bool((rank == min(m, n)).all()))
    if m > n and driver != "gelsy" and full_rank and X.numel():
        res = (X[..., n:, :].abs() ** 2).sum(-2)
    else:
        res = _tl.empty(0, dtype=rdt)
    if driver == "gels":
        rank = _tl.empty(0, dtype=_tl.int64)
    if driver not in ("gelsd", "gelss"):
        sv = _tl.empty(0, dtype=rdt)
    if vector:
        sol = sol.squeeze(-1)
    return return_types.linalg_lstsq(sol, res, rank, sv)


# ---- functions of the singular values / eigenvalues ----

def _tolerances(op, A, atol, rtol, S):
    """torch's cutoff max(atol, rtol * largest singular value) per matrix; rtol defaults to
    eps * max(m, n) unless a positive atol is given."""
    smax = S.amax(-1, keepdim=True) if S.shape[-1] else _tl.zeros(tuple(S.shape[:-1]) + (1,), dtype=S.dtype)
    if rtol is None:
        rtol = 0.0 if (atol is not None and (not isinstance(atol, _C.TensorBase) and atol > 0)) else \
            _eps(A.dtype) * max(A.shape[-2], A.shape[-1])
    atol = 0.0 if atol is None else atol
    at = atol.unsqueeze(-1) if isinstance(atol, _C.TensorBase) else atol
    rt = rtol.unsqueeze(-1) if isinstance(rtol, _C.TensorBase) else rtol
    return _tl.maximum(smax * rt, _tl.zeros((), dtype=S.dtype) + at)


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """pinv(A, *, atol=None, rtol=None, hermitian=False) -> Tensor

    Moore-Penrose pseudo-inverse of A [..., m, n] from its SVD (eigh when hermitian),
    singular values at or below max(atol, rtol * largest) treated as zero."""
    if isinstance(A, _C.TensorBase) and (A.dim() < 2 or _dn(A.dtype) not in ("float32", "float64", "complex64",
                                                                            "complex128")):
        raise RuntimeError(f"linalg.pinv({A.dtype._cname}{{{list(A.shape)}}}): expected a tensor with 2 or more "
                           "dimensions of float, double, cfloat or cdouble types")
    _check("linalg.pinv", A)
    if hermitian:
        w, V = _eigh("linalg.pinv", A, "L", True)
        cut = _tolerances("linalg.pinv", A, atol, rtol, w.abs())
        winv = _tl.where(w.abs() > cut, 1 / w, _tl.zeros((), dtype=w.dtype))
        return (V * winv.unsqueeze(-2).to(A.dtype)) @ V.mH
    U, S, Vh = _svd("linalg.pinv", A, "S")
    cut = _tolerances("linalg.pinv", A, atol, rtol, S)
    sinv = _tl.where(S > cut, 1 / S, _tl.zeros((), dtype=S.dtype))
    return (Vh.mH * sinv.unsqueeze(-2).to(A.dtype)) @ U.mH


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """matrix_rank(A, *, atol=None, rtol=None, hermitian=False) -> Tensor

    Number of singular values (|eigenvalues| when hermitian) above max(atol, rtol *
    largest), int64, per matrix."""
    if isinstance(A, _C.TensorBase) and _dn(A.dtype) not in ("float32", "float64", "complex64", "complex128"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    _check("torch.linalg.matrix_rank", A)
    S = _eigh("linalg.eigh", A, "L", False)[0].abs() if hermitian else _svd("linalg.svd", A, "N")[1]
    cut = _tolerances("torch.linalg.matrix_rank", A, atol, rtol, S)
    return (S > cut).sum(-1)


def cond(A, p=None, *, out=None):
    """cond(A, p=None) -> Tensor

    Condition number of A in the p-norm: largest / smallest singular value for p None or 2
    (-2: the reverse), else matrix_norm(A, p) * matrix_norm(inv(A), p) (square A; inf
    where A is singular). Real dtype."""
    _check("linalg.cond", A)
    if p is None or p in (2, -2):
        S = _svd("linalg.svd", A, "N")[1]
        if S.shape[-1] == 0:
            return _tl.zeros(tuple(S.shape[:-1]), dtype=S.dtype)
        big, small = S[..., 0], S[..., -1]
        return big / small if p != -2 else small / big
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    _check("linalg.cond", A, square=True)
    if A.numel() == 0:
        return _tl.zeros(tuple(A.shape[:-2]), dtype=_real(A.dtype))
    Ai, info = inv_ex(A)
    r = _matrix_norm(A, p) * _matrix_norm(Ai, p)
    return _tl.where(info > 0, _tl.full((), math.inf, dtype=r.dtype), r)


# ---- matrix functions ----

def matrix_power(A, n, *, out=None):
    """matrix_power(A, n) -> Tensor

    A multiplied by itself n times by repeated squaring (identity for n = 0, powers of
    inv(A) for n < 0), batched over square A [..., m, m]."""
    if not isinstance(A, _C.TensorBase):
        raise TypeError(f"linalg_matrix_power(): argument 'input' (position 1) must be Tensor, not {type(A).__name__}")
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but they are "
                           f"{A.shape[-2] if A.dim() > 1 else A.shape[-1] if A.dim() else 0} by "
                           f"{A.shape[-1] if A.dim() else 0} matrices")
    n = int(n)
    if n == 0:
        return _eye_like(A).contiguous() if A.dtype != _tl.bool else _eye_like(A).contiguous()
    if n < 0:
        A, n = inv(A), -n
    result, base = None, A
    while n:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    return result.clone() if result is A else result


_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)


def matrix_exp(A):
    """matrix_exp(A) -> Tensor

    exp(A) = sum A^k / k! for square A [..., n, n], by scaling and squaring with a
    degree-13 Pade approximant (Higham 2005); one scaling for the whole batch."""
    if isinstance(A, _C.TensorBase) and _dn(A.dtype) in ("float16", "bfloat16"):
        return matrix_exp(A.to(_tl.float32)).to(A.dtype)
    _check("linalg.matrix_exp", A, square=True)
    if A.numel() == 0:
        return A.clone()
    if A.shape[-1] == 1:
        return A.exp()
    norm1 = float(A.abs().sum(-2).amax())
    s = max(0, math.ceil(math.log2(norm1 / 5.371920351148152))) if norm1 > 0 else 0
    X = A / (2.0 ** s)
    b = _PADE13
    eye = _eye_like(X)
    X2 = X @ X
    X4 = X2 @ X2
    X6 = X4 @ X2
    U = X @ (X6 @ (b[13] * X6 + b[11] * X4 + b[9] * X2) + b[7] * X6 + b[5] * X4 + b[3] * X2 + b[1] * eye)
    V = X6 @ (b[12] * X6 + b[10] * X4 + b[8] * X2) + b[6] * X6 + b[4] * X4 + b[2] * X2 + b[0] * eye
    R = solve(V - U, V + U)
    for _ in range(s):
        R = R @ R
    return R


# ---- norms and small helpers ----

def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None) -> Tensor

    Vector ord-norm (any real ord, inf, -inf, 0) of x over dim (all elements when None);
    real result (the real counterpart of a complex x)."""
    from . import _reduce
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"linalg_vector_norm(): argument 'x' (position 1) must be Tensor, not {type(x).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{x.dtype._cname}")
    if isinstance(dim, int):
        dim = (dim,)
    r = _reduce.norm(x, float(ord), dim, keepdim, dtype=dtype)
    return r if out is None else _C._write_out(r, out, "linalg_vector_norm", True)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """norm(A, ord=None, dim=None, keepdim=False, *, dtype=None) -> Tensor

    A vector norm (dim an int, or A 1-D) or a matrix norm (dim a pair, or A 2-D with ord
    given); with ord and dim None, the 2-norm of all elements."""
    if not isinstance(A, _C.TensorBase):
        raise TypeError(f"linalg_norm(): argument 'input' (position 1) must be Tensor, not {type(A).__name__}")
    if dim is not None and not isinstance(dim, int):
        dim = tuple(dim)
        if len(dim) == 1:
            dim = dim[0]
    if ord is None:
        return vector_norm(A, 2, dim if not isinstance(dim, tuple) or len(dim) != 2 else dim, keepdim, dtype=dtype,
                           out=out) if not (isinstance(dim, tuple) and len(dim) == 2) else \
            _matrix_norm(A, "fro", dim, keepdim, dtype=dtype, out=out)
    if dim is None:
        if A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                               f"{A.dim()}D.")
        dim = (0, 1) if A.dim() == 2 else 0
    if isinstance(dim, tuple):
        return _matrix_norm(A, ord, dim, keepdim, dtype=dtype, out=out)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: ord must be a number, got {ord}")
    return vector_norm(A, ord, dim, keepdim, dtype=dtype, out=out)


def cross(input, other, *, dim=-1, out=None):
    """cross(input, other, *, dim=-1) -> Tensor

    Cross product of 3-vectors along dim (batch dims broadcast)."""
    from ._join import cross as _cross
    return _cross(input, other, dim=dim, out=out) if out is not None else _cross(input, other, dim=dim)


def vecdot(x, y, *, dim=-1, out=None):
    """vecdot(x, y, *, dim=-1) -> Tensor

    sum(conj(x) * y) along dim, broadcasting the other dims."""
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{x.dtype._cname} and y of type {y.dtype._cname} instead")
    r = (x.conj() * y).sum(dim)
    return r if out is None else _C._write_out(r, out, "linalg_vecdot", True)


def multi_dot(tensors, *, out=None):
    """multi_dot(tensors) -> Tensor

    The matrix product of a chain of 2-D tensors (the first and last may be 1-D vectors)."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    for i, t in enumerate(tensors):
        want = (1, 2) if i in (0, len(tensors) - 1) else (2,)
        if t.dim() not in want:
            if i == 0:
                raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {t.dim()}D")
            if i == len(tensors) - 1:
                raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {t.dim()}D")
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{tensors[0].dtype._cname} and tensor {i} is {t.dtype._cname}")
    first_vec, last_vec = tensors[0].dim() == 1, tensors[-1].dim() == 1
    mats = [tensors[0].unsqueeze(0) if first_vec else tensors[0]] + tensors[1:-1] + \
        [tensors[-1].unsqueeze(-1) if last_vec else tensors[-1]]
    for i in range(len(mats) - 1):
        if mats[i].shape[-1] != mats[i + 1].shape[-2]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {list(mats[i].shape)} and "
                               f"{list(mats[i + 1].shape)} cannot be multiplied")
    r = mats[0]
    for m in mats[1:]:
        r = _tl.mm(r, m)
    if first_vec:
        r = r.squeeze(0)
    if last_vec:
        r = r.squeeze(-1)
    return r if out is None else _C._write_out(r, out, "linalg_multi_dot", True)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """diagonal(A, *, offset=0, dim1=-2, dim2=-1) -> Tensor

    The diagonals of the matrices in A (a view), as Tensor.diagonal with matrix defaults."""
    return A.diagonal(offset, dim1, dim2)


def vander(x, *, N=None):
    """vander(x, *, N=None) -> Tensor

    Vandermonde matrix [..., n, N]: columns x^0, x^1, ..., x^(N-1) (N defaults to n)."""
    if x.dim() < 1:
        raise RuntimeError("linalg.vander: x must have at least one dimension")
    n = x.shape[-1] if N is None else int(N)
    if n <= 1 and N is not None and n < 1:
        raise RuntimeError("N must be greater than 1.")
    dt = x.dtype if (x.dtype.is_floating_point or x.dtype.is_complex) else _tl.int64
    return x.to(dt).unsqueeze(-1) ** _tl.arange(n, dtype=dt)


def tensorinv(A, ind=2, *, out=None):
    """tensorinv(A, ind=2) -> Tensor

    The inverse of A seen as a square matrix of its first ind dims by the rest: result
    shape A.shape[ind:] + A.shape[:ind]."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    lead, rest = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    p, q = math.prod(lead), math.prod(rest)
    if p != q:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {q} != {p}")
    return inv(A.reshape(p, q)).reshape(rest + lead)


def tensorsolve(A, B, dims=None, *, out=None):
    """tensorsolve(A, B, dims=None) -> Tensor

    X with tensordot(A, X, X.ndim) = B; dims moves those dims of A to the end first."""
    if dims is not None:
        dims = [d % A.dim() for d in dims]
        A = A.permute(*([d for d in range(A.dim()) if d not in dims] + dims))
    rest = tuple(A.shape[B.dim():])
    n = math.prod(rest)
    if math.prod(tuple(A.shape[:B.dim()])) != n:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           "prod(self.shape[:other.ndim]), but got "
                           f"{n} != {math.prod(tuple(A.shape[:B.dim()]))}")
    return solve(A.reshape(n, n), B.reshape(n)).reshape(rest)


__all__ = ["LinAlgError", "det", "slogdet", "inv", "inv_ex", "solve", "solve_ex", "solve_triangular", "cholesky",
           "cholesky_ex", "qr", "eigh", "eigvalsh", "eig", "eigvals", "svd", "svdvals", "lstsq", "lu", "lu_factor",
           "lu_factor_ex", "lu_solve", "householder_product", "pinv", "matrix_rank", "cond", "matrix_power",
           "matrix_exp", "vector_norm", "norm", "cross", "vecdot", "multi_dot", "diagonal", "vander", "tensorinv",
           "tensorsolve"]


# ---- torch's top-level spellings ----

def top_inverse(input, *, out=None):
    """inverse(input) -> Tensor: torch.inverse, the same as linalg.inv."""
    return inv(input)


def top_cholesky(input, upper=False, *, out=None):
    """cholesky(input, upper=False) -> Tensor: torch.cholesky (linalg.cholesky with upper positional)."""
    return cholesky(input, upper=upper)


def top_qr(input, some=True, *, out=None):
    """qr(input, some=True) -> (Q, R): torch.qr, linalg.qr with mode 'reduced' (some) or 'complete'."""
    Q, R = qr(input, "reduced" if some else "complete")
    return return_types.qr(Q, R)


def top_svd(input, some=True, compute_uv=True, *, out=None):
    """svd(input, some=True, compute_uv=True) -> (U, S, V): torch.svd, returning V (not Vh);
    without compute_uv, U and V are zero-filled [..., m, m] / [..., n, n]."""
    if not compute_uv:
        S = svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        b = tuple(input.shape[:-2])
        return return_types.svd(_tl.zeros(b + (m, m), dtype=input.dtype), S, _tl.zeros(b + (n, n), dtype=input.dtype))
    U, S, Vh = svd(input, full_matrices=not some)
    return return_types.svd(U, S, Vh.mH)


def top_slogdet(input):
    """slogdet(input) -> (sign, logabsdet): torch.slogdet."""
    return return_types.slogdet(*slogdet(input))


def top_pinverse(input, rcond=1e-15, hermitian=False):
    """pinverse(input, rcond=1e-15, hermitian=False) -> Tensor: torch.pinverse, pinv with rtol=rcond."""
    return pinv(input, rtol=rcond, hermitian=hermitian)


def install(ns, cls):
    """Adds torch's top-level linalg names to namespace ns and the matching Tensor methods."""
    top = {"det": det, "inverse": top_inverse, "cholesky": top_cholesky, "qr": top_qr, "svd": top_svd,
           "slogdet": top_slogdet, "logdet": logdet, "pinverse": top_pinverse, "matrix_power": matrix_power,
           "matrix_exp": matrix_exp}
    for name, fn in top.items():
        ns[name] = fn

        def method(self, *args, _fn=fn, **kwargs):
            return _fn(self, *args, **kwargs)
        method.__name__ = name
        method.__doc__ = f"{name}(...) -> Tensor. See tensorlib.{name}."
        setattr(cls, name, method)
