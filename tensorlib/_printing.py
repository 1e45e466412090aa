"""Tensor repr/str in PyTorch's exact text format, and the print options that steer it.

The output is meant to be textually comparable with ``repr()`` of a torch tensor (module
name aside: the prefix is ``tensor(`` and dtypes print as ``tensorlib.int32``). The rules
follow torch's ``_tensor_str``: one formatter per tensor (two for complex: real and
imaginary parts) decides the mode (integer-valued floats as ``1.``, fixed ``1.2500``,
scientific ``1.2500e+10``) and a common width from the elements that will be shown, then
the nested-bracket layout wraps rows at ``linewidth``.

Speed: only the elements that will be shown are read. Above ``threshold`` elements the
tensor is summarized and each dimension longer than ``2 * edgeitems`` contributes just
its edges, fetched with slicing views and ``tolist()`` on those small pieces, so a
1000x1000 tensor costs a handful of tiny copies. All numeric analysis is plain Python on
the extracted values (exact doubles for every floating dtype up to float64).
"""
import contextlib
import math

from . import _C

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "tensor_repr"]

_DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80}
_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}
_OPTS = dict(_DEFAULTS, sci_mode=None)

# float8_e8m0fnu has no zero: its smallest code, 2**-127, is what 0 casts to, and torch's
# "nonzero" test compares against that cast (and its isfinite lets the NaN code through).
_E8M0_ZERO = 2.0 ** -127
_U64 = 2 ** 64


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Set the options used when printing tensors (same meaning as torch.set_printoptions).

    precision: digits after the point for floats (default 4); threshold: element count above
    which tensors are summarized (default 1000); edgeitems: items kept at each end of a
    summarized dimension (default 3); linewidth: characters per line (default 80);
    profile: 'default', 'short' or 'full' presets, overridden by the other arguments;
    sci_mode: True/False forces scientific notation on/off, None lets each tensor choose.
    As in torch, sci_mode is reset to None whenever it is not given.
    """
    if profile is not None and profile in _PROFILES:
        _OPTS.update(_PROFILES[profile])
    for key, val in (("precision", precision), ("threshold", threshold),
                     ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if val is not None:
            _OPTS[key] = val
    _OPTS["sci_mode"] = sci_mode


def get_printoptions():
    """The current print options as a dict that can be passed back to set_printoptions()."""
    return {k: _OPTS[k] for k in ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")}


@contextlib.contextmanager
def printoptions(**kwargs):
    """Context manager that sets print options (as set_printoptions) and restores them."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


# ---- value extraction ------------------------------------------------------------------

def _slice_dim(t, dim, sl):
    return t[(slice(None),) * dim + (sl,)]


def _concat_at(a, b, depth):
    if depth == 0:
        return a + b
    return [_concat_at(x, y, depth - 1) for x, y in zip(a, b)]


def _extract(t, summ, edge):
    """Nested lists of t's values, keeping only the edges of each dimension flagged in summ."""
    def rec(x, dim):
        if not any(summ[dim:]):
            return x.tolist()
        if not summ[dim]:
            return rec(x, dim + 1)
        head = rec(_slice_dim(x, dim, slice(0, edge)), dim + 1)
        tail = rec(_slice_dim(x, dim, slice(-edge, None)), dim + 1)
        return _concat_at(head, tail, dim)
    return rec(t, 0)


def _flatten(data, ndim):
    if ndim == 0:
        return [data]
    for _ in range(ndim - 1):
        data = [v for row in data for v in row]
    return data


# ---- element formatting ----------------------------------------------------------------

def _format_all(values, floating, e8m0=False):
    """Format every value once; returns (strings padded to a common width, width).

    The mode and the width come from the nonzero finite values only (torch's rule): floats
    whose nonzero finite values are all integers print as ``3.``; scientific notation when
    max/min > 1000, max > 1e8 or min < 1e-4 (or when sci_mode forces it); the others fixed
    with `precision` digits. Zeros, nan and inf take whatever mode that gives.
    """
    if not floating:
        strs = [str(v) for v in values]
        width = max(1, max(map(len, strs), default=1))
        return [x.rjust(width) for x in strs], width
    if e8m0:
        keep = [v != _E8M0_ZERO for v in values]
    else:
        keep = [v != 0 and math.isfinite(v) for v in values]
    nz = [v for v, k in zip(values, keep) if k]
    int_mode, sci = True, False
    if nz:
        if any(v != v for v in nz):
            lo = hi = math.nan
            int_mode = False
        else:
            lo, hi = min(map(abs, nz)), max(map(abs, nz))
            int_mode = all(v.is_integer() for v in nz)
        forced = _OPTS["sci_mode"]
        sci = (hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4) if forced is None else bool(forced)
    prec = _OPTS["precision"]
    if sci:
        strs = [format(v, f".{prec}e") for v in values]
    elif int_mode:
        strs = [format(v, ".0f") + ("." if math.isfinite(v) else "") for v in values]
    else:
        strs = [format(v, f".{prec}f") for v in values]
    width = max((len(x) for x, k in zip(strs, keep) if k), default=1)
    return [x.rjust(width) for x in strs], width


def _format_complex(values):
    """Strings for complex values: real and imaginary parts formatted independently."""
    re_s, re_w = _format_all([v.real for v in values], True)
    im_s, im_w = _format_all([v.imag for v in values], True)
    out = []
    for r, i in zip(re_s, im_s):
        i = i.lstrip() + "j"
        out.append(r + i if i[0] in "+-" else r + "+" + i)
    return out, re_w + 2 + im_w + 1


# ---- layout ----------------------------------------------------------------------------

def _layout(strs, start, gshape, summ, edge, indent, elem_len):
    """Bracketed text of the block of flat `strs` at `start` with (gathered) shape gshape."""
    n = gshape[0]
    if len(gshape) == 1:
        if summ[0]:
            items = strs[start:start + edge] + [" ..."] + strs[start + edge:start + n]
        else:
            items = strs[start:start + n]
        per_line = max(1, math.floor((_OPTS["linewidth"] - indent) / elem_len))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    step = 1
    for m in gshape[1:]:
        step *= m
    parts = [_layout(strs, start + i * step, gshape[1:], summ[1:], edge, indent + 1, elem_len)
             for i in range(n)]
    if summ[0]:
        parts.insert(edge, "...")
    return "[" + ("," + "\n" * (len(gshape) - 1) + " " * (indent + 1)).join(parts) + "]"


def _readable(t):
    """(tensor whose tolist() gives exact Python values, is_floating, is_e8m0)."""
    dt = t.dtype
    if dt == _C.float4_e2m1fn_x2:
        # like torch: no element conversion exists, show the packed bytes as floats
        return t.view(_C.uint8), True, False
    return t, dt.is_floating_point, dt == _C.float8_e8m0fnu


def _tensor_str(t, indent):
    """Body text of a strided tensor (without prefix and suffixes)."""
    if t.device.type != "cpu":
        t = t.cpu()  # values are read on the host
    numel = t.numel()
    if numel == 0:
        return "[]"
    ndim = t.dim()
    edge = _OPTS["edgeitems"]
    summarize = numel > _OPTS["threshold"]
    shape = tuple(t.shape)
    summ = [summarize and (edge == 0 or n > 2 * edge) for n in shape]
    if ndim > 0 and summarize and edge == 0:
        return "[...]"
    if t.has_names():
        t = t.rename(None)  # the values are all that matter here; views drop names cheaply
    src, floating, e8m0 = _readable(t)
    if any(summ):
        values = _flatten(_extract(src, summ, edge), ndim)
    else:
        values = src.reshape(-1).tolist()
    dt = t.dtype
    if dt.is_complex:
        strs, elem_len = _format_complex(values)
    else:
        if dt == _C.uint64:
            # tolist() may hand back uint64 values above 2**63 as negative Python ints
            values = [v % _U64 for v in values]
        elif dt == _C.float4_e2m1fn_x2:
            values = [float(v) for v in values]
        strs, width = _format_all(values, floating, e8m0)
        elem_len = width + 2
    if ndim == 0:
        return strs[0]
    gshape = [2 * edge if s else n for s, n in zip(summ, shape)]
    return _layout(strs, 0, gshape, summ, edge, indent, elem_len)


# ---- suffixes and the whole repr ---------------------------------------------------------

def _add_suffixes(text, suffixes, indent, force_newline):
    out = [text]
    last = len(text) - text.rfind("\n") + 1
    width = _OPTS["linewidth"]
    for s in suffixes:
        if force_newline or last + len(s) + 2 > width:
            out.append(",\n" + " " * indent + s)
            last = indent + len(s)
            force_newline = False
        else:
            out.append(", " + s)
            last += len(s) + 2
    out.append(")")
    return "".join(out)


def _default_device_type():
    d = _C._get_default_device()
    return getattr(d, "type", str(d).split(":")[0])


def _needs_device_suffix(dev):
    if dev.type != _default_device_type():
        return True
    if dev.type == "cuda":
        import tensorlib
        cuda = getattr(tensorlib, "cuda", None)
        current = cuda.current_device() if hasattr(cuda, "current_device") else 0
        return dev.index is not None and dev.index != current
    return False


def _sub_tensor_str(prefix, t, indent):
    body = _tensor_str(t, indent + len(prefix))
    if t.numel() == 0:
        body += ", size=" + str(tuple(t.shape))
    return prefix + body + ")"


def _sparse_body(t, indent, suffixes, has_default_dtype):
    """Body text for sparse layouts (COO and the compressed family), as torch lays them out."""
    suffixes.append("size=" + str(tuple(t.shape)))
    suffixes.append("nnz=" + str(t._nnz()))
    if not has_default_dtype:
        suffixes.append("dtype=" + str(t.dtype))
    lay = t.layout
    if lay == _C.sparse_coo:
        pieces = [("indices=tensor(", t._indices()), ("values=tensor(", t._values())]
    else:
        if lay in (_C.sparse_csr, _C.sparse_bsr):
            pieces = [("crow_indices=tensor(", t.crow_indices()), ("col_indices=tensor(", t.col_indices())]
        else:
            pieces = [("ccol_indices=tensor(", t.ccol_indices()), ("row_indices=tensor(", t.row_indices())]
        pieces.append(("values=tensor(", t.values()))
    return (",\n" + " " * indent).join(_sub_tensor_str(p, x, indent) for p, x in pieces)


def tensor_repr(t):
    """torch-format repr of tensorlib tensor t (what Tensor.__repr__ and str() return)."""
    from ._tensor import Tensor
    prefix = "tensor(" if type(t) in (Tensor, _C.TensorBase) else type(t).__name__ + "("
    indent = len(prefix)
    suffixes = []
    dev = t.device
    if _needs_device_suffix(dev):
        suffixes.append("device='" + str(dev) + "'")
    dt = t.dtype
    default = _C.get_default_dtype()
    default_complex = _C.complex128 if default == _C.float64 else _C.complex64
    has_default_dtype = dt in (default, default_complex, _C.int64, _C.bool)
    layout = t.layout
    is_sparse = layout != _C.strided
    if is_sparse:
        body = _sparse_body(t, indent, suffixes, has_default_dtype)
    elif getattr(t, "is_meta", False):
        suffixes.append("size=" + str(tuple(t.shape)))
        if dt != default:
            suffixes.append("dtype=" + str(dt))
        body = "..."
    elif t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if dt != default:
            suffixes.append("dtype=" + str(dt))
        body = "[]"
    else:
        if not _OPTS["edgeitems"]:
            suffixes.append("size=" + str(tuple(t.shape)))
        if not has_default_dtype:
            suffixes.append("dtype=" + str(dt))
        body = _tensor_str(t, indent)
    if is_sparse:
        suffixes.append("layout=" + str(layout))
    if getattr(t, "requires_grad", False):
        suffixes.append("requires_grad=True")
    if t.has_names():
        suffixes.append("names=" + str(tuple(t.names)))
    return _add_suffixes(prefix + body, suffixes, indent,
                         force_newline=is_sparse and layout == _C.sparse_coo)
