"""The Array API standard's fft extension over tensorlib.fft: ``axis``/``axes`` for ``dim``,
keyword-only ``n``/``s``/``norm`` (default ``"backward"``), ``d``/``dtype``/``device`` for the
frequencies."""
import tensorlib as tl

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]


def _one(name):
    fn = getattr(tl.fft, name)

    def f(x, /, *, n=None, axis=-1, norm="backward"):
        return fn(x, n=n, dim=axis, norm=norm)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(x, /, *, n=None, axis=-1, norm='backward'): tensorlib.fft.{name} along axis."
    return f


def _many(name):
    fn = getattr(tl.fft, name)

    def f(x, /, *, s=None, axes=None, norm="backward"):
        return fn(x, s=s, dim=axes, norm=norm)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(x, /, *, s=None, axes=None, norm='backward'): tensorlib.fft.{name} over axes."
    return f


fft, ifft, rfft, irfft, hfft, ihfft = map(_one, ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fftn, ifftn, rfftn, irfftn = map(_many, ("fftn", "ifftn", "rfftn", "irfftn"))


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies of an n-point FFT with sample spacing d."""
    return tl.fft.fftfreq(n, d, dtype=dtype, device=device)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The non-negative sample frequencies of an n-point rfft."""
    return tl.fft.rfftfreq(n, d, dtype=dtype, device=device)


def fftshift(x, /, *, axes=None):
    """The zero frequency moved to the middle along axes (all when None)."""
    return tl.fft.fftshift(x, dim=axes)


def ifftshift(x, /, *, axes=None):
    """The inverse of fftshift."""
    return tl.fft.ifftshift(x, dim=axes)


from . import _check_arrays  # noqa: E402

_check_arrays(globals())
