"""tensorlib: a tensor type with PyTorch's semantics, a C core and zero-copy NumPy interop.

    >>> import tensorlib as tl
    >>> x = tl.tensor([[1., 2.], [3., 4.]])
    >>> x.t().stride()
    (1, 2)
"""
from . import _C
from ._C import (  # noqa: F401
    Size, dtype, device, layout, memory_format,
    empty, zeros, ones, full, empty_strided,
    get_default_dtype, set_default_dtype, set_default_device,
    get_num_threads, set_num_threads, from_dlpack, OutOfMemoryError,
    strided, sparse_coo, sparse_csr, sparse_csc, sparse_bsr, sparse_bsc,
    contiguous_format, channels_last, channels_last_3d, preserve_format,
)
from ._tensor import Tensor  # noqa: F401
from ._factories import (  # noqa: F401
    tensor, as_tensor, asarray, arange, range, linspace, logspace, eye, scalar_tensor, empty_permuted,
    empty_like, zeros_like, ones_like, full_like, from_numpy, frombuffer,
)
from ._finfo import finfo, iinfo  # noqa: F401
from ._ops import *  # noqa: F401,F403  (elementwise ops)
from ._printing import set_printoptions, get_printoptions  # noqa: F401
from ._linalg import (  # noqa: F401
    mm, bmm, matmul, mv, dot, vdot, outer, ger, addmm, addmv, addr, baddbmm, addbmm,
    einsum, tensordot, inner,
)
from ._random import (  # noqa: F401
    Generator, default_generator, manual_seed, seed, initial_seed, get_rng_state, set_rng_state,
    rand, randn, randint, randperm, rand_like, randn_like, randint_like, normal, bernoulli, multinomial,
    poisson, binomial,
)
from . import _linalg, _random, _sparse
_linalg._install_methods(Tensor)
_random._install_methods(Tensor)
_sparse._install_methods(Tensor)
from . import _sparse_ops  # noqa: E402  (registers the COO op surface into the gate's table)
_sparse_ops._install_methods(Tensor)
from ._sparse_ops import smm, hspmm, sspaddmm, native_norm, hsmm, saddmm, spmm, dsmm  # noqa: E402,F401
from ._sparse import sparse_coo_tensor  # noqa: E402,F401
from . import sparse  # noqa: E402,F401  (tensorlib.sparse)
# CSR/CSC/BSR/BSC: wraps the gate's table and the COO layer's methods, so it comes after
# every COO module
from . import _sparse_compressed  # noqa: E402
_sparse_compressed._install_methods(Tensor, sparse)
from ._sparse_compressed import (  # noqa: E402,F401
    sparse_compressed_tensor, sparse_csr_tensor, sparse_csc_tensor, sparse_bsr_tensor, sparse_bsc_tensor,
)
from . import _sparse_device  # noqa: E402
_sparse_device.register(_sparse._HANDLERS)  # device sparse tensors in the host kernels: round trips
from . import _semi_structured  # noqa: E402  (2:4 on the CPU: mm/matmul/addmm take its operands)
mm, matmul, addmm = (_semi_structured.wrap(n, f) for n, f in (("mm", mm), ("matmul", matmul), ("addmm", addmm)))
sparse.to_sparse_semi_structured = _semi_structured.to_sparse_semi_structured
sparse.SparseSemiStructuredTensor = _semi_structured.SparseSemiStructuredTensor
from . import nn  # noqa: E402,F401  (tensorlib.nn.functional.linear)
from ._reduce import *  # noqa: F401,F403  (reductions, scans, sorting, searching)
from ._unique import unique_consecutive  # noqa: E402,F401
from . import _stats  # noqa: E402  (diff, trapezoid, bincount, histogram, cov, quantile, ...: tensorlib/_stats.py)
from ._stats import (  # noqa: E402,F401
    diff, trapezoid, trapz, cumulative_trapezoid, bincount, histogram, histogramdd, cov, corrcoef, quantile,
    nanquantile, dist, cosine_similarity, gradient,
)
from ._out import supports_out as _supports_out  # noqa: E402
diff, quantile, nanquantile = (_supports_out(f) for f in (diff, quantile, nanquantile))
for _name in ("diff", "bincount", "histogram", "cov", "corrcoef", "quantile", "nanquantile", "dist"):
    setattr(Tensor, _name, getattr(_stats, _name))
del _name
from . import testing  # noqa: E402,F401  (tensorlib.testing.assert_close)
from . import utils  # noqa: E402,F401  (tensorlib.utils.backcompat: torch's legacy switches)
from .utils.dlpack import to_dlpack  # noqa: E402,F401
from . import backends  # noqa: E402,F401  (tensorlib.backends.cuda.matmul: the cuBLAS switches)
from ._serialization import save, load  # noqa: E402,F401
from . import linalg  # noqa: E402,F401  (tensorlib.linalg: torch.linalg on LAPACK)
from . import fft  # noqa: E402,F401  (tensorlib.fft: torch.fft on csrc/ops/fft.c)
from . import special  # noqa: E402,F401  (tensorlib.special: torch.special)
from . import signal  # noqa: E402,F401  (tensorlib.signal.windows: torch.signal.windows)
from . import _linalg_compose  # noqa: E402
_linalg_compose.install(globals(), Tensor)  # det, inverse, svd, qr, cholesky, pinverse, ... and their methods
from . import _linalg_more  # noqa: E402
_linalg_more.install(globals(), Tensor)  # cholesky_solve, triangular_solve, geqrf, ormqr, lu, lu_unpack, ...
from . import _compat  # noqa: E402
from ._compat import *  # noqa: E402,F401,F403  (softmax, constants, grad modes, legacy FloatTensor, ...)
_compat.install(Tensor)

# dtypes and torch's aliases
for _d in ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16",
           "bfloat16", "float32", "float64", "complex32", "complex64", "complex128", "float8_e4m3fn",
           "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"):
    globals()[_d] = getattr(_C, _d)
float = float32  # noqa: A001
double = float64
half = float16
cfloat = complex64
cdouble = complex128
chalf = complex32
short = int16
int = int32  # noqa: A001
long = int64
del _d

__version__ = "0.1.0"


def __getattr__(name):
    """Loads tensorlib.cuda on first access: ``import tensorlib`` never imports it."""
    if name == "cuda":
        import importlib
        return importlib.import_module(".cuda", __name__)
    raise AttributeError("module 'tensorlib' has no attribute %r" % name)


def get_default_device():
    """The device factories use when none is given."""
    return _C._get_default_device()


def is_tensor(obj):
    """True when obj is a tensorlib tensor."""
    return isinstance(obj, _C.TensorBase)


def is_floating_point(input):
    """True when input's dtype is a floating point dtype."""
    return input.dtype.is_floating_point


def is_complex(input):
    """True when input's dtype is complex."""
    return input.dtype.is_complex


def numel(input):
    """Number of elements of input."""
    return input.numel()


# ---- indexing, joining and reshaping (tensorlib/_index.py, tensorlib/_join.py) ----
from . import _index, _join  # noqa: E402
from ._index import (  # noqa: E402,F401
    index_select, gather, scatter, scatter_add, scatter_reduce, index_fill, index_add, index_copy, index_put,
    index_put_, index_reduce, take, take_along_dim, put, masked_select, masked_scatter, nonzero, argwhere,
    nonzero_static,
)
from ._join import (  # noqa: E402,F401
    cat, concat, concatenate, stack, hstack, vstack, row_stack, dstack, column_stack, atleast_1d, atleast_2d,
    atleast_3d, flip, fliplr, flipud, roll, rot90, tile, repeat_interleave, tril, triu, diag, diag_embed, diagflat,
    trace, meshgrid, broadcast_shapes, broadcast_to, broadcast_tensors, cross, renorm, constant_pad_nd,
)

for _name in ("index_select", "gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "scatter_reduce",
              "scatter_reduce_", "index_fill", "index_fill_", "index_add", "index_add_", "index_copy", "index_copy_",
              "index_reduce", "index_reduce_", "index_put", "index_put_", "take", "take_along_dim", "put", "put_", "masked_select", "masked_scatter",
              "masked_scatter_", "nonzero", "argwhere", "nonzero_static"):
    setattr(Tensor, _name, getattr(_index, _name))
for _name in ("flip", "fliplr", "flipud", "roll", "rot90", "repeat", "tile", "repeat_interleave", "tril", "tril_",
              "triu", "triu_", "diag", "diag_embed", "diagflat", "trace", "broadcast_to", "cross", "renorm",
              "renorm_", "resize_", "resize_as_"):
    setattr(Tensor, _name, getattr(_join, _name))
Tensor.flip = _join._flip_method
del _name


# ---- module-level forms of Tensor methods (torch.transpose(x, 0, 1) == x.transpose(0, 1)) ----
def _method_function(name):
    method = getattr(Tensor, name)

    def fn(input, *args, **kwargs):
        if not isinstance(input, _C.TensorBase):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return method(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, *args, **kwargs): the same as ``input.{name}(*args, **kwargs)``.\n\n" + (
        method.__doc__ or "")
    return fn


for _name in ("as_strided", "chunk", "clone", "detach", "detach_", "diagonal", "flatten", "get_device", "is_signed",
              "moveaxis", "movedim", "narrow", "permute", "reshape", "select", "split", "squeeze", "swapaxes",
              "swapdims", "t", "tensor_split", "transpose", "unbind", "unflatten", "unsqueeze", "is_nonzero",
              "is_same_size", "fill_", "zero_", "resize_as_", "ravel",
              "abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_",
              "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_", "clip_", "cos_",
              "cosh_", "deg2rad_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fix_", "floor_", "frac_", "log10_",
              "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_",
              "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinh_", "sqrt_", "square_", "tan_", "tanh_",
              "trunc_", "xlogy_", "addmv_", "conj_physical_", "adjoint", "as_strided_", "resolve_conj", "resolve_neg",
              "gcd_", "lcm_", "ldexp_", "i0_", "sinc_"):
    if hasattr(Tensor, _name) and _name not in globals():
        globals()[_name] = _method_function(_name)
del _name

# ---- view_as_real/complex, complex, polar, kron, isin, block_diag, the split family, ...
# (tensorlib/_construct.py) ----
from . import _construct  # noqa: E402
_construct.install(globals(), Tensor)

# ---- the view-copy functions (t_copy, select_copy, ...) and the view scatters
# (tensorlib/_copies.py) ----
from . import _copies  # noqa: E402
_copies.install(globals(), Tensor)
from ._windows import hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window  # noqa: E402,F401
from . import _stft  # noqa: E402  (stft, istft: tensorlib/_stft.py)
_stft.install(globals(), Tensor)

# ---- torch's argument-type errors for the Python-level ops (tensorlib/_argcheck.py); last, so
# that it sees every function and method defined above ----
from . import _argcheck  # noqa: E402
_argcheck.install(globals(), Tensor)

# ---- x.sum(), x.mean(dim) ... with plain arguments run in TensorBase's C methods without a
# Python frame; every other call form goes to the Python methods defined above, handed to C
# here as their fallbacks (csrc/python/reduce.c) ----
_C._set_reduce_methods({_name: Tensor.__dict__[_name] for _name in ("sum", "nansum", "mean", "nanmean")})
for _name in ("sum", "nansum", "mean", "nanmean"):
    delattr(Tensor, _name)
del _name

# ---- dask.array's chunk-type registrations (tensorlib/_dask.py); dask itself is imported
# only by the user, the registrations follow it ----
from . import _dask  # noqa: E402
_dask.install()
from ._lowrank import svd_lowrank, pca_lowrank, lobpcg  # noqa: E402,F401  (randomized SVD / PCA, LOBPCG; dense or sparse)

# ---- the docstrings of the public functions, classes, methods and properties, composed by
# scripts/gen_docs.py from the table in tensorlib/_docstrings.py; last, so that they land on the
# final objects (the argument-check wrappers included). A C function keeps its text in its
# PyMethodDef. tensorlib.cuda and tensorlib.array_api attach theirs at their own import. ----
from . import _docattach  # noqa: E402
_docattach.attach_loaded(__name__)
