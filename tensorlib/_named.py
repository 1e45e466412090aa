"""Named-tensor helpers (seed 003): rename, refine_names, align_to and the named forms
of flatten/unflatten. Name storage lives in C (interned ids); these functions resolve
the Python-level argument forms ('...', keyword renames) and call `_set_names`."""
import collections

from . import _C
from ._util import unflatten_sizes

__all__ = ["rename", "refine_names", "align_to", "flatten_named", "unflatten_named"]


def _is_ellipsis(n):
    """torch takes both the Ellipsis literal and the string '...'."""
    return n is Ellipsis or (isinstance(n, str) and n == "...")


def _fmt(names):
    """A name list as torch prints it: ['N', None, 'H']."""
    return "[" + ", ".join("None" if n is None else repr(n) for n in names) + "]"


def _expand_ellipsis(names, tensor_names, fname):
    """Replaces one '...' (or Ellipsis) in `names` with the tensor names it stands for."""
    names = list(names)
    where = [i for i, n in enumerate(names) if _is_ellipsis(n)]
    if len(where) > 1:
        raise RuntimeError(f"{fname}: More than one Ellipsis ('...') found in names ({tuple(names)}). This function "
                           "supports up to one Ellipsis.")
    if not where:
        return names
    i = where[0]
    # as torch: the dims between the names before and after '...' (none when there are too
    # many names; the caller's length check then reports the mismatch)
    covered = list(tensor_names[i:max(i, len(tensor_names) - (len(names) - 1 - i))])
    return names[:i] + covered + names[i + 1:]


def rename(t, names, rename_map, inplace):
    if names and rename_map:
        raise RuntimeError("rename: This function takes either positional args or keyword args, but not both. Use "
                           "tensor.rename(*names) to name dims and tensor.rename(**rename_map) to rename dims.")
    if rename_map:
        cur = list(t.names)
        for old, new in rename_map.items():
            if old not in cur:
                raise RuntimeError(f"rename: Tried to rename dim '{old}' to dim {new} in Tensor[{tuple(t.names)}] "
                                   f"but dim '{old}' does not exist")
            cur[cur.index(old)] = new
        return t._set_names(cur, inplace)
    if len(names) == 1 and names[0] is None:
        return t._set_names(None, inplace)
    if len(names) == 0:
        return t._set_names(None, inplace)
    return t._set_names(_expand_ellipsis(names, t.names, "rename"), inplace)


def refine_names(t, names):
    new = _expand_ellipsis(names, t.names, "refine_names")
    cur = t.names
    if len(new) != len(cur):
        raise RuntimeError(f"refine_names: cannot coerce Tensor{_fmt(cur)} to Tensor{_fmt(new)} because they have a "
                           f"different number of dims ({len(cur)} and {len(new)} respectively).")
    for i, (old, nw) in enumerate(zip(cur, new)):
        if old is None or old == nw:
            continue
        why = "is more specific than" if nw is None else "is different from"
        raise RuntimeError(f"refine_names: cannot coerce Tensor{_fmt(cur)} to Tensor{_fmt(new)} because "
                           f"{old!r} {why} {'None' if nw is None else repr(nw)} at index {i}")
    return t._set_names(new, False)


def align_to(t, names):
    """torch's align_to: without '...' every dim of t must be named and appear in `names`; with
    '...' the dims `names` does not mention (unnamed ones too) take its place in their order.
    Names t lacks become size-1 dims."""
    cur = list(t.names)
    names = list(names)
    where = [i for i, n in enumerate(names) if _is_ellipsis(n)]
    if len(where) > 1:
        raise RuntimeError(f"align_to: More than one Ellipsis ('...') found in names ({tuple(names)}). This function "
                           "supports up to one Ellipsis.")
    order = [n for n in names if not _is_ellipsis(n)]
    if where and None in order:
        raise RuntimeError(f"align_to: the desired order of dimensions cannot contain a None name, got {_fmt(order)}")
    if not where:
        for i, n in enumerate(cur):
            if n is None:
                raise RuntimeError(f"align_to: All input dims must be named. Found unnamed dim at index {i} of "
                                   f"Tensor{_fmt(cur)}")
            if n not in order:
                raise RuntimeError(f"align_to: Cannot find dim '{n}' from Tensor{_fmt(cur)} in desired alignment "
                                   f"{_fmt(order)}.")
        rest = []
    else:
        rest = [i for i, n in enumerate(cur) if n is None or n not in order]
    # output dims: each entry is a source dim index or None (a new size-1 dim named by `order`)
    src = [cur.index(n) if n in cur else None for n in order]
    if where:
        src[where[0]:where[0]] = rest
        order[where[0]:where[0]] = [cur[i] for i in rest]
    if len(set(n for n in order if n is not None)) != len([n for n in order if n is not None]):
        raise RuntimeError(f"Cannot construct a tensor with duplicate names. Got names: {_fmt(order)}.")
    plain = t.rename(None)
    sizes, strides = plain.shape, plain.stride()
    shape = [1 if i is None else sizes[i] for i in src]
    stride = [0 if i is None else strides[i] for i in src]
    out = plain.as_strided(shape, stride, plain.storage_offset())
    return out._set_names(order, False)


def flatten_named(t, dims, out_dim):
    cur = list(t.names)
    idx = [t._dim_index(d) for d in dims]
    if idx != list(range(idx[0], idx[0] + len(idx))):
        raise RuntimeError(f"flatten(dims, out_dim): dims {tuple(dims)} must be consecutive in Tensor{tuple(cur)}")
    s, e = idx[0], idx[-1]
    names = cur[:s] + [out_dim] + cur[e + 1:]
    return t.rename(None).flatten(s, e)._set_names(names, False)


def unflatten_named(t, dim, namedshape):
    """unflatten(dim, namedshape): namedshape is an OrderedDict or a sequence of (name, size) pairs;
    the new dims take those names, the others keep theirs."""
    pairs = list(namedshape.items()) if isinstance(namedshape, collections.OrderedDict) else list(namedshape)
    names = [n for n, _ in pairs]
    d = t._dim_index(dim)
    sizes = unflatten_sizes(t.size(d), [s for _, s in pairs])
    cur = list(t.names)
    if sizes is None:
        label = f"'{cur[d]}': " if cur[d] is not None else ""
        raise RuntimeError(f"unflatten: Provided sizes {[s for _, s in pairs]} don't multiply up to the size of dim "
                           f"{d} ({label}{t.size(d)}) in Tensor{_fmt(cur)}")
    out = t.rename(None).unflatten(d, sizes)
    return out._set_names(cur[:d] + names + cur[d + 1:], False)
