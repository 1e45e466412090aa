"""Named-tensor helpers (seed 003): rename, refine_names, align_to and the named forms
of flatten/unflatten. Name storage lives in C (interned ids); these functions resolve
the Python-level argument forms ('...', keyword renames) and call `_set_names`."""
from . import _C

__all__ = ["rename", "refine_names", "align_to", "flatten_named", "unflatten_named"]


def _expand_ellipsis(names, tensor_names, fname):
    """Replaces one '...' in `names` with the tensor names it stands for."""
    names = list(names)
    if names.count("...") > 1:
        raise RuntimeError(f"{fname}: More than one Ellipsis ('...') found in names ({names}). This function "
                           "supports up to one Ellipsis.")
    if "..." not in names:
        return names
    i = names.index("...")
    n_rest = len(names) - 1
    if n_rest > len(tensor_names):
        raise RuntimeError(f"{fname}: Tried to {fname.split('.')[-1]} a tensor with names {tuple(tensor_names)} "
                           f"to {tuple(names)} but there are too many names")
    covered = list(tensor_names[i:len(tensor_names) - (n_rest - i)])
    return names[:i] + covered + names[i + 1:]


def rename(t, names, rename_map, inplace):
    if names and rename_map:
        raise RuntimeError("rename: Expected either names or a rename map, not both")
    if rename_map:
        cur = list(t.names)
        for old, new in rename_map.items():
            if old not in cur:
                raise RuntimeError(f"Tried to rename dim '{old}' to dim {new} in Tensor[{', '.join(map(str, cur))}] "
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
    if len(new) != t.dim():
        raise RuntimeError(f"refine_names: Number of names ({len(new)}) and number of dimensions in tensor "
                           f"({t.dim()}) do not match. Attempted to refine names {tuple(names)}")
    for old, nw in zip(t.names, new):
        if old is not None and old != nw:
            raise RuntimeError(f"refine_names: cannot coerce Tensor{t.names} to Tensor{tuple(new)} because "
                               f"{old} is different from {nw} at index {list(t.names).index(old)}")
    out = [o if o is not None else n for o, n in zip(t.names, new)]
    return t._set_names(out, False)


def align_to(t, names):
    cur = list(t.names)
    if any(n is None for n in cur):
        raise RuntimeError(f"align_to: All input dims must be named. Found unnamed dim at index "
                           f"{cur.index(None)} of Tensor{tuple(cur)}.")
    names = list(names)
    if "..." in names:
        if names.count("...") > 1:
            raise RuntimeError("align_to: More than one Ellipsis ('...') found in names")
        i = names.index("...")
        rest = [n for n in cur if n not in names]
        names = names[:i] + rest + names[i + 1:]
    for n in cur:
        if n not in names:
            raise RuntimeError(f"align_to: Cannot find dim '{n}' from Tensor{tuple(cur)} in desired names "
                               f"{tuple(names)}. All input dims must be present in names.")
    # permute existing dims into their order in `names`, then insert size-1 dims
    present = [n for n in names if n in cur]
    perm = [cur.index(n) for n in present]
    plain = t.rename(None).permute(perm)
    shape, strides = [], []
    src_shape, src_strides = plain.shape, plain.stride()
    j = 0
    for n in names:
        if n in cur:
            shape.append(src_shape[j])
            strides.append(src_strides[j])
            j += 1
        else:
            shape.append(1)
            strides.append(1)
    out = plain.as_strided(shape, strides, plain.storage_offset())
    return out._set_names(names, False)


def flatten_named(t, dims, out_dim):
    cur = list(t.names)
    idx = [t._dim_index(d) for d in dims]
    if idx != list(range(idx[0], idx[0] + len(idx))):
        raise RuntimeError(f"flatten(dims, out_dim): dims {tuple(dims)} must be consecutive in Tensor{tuple(cur)}")
    s, e = idx[0], idx[-1]
    names = cur[:s] + [out_dim] + cur[e + 1:]
    return t.rename(None).flatten(s, e)._set_names(names, False)


def unflatten_named(t, dim, namedshape):
    d = t._dim_index(dim)
    names = [n for n, _ in namedshape]
    sizes = [s for _, s in namedshape]
    cur = list(t.names)
    out = t.rename(None).unflatten(d, sizes)
    return out._set_names(cur[:d] + names + cur[d + 1:], False)
