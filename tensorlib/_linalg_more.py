"""torch's remaining linear-algebra functions, composed from the LAPACK-backed primitives
of csrc/ops/lapack.c (trsm, potrf's solves, getrf, geqrf, orgqr): cholesky_solve,
cholesky_inverse, triangular_solve, geqrf, orgqr, ormqr, torch.lu / lu_solve / lu_unpack,
linalg.matmul, and torch's top-level names that exist only to raise (solve, lstsq, symeig,
eig, matrix_rank). install() adds the top-level functions and their Tensor methods."""
import tensorlib as _tl  # the package, read at call time (this module loads during its import)

from . import _C
from ._reduce import add_return_type, return_types
from ._util import infer_size as _batch_shape, no_names as _no_names
from ._linalg import LinAlgError
from ._linalg_lapack import _lapack_dtype, _raise_info, householder_product, lu_factor_ex, lu_solve as _lu_solve

for _name, _fields in [("triangular_solve", "solution cloned_coefficient"), ("geqrf", "a tau"),
                       ("lu_unpack", "P L U"), ("linalg_ldl_factor_ex", "LD pivots info"),
                       ("linalg_ldl_factor", "LD pivots")]:
    add_return_type(_name, _fields)
del _name, _fields


def _tensor(fn, x, arg, pos):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not {type(x).__name__}")


def _colmajor(x):
    """x copied into column-major matrices (torch's layout for LAPACK results)."""
    y = _tl.empty(tuple(x.shape[:-2]) + (x.shape[-1], x.shape[-2]), dtype=x.dtype, device=x.device).mT
    y.copy_(x)
    return y


def _linear_solve_check(b, A, name):
    """torch's linearSolveCheckInputs(b, A, name), then the batch dims broadcast."""
    if b.dtype != A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {b.dtype._cname} and A of "
                           f"type {A.dtype._cname} instead.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} "
                           "matrices")
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {A.shape[-1]} by {A.shape[-1]} "
                           f"but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    batch = _batch_shape(b.shape[:-2], A.shape[:-2])
    return b.expand(batch + tuple(b.shape[-2:])), A.expand(batch + tuple(A.shape[-2:]))


def _write(r, out, name):
    return r if out is None else _C._write_out(r, out, name, True)


def _write_tuple(res, out, name, error, cast=False):
    """torch's out= of a tuple result: a tuple (or list) of len(res) tensors, else TypeError
    ``error``; each written by the out= rule (``cast``: _write_cast's). Returns out as a tuple."""
    if not isinstance(out, (tuple, list)) or len(out) != len(res):
        raise TypeError(error)
    for r, o in zip(res, out):
        if cast:
            _write_cast(r, o, name)
        else:
            _C._write_out(r, o, name, True)
    return tuple(out)


def _write_cast(r, out, name):
    """out= of the kernels that cast their result into out when torch's can_cast allows it."""
    if out is None:
        return r
    if isinstance(out, _C.TensorBase) and out.dtype != r.dtype:
        if not _C.can_cast(r.dtype, out.dtype):
            raise RuntimeError(f"{name}: Expected result to be safely castable from {r.dtype._cname} dtype, but got "
                               f"result with dtype {out.dtype._cname}")
        r = r.to(out.dtype)
    return _C._write_out(r, out, name, True)


# ---- Cholesky ----

def cholesky_solve(input, input2, upper=False, *, out=None):
    """cholesky_solve(B, L, upper=False, *, out=None) -> Tensor

    X with A X = B for A = L L^H (A = U^H U when upper) given the Cholesky factor L (or U),
    as LAPACK potrs: two triangular solves; only that triangle of L is read. Batch dims
    broadcast."""
    _tensor("cholesky_solve", input, "input", 1)
    _tensor("cholesky_solve", input2, "input2", 2)
    _no_names("cholesky_solve", input, input2)
    if input.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {input.dim()} dimensions instead")
    if input2.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.dim()} dimensions instead")
    B, L = _linear_solve_check(input, input2, "cholesky_solve")
    _lapack_dtype("cholesky_solve_cpu", B.dtype)
    if upper:  # A = U^H U: U^H Y = B, then U X = Y
        Y = _C._lapack_trsm(L.mH, B, True, False, False)
        X = _C._lapack_trsm(L, Y, True, True, False)
    else:  # A = L L^H: L Y = B, then L^H X = Y
        Y = _C._lapack_trsm(L, B, True, False, False)
        X = _C._lapack_trsm(L.mH, Y, True, True, False)
    return _write_cast(X, out, "cholesky_solve")


def cholesky_inverse(input, upper=False, *, out=None):
    """cholesky_inverse(L, upper=False, *, out=None) -> Tensor

    The inverse of A = L L^H (A = U^H U when upper) from its Cholesky factor, as LAPACK
    potri (only that triangle of L is read; the result is exactly Hermitian). Raises
    LinAlgError when the factor has a zero on its diagonal."""
    _tensor("cholesky_inverse", input, "input", 1)
    _no_names("cholesky_inverse", input)
    if input.dim() < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"cholesky_inverse: A must be batches of square matrices, but they are {input.shape[-2]} "
                           f"by {input.shape[-1]} matrices")
    _lapack_dtype("cholesky_inverse_out_cpu", input.dtype)
    n = input.shape[-1]
    if input.numel() and not input.is_meta:
        d = input.diagonal(0, -2, -1) == 0
        # info: the 1-based index of the first zero on the diagonal (0: none)
        first = _tl.where(d, _tl.arange(n, 0, -1, device=d.device), _tl.zeros((), dtype=_tl.int64, device=d.device))
        info = _tl.where(d.any(-1), n + 1 - first.amax(-1), _tl.zeros((), dtype=_tl.int64, device=d.device))
        _raise_info("cholesky_inverse", info, lambda c: f"The diagonal element {c} is zero, the inversion could not be "
                    "completed because the input matrix is singular.")
    eye = _tl.eye(n, dtype=input.dtype, device=input.device).expand(tuple(input.shape))
    if upper:  # A^-1 = U^-1 U^-H
        X = _C._lapack_trsm(input, _C._lapack_trsm(input.mH, eye, True, False, False), True, True, False)
    else:  # A^-1 = L^-H L^-1
        X = _C._lapack_trsm(input.mH, _C._lapack_trsm(input, eye, True, False, False), True, True, False)
    X = _colmajor((X + X.mH) * 0.5)  # exactly Hermitian with a real diagonal, as potri's
    return _write_cast(X, out, "cholesky_inverse")


# ---- triangular systems ----

def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None)
    -> (solution, cloned_coefficient)

    X with op(A) X = b for triangular A (op: transpose when asked), via BLAS trsm; only
    A's upper (or lower) triangle is read. cloned_coefficient is a copy of A broadcast to
    the batch shape. Batch dims broadcast."""
    _tensor("triangular_solve", input, "input", 1)
    _tensor("triangular_solve", A, "A", 2)
    _no_names("triangular_solve", input, A)
    if input.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has "
                           f"{input.dim()} dimensions instead")
    if A.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has "
                           f"{A.dim()} dimensions instead")
    B, A2 = _linear_solve_check(input, A, "triangular_solve")
    _lapack_dtype("triangular_solve_cpu", B.dtype)
    Aop = A2.mT if transpose else A2
    X = _C._lapack_trsm(Aop, B, True, upper != bool(transpose), unitriangular)
    M = _colmajor(A2)
    if out is not None:
        X, M = _write_tuple((X, M), out, "triangular_solve", "triangular_solve(): argument 'out' must be tuple of Tensors")
    return return_types.triangular_solve(X, M)


# ---- QR's Householder form ----

def geqrf(input, *, out=None):
    """geqrf(input, *, out=None) -> (a, tau)

    LAPACK geqrf of input [..., m, n]: a holds R on and above the diagonal and the
    Householder vectors below it, tau [..., min(m, n)] their scalars (orgqr / ormqr use both)."""
    _tensor("geqrf", input, "input", 1)
    _no_names("geqrf", input)
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _lapack_dtype("geqrf_cpu", input.dtype)
    a, tau = _C._lapack_geqrf(input)
    if out is not None:
        a, tau = _write_tuple((a, tau), out, "geqrf", "geqrf(): argument 'out' must be tuple of Tensors", cast=True)
    return return_types.geqrf(a, tau)


def orgqr(input, tau, *, out=None):
    """orgqr(input, tau, *, out=None) -> Tensor

    torch.orgqr: the same as linalg.householder_product(input, tau)."""
    if isinstance(input, _C.TensorBase):
        _lapack_dtype("orgqr_cpu", input.dtype)
    return householder_product(input, tau, out=out)


def ormqr(input, tau, other, left=True, transpose=False, *, out=None):
    """ormqr(input, tau, other, left=True, transpose=False, *, out=None) -> Tensor

    Multiplies other by the matrix Q = H_1 ... H_k of the Householder reflectors in
    (input, tau) as geqrf gives them: op(Q) other (left) or other op(Q) (not left), op the
    conjugate transpose when transpose (LAPACK ormqr / unmqr's result)."""
    _tensor("ormqr", input, "input", 1)
    _tensor("ormqr", tau, "tau", 2)
    _tensor("ormqr", other, "other", 3)
    _no_names("ormqr", input, tau, other)
    if input.dim() < 2:
        raise RuntimeError("torch.ormqr: input must have at least 2 dimensions.")
    if other.dim() < 2:
        raise RuntimeError("torch.ormqr: other must have at least 2 dimensions.")
    c = -2 if left else -1
    if other.shape[c] != input.shape[-2]:
        raise RuntimeError(f"torch.ormqr: other.shape[{c}] must be equal to input.shape[-2]")
    if tau.dim() >= 1 and tau.shape[-1] != min(other.shape[c], input.shape[-1]):
        raise RuntimeError(f"torch.ormqr: tau.shape[-1] must be equal to min(other.shape[{c}], input.shape[-1])")
    if input.dim() - tau.dim() != 1:
        raise RuntimeError(f"torch.ormqr: Expected tau to have one dimension less than input, but got tau.ndim equal "
                           f"to {tau.dim()} and input.ndim is equal to {input.dim()}")
    if input.dim() != other.dim():
        raise RuntimeError(f"torch.ormqr: Expected other to have the same number of dimensions as input, but got "
                           f"other.ndim equal to {other.dim()} and input.ndim is equal to {input.dim()}")
    if input.dim() > 2:
        if tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
            raise RuntimeError(f"torch.ormqr: Expected batch dimensions of tau to be equal to input.shape[:-2], but "
                               f"got {list(tau.shape[:-1])}")
        if tuple(other.shape[:-2]) != tuple(input.shape[:-2]):
            raise RuntimeError(f"torch.ormqr: Expected batch dimensions of other to be equal to input.shape[:-2], "
                               f"but got {list(other.shape[:-2])}")
    for name, t in (("tau", tau), ("other", other)):
        if t.dtype != input.dtype:
            raise RuntimeError(f"torch.ormqr: Expected input and {name} to have the same dtype, but input has dtype"
                               f"{input.dtype._cname} and {name} has dtype {t.dtype._cname}")
    _lapack_dtype("ormqr_cpu", input.dtype)
    m, k = input.shape[-2], tau.shape[-1]
    # Q (m x m) = H_1 ... H_k: orgqr of the k vectors padded with zero columns (zero tau: H = I)
    V = input[..., :, :k]
    if m > k:
        from ._join import cat
        V = cat([V, _tl.zeros(tuple(input.shape[:-2]) + (m, m - k), dtype=input.dtype, device=input.device)], -1)
        tau = cat([tau, _tl.zeros(tuple(tau.shape[:-1]) + (m - k,), dtype=tau.dtype, device=tau.device)], -1)
    Q = _C._lapack_orgqr(V.contiguous(), tau.contiguous()) if m else V[..., :, :0]
    if transpose:
        Q = Q.mH
    r = Q @ other if left else other @ Q
    if isinstance(out, _C.TensorBase) and out.dtype != r.dtype:
        raise RuntimeError(f"torch.ormqr: Expected input and result to have the same dtype, but input has dtype"
                           f"{input.dtype._cname} and result has dtype {out.dtype._cname}")
    return _write(_colmajor(r), out, "ormqr")


# ---- torch.lu, lu_solve, lu_unpack ----

def lu(A, pivot=True, get_infos=False, out=None):
    """lu(A, pivot=True, get_infos=False, out=None) -> (LU, pivots) or (LU, pivots, infos)

    torch.lu: linalg.lu_factor_ex's packed LU factorization; raises for a singular matrix
    unless get_infos (then LAPACK's info per matrix is the third element)."""
    _tensor("_lu_with_info", A, "input", 1)
    if A.dim() < 2:
        raise RuntimeError(f"torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} "
                           "instead")
    LU, piv, info = lu_factor_ex(A, pivot=pivot)  # torch 2.13 raises for no singular matrix here
    res = (LU, piv, info) if get_infos else (LU, piv)
    if out is not None:
        res = _write_tuple(res, out, "lu", f"lu(): out must be a tuple of {len(res)} tensors")
    return return_types.linalg_lu_factor_ex(*res) if get_infos else tuple(res)


def lu_solve(input, LU_data, LU_pivots, *, out=None):
    """lu_solve(b, LU_data, LU_pivots, *, out=None) -> Tensor

    torch.lu_solve: linalg.lu_solve(LU_data, LU_pivots, b), X with A X = b from lu()'s
    factorization of A."""
    _tensor("lu_solve", input, "input", 1)
    _tensor("lu_solve", LU_data, "LU_data", 2)
    _tensor("lu_solve", LU_pivots, "LU_pivots", 3)
    if input.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    return _lu_solve(LU_data, LU_pivots, input, out=out)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None) -> (P, L, U)

    Unpacks lu_factor's packed LU [..., m, n] and pivots into P [..., m, m], unit lower L
    [..., m, k] and upper U [..., k, n] (k = min(m, n)) with A = P L U; L and U (or P) are
    empty when unpack_data (or unpack_pivots) is False."""
    _tensor("lu_unpack", LU_data, "LU_data", 1)
    _tensor("lu_unpack", LU_pivots, "LU_pivots", 2)
    _no_names("lu_unpack", LU_data, LU_pivots)
    if LU_data.dim() < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(LU_data.shape)} instead")
    if unpack_pivots and (LU_pivots.dtype != _tl.int32 or not LU_pivots.is_contiguous()):
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                           "Note: this function is intended to be used with the output produced by "
                           "torch.linalg.lu_factor")
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    k = min(m, n)
    dt, dev = LU_data.dtype, LU_data.device
    empty = _tl.empty(0, dtype=dt, device=dev)
    if unpack_data:
        from ._join import tril, triu
        L = tril(LU_data[..., :, :k], -1) + _tl.eye(m, k, dtype=dt, device=dev)
        U = triu(LU_data[..., :k, :])
    else:
        L = U = empty
    if unpack_pivots:
        # torch reads k pivots (a shorter pivots tensor: memory past its end; here its error)
        bad = LU_pivots.dim() == 0 or LU_pivots.shape[-1] < k
        piv = None if bad else LU_pivots[..., :k]
        if piv is not None and piv.numel() and not piv.is_meta:
            bad = bool(((piv < 1) | (piv > m)).any())
        if bad:
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive."
                               "Did you properly pass the result of lu_factor?")
        piv = piv.expand(tuple(LU_data.shape[:-2]) + (k,)).contiguous()
        perm = _C._lapack_perm(piv, m)
        P = _tl.eye(m, dtype=dt, device=dev)[perm].mT.contiguous()
    else:
        P = empty
    res = (P, L, U)
    if out is not None:
        res = _write_tuple(res, out, "lu_unpack", "lu_unpack(): argument 'out' must be tuple of Tensors")
    return return_types.lu_unpack(*res)


# ---- LDL (Bunch-Kaufman) ----

def _ldl_check(op, A):
    _tensor(op.split(".")[-1], A, "A", 1)
    _no_names(op, A)
    if A.dim() < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{op}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got {A.dtype._cname}")


def _ldl_raise(api, info):
    # torch 2.13 reaches an internal assert ("Unknown error code") for info > 0 (a zero in D)
    if info.numel() and not info.is_meta and bool((info != 0).any()):
        raise RuntimeError(f"{api}: Unknown error code: {int(info.reshape(-1)[(info.reshape(-1) != 0).nonzero()[0, 0]])}.")


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None) -> (LD, pivots, info)

    The Bunch-Kaufman LDL factorization of symmetric (Hermitian when hermitian) A [..., n, n]
    from its lower triangle (LAPACK sytrf / hetrf): LD packs L and the 1x1 / 2x2 blocks of D
    (its upper triangle zero), pivots (int32) in LAPACK's format, info LAPACK's status."""
    _ldl_check("torch.linalg.ldl_factor_ex", A)
    _lapack_dtype("ldl_factor_kernel_cpu", A.dtype)
    LD, piv, info = _C._lapack_sytrf(A, bool(hermitian))
    if check_errors:
        _ldl_raise("torch.linalg.ldl_factor_ex", info)
    res = (LD, piv, info)
    if out is not None:
        res = _write_tuple(res, out, "linalg_ldl_factor_ex",
                           "linalg_ldl_factor_ex(): argument 'out' must be tuple of Tensors")
    return return_types.linalg_ldl_factor_ex(*res)


def ldl_factor(A, *, hermitian=False, out=None):
    """ldl_factor(A, *, hermitian=False, out=None) -> (LD, pivots)

    ldl_factor_ex's LD and pivots; a zero in D raises (torch 2.13's "Unknown error code")."""
    LD, piv, info = ldl_factor_ex(A, hermitian=hermitian)
    _ldl_raise("torch.linalg.ldl_factor", info)
    res = (LD, piv)
    if out is not None:
        res = _write_tuple(res, out, "linalg_ldl_factor", "linalg_ldl_factor(): argument 'out' must be tuple of Tensors")
    return return_types.linalg_ldl_factor(*res)


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """ldl_solve(LD, pivots, B, *, hermitian=False, out=None) -> Tensor

    X with A X = B from ldl_factor's (LD, pivots) of A (LAPACK sytrs / hetrs); the batch
    dims of B and LD broadcast."""
    op = "torch.linalg.ldl_solve"
    _tensor("linalg_ldl_solve", LD, "LD", 1)
    _tensor("linalg_ldl_solve", pivots, "pivots", 2)
    _tensor("linalg_ldl_solve", B, "B", 3)
    _no_names(op, LD, pivots, B)
    _ldl_check(op, LD)
    if tuple(LD.shape[:-1]) != tuple(pivots.shape):
        raise RuntimeError(f"{op}: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with shape "
                           f"{list(pivots.shape)} instead")
    if pivots.dtype.is_floating_point or pivots.dtype.is_complex or pivots.dtype == _tl.bool:
        raise RuntimeError(f"{op}: Expected pivots to be integers. Got {pivots.dtype._cname}")
    if B.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(B.dim(), 1)}, "
                         f"{max(B.dim(), 1) - 1}], but got -2)")
    Bb, LDb = _linear_solve_check(B, LD, op)
    _lapack_dtype("ldl_solve_cpu", LD.dtype)
    piv = pivots.to(_tl.int32).expand(tuple(LDb.shape[:-1]))
    X = _C._lapack_sytrs(LDb, piv, Bb, bool(hermitian))
    return _write(X, out, "linalg_ldl_solve")


# ---- products and distances ----

def chain_matmul(*matrices, out=None):
    """chain_matmul(*matrices, out=None) -> Tensor

    The product of 2-D matrices in the cheapest order (linalg.multi_dot of 2-D matrices)."""
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for i, m in enumerate(matrices):
        _tensor("chain_matmul", m, "matrices", 1)
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    r = matrices[0].clone() if len(matrices) == 1 else _tl.linalg.multi_dot(list(matrices))
    return _write(r, out, "chain_matmul")


_CDIST_MODES = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}


def _pnorm_last(d, p):
    """The p-norm of d over its last dim, as torch's cdist/pdist kernels define it."""
    a = d.abs()
    if p == 0:
        return (a != 0).sum(-1).to(d.dtype)
    if p == float("inf"):
        return a.amax(-1) if a.shape[-1] else a.sum(-1)
    if p == 1:
        return a.sum(-1)
    if p == 2:
        return (a * a).sum(-1).sqrt()
    return (a ** p).sum(-1) ** (1.0 / p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor

    The p-norm distance between each row of x1 [..., r1, c] and each row of x2 [..., r2, c]
    (batch dims broadcast): [..., r1, r2]. For p = 2 the matrix-product formula
    sqrt(max(|x|^2 - 2 x.y + |y|^2, 0)) is used when compute_mode says so (by default when
    r1 or r2 exceeds 25), as torch; otherwise the differences are summed directly."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    _tensor("cdist", x1, "x1", 1)
    _tensor("cdist", x2, "x2", 2)
    _no_names("cdist", x1, x2)
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {x.dtype._cname}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype._cname} but found {x2.dtype._cname}")
    _lapack_dtype("cdist", x1.dtype)
    batch = _batch_shape(x1.shape[:-2], x2.shape[:-2])
    r1, r2, c = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    a = x1.expand(batch + (r1, c))
    b = x2.expand(batch + (r2, c))
    mode = _CDIST_MODES[compute_mode]
    if r1 == 0 or r2 == 0 or c == 0:
        return _tl.zeros(batch + (r1, r2), dtype=x1.dtype, device=x1.device)
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        from ._join import cat
        an = (a * a).sum(-1, keepdim=True)
        bn = (b * b).sum(-1, keepdim=True)
        a_ = cat([a * -2, an, _tl.ones_like(an)], -1)
        b_ = cat([b, _tl.ones_like(bn), bn], -1)
        return (a_ @ b_.mT).clamp_min(0).sqrt()
    return _pnorm_last(a.unsqueeze(-2) - b.unsqueeze(-3), float(p))


def pdist(input, p=2):
    """pdist(input, p=2) -> Tensor

    The p-norm distances between the rows of input [n, m], pairs (i, j) with i < j in
    row-major order: n (n - 1) / 2 of them."""
    _tensor("pdist", input, "input", 1)
    _no_names("pdist", input)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    _lapack_dtype("pdist", input.dtype)
    n = input.shape[0]
    if n <= 1:
        return _tl.empty(0, dtype=input.dtype, device=input.device)
    ij = _tl.triu_indices(n, n, 1, device=input.device)
    if input.shape[1] == 0:
        return _tl.zeros(ij.shape[1], dtype=input.dtype, device=input.device)
    return _pnorm_last(input[ij[0]] - input[ij[1]], float(p))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False) -> Tensor

    The p-norm of x1 - x2 + eps over the last dim (x1 and x2 broadcast), as torch."""
    _tensor("pairwise_distance", x1, "x1", 1)
    _tensor("pairwise_distance", x2, "x2", 2)
    dim = max(x1.dim(), x2.dim()) - 1
    return _tl.norm(x1 - x2 + eps, p, dim, keepdim)


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """nuclear_norm(input, keepdim=False, *, out=None) or nuclear_norm(input, dim, keepdim=False, *, out=None) -> Tensor

    The sum of the singular values of the matrices over dims dim (the last two by default):
    linalg.matrix_norm(input, 'nuc', dim, keepdim)."""
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    r = _tl.linalg.matrix_norm(input, "nuc", dim=(-2, -1) if dim is None else tuple(dim), keepdim=keepdim)
    return _write(r, out, "nuclear_norm")


def frobenius_norm(input, dim, keepdim=False, *, out=None):
    """frobenius_norm(input, dim, keepdim=False, *, out=None) -> Tensor

    The 2-norm of input's elements over at most two dims (real for complex input)."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead.")
    if isinstance(input, _C.TensorBase) and not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {input.dtype._cname} "
                           "instead.")
    return _write(_tl.norm(input, 2, dims, keepdim), out, "frobenius_norm")


# ---- linalg.matmul; torch's removed functions, which only raise ----

def matmul(input, other, *, out=None):
    """matmul(input, other, *, out=None) -> Tensor

    linalg.matmul: an alias of tensorlib.matmul."""
    return _tl.matmul(input, other) if out is None else _tl.matmul(input, other, out=out)


_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
_SOLVE_MSG = (_REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its "
              "arguments reversed and does not return the LU factorization.\n\nTo get the LU factorization see "
              "`torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A)."
              "solution should be replaced with:\nX = torch.linalg.solve(A, B)")
_LSTSQ_MSG = (_REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
              "reversed arguments and does not return the QR decomposition in the returned tuple (although it "
              "returns other information about the problem).\n\nTo get the QR decomposition consider using "
              "`torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored the residuals of the solution in "
              "the last m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are "
              "in the field 'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = "
              "torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B)."
              "solution")
_SYMEIG_MSG = (_REMOVED + "The default behavior has changed from using the upper triangular portion of the matrix by "
               "default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be "
               "replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = "
               "torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if "
               "upper else 'L')")
_EIG_MSG = (_REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
            "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
            "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
            "L_complex, V_complex = torch.linalg.eig(A)")
_RANK_MSG = (_REMOVED.rstrip() + "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was "
             "renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def removed_solve(input, A, *, out=None):
    """solve(input, A) -> raises: removed from torch (use linalg.solve(A, input))."""
    raise RuntimeError(_SOLVE_MSG)


def removed_lstsq(input, A, *, out=None):
    """lstsq(input, A) -> raises: removed from torch (use linalg.lstsq(A, input))."""
    raise RuntimeError(_LSTSQ_MSG)


def removed_symeig(input, eigenvectors=False, upper=True, *, out=None):
    """symeig(input, eigenvectors=False, upper=True) -> raises: removed from torch (use linalg.eigh)."""
    raise RuntimeError(_SYMEIG_MSG)


def removed_eig(self, eigenvectors=False, *, out=None):
    """eig(self, eigenvectors=False) -> raises: removed from torch (use linalg.eig)."""
    raise RuntimeError(_EIG_MSG)


def removed_matrix_rank(input, tol=None, symmetric=False):
    """matrix_rank(input, tol=None, symmetric=False) -> raises: removed from torch (use linalg.matrix_rank)."""
    raise RuntimeError(_RANK_MSG)


def install(ns, cls):
    """Adds the top-level functions to namespace ns and the matching Tensor methods."""
    top = {"cholesky_solve": cholesky_solve, "cholesky_inverse": cholesky_inverse,
           "triangular_solve": triangular_solve, "geqrf": geqrf, "orgqr": orgqr, "ormqr": ormqr, "lu": lu,
           "lu_solve": lu_solve, "lu_unpack": lu_unpack, "solve": removed_solve, "lstsq": removed_lstsq,
           "symeig": removed_symeig, "eig": removed_eig, "matrix_rank": removed_matrix_rank,
           "chain_matmul": chain_matmul, "cdist": cdist, "pdist": pdist, "pairwise_distance": pairwise_distance,
           "nuclear_norm": nuclear_norm, "frobenius_norm": frobenius_norm}
    methods = set(top) - {"lu_unpack", "matrix_rank", "chain_matmul", "cdist", "pdist", "pairwise_distance",
                          "nuclear_norm", "frobenius_norm"}  # not methods of torch's Tensor
    for name, fn in top.items():
        ns[name] = fn
        if name not in methods:
            continue

        def method(self, *args, _fn=fn, **kwargs):
            return _fn(self, *args, **kwargs)
        method.__name__ = name
        method.__doc__ = f"{name}(...). See tensorlib.{name}."
        setattr(cls, name, method)


__all__ = ["matmul", "ldl_factor_ex", "ldl_factor", "ldl_solve"]
