"""torch.linalg's decompositions and solvers on LAPACK (the C primitives of
csrc/ops/lapack.c: getrf/getrs, potrf, geqrf/orgqr, syevd/heevd, gesdd, geev, gels*, trsm).

This module checks arguments with torch's messages, broadcasts batch dims, turns LAPACK's
per-matrix `info` into torch's LinAlgError text, and composes the higher-level functions
(det, slogdet, inv, lu, ...) from the primitives; tensorlib/_linalg_compose.py builds
the functions of these (pinv, matrix_rank, cond, matrix_exp, norms, ...)."""
import functools
import math

import tensorlib as _tl  # the package, read at call time (this module loads during its import)

from . import _C
from ._util import require_tensor
from ._reduce import add_return_type, return_types
from ._util import no_names as _no_names
from ._linalg import LinAlgError, _real_dtype as _real

_LOW = ("float16", "bfloat16", "complex32")
_EPS = {"float32": 1.1920928955078125e-07, "float64": 2.220446049250313e-16}

for _name, _fields in [("linalg_slogdet", "sign logabsdet"), ("slogdet", "sign logabsdet"), ("linalg_qr", "Q R"),
                       ("qr", "Q R"), ("linalg_eigh", "eigenvalues eigenvectors"),
                       ("linalg_eig", "eigenvalues eigenvectors"), ("linalg_svd", "U S Vh"), ("svd", "U S V"),
                       ("linalg_lstsq", "solution residuals rank singular_values"), ("linalg_lu", "P L U"),
                       ("linalg_lu_factor", "LU pivots"), ("linalg_lu_factor_ex", "LU pivots info"),
                       ("linalg_inv_ex", "inverse info"), ("linalg_cholesky_ex", "L info"),
                       ("linalg_solve_ex", "result info")]:
    add_return_type(_name, _fields)
del _name, _fields


def _out(name):
    """Adds torch's out= to a function returning one tensor (written with torch's rules)."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, out=None, **kwargs):
            r = fn(*args, **kwargs)
            return r if out is None else _C._write_out(r, out, name, True)
        return wrapper
    return deco


def _dn(dt):
    return str(dt).split(".")[-1]


def _eps(dt):
    return _EPS[_dn(_real(dt))]


def _lapack_dtype(kernel, dt):
    """torch's dispatch refusal of a LAPACK kernel: only float32/64 and complex64/128 run."""
    if _dn(dt) in _LOW or not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dt._cname}\'')


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
    if kernel_any:
        _lapack_dtype(kernel, dt)
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
    require_tensor(op, A, a)
    require_tensor(op, B, b, 2)
    if A.dtype != B.dtype:
        raise RuntimeError(f"{op}: Expected {a} and {b} to have the same dtype, but found {a} of type "
                           f"{A.dtype._cname} and {b} of type {B.dtype._cname} instead")


def _raise_info(api, info, msg, error=LinAlgError):
    """Raises torch's message for the first matrix whose LAPACK info is nonzero; msg(code)
    gives the text after the batch prefix. A meta info has no values: nothing to raise."""
    if info.numel() == 0 or info.is_meta:
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
    return _tl.eye(n, dtype=A.dtype, device=A.device).expand(tuple(A.shape[:-2]) + (n, n))


# ---- LU: determinants, inverses, solves ----

def lu_factor_ex(A, *, pivot=True, check_errors=False):
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


def lu_factor(A, *, pivot=True):
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


def lu(A, *, pivot=True):
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
    L = tril(LU[..., :, :k], -1) + _tl.eye(m, k, dtype=A.dtype, device=A.device)
    U = triu(LU[..., :k, :])
    perm = _C._lapack_perm(piv, m)
    P = _tl.eye(m, dtype=A.dtype, device=A.device)[perm].mT  # row perm[i] of A is row i of P^T A
    return return_types.linalg_lu(P.contiguous(), L, U)


@_out("linalg_lu_solve")
def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
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
    swaps = (piv != _tl.arange(1, n + 1, dtype=_tl.int32, device=piv.device)).sum(-1)
    perm_sign = 1 - 2 * (swaps % 2)
    return d, perm_sign


@_out("linalg_det")
def det(A):
    """det(A) -> Tensor

    Determinant of square matrices A [..., n, n]: the product of U's diagonal from an LU
    factorization, signed by the pivots (0 for singular matrices)."""
    d, s = _det_parts("linalg.det", A, "lu_cpu")
    return d.prod(-1) * s.to(A.dtype)


def slogdet(A):
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


def inv_ex(A, *, check_errors=False):
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


@_out("linalg_inv")
def inv(A):
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


def solve_ex(A, B, *, left=True, check_errors=False):
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


@_out("linalg_solve")
def solve(A, B, *, left=True):
    """solve(A, B, *, left=True) -> Tensor

    X with A X = B (X A = B when left=False) for square A [..., n, n]; B [..., n, k] or a
    batch of vectors [..., n]; batch dims broadcast. Raises LinAlgError for singular A."""
    X, info = solve_ex(A, B, left=left)
    _raise_info("torch.linalg.solve", info, lambda c: "The solver failed because the input matrix is singular.")
    return X


@_out("linalg_solve_triangular")
def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
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


def cholesky_ex(A, *, upper=False, check_errors=False):
    """cholesky_ex(A, *, upper=False, check_errors=False) -> (L, info)

    cholesky without raising: info > 0 gives the order of the first non-positive minor."""
    _check("linalg.cholesky", A, square=True, kernel="cholesky_cpu")
    L, info = _C._lapack_potrf(A, upper)
    if check_errors:
        _raise_info("linalg.cholesky", info, _chol_msg)
    return return_types.linalg_cholesky_ex(L, info)


@_out("linalg_cholesky")
def cholesky(A, *, upper=False):
    """cholesky(A, *, upper=False) -> Tensor

    Cholesky factor L (A = L L^H) of Hermitian positive-definite A [..., n, n], or U
    (A = U^H U) when upper; only that triangle of A is read (LAPACK potrf). Raises
    LinAlgError when A is not positive-definite."""
    L, info = cholesky_ex(A, upper=upper)
    _raise_info("linalg.cholesky", info, _chol_msg)
    return L


@_out("linalg_householder_product")
def householder_product(A, tau):
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


def qr(A, mode="reduced"):
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
        return return_types.linalg_qr(_tl.empty(0, dtype=A.dtype, device=A.device), R)
    if mode == "complete" and m > n:
        from ._join import cat
        QR = cat([QR, _tl.zeros(tuple(A.shape[:-1]) + (m - n,), dtype=A.dtype, device=A.device)], -1)
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


def eigh(A, UPLO="L"):
    """eigh(A, UPLO='L') -> (eigenvalues, eigenvectors)

    Eigen-decomposition of Hermitian (real symmetric) A [..., n, n] from its lower (or
    upper) triangle: real eigenvalues ascending, orthonormal eigenvectors as columns
    (LAPACK syevd / heevd)."""
    return return_types.linalg_eigh(*_eigh("linalg.eigh", A, UPLO, True))


@_out("linalg_eigvalsh")
def eigvalsh(A, UPLO="L"):
    """eigvalsh(A, UPLO='L') -> Tensor

    Eigenvalues of Hermitian A, real, ascending."""
    return _eigh("linalg.eigvalsh", A, UPLO, False)[0]


def _eig(A, vectors):
    if isinstance(A, _C.TensorBase) and not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"Unknown Complex ScalarType for {A.dtype._cname}")
    _check("linalg.eig", A, square=True, kernel="linalg_eig_out_cpu")
    if A.numel() and not A.is_meta and not bool(A.isfinite().all()):
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    w, V, info = _C._lapack_geev(A, vectors)
    if A.is_meta and vectors:  # torch's meta kernel gives row-major eigenvectors (its CPU: column-major)
        V = V.contiguous()
    _raise_info("torch.linalg.eig", info, lambda c: "The algorithm failed to converge because the input matrix is "
                f"ill-conditioned or has too many repeated eigenvalues (error code: {c}).")
    return w, V


def eig(A):
    """eig(A) -> (eigenvalues, eigenvectors)

    Eigenvalues and right eigenvectors (unit-norm columns) of square A [..., n, n], both
    complex (LAPACK geev). Eigenvectors are unique only up to a complex phase."""
    return return_types.linalg_eig(*_eig(A, True))


@_out("linalg_eigvals")
def eigvals(A):
    """eigvals(A) -> Tensor

    Eigenvalues of square A, complex (LAPACK geev)."""
    return _eig(A, False)[0]


def _svd(op, A, jobz):
    _check("linalg.svd", A, kernel="linalg_svd_cpu")
    U, S, Vh, info = _C._lapack_gesdd(A, jobz)
    if A.is_meta:  # torch's meta kernel gives a row-major Vh (its CPU: column-major)
        Vh = Vh.contiguous()
    if info.numel() and not info.is_meta and bool((info != 0).any()):
        bad = int(info.reshape(-1).nonzero()[0, 0])
        Ab = A.reshape((-1,) + tuple(A.shape[-2:]))[bad]
        finite = bool(Ab.isfinite().all())
        _raise_info("linalg.svd", info, lambda c: "The algorithm failed to converge because the input matrix " + (
            f"is ill-conditioned or has too many repeated singular values (error code: {c})." if finite else
            "contained non-finite values."))
    return U, S, Vh


def svd(A, full_matrices=True, *, driver=None):
    """svd(A, full_matrices=True, *, driver=None) -> (U, S, Vh)

    A = U diag(S) Vh for A [..., m, n] (LAPACK gesdd): S real, descending; U [..., m, k]
    and Vh [..., k, n] with k = min(m, n), or square U and Vh when full_matrices.
    Singular vectors are unique only up to a sign (phase for complex A)."""
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    U, S, Vh = _svd("linalg.svd", A, "A" if full_matrices else "S")
    if min(A.shape[-2], A.shape[-1]) == 0 and A.numel() == 0:  # torch: the identity's columns
        U = _tl.eye(U.shape[-2], U.shape[-1], dtype=A.dtype, device=A.device).expand(tuple(U.shape)).contiguous()
        Vh = _tl.eye(Vh.shape[-2], Vh.shape[-1], dtype=A.dtype, device=A.device).expand(tuple(Vh.shape)).contiguous()
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


__all__ = ["LinAlgError", "det", "slogdet", "inv", "inv_ex", "solve", "solve_ex", "solve_triangular", "cholesky",
           "cholesky_ex", "qr", "eigh", "eigvalsh", "eig", "eigvals", "svd", "svdvals", "lstsq", "lu", "lu_factor",
           "lu_factor_ex", "lu_solve", "householder_product"]
