"""torch's window functions (``hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window``), computed as torch computes them: an ``arange`` in the
target dtype, then the formula step by step in that dtype (so float16/bfloat16 windows round
where torch's do), ``periodic`` windows as the first N points of the N + 1 symmetric one."""
import math
import numbers

from . import _C
from ._factories import arange

_CNAME = {"strided": "Strided", "sparse_coo": "Sparse", "sparse_csr": "SparseCsr", "sparse_csc": "SparseCsc",
          "sparse_bsr": "SparseBsr", "sparse_bsc": "SparseBsc"}


def _options(dtype, layout, device, unresolved):
    """torch's TensorOptions text in the window functions' messages (unresolved: the dtype not yet
    filled in from the default, which only hann_window's check sees)."""
    dt = "%s%s" % ((dtype or _C.get_default_dtype())._typemeta, " (default)" if dtype is None and unresolved else "")
    lay = "Strided (default)" if layout is None else _CNAME.get(str(layout).split(".")[-1], str(layout))
    dev = _C.device(device) if device is not None else _C.device("cpu")
    return (f"TensorOptions(dtype={dt}, device={dev}, layout={lay}, requires_grad=false (default), "
            "pinned_memory=false, memory_format=(nullopt))")


def _start(name, window_length, periodic, dtype, layout, device, requires_grad, pin_memory):
    """The checks (torch's order and words), then (n, symmetric length, dtype) or a finished
    result for lengths 0 and 1."""
    if not isinstance(window_length, numbers.Integral) or isinstance(window_length, bool):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(window_length).__name__}")
    if dtype is not None and not isinstance(dtype, _C.dtype):
        raise TypeError(f"{name}(): argument 'dtype' must be tensorlib.dtype, not {type(dtype).__name__}")
    if layout is not None and layout != _C.strided:
        raise RuntimeError(f"{name} is not implemented for sparse types, got: "
                           f"{_options(dtype, layout, device, name == 'hann_window')}")
    dt = dtype or _C.get_default_dtype()
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: "
                           f"{_options(dtype, layout, device, name == 'hann_window')}")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if window_length <= 1:
        r = _C.ones(window_length, dtype=dt, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return r, None
    if dt.is_complex:  # (torch's arange of the window refuses it)
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{dt._cname}\'')
    return None, window_length + 1 if periodic else window_length


def _k(v, dt):
    """A constant of the formula as torch's C++ applies it: rounded to the window's dtype first
    (a float16/bfloat16 window multiplies by the rounded constant)."""
    return _C.full((), v, dtype=dt) if dt in (_C.float16, _C.bfloat16) else v


def _finish(w, window_length, periodic):
    return w.narrow(0, 0, window_length) if periodic else w


def _hamming(name, window_length, periodic, alpha, beta, dtype, layout, device, requires_grad, pin_memory):
    done, n = _start(name, window_length, periodic, dtype, layout, device, requires_grad, pin_memory)
    if done is not None:
        return done
    dt = dtype or _C.get_default_dtype()
    w = arange(n, dtype=dt, device=device)
    w = w.mul_(_k(math.pi * 2.0 / (n - 1), dt)).cos_().mul_(_k(-beta, dt)).add_(_k(alpha, dt))
    return _finish(w, window_length, periodic)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False):
    """hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    alpha - beta cos(2 pi n / (N - 1)), N = window_length (+ 1 when periodic, then the last
    point dropped)."""
    return _hamming("hamming_window", window_length, periodic, alpha, beta, dtype, layout, device, requires_grad,
                    pin_memory)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False,
                pin_memory=False):
    """hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    The Hann window, 1/2 - 1/2 cos(2 pi n / (N - 1)): hamming_window with alpha = beta = 1/2."""
    return _hamming("hann_window", window_length, periodic, 0.5, 0.5, dtype, layout, device, requires_grad,
                    pin_memory)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False,
                    pin_memory=False):
    """blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))."""
    done, n = _start("blackman_window", window_length, periodic, dtype, layout, device, requires_grad, pin_memory)
    if done is not None:
        return done
    dt = dtype or _C.get_default_dtype()
    t = arange(n, dtype=dt, device=device).mul_(_k(math.pi / (n - 1), dt))
    w = t.mul(4).cos_().mul_(_k(0.08, dt)) - t.mul(2).cos_().mul_(0.5) + _k(0.42, dt)
    return _finish(w, window_length, periodic)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False,
                    pin_memory=False):
    """bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    The triangular window 1 - |2 n / (N - 1) - 1|."""
    done, n = _start("bartlett_window", window_length, periodic, dtype, layout, device, requires_grad, pin_memory)
    if done is not None:
        return done
    dt = dtype or _C.get_default_dtype()
    w = arange(n, dtype=dt, device=device).mul_(_k(2.0 / (n - 1), dt))
    first_half = ((n - 1) >> 1) + 1
    w.narrow(0, first_half, n - first_half).mul_(-1).add_(2)
    return _finish(w, window_length, periodic)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  requires_grad=False, pin_memory=False):
    """kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

    I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta), a = (N - 1) / 2; float16/bfloat16 computed
    in float32 as torch's kernel."""
    done, n = _start("kaiser_window", window_length, periodic, dtype, layout, device, requires_grad, pin_memory)
    if done is not None:
        return done
    dt = dtype or _C.get_default_dtype()
    work = _C.float64 if dt == _C.float64 else _C.float32
    a = (n - 1) / 2.0
    x = arange(n, dtype=work, device=device)
    x = (1 - ((x - a) / a).pow(2)).abs().sqrt().mul(beta)
    w = (_C.i0(x) / _C.i0(_C.full((), beta, dtype=work, device=device))).to(dt)
    return _finish(w, window_length, periodic)


FUNCTIONS = ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window")
