"""torch's view-copy functions (``t_copy``, ``select_copy``, ... : the view op's result as a new
contiguous tensor, with ``out=``) and the scatter inverses of the views (``select_scatter``,
``slice_scatter``, ``diagonal_scatter``, ``as_strided_scatter``: a copy of ``input`` with the
view's region replaced by ``src``).

Each is the view op of tensorlib followed by one copy, so the view's checks and messages,
named dims and devices come with it.
"""
from . import _C
from . import _construct
from ._out import write_out
from ._util import install_names

_CF = _C.contiguous_format


def _fresh(view, out, op):
    """The view as a new contiguous tensor, or written into out= (torch's out= rules)."""
    return view.clone(memory_format=_CF) if out is None else write_out(view, out, op)


def _fresh_list(views, out, op):
    if out is None:
        return tuple(v.clone(memory_format=_CF) for v in views)
    if len(out) != len(views):  # (torch's words, with its kernel's name)
        kernel = {"split_copy": "split_copy_Tensor_out()", "split_with_sizes_copy": "split_with_sizes_copy_out",
                  "unbind_copy": "unbind_copy_int_out"}[op]
        raise RuntimeError(f"{kernel} expected an out= argument of size {len(views)}, got size {len(out)}")
    for o, v in zip(out, views):  # torch copies into them as they are (no resize)
        o.copy_(v)
    return None


def _slice_view(t, dim, start, end, step):
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = t._dim_index(dim) if t.dim() else dim
    return t[(slice(None),) * d + (slice(start, end, step),)]


def alias_copy(input, *, out=None):
    """A new tensor with ``input``'s values (torch.alias, copied)."""
    return _fresh(input, out, "alias_copy")


def detach_copy(input, *, out=None):
    """``input.detach()`` as a new tensor."""
    return _fresh(input.detach(), out, "detach_copy")


def t_copy(input, *, out=None):
    """``input.t()`` as a new contiguous tensor."""
    return _fresh(input.t(), out, "t_copy")


def transpose_copy(input, dim0, dim1, *, out=None):
    """``input.transpose(dim0, dim1)`` as a new contiguous tensor."""
    return _fresh(input.transpose(dim0, dim1), out, "transpose_copy")


def permute_copy(input, dims, *, out=None):
    """``input.permute(dims)`` as a new contiguous tensor."""
    return _fresh(input.permute(dims), out, "permute_copy")


def diagonal_copy(input, offset=0, dim1=0, dim2=1, *, out=None):
    """``input.diagonal(offset, dim1, dim2)`` as a new contiguous tensor."""
    return _fresh(input.diagonal(offset, dim1, dim2), out, "diagonal_copy")


def expand_copy(input, size, *, implicit=False, out=None):
    """``input.expand(size)`` as a new contiguous tensor (every element stored)."""
    return _fresh(input.expand(*size), out, "expand_copy")


def select_copy(input, dim, index, *, out=None):
    """``input.select(dim, index)`` as a new contiguous tensor."""
    return _fresh(input.select(dim, index), out, "select_copy")


def slice_copy(input, dim=0, start=None, end=None, step=1, *, out=None):
    """``input[..., start:end:step]`` along ``dim`` as a new contiguous tensor."""
    return _fresh(_slice_view(input, dim, start, end, step), out, "slice_copy")


def squeeze_copy(input, dim=None, *, out=None):
    """``input.squeeze(dim)`` as a new contiguous tensor."""
    return _fresh(input.squeeze() if dim is None else input.squeeze(dim), out, "squeeze_copy")


def unsqueeze_copy(input, dim, *, out=None):
    """``input.unsqueeze(dim)`` as a new contiguous tensor."""
    return _fresh(input.unsqueeze(dim), out, "unsqueeze_copy")


def view_copy(input, size, *, out=None):
    """``input.view(size)`` (a shape or a dtype) as a new contiguous tensor."""
    return _fresh(input.view(size) if isinstance(size, _C.dtype) else input.view(*size), out, "view_copy")


def unfold_copy(input, dimension, size, step, *, out=None):
    """``input.unfold(dimension, size, step)`` as a new contiguous tensor."""
    return _fresh(input.unfold(dimension, size, step), out, "unfold_copy")


def narrow_copy(input, dim, start, length, *, out=None):
    """``input.narrow(dim, start, length)`` as a new contiguous tensor."""
    if isinstance(input, _C.TensorBase) and input.layout != _C.strided:
        return write_out(_sparse_narrow_copy(input, dim, start, length), out, "narrow_copy") if out is not None \
            else _sparse_narrow_copy(input, dim, start, length)
    return _fresh(input.narrow(dim, start, length), out, "narrow_copy")


def as_strided_copy(input, size, stride, storage_offset=None, *, out=None):
    """``input.as_strided(size, stride, storage_offset)`` as a new contiguous tensor."""
    return _fresh(input.as_strided(size, stride, storage_offset), out, "as_strided_copy")


def view_as_real_copy(input, *, out=None):
    """``view_as_real(input)`` as a new contiguous tensor."""
    return _fresh(_construct.view_as_real(input), out, "view_as_real_copy")


def view_as_complex_copy(input, *, out=None):
    """``view_as_complex(input)`` as a new contiguous tensor."""
    return _fresh(_construct.view_as_complex(input), out, "view_as_complex_copy")


def split_copy(input, split_size, dim=0, *, out=None):
    """``input.split(split_size, dim)``, each piece a new contiguous tensor (or into the out= tensors)."""
    return _fresh_list(input.split(split_size, dim), out, "split_copy")


def split_with_sizes_copy(input, split_sizes, dim=0, *, out=None):
    """``input.split_with_sizes(split_sizes, dim)``, each piece a new contiguous tensor."""
    return _fresh_list(input.split_with_sizes(split_sizes, dim), out, "split_with_sizes_copy")


def unbind_copy(input, dim=0, *, out=None):
    """``input.unbind(dim)``, each slice a new contiguous tensor."""
    return _fresh_list(input.unbind(dim), out, "unbind_copy")


def _sparse_part(name):
    def f(input, *, out=None):
        return _fresh(getattr(input, name)(), out, name + "_copy")
    f.__name__ = name + "_copy"
    f.__qualname__ = f.__name__
    f.__doc__ = f"``input.{name}()`` of a sparse tensor as a new tensor."
    return f


values_copy = _sparse_part("values")
indices_copy = _sparse_part("indices")
crow_indices_copy = _sparse_part("crow_indices")
col_indices_copy = _sparse_part("col_indices")
ccol_indices_copy = _sparse_part("ccol_indices")
row_indices_copy = _sparse_part("row_indices")


def _scatter(input, src, view_of):
    r = input.clone()
    v = view_of(r)
    if tuple(v.shape) != tuple(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(v.shape)}")
    v.copy_(src)
    return r


def select_scatter(input, src, dim, index):
    """A copy of ``input`` whose ``select(dim, index)`` slice is ``src``."""
    return _scatter(input, src, lambda r: r.select(dim, index))


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of ``input`` whose ``[start:end:step]`` slice along ``dim`` is ``src``."""
    return _scatter(input, src, lambda r: _slice_view(r, dim, start, end, step))


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of ``input`` whose ``diagonal(offset, dim1, dim2)`` is ``src``."""
    return _scatter(input, src, lambda r: r.diagonal(offset, dim1, dim2))


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of ``input`` whose ``as_strided(size, stride, storage_offset)`` view is ``src``
    (the view taken of the copy, which has ``input``'s strides)."""
    return _scatter(input, src, lambda r: r.as_strided(size, stride, storage_offset))


FUNCTIONS = ("alias_copy", "detach_copy", "t_copy", "transpose_copy", "permute_copy", "diagonal_copy", "expand_copy",
             "select_copy", "slice_copy", "squeeze_copy", "unsqueeze_copy", "view_copy", "unfold_copy", "narrow_copy",
             "as_strided_copy", "view_as_real_copy", "view_as_complex_copy", "split_copy", "split_with_sizes_copy",
             "unbind_copy", "values_copy", "indices_copy", "crow_indices_copy", "col_indices_copy", "ccol_indices_copy",
             "row_indices_copy", "select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter")
METHODS = ("narrow_copy", "select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter")


_sparse_narrow_copy = None  # the sparse layouts' Tensor.narrow_copy, which narrow_copy hands them to


def install(namespace, tensor_class):
    """Puts the functions into tensorlib's namespace and the methods on Tensor."""
    global _sparse_narrow_copy
    _sparse_narrow_copy = tensor_class.narrow_copy
    install_names(namespace, tensor_class, globals(), FUNCTIONS, METHODS)
