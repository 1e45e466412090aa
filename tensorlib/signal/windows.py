"""tensorlib.signal.windows: torch.signal.windows' window functions of M points.

``sym=True`` (the default) gives the symmetric window for filter design, ``sym=False`` the
periodic one for spectral analysis (the first M points of the M + 1 symmetric one). Each is
composed of tensorlib's ``linspace`` and element-wise ops in the order torch's Python
implementation uses, so values, dtypes (float32/float64 only) and the ValueErrors are torch's.

    >>> import tensorlib as tl
    >>> tl.signal.windows.hann(5)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""
import math
from collections.abc import Iterable

from .. import _C
from .._factories import linspace, tensor, arange

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
           "hamming", "hann", "kaiser", "nuttall"]


def _checks(name, M, dtype, layout):
    """torch's checks of every window (its ValueErrors and words); returns the dtype."""
    dtype = _C.get_default_dtype() if dtype is None else dtype
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not None and layout != _C.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_C.float32, _C.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _empty_or_one(M, dtype, device, requires_grad, one=True):
    """The windows of 0 points (and of 1, where torch special-cases it), else None."""
    if M == 0 or (one and M == 1):
        return _C.ones((M,), dtype=dtype, device=device, requires_grad=requires_grad)
    return None


def _points(start, end, M, dtype, device):
    return linspace(start, end, M, dtype=dtype, device=device)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """exp(-|n - center| / tau), centred by default (a given ``center`` needs sym=False)."""
    dtype = _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    done = _empty_or_one(M, dtype, device, requires_grad, one=False)
    if done is not None:
        return done
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    k = _points(-center * (1 / tau), (-center + (M - 1)) * (1 / tau), M, dtype, device)
    return (-k.abs()).exp()


def cosine(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The sine window sin(pi (n + 1/2) / M) (M + 1 in the denominator when periodic)."""
    dtype = _checks("cosine", M, dtype, layout)
    done = _empty_or_one(M, dtype, device, requires_grad, one=False)
    if done is not None:
        return done
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    return _points(0.5 * step, (0.5 + (M - 1)) * step, M, dtype, device).sin()


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """exp(-(n - center)^2 / (2 std^2)), centred."""
    dtype = _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    done = _empty_or_one(M, dtype, device, requires_grad, one=False)
    if done is not None:
        return done
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / (std * math.sqrt(2))
    k = _points(start * scale, (start + (M - 1)) * scale, M, dtype, device)
    return (-(k * k)).exp()


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """I0(beta sqrt(1 - (2n / (M - 1) - 1)^2)) / I0(beta) (M in the denominator when periodic)."""
    dtype = _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    done = _empty_or_one(M, dtype, device, requires_grad)
    if done is not None:
        return done
    b = tensor(beta, dtype=dtype, device=device)  # (torch: the arithmetic in the window's dtype)
    start = -b
    step = 2.0 * b / (M if not sym else M - 1)
    end = _C.minimum(b, start + (M - 1) * step)
    k = _points(start.item(), end.item(), M, dtype, device)
    return _C.i0((b * b - k.pow(2)).sqrt()) / _C.i0(b)


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """sum over i of (-1)^i a[i] cos(2 pi i n / (M - 1)) (M in the denominator when periodic)."""
    dtype = _checks("general_cosine", M, dtype, layout)
    done = _empty_or_one(M, dtype, device, requires_grad)
    if done is not None:
        return done
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    step = 2 * math.pi / (M if not sym else M - 1)
    k = _points(0, (M - 1) * step, M, dtype, device)
    coef = tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, device=device)
    i = arange(coef.shape[0], dtype=dtype, device=device)
    return (coef.unsqueeze(-1) * (i.unsqueeze(-1) * k).cos()).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """alpha - (1 - alpha) cos(2 pi n / (M - 1))."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Hamming window, general_hamming with alpha = 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Hann window, general_hamming with alpha = 0.5."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Blackman window, general_cosine with a = [0.42, 0.5, 0.08]."""
    dtype = _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The triangular window 1 - |2n / (M - 1) - 1| (M in the denominator when periodic)."""
    dtype = _checks("bartlett", M, dtype, layout)
    done = _empty_or_one(M, dtype, device, requires_grad)
    if done is not None:
        return done
    step = 2 / (M if not sym else M - 1)
    return 1 - _points(-1, -1 + (M - 1) * step, M, dtype, device).abs()


def nuttall(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The minimum 4-term Blackman-Harris window of Nuttall, general_cosine with a = [0.3635819,
    0.4891775, 0.1365995, 0.0106411]."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)
