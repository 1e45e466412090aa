"""tensorlib.fft: torch.fft's discrete Fourier transforms.

One C kernel (``csrc/ops/fft.c``: mixed radix plus Bluestein, any length, computed in double
precision) transforms complex rows in place; everything else is composed here: the size
argument ``n``/``s`` (trim or zero-pad), ``dim``, the ``norm`` modes, the real (``rfft``,
``irfft``) and Hermitian (``hfft``, ``ihfft``) forms and the n-dimensional ones.

Result dtypes follow torch: float32 (and integer or bool inputs, through the default dtype)
transform to complex64, float64 to complex128; the real-output transforms give the matching
float dtype. float16, bfloat16 and complex32 are refused as torch's CPU build refuses them.
The short-time transforms ``tensorlib.stft``/``istft`` (tensorlib/_stft.py) are built on these;
their windows are ``tensorlib.hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window`` (tensorlib/_windows.py) and tensorlib.signal.windows.

    >>> import tensorlib as tl
    >>> tl.fft.fft(tl.tensor([1., 0., 0., 0.]))
    tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    >>> tl.fft.irfft(tl.fft.rfft(tl.tensor([1., 2., 3.])), n=3)
    tensor([1., 2., 3.])
"""
import functools
import inspect
import math
import operator

from . import _C
from ._util import no_names as _no_names, wrap_dim as _wrap_dim

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]

_SWAP_NORM = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


# ---- argument checks -------------------------------------------------------------------

def _check_input(fname, x, kernel=None):
    """Type check; named tensors are refused naming the ATen kernel torch 1.13 refuses in
    (kernel None: r2c for real input, c2c for complex)."""
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"fft_{fname}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    if x.has_names():
        kernel = kernel or ("_fft_c2c" if x.dtype.is_complex else "_fft_r2c")
        _no_names("aten::" + kernel, x)


def _check_norm(norm):
    if norm not in _SWAP_NORM:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _swap(norm):
    """The norm of the opposite direction (hfft is irfft of the conjugate with it)."""
    _check_norm(norm)
    return _SWAP_NORM[norm]


def _check_points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _int_arg(fname, name, v):
    if isinstance(v, bool) or not isinstance(v, int):
        try:
            return operator.index(v)
        except TypeError:
            raise TypeError(f"fft_{fname}(): argument '{name}' must be int, not {type(v).__name__}") from None
    return v


def _one_dim(fname, x, dim):
    dim = _int_arg(fname, "dim", dim)
    if x.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, x.dim())


def _dims_and_sizes(fname, x, s, dim, default_dims=None):
    """(dims, sizes) of an n-dimensional transform as torch resolves them: dim defaults to
    the last len(s) dims when s is given, else to default_dims or all dims; an s entry of -1
    keeps the input's size."""
    if s is not None:
        s = [_int_arg(fname, "s", v) for v in ([s] if isinstance(s, int) else s)]
    if dim is None and default_dims is not None and s is None:
        dim = default_dims
    if dim is not None:
        dims = [_wrap_dim(_int_arg(fname, "dim", d), x.dim()) for d in ([dim] if isinstance(dim, int) else dim)]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
    elif s is not None:
        if len(s) > x.dim():
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {x.dim()} dimensions.")
        dims = list(range(x.dim() - len(s), x.dim()))
    else:
        dims = list(range(x.dim()))
    if s is None:
        sizes = [x.shape[d] for d in dims]
    else:
        sizes = [x.shape[d] if v == -1 else v for d, v in zip(dims, s)]
    return dims, sizes


# ---- dtypes ------------------------------------------------------------------------------

def _unsupported(dt):
    if dt == _C.complex32:
        return RuntimeError("MKL FFT doesn't support tensors of type: Half")
    return RuntimeError(f"Unsupported dtype {dt._cname}")


def _float_dtype(dt):
    """The real dtype a real input transforms in (ints and bool: the default dtype)."""
    if dt.is_complex or dt.is_floating_point:
        if dt not in (_C.float32, _C.float64, _C.complex64, _C.complex128):
            raise _unsupported(dt)
        return dt
    return _C.get_default_dtype()


def _complex_of(x):
    """The complex dtype x transforms in (float32, integers, bool: complex64 by default)."""
    dt = _float_dtype(x.dtype)
    return dt if dt.is_complex else dt.to_complex()


def _as_complex(x):
    dt = _complex_of(x)
    return x if x.dtype == dt else x.to(dt)


def _as_real(fname, x):
    if x.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a real input tensor, but got {x.dtype._cname}")
    return x.to(_float_dtype(x.dtype))


# ---- building blocks -----------------------------------------------------------------------

def _resize(x, dim, n):
    """x trimmed or zero-padded to n elements along dim (a view when trimming or n matches)."""
    size = x.shape[dim]
    if n <= size:
        return x.narrow(dim, 0, n) if n < size else x
    shape = list(x.shape)
    shape[dim] = n
    out = _C.zeros(shape, dtype=x.dtype, device=x.device)
    out.narrow(dim, 0, size).copy_(x)
    return out


def _scale(norm, n, forward):
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm == "forward") == forward:
        return 1.0 / n
    return 1.0


def _rows(x, dim, dtype):
    """A fresh contiguous copy of x in dtype with dim moved last: the kernel's in-place input."""
    return x.movedim(dim, -1).to(dtype, memory_format=_C.contiguous_format, copy=True)


def _c2c(x, dim, n, norm, forward):
    """x transformed along dim over n points (in its complex dtype); result's dim is innermost in memory."""
    out = _rows(_resize(x, dim, n), dim, _complex_of(x))
    _C._fft_c2c_rows(out, not forward)
    scale = _scale(norm, n, forward)
    if scale != 1.0:
        out.mul_(scale)
    return out.movedim(-1, dim)


def _r2c(x, dim, n, norm):
    """Real x (float32/64) to its n // 2 + 1 non-negative frequencies along dim: for even n one
    complex transform of n / 2 points (the samples packed in pairs), else of the whole row."""
    if n % 2 == 0:
        rows = _rows(_resize(x, dim, n), dim, x.dtype)
        out = _C.empty(tuple(rows.shape[:-1]) + (n // 2 + 1,), dtype=x.dtype.to_complex(), device=x.device)
        _C._fft_r2c_rows(out, rows)
    else:
        full = _rows(_resize(x, dim, n), dim, x.dtype.to_complex())
        _C._fft_c2c_rows(full, False)
        out = full.narrow(-1, 0, n // 2 + 1).contiguous()
    scale = _scale(norm, n, True)
    if scale != 1.0:
        out.mul_(scale)
    return out.movedim(-1, dim)


def _c2r(x, dim, n, norm):
    """Complex x (its non-negative frequencies) to the real signal of n points along dim:
    the Hermitian extension transformed back; imaginary parts of the DC (and Nyquist) terms
    drop out as in torch."""
    half = n // 2 + 1
    x = _resize(x, dim, half).movedim(dim, -1)
    shape = list(x.shape)
    shape[-1] = n
    ext = _C.empty(shape, dtype=x.dtype, device=x.device)
    ext.narrow(-1, 0, half).copy_(x)
    if n > half:
        ext.narrow(-1, half, n - half).copy_(x.narrow(-1, 1, n - half).flip(-1).conj())
    _C._fft_c2c_rows(ext, True)
    out = ext.real.contiguous()
    scale = _scale(norm, n, False)
    if scale != 1.0:
        out.mul_(scale)
    return out.movedim(-1, dim)


# ---- one-dimensional transforms -------------------------------------------------------------

def _fft1(fname, input, n, dim, norm, forward):
    _check_input(fname, input)
    _check_norm(norm)
    d = _one_dim(fname, input, dim)
    n = input.shape[d] if n is None else _int_arg(fname, "n", n)
    _check_points(n)
    return _c2c(input, d, n, norm, forward)


def fft(input, n=None, dim=-1, norm=None):
    """fft(input, n=None, dim=-1, norm=None) -> Tensor

    The one-dimensional discrete Fourier transform of ``input`` along ``dim``: the input is
    trimmed or zero-padded to ``n`` points first. ``norm``: ``"backward"`` (default, no
    scaling), ``"ortho"`` (1/sqrt(n)) or ``"forward"`` (1/n). Real inputs give complex64
    (float32, integers, bool) or complex128 (float64).
    """
    return _fft1("fft", input, n, dim, norm, True)


def ifft(input, n=None, dim=-1, norm=None):
    """ifft(input, n=None, dim=-1, norm=None) -> Tensor

    The inverse of :func:`fft`; ``norm="backward"`` (default) scales by 1/n.
    """
    return _fft1("ifft", input, n, dim, norm, False)


def rfft(input, n=None, dim=-1, norm=None):
    """rfft(input, n=None, dim=-1, norm=None) -> Tensor

    The FFT of a real signal: only the ``n // 2 + 1`` non-negative frequencies (the rest
    are their conjugates). A complex input raises RuntimeError.
    """
    _check_input("rfft", input, "_fft_r2c")
    _check_norm(norm)
    d = _one_dim("rfft", input, dim)
    n = input.shape[d] if n is None else _int_arg("rfft", "n", n)
    _check_points(n)
    return _r2c(_as_real("rfft", input), d, n, norm)


def irfft(input, n=None, dim=-1, norm=None):
    """irfft(input, n=None, dim=-1, norm=None) -> Tensor

    The inverse of :func:`rfft`: a real signal of ``n`` points (default ``2 * (m - 1)`` for
    ``m`` input frequencies) from its non-negative frequencies.
    """
    _check_input("irfft", input, "_fft_c2r")
    _check_norm(norm)
    d = _one_dim("irfft", input, dim)
    n = 2 * (input.shape[d] - 1) if n is None else _int_arg("irfft", "n", n)
    _check_points(n)
    return _c2r(_as_complex(input), d, n, norm)


def hfft(input, n=None, dim=-1, norm=None):
    """hfft(input, n=None, dim=-1, norm=None) -> Tensor

    The FFT of a signal whose ``n``-point time domain is Hermitian, given by its first half
    (``input``): a real result of ``n`` points (default ``2 * (m - 1)``).
    """
    _check_input("hfft", input, "_conj")
    _check_norm(norm)
    d = _one_dim("hfft", input, dim)
    n = 2 * (input.shape[d] - 1) if n is None else _int_arg("hfft", "n", n)
    _check_points(n)
    return _c2r(_as_complex(input).conj(), d, n, _SWAP_NORM[norm])


def ihfft(input, n=None, dim=-1, norm=None):
    """ihfft(input, n=None, dim=-1, norm=None) -> Tensor

    The inverse of :func:`hfft`: the ``n // 2 + 1`` first points of the Hermitian signal
    whose FFT is the real ``input``.
    """
    _check_input("ihfft", input, "_fft_r2c")
    _check_norm(norm)
    d = _one_dim("ihfft", input, dim)
    n = input.shape[d] if n is None else _int_arg("ihfft", "n", n)
    _check_points(n)
    return _r2c(_as_real("ihfft", input), d, n, _SWAP_NORM[norm]).conj()


# ---- n-dimensional transforms -------------------------------------------------------------

def _fftn(fname, input, s, dim, norm, forward, default_dims=None):
    _check_input(fname, input, "_fft_c2c")
    _check_norm(norm)
    dims, sizes = _dims_and_sizes(fname, input, s, dim, default_dims)
    for n in sizes:
        _check_points(n)
    if not dims:
        return input.to(_complex_of(input), copy=True)
    x = input
    for d, n in zip(dims, sizes):
        x = _c2c(x, d, n, norm, forward)
    return x.contiguous()


def fftn(input, s=None, dim=None, norm=None):
    """fftn(input, s=None, dim=None, norm=None) -> Tensor

    The n-dimensional FFT over ``dim`` (default: the last ``len(s)`` dims when ``s`` is
    given, else all), each trimmed or zero-padded to ``s`` (``-1``: keep the size).
    """
    return _fftn("fftn", input, s, dim, norm, True)


def ifftn(input, s=None, dim=None, norm=None):
    """ifftn(input, s=None, dim=None, norm=None) -> Tensor

    The inverse of :func:`fftn`.
    """
    return _fftn("ifftn", input, s, dim, norm, False)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """fft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor: :func:`fftn` over two dims."""
    return _fftn("fft2", input, s, dim, norm, True)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """ifft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor: :func:`ifftn` over two dims."""
    return _fftn("ifft2", input, s, dim, norm, False)


def _rfftn(fname, input, s, dim, norm, default_dims=None, real_name="rfftn"):
    _check_input(fname, input, "_fft_r2c")
    _check_norm(norm)
    dims, sizes = _dims_and_sizes(fname, input, s, dim, default_dims)
    if not dims:
        raise RuntimeError(f"{real_name} must transform at least one axis")
    for n in sizes:
        _check_points(n)
    x = _r2c(_as_real(real_name, input), dims[-1], sizes[-1], norm)
    for d, n in zip(dims[:-1], sizes[:-1]):
        x = _c2c(x, d, n, norm, True)
    return x.contiguous()


def _irfftn(fname, input, s, dim, norm, default_dims=None, conj=False):
    _check_input(fname, input, "_fft_c2c" if conj else "_fft_c2r")
    _check_norm(norm)
    dims, sizes = _dims_and_sizes(fname, input, s, dim, default_dims)
    if not dims:
        raise RuntimeError(f"{fname} must transform at least one axis")
    if s is None or (s if isinstance(s, int) else s[-1]) == -1:
        sizes[-1] = 2 * (input.shape[dims[-1]] - 1)
    for n in sizes:
        _check_points(n)
    x = _as_complex(input)
    if conj:
        x = x.conj()
    for d, n in zip(dims[:-1], sizes[:-1]):
        x = _c2c(x, d, n, norm, False)
    return _c2r(x, dims[-1], sizes[-1], norm).contiguous()


def rfftn(input, s=None, dim=None, norm=None):
    """rfftn(input, s=None, dim=None, norm=None) -> Tensor

    The n-dimensional FFT of a real input: the last transformed dim keeps its
    ``s[-1] // 2 + 1`` non-negative frequencies.
    """
    return _rfftn("rfftn", input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):
    """irfftn(input, s=None, dim=None, norm=None) -> Tensor

    The inverse of :func:`rfftn`; the last transformed dim's output size defaults to
    ``2 * (m - 1)``.
    """
    return _irfftn("irfftn", input, s, dim, norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """rfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor: :func:`rfftn` over two dims."""
    return _rfftn("rfft2", input, s, dim, norm, real_name="rfftn")


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """irfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor: :func:`irfftn` over two dims."""
    return _irfftn("irfft2", input, s, dim, norm)


def hfftn(input, s=None, dim=None, norm=None):
    """hfftn(input, s=None, dim=None, norm=None) -> Tensor

    The n-dimensional :func:`hfft`: a real result from the first half (along the last
    transformed dim) of a Hermitian-symmetric signal.
    """
    return _irfftn("hfftn", input, s, dim, _swap(norm), conj=True)


def ihfftn(input, s=None, dim=None, norm=None):
    """ihfftn(input, s=None, dim=None, norm=None) -> Tensor: the inverse of :func:`hfftn`."""
    out = _rfftn("ihfftn", input, s, dim, _swap(norm), real_name="ihfftn")
    return out.conj().contiguous()


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    """hfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor: :func:`hfftn` over two dims."""
    return _irfftn("hfft2", input, s, dim, _swap(norm), conj=True)


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    """ihfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor: :func:`ihfftn` over two dims."""
    out = _rfftn("ihfft2", input, s, dim, _swap(norm), real_name="ihfftn")
    return out.conj().contiguous()


# ---- frequencies and shifts -------------------------------------------------------------------

def _freq_dtype(dtype):
    dtype = _C.get_default_dtype() if dtype is None else dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("fftfreq requires a floating point or complex dtype")
    return dtype


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """fftfreq(n, d=1.0, *, dtype=None, device=None) -> Tensor

    The sample frequencies of an ``n``-point FFT with sample spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``.
    """
    from ._factories import arange
    dtype = _freq_dtype(dtype)
    out = arange(n, dtype=dtype, device=device, requires_grad=requires_grad)
    if n > 1:
        out.narrow(0, (n + 1) // 2, n // 2).copy_(arange(-(n // 2), 0, dtype=dtype, device=device))
    return out.mul_(_reciprocal(n * d))


def _reciprocal(v):
    """1 / v as C computes it (inf for 0: rfftfreq(0) is [nan] in torch)."""
    return 1.0 / v if v else math.copysign(math.inf, v)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """rfftfreq(n, d=1.0, *, dtype=None, device=None) -> Tensor

    The non-negative sample frequencies of an ``n``-point :func:`rfft`:
    ``[0, 1, ..., n // 2] / (d * n)``.
    """
    from ._factories import arange
    out = arange(n // 2 + 1, dtype=_freq_dtype(dtype), device=device, requires_grad=requires_grad)
    return out.mul_(_reciprocal(n * d))


def _shift(input, dim, inverse):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"{'ifftshift' if inverse else 'fftshift'}(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    dims = list(range(input.dim())) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    if not dims:
        raise RuntimeError("`shifts` required")
    dims = [_wrap_dim(d, input.dim()) for d in dims]
    shifts = [(input.shape[d] + 1) // 2 if inverse else input.shape[d] // 2 for d in dims]
    return input.roll(shifts, dims)


def fftshift(input, dim=None):
    """fftshift(input, dim=None) -> Tensor

    Reorders FFT output so the zero frequency is in the middle (``roll`` by ``size // 2``
    along ``dim``, default all dims).
    """
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    """ifftshift(input, dim=None) -> Tensor: the inverse of :func:`fftshift`."""
    return _shift(input, dim, True)


# ---- out= ------------------------------------------------------------------------------------------

def _with_out(fn):
    """fn with torch's keyword-only out=: the result written into out (resized when empty or of
    another shape, cast to its dtype where torch's out rules allow)."""
    name = "fft_" + fn.__name__

    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        result = fn(*args, **kwargs)
        return result if out is None else _C._write_out(result, out, name, False)
    sig = inspect.signature(fn)
    f.__signature__ = sig.replace(parameters=[*sig.parameters.values(),
                                              inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)])
    return f


for _name in __all__:
    if _name not in ("fftshift", "ifftshift"):
        globals()[_name] = _with_out(globals()[_name])
del _name
