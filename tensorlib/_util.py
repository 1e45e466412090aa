"""Argument helpers every Python-level op module shares."""

import operator

__all__ = ["wrap_dim", "dim_index", "no_names", "unflatten_sizes", "require_tensor"]


def require_tensor(name, value, arg="input", position=1):
    """torch's TypeError unless value is a tensor: for Python-level functions that would
    otherwise fail later with an AttributeError (and for the sparse layout gate's handlers,
    which the gate calls when any argument is sparse, whatever sits in the tensor parameters)."""
    from . import _C
    if not isinstance(value, _C.TensorBase):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {type(value).__name__}")


def wrap_dim(d, ndim):
    """d wrapped into [0, ndim) (a 0-d tensor accepts -1 and 0); torch's IndexError otherwise."""
    n = ndim if ndim > 0 else 1
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d + n if d < 0 else d


def dim_index(t, d):
    """d (an int, wrapped, or a dim name) as an index into t's dims; torch's errors otherwise."""
    if isinstance(d, str):
        names = t.names
        if d not in names:
            raise RuntimeError(f"Name '{d}' not found in Tensor{list(names)}.")
        return names.index(d)
    return wrap_dim(operator.index(d), t.dim())


def unflatten_sizes(size, sizes):
    """unflatten's sizes (ints, one may be -1) resolved to multiply up to size; None when they cannot."""
    sizes = [operator.index(s) for s in sizes]
    known = 1
    for s in sizes:
        if s != -1:
            known *= s
    if -1 in sizes:
        if known == 0 or size % known:
            return None
        sizes[sizes.index(-1)] = size // known
    elif known != size:
        return None
    return sizes


def no_names(op, *tensors):
    """RuntimeError for ops without a named-tensor rule, instead of silently dropping names."""
    for t in tensors:
        if t.has_names():
            raise RuntimeError(f"{op} is not yet supported with named tensors. Please drop names via "
                               "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set "
                               "names on the result of the operation.")


def legacy_type(dtype):
    """torch's legacy tensor type string for dtype ('tensorlib.FloatTensor', 'tensorlib.UInt16Tensor'):
    the ScalarType name followed by Tensor, as torch builds it."""
    return "tensorlib." + dtype._cname + "Tensor"


def infer_size(a, b):
    """The broadcast shape of a and b, with TensorIterator's message (at::infer_size)."""
    n = max(len(a), len(b))
    out = []
    for i in reversed(range(n)):
        sa = a[i - n + len(a)] if i - n + len(a) >= 0 else 1
        sb = b[i - n + len(b)] if i - n + len(b) >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at non-singleton "
                               f"dimension {i}")
        out.append(sa if sb == 1 else sb)
    return tuple(reversed(out))


def install_names(namespace, tensor_class, source, functions, methods):
    """Puts the functions named in ``functions`` (from the module dict ``source``) into
    tensorlib's namespace, and those named in ``methods`` on Tensor."""
    for n in functions:
        namespace[n] = source[n]
    for n in methods:
        setattr(tensor_class, n, source[n])
