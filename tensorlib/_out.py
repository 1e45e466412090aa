"""out= for functions computed by value: the result is written into `out` (resized like
torch when its shape differs) and `out` is returned."""
import functools

__all__ = ["supports_out", "write_out"]


def write_out(result, out):
    """Copies result into out (resizing an out of another shape) and returns out."""
    if out is None:
        return result
    if tuple(out.shape) != tuple(result.shape):
        out.resize_(result.shape)
    out.copy_(result)
    return out


def supports_out(fn):
    """Wraps fn(..., out=None) so that a given out receives the result."""
    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        r = fn(*args, **kwargs)
        if out is None:
            return r
        if isinstance(r, tuple):
            raise TypeError(f"{fn.__name__}(): out= is not supported with this form")
        return write_out(r, out)
    return wrapper
