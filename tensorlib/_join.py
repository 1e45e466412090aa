"""Joining and reshaping ops: cat/stack families, flip/roll/rot90, repeat/tile,
repeat_interleave, tril/triu, diag family, trace, meshgrid, broadcasting helpers, cross,
renorm, resize_. Data movement is in C (csrc/ops/join.c); this is argument glue."""
import builtins
import operator

from . import _C
from ._out import supports_out, write_out
from ._index import _dim, _wrap, _no_names, index_select

_int = builtins.int


def _seq(tensors, fname):
    if isinstance(tensors, _C.TensorBase):
        raise TypeError(f"{fname}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    return list(tensors)


def cat(tensors, dim=0, *, out=None):
    """cat(tensors, dim=0, *, out=None) -> Tensor

    Concatenates a sequence of tensors along an existing dim (an int or a name). Shapes must
    match except along dim; dtypes promote as in arithmetic; names unify position by
    position. Sparse COO tensors concatenate too.

        >>> x = tl.tensor([[1., 2.], [3., 4.]])
        >>> tl.cat([x, x], dim=1)
        tensor([[1., 2., 1., 2.],
                [3., 4., 3., 4.]])
    """
    ts = _seq(tensors, "cat")
    if isinstance(dim, str):
        dim = _dim(ts[0], dim)
    return write_out(_C._cat(ts, operator.index(dim)), out, "cat")


def concat(tensors, dim=0, *, out=None):
    """Alias of cat."""
    return cat(tensors, dim, out=out)


def concatenate(tensors, axis=0, out=None):
    """Alias of cat (NumPy's spelling)."""
    return cat(tensors, axis, out=out)


def stack(tensors, dim=0, *, out=None):
    """stack(tensors, dim=0, *, out=None) -> Tensor

    Joins a sequence of equally shaped tensors along a new dim inserted at ``dim``; dtypes
    promote as in arithmetic.

        >>> tl.stack([tl.tensor([1, 2]), tl.tensor([3, 4])])
        tensor([[1, 2],
                [3, 4]])
    """
    ts = _seq(tensors, "stack")
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i in range(1, len(ts)):
        if ts[i].shape != ts[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(ts[0].shape)} at entry 0 "
                               f"and {list(ts[i].shape)} at entry {i}")
    d = _wrap(operator.index(dim), ts[0].dim() + 1)
    if d < ts[0].dim() and not any(t.layout != _C.strided or t.names is not None and any(n is not None for n in t.names)
                                   for t in ts):
        # torch: cat along d, then split d (a view), so channels_last inputs keep their layout
        shape = list(ts[0].shape)
        shape[d:d + 1] = [len(ts), shape[d]]
        return write_out(cat(ts, d).view(shape), out, "cat")
    return cat([t.unsqueeze(d) for t in ts], d, out=out)


def atleast_1d(*tensors):
    """Views with at least one dimension."""
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    r = [t.reshape(1) if t.dim() == 0 else t for t in ts]
    return r[0] if len(tensors) == 1 and isinstance(tensors[0], _C.TensorBase) else tuple(r)


def atleast_2d(*tensors):
    """Views with at least two dimensions."""
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    r = [t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t for t in ts]
    return r[0] if len(tensors) == 1 and isinstance(tensors[0], _C.TensorBase) else tuple(r)


def atleast_3d(*tensors):
    """Views with at least three dimensions (1-D x -> [1, n, 1], 2-D -> [m, n, 1])."""
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors

    def f(t):
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        if t.dim() == 2:
            return t.unsqueeze(-1)
        return t
    r = [f(t) for t in ts]
    return r[0] if len(tensors) == 1 and isinstance(tensors[0], _C.TensorBase) else tuple(r)


def hstack(tensors, *, out=None):
    """Stacks horizontally: along dim 0 for 1-D inputs, dim 1 otherwise."""
    ts = atleast_1d(_seq(tensors, "hstack"))
    if not ts:
        raise RuntimeError("hstack expects a non-empty TensorList")
    return cat(ts, 0 if ts[0].dim() == 1 else 1, out=out)


def vstack(tensors, *, out=None):
    """Stacks vertically (rows) after atleast_2d."""
    ts = atleast_2d(_seq(tensors, "vstack"))
    if not ts:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat(ts, 0, out=out)


row_stack = vstack


def dstack(tensors, *, out=None):
    """Stacks depth-wise (dim 2) after atleast_3d."""
    ts = atleast_3d(_seq(tensors, "dstack"))
    if not ts:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return cat(ts, 2, out=out)


def column_stack(tensors, *, out=None):
    """Stacks 0-D/1-D tensors as columns, others horizontally."""
    ts = _seq(tensors, "column_stack")
    if not ts:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in ts]
    return hstack(ts, out=out)


def flip(input, dims):
    """flip(input, dims) -> Tensor

    A copy of input with the order of elements reversed along each of dims (an int, a name
    or a sequence of them); names are kept. Strided input only.

        >>> tl.flip(tl.tensor([[1., 5.], [3., 2.]]), (0,))
        tensor([[3., 2.],
                [1., 5.]])
    """
    if isinstance(dims, (_int, str)):
        dims = (dims,)
    return _C._flip(input, [_dim(input, d) for d in dims])


def _flip_method(self, *dims, **kwargs):
    """Tensor.flip(*dims) or Tensor.flip(dims): copy reversed along dims."""
    if "dims" in kwargs:
        return flip(self, kwargs.pop("dims"), **kwargs)
    if not dims:
        raise TypeError("flip() missing 1 required positional arguments: \"dims\"")
    return flip(self, dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims)


def fliplr(input):
    """Reverses dim 1 (input must be >= 2-D)."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


def flipud(input):
    """Reverses dim 0 (input must be >= 1-D)."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


def roll(input, shifts, dims=None):
    """Rolls elements along dims (flattened when dims is None), wrapping around."""
    if isinstance(shifts, _int):
        shifts = (shifts,)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        plain = input.rename(None)  # the flattened roll keeps every dim's name
        return roll(plain.flatten(), shifts, 0).view(input.shape)._set_names(input.names, True)
    if isinstance(dims, (_int, str)):
        dims = (dims,)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    r = input
    for s, d in zip(shifts, dims):
        d = _wrap(_dim(input, d), input.dim())
        n = r.shape[d]
        if n == 0:
            continue
        s = operator.index(s) % n  # never `%=`: shifts may be the caller's tensors
        if s:
            r = cat([r.narrow(d, n - s, s), r.narrow(d, 0, n - s)], d)
    return r.clone() if r is input else r


def rot90(input, k=1, dims=(0, 1)):
    """Rotates by 90 degrees k times in the plane of dims (from dims[0] towards dims[1])."""
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.dim()}")
    d0, d1 = _wrap(dims[0], input.dim()), _wrap(dims[1], input.dim())
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k = operator.index(k) % 4  # never `%=`: k may be the caller's tensor
    if k == 1:
        r = flip(input, (d1,)).transpose(d0, d1)
    elif k == 3:
        r = flip(input, (d0,)).transpose(d0, d1)
    else:
        return flip(input, (d0, d1)) if k == 2 else input.clone(memory_format=_C.contiguous_format)
    # the rotated plane's dims keep their names (the transpose would swap them)
    return r._set_names(input.names, True) if input.has_names() else r


def _sizes(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple, _C.Size)):
        return list(args[0])
    return list(args)


def repeat(input, *sizes):
    """Tiles input: the result's dim i has size input.size(i) * sizes[i] (leading dims added)."""
    if not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    return _C._repeat(input, _sizes(sizes))


def tile(input, dims):
    """Like repeat, with dims padded by leading 1s when shorter than input's rank."""
    dims = list(dims)
    if len(dims) < input.dim():
        dims = [1] * (input.dim() - len(dims)) + dims
    return _C._repeat(input, dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeats each element (or slice along dim) repeats times; repeat_interleave(r) for a
    1-D int tensor r gives [0]*r[0] + [1]*r[1] + ..."""
    if repeats is None:
        return _C._repeat_interleave_index(input, -1 if output_size is None else output_size)
    _no_names("repeat_interleave", input)
    if dim is None:
        input = input.flatten()
        dim = 0
    d = _wrap(_dim(input, dim), input.dim())
    if isinstance(repeats, _C.TensorBase) and repeats.numel() == 1 and repeats.dim() <= 1:
        repeats = repeats.item()
    if isinstance(repeats, _int):
        if repeats < 0:
            raise RuntimeError("repeats can not be negative")
        shape = list(input.shape)
        e = input.unsqueeze(d + 1).expand(shape[:d + 1] + [repeats] + shape[d + 1:])
        shape[d] *= repeats
        return e.reshape(shape)
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.shape[0] != input.shape[d]:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                           f"{repeats.shape[0]} and input.size(0) = {input.shape[d]}")
    idx = _C._repeat_interleave_index(repeats, -1 if output_size is None else output_size)
    return index_select(input, d, idx)


def tril_(input, diagonal=0):
    """In place: zeroes the elements above diagonal of the last two dims."""
    _C._tril_(input, operator.index(diagonal), False)
    return input


def triu_(input, diagonal=0):
    """In place: zeroes the elements below diagonal of the last two dims."""
    _C._tril_(input, operator.index(diagonal), True)
    return input


@supports_out
def tril(input, diagonal=0):
    """Lower triangle (on and below diagonal) of the last two dims; the rest zero."""
    if input.dim() < 2:
        raise RuntimeError("tril: input tensor must have at least 2 dimensions")
    return tril_(input.clone(memory_format=_C.contiguous_format), diagonal)


@supports_out
def triu(input, diagonal=0):
    """Upper triangle (on and above diagonal) of the last two dims; the rest zero."""
    if input.dim() < 2:
        raise RuntimeError("triu: input tensor must have at least 2 dimensions")
    return triu_(input.clone(memory_format=_C.contiguous_format), diagonal)


@supports_out
def diag(input, diagonal=0):
    """1-D input: a square matrix with input on the given diagonal; 2-D: that diagonal (copy)."""
    _no_names("diag", input)
    if input.dim() == 1:
        n = input.shape[0] + builtins.abs(diagonal)
        r = _C.zeros((n, n), dtype=input.dtype)
        r.diagonal(diagonal).copy_(input)
        return r
    if input.dim() == 2:
        return input.diagonal(diagonal).clone(memory_format=_C.contiguous_format)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Tensor whose diagonals (offset, over dims dim1 and dim2 of the result) hold input's last dim."""
    _no_names("diag_embed", input)
    nd = input.dim() + 1
    d1, d2 = _wrap(dim1, nd), _wrap(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = input.shape[-1] + builtins.abs(offset) if input.dim() > 0 else 1 + builtins.abs(offset)
    rest = list(input.shape[:-1])
    shape = []
    it = iter(rest)
    for i in range(nd):
        shape.append(n if i in (d1, d2) else next(it))
    r = _C.zeros(shape, dtype=input.dtype)
    r.diagonal(offset, d1, d2).copy_(input)
    return r


def diagflat(input, offset=0):
    """diag of the flattened input."""
    _no_names("diagflat", input)
    return diag(input.reshape(-1), offset)


def trace(input):
    """Sum of the main diagonal of a 2-D tensor (integers accumulate to int64)."""
    return _C._trace(input)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids (expanded views) from 0-D/1-D tensors; indexing 'ij' (default) or 'xy'."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    if not tensors:
        raise RuntimeError("torch.meshgrid: Expected at least one tensor")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t.dim()}")
        _no_names("meshgrid", t)
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(t.reshape(view).expand(shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def broadcast_shapes(*shapes):
    """The shape all given shapes broadcast to (torch.Size)."""
    shapes = [(s,) if isinstance(s, _int) else tuple(s) for s in shapes]
    n = builtins.max((len(s) for s in shapes), default=0)
    res = [1] * n
    for k, s in enumerate(shapes):
        for i in range(-1, -1 - len(s), -1):
            v = s[i]
            if v < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {v}: {list(s)}")
            if v == 1 or v == res[i]:
                continue
            if res[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {v} at {i}! Mismatching argument at "
                                   f"index {k} had {s}; but expected shape should be broadcastable to {res}")
            res[i] = v
    return _C.Size(res)


def broadcast_to(input, size):
    """input.expand(size): a view."""
    return input.expand(tuple(size))


def broadcast_tensors(*tensors):
    """Views of the tensors expanded to their common shape."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


@supports_out
def cross(input, other, dim=None):
    """Cross product of 3-vectors along dim (the first dim of size 3 when None)."""
    if dim is None:
        shape = broadcast_shapes(input.shape, other.shape) if input.dim() == other.dim() else input.shape
        for i, s in enumerate(shape):
            if s == 3:
                dim = i
                break
        else:
            raise RuntimeError("no dimension of size 3 in input")
    return _C._cross(input, other, _dim(input, dim))


def renorm(input, p, dim, maxnorm):
    """Sub-tensors along dim whose p-norm exceeds maxnorm are rescaled to norm maxnorm."""
    return _C._renorm(input, float(p), _dim(input, dim), float(maxnorm))


def renorm_(input, p, dim, maxnorm):
    """In-place renorm."""
    input.copy_(renorm(input, p, dim, maxnorm))
    return input


def _suggested_format(t):
    """channels_last(_3d) when preserve_format would give t's copy channels_last strides, else
    contiguous (torch's suggest_memory_format), read off a meta stand-in of t's geometry."""
    if t.dim() not in (4, 5):
        return _C.contiguous_format
    like = _C._empty_like(_C.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta"), None, None)
    fmt = _C.channels_last if t.dim() == 4 else _C.channels_last_3d
    plain = _C.empty(t.shape, dtype=t.dtype, device="meta").stride()
    return fmt if like.stride() != plain and like.is_contiguous(memory_format=fmt) else _C.contiguous_format


def constant_pad_nd(input, pad, value=0):
    """constant_pad_nd(input, pad, value=0) -> Tensor

    Pads ``input`` with ``value``: ``pad`` holds (before, after) pairs for the last dim, then
    the one before it, and so on (``(1, 2)`` adds one column on the left and two on the
    right); a negative amount crops. The result is a new tensor (channels_last inputs keep
    channels_last). ``tl.nn.functional.pad``'s constant mode.

        >>> tl.constant_pad_nd(tl.ones(1, 2), (1, 0), 5.0)
        tensor([[5., 1., 1.]])
    """
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"constant_pad_nd(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    pad = [pad] if isinstance(pad, _int) else list(pad)
    for i, p in enumerate(pad):
        if not isinstance(p, _int) or isinstance(p, bool):
            raise TypeError(f"constant_pad_nd(): argument 'pad' failed to unpack the object at pos {i + 1} with "
                            f"error \"type must be tuple of ints,but got {type(p).__name__}\"")
    nd = input.dim()
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * nd:
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. "
                           f"Pad length is {len(pad)}while the input has {nd}dimensions.")
    pairs = [(nd - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in builtins.range(len(pad) // 2)]
    cropped = input
    for d, before, after in pairs:  # negative amounts first, as torch (its narrow errors)
        if before < 0:
            cropped = cropped.narrow(d, -before, cropped.shape[d] + before)
        if after < 0:
            cropped = cropped.narrow(d, 0, cropped.shape[d] + after)
    if all(b <= 0 and a <= 0 for _, b, a in pairs):
        return cropped.clone()
    shape = list(input.shape)
    for d, before, after in pairs:
        shape[d] = input.shape[d] + before + after
        if shape[d] < 0:
            raise RuntimeError(f"The input size {input.shape[d]}, plus negative padding {before} and {after} resulted "
                               f"in a negative output size, which is invalid. Check dimension {d} of your input.")
    r = _C.empty(shape, dtype=input.dtype, device=input.device, memory_format=_suggested_format(input)).fill_(value)
    region = r
    for d, before, after in pairs:
        region = region.narrow(d, builtins.max(before, 0), cropped.shape[d])
    region.copy_(cropped)
    return r


def _check_resize_format(memory_format):
    if memory_format is not None and memory_format not in (_C.contiguous_format, _C.preserve_format):
        raise RuntimeError("resize_: only contiguous_format is supported")


def resize_(input, *sizes, memory_format=None):
    """Resizes input in place (contiguous strides; storage grows when needed and allowed).
    Named tensors only allow resizes that keep the shape."""
    _check_resize_format(memory_format)
    _C._resize_(input, _sizes(sizes))
    return input


def resize_as_(input, the_template, *, memory_format=None):
    """resize_(the_template.shape); names follow the out= rule (an unnamed input takes the
    template's names, a named one must already match its shape and names)."""
    _check_resize_format(memory_format)
    _C._resize_as_(input, the_template)
    return input
