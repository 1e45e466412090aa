"""torch.linalg functions composed from the LAPACK-backed primitives of
tensorlib/_linalg_lapack.py and the matrix products: pseudo-inverse, rank and condition
number from the SVD, matrix powers and exponential, norms, small helpers (cross, vecdot,
multi_dot, vander, tensorinv, tensorsolve) and torch's top-level spellings (torch.svd,
torch.qr, torch.inverse, torch.pinverse, ...) with their Tensor methods."""
import math

import tensorlib as _tl  # the package, read at call time (this module loads during its import)

from . import _C
from ._util import require_tensor
from ._reduce import return_types
from ._linalg import matrix_norm as _matrix_norm
from ._linalg_lapack import (_check, _dn, _eigh, _eps, _eye_like, _out, _real, _svd, cholesky, det, inv, inv_ex, qr,
                             logdet, slogdet, solve, svd, svdvals)


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


@_out("linalg_pinv")
def pinv(A, *, atol=None, rtol=None, hermitian=False):
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


@_out("linalg_matrix_rank")
def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    """matrix_rank(A, *, atol=None, rtol=None, hermitian=False) -> Tensor

    Number of singular values (|eigenvalues| when hermitian) above max(atol, rtol *
    largest), int64, per matrix."""
    if isinstance(A, _C.TensorBase) and _dn(A.dtype) not in ("float32", "float64", "complex64", "complex128"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    _check("torch.linalg.matrix_rank", A)
    S = _eigh("linalg.eigh", A, "L", False)[0].abs() if hermitian else _svd("linalg.svd", A, "N")[1]
    cut = _tolerances("torch.linalg.matrix_rank", A, atol, rtol, S)
    return (S > cut).sum(-1)


@_out("linalg_cond")
def cond(A, p=None):
    """cond(A, p=None) -> Tensor

    Condition number of A in the p-norm: largest / smallest singular value for p None or 2
    (-2: the reverse), else matrix_norm(A, p) * matrix_norm(inv(A), p) (square A; inf
    where A is singular). Real dtype."""
    _check("linalg.cond", A)
    if p is None or p in (2, -2):
        S = _svd("linalg.svd", A, "N")[1]
        if S.shape[-1] == 0:
            return _tl.zeros(tuple(S.shape[:-1]), dtype=S.dtype, device=S.device)
        big, small = S[..., 0], S[..., -1]
        return big / small if p != -2 else small / big
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    _check("linalg.cond", A, square=True)
    if A.numel() == 0:
        return _tl.zeros(tuple(A.shape[:-2]), dtype=_real(A.dtype), device=A.device)
    Ai, info = inv_ex(A)
    r = _matrix_norm(A, p) * _matrix_norm(Ai, p)
    return _tl.where(info > 0, _tl.full((), math.inf, dtype=r.dtype), r)


# ---- matrix functions ----

@_out("linalg_matrix_power")
def matrix_power(A, n):
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
        return _eye_like(A).contiguous()
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
    if A.is_meta:  # the scaling is chosen from the data: the result's geometry only (torch's)
        return A.clone(memory_format=_tl.contiguous_format)
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
        if isinstance(dim, tuple) and len(dim) == 2:
            return _matrix_norm(A, "fro", dim, keepdim, dtype=dtype, out=out)
        return vector_norm(A, 2, dim, keepdim, dtype=dtype, out=out)
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
    require_tensor("linalg_vecdot", x, "x")
    require_tensor("linalg_vecdot", y, "y", 2)
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{x.dtype._cname} and y of type {y.dtype._cname} instead")
    r = (x.conj() * y).sum(dim)
    return r if out is None else _C._write_out(r, out, "linalg_vecdot", True)


def multi_dot(tensors, *, out=None):
    """multi_dot(tensors) -> Tensor

    The matrix product of a chain of 2-D tensors (the first and last may be 1-D vectors)."""
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, _C.TensorBase):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
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
                               f"{_cpp_type(tensors[0].dtype)} and tensor {i} {_cpp_type(t.dtype)}")
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
    require_tensor("linalg_diagonal", A, "A")
    return A.diagonal(offset, dim1, dim2)


def vander(x, *, N=None):
    """vander(x, *, N=None) -> Tensor

    Vandermonde matrix [..., n, N]: columns x^0, x^1, ..., x^(N-1) (N defaults to n)."""
    require_tensor("linalg_vander", x, "x")
    if x.dtype == _tl.bool:
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, but got Bool")
    n = (x.shape[-1] if x.dim() else 0) if N is None else int(N)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    dt = x.dtype if (x.dtype.is_floating_point or x.dtype.is_complex) else _tl.int64  # integers widen, as torch
    return x.to(dt).unsqueeze(-1) ** _tl.arange(n, dtype=dt, device=x.device)


@_out("linalg_tensorinv")
def tensorinv(A, ind=2):
    """tensorinv(A, ind=2) -> Tensor

    The inverse of A seen as a square matrix of its first ind dims by the rest: result
    shape A.shape[ind:] + A.shape[:ind]."""
    require_tensor("linalg_tensorinv", A)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    lead, rest = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    p, q = math.prod(lead), math.prod(rest)
    if p != q:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {q} != {p}")
    return inv(A.reshape(p, q)).reshape(rest + lead)


@_out("linalg_tensorsolve")
def tensorsolve(A, B, dims=None):
    """tensorsolve(A, B, dims=None) -> Tensor

    X with tensordot(A, X, X.ndim) = B; dims moves those dims of A to the end first."""
    require_tensor("linalg_tensorsolve", A, "A")
    require_tensor("linalg_tensorsolve", B, "B", 2)
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




_CPP_TYPES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
              "int64": "long int", "uint16": "short unsigned int", "uint32": "unsigned int",
              "uint64": "long unsigned int", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float",
              "float64": "double", "complex32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>",
              "complex128": "c10::complex<double>"}


def _cpp_type(dt):
    """The C++ type name torch's messages print for a dtype (caffe2::TypeMeta's name)."""
    n = _dn(dt)
    return _CPP_TYPES.get(n, "c10::" + n[0].upper() + n[1:])  # float8_e4m3fn -> c10::Float8_e4m3fn


# ---- torch's top-level spellings ----

@_out("inverse")
def top_inverse(input):
    """inverse(input) -> Tensor: torch.inverse, the same as linalg.inv."""
    return inv(input)


@_out("cholesky")
def top_cholesky(input, upper=False):
    """cholesky(input, upper=False) -> Tensor: torch.cholesky (linalg.cholesky with upper positional)."""
    return cholesky(input, upper=upper)


def top_qr(input, some=True):
    """qr(input, some=True) -> (Q, R): torch.qr, linalg.qr with mode 'reduced' (some) or 'complete'."""
    Q, R = qr(input, "reduced" if some else "complete")
    return return_types.qr(Q, R)


def top_svd(input, some=True, compute_uv=True):
    """svd(input, some=True, compute_uv=True) -> (U, S, V): torch.svd, returning V (not Vh);
    without compute_uv, U and V are zero-filled [..., m, m] / [..., n, n]."""
    if not compute_uv:
        S = svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        b = tuple(input.shape[:-2])
        return return_types.svd(_tl.zeros(b + (m, m), dtype=input.dtype, device=input.device), S, _tl.zeros(b + (n, n), dtype=input.dtype, device=input.device))
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


__all__ = ["pinv", "matrix_rank", "cond", "matrix_power", "matrix_exp", "vector_norm", "norm", "cross", "vecdot",
           "multi_dot", "diagonal", "vander", "tensorinv", "tensorsolve"]
