"""out= for functions computed by value: the result is written into `out` by the one C
implementation (`_C._write_out`: dtype rule, resize with torch's warning, names per seed
003's out semantics) and `out` is returned. Only the ops whose torch kernel words its
dtype error differently are listed here."""
import functools

from . import _C

__all__ = ["supports_out", "write_out"]

# ops whose out may have another dtype the result casts to (torch: can_cast, else TypeError)
_CASTING = {"cat": "torch.cat()"}
# exact-dtype ops with their own words; {got} is out's ScalarType name
_EXACT_TEXT = {
    "index_select": "index_select(): self and result must have the same scalar type",
    "masked_select": "masked_select(): self and result must have the same scalar type",
    "nonzero": "nonzero: Expected out tensor to have scalar type Long but got scalar type{got}",
    "nonzero_static": "nonzero_static: Expected out tensor to have scalar type Long but got scalar type{got}",
}


def write_out(result, out, op):
    """Writes result into out with torch's out= rules for op and returns out (result when out is None)."""
    if out is None:
        return result
    if not isinstance(out, _C.TensorBase):
        raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out.dtype != result.dtype:
        if op in _CASTING:
            if not _C.can_cast(result.dtype, out.dtype):
                raise TypeError(f"{_CASTING[op].replace('torch.', 'tensorlib.')}: input types can't be cast to the "
                                f"desired output type {out.dtype._cname}")
        elif op in _EXACT_TEXT:
            raise RuntimeError(_EXACT_TEXT[op].format(got=out.dtype._cname))
    return _C._write_out(result, out, op, op not in _CASTING)


def supports_out(fn):
    """Wraps fn(..., out=None) so that a given out receives the result (exact dtype, as torch's
    kernels for these ops)."""
    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        r = fn(*args, **kwargs)
        if out is None:
            return r
        if isinstance(r, tuple):
            raise TypeError(f"{fn.__name__}(): out= is not supported with this form")
        return write_out(r, out, fn.__name__)
    return wrapper
