"""unique over slices (``unique(dim=...)``) and ``unique_consecutive``.

Both run in C (``_C._unique_dim``: a stable lexicographic sort of the slices' indices,
then run-length grouping); this module maps torch's argument forms onto it.

    >>> import tensorlib as tl
    >>> tl.unique(tl.tensor([[1, 2], [0, 5], [1, 2]]), dim=0).tolist()
    [[0, 5], [1, 2]]
"""
import operator

from . import _C
from ._tensor import Tensor
from ._util import no_names

__all__ = ["unique_consecutive"]


def _int_dim(dim, fname):
    if isinstance(dim, bool) or not hasattr(type(dim), "__index__"):
        raise TypeError(f"{fname}(): argument 'dim' {'(position 2) ' if fname == 'unique_dim' else ''}"
                        f"must be int, not {type(dim).__name__}")
    return operator.index(dim)


def _pack(v, inv, cnt, return_inverse, return_counts):
    if return_inverse and return_counts:
        return v, inv, cnt
    if return_inverse:
        return v, inv
    if return_counts:
        return v, cnt
    return v


def unique_dim(input, dim, return_inverse=False, return_counts=False):
    """unique() with a dim: the distinct slices along dim in lexicographic order (torch's
    CPU kernel sorts even when sorted=False); inverse has one entry per slice."""
    dim = _int_dim(dim, "unique_dim")
    if isinstance(input, _C.TensorBase) and input.is_meta:
        _C._meta_refuse("unique_dim")
    v, inv, cnt = _C._unique_dim(input, dim, False, bool(return_inverse), bool(return_counts))
    return _pack(v, inv, cnt, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """unique_consecutive(input, return_inverse=False, return_counts=False, dim=None)

    Keeps the first element (or slice along dim) of every run of equal consecutive ones.
    inverse maps each element (input's shape) or slice (1-D) to its run; counts gives the
    run lengths."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError("unique_consecutive(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    no_names("unique_consecutive", input)
    if dim is not None:
        dim = _int_dim(dim, "unique_consecutive")
    if input.is_meta:
        _C._meta_refuse("unique_consecutive")
    v, inv, cnt = _C._unique_dim(input, dim, True, bool(return_inverse), bool(return_counts))
    return _pack(v, inv, cnt, return_inverse, return_counts)


def _unique_consecutive_method(self, return_inverse=False, return_counts=False, dim=None):
    return unique_consecutive(self, return_inverse, return_counts, dim)


_unique_consecutive_method.__name__ = "unique_consecutive"
_unique_consecutive_method.__qualname__ = "Tensor.unique_consecutive"
_unique_consecutive_method.__doc__ = unique_consecutive.__doc__
Tensor.unique_consecutive = _unique_consecutive_method
