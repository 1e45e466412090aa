"""torch's numerical and statistical helpers composed of tensorlib's own ops: diff, the
trapezoid rule, bincount, histogram, cov/corrcoef, quantile/nanquantile, dist and
cosine_similarity. Each follows the composition torch's ATen kernel spells out, so that results
(dtypes, rounding order, special values) and errors are torch's; the ops they are made of
carry the device (a CUDA tensor stays on its device where those ops run there)."""
import builtins
import math
import operator
import warnings

from . import _C
from . import _reduce
from ._util import dim_index, no_names, require_tensor, wrap_dim

__all__ = ["diff", "trapezoid", "trapz", "cumulative_trapezoid", "bincount", "histogram", "cov", "corrcoef",
           "quantile", "nanquantile", "dist", "cosine_similarity"]


def _tl():
    import tensorlib
    return tensorlib


def _g(v):
    """A double as C++'s ostream prints it (torch's messages): 6 significant digits."""
    return "%g" % v


def _int(op, arg, pos, v):
    """v as an int, else torch's argument TypeError (pos None: a keyword-only argument)."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        where = f" (position {pos})" if pos else ""
        raise TypeError(f"{op}(): argument '{arg}'{where} must be int, not {type(v).__name__}")
    return operator.index(v)


# ---- diff ----

def _diff_check_other(x, other, dim):
    if other is None:
        return
    require_tensor("diff", other, "prepend" if other is not None else "append", 4)
    d = wrap_dim(dim, x.dim())
    if other.dim() != x.dim():
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i in range(other.dim()):
        if i != d and other.shape[i] != x.shape[i]:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of input except "
                               f"along the differencing dimension; input.size({i}) = {x.shape[i]}, but got "
                               f"tensor.size({i}) = {other.shape[i]}")


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """torch.diff: the n-th forward difference along dim (logical_xor for bool)."""
    require_tensor("diff", input)
    tl = _tl()
    if input.dim() < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    n = _int("diff", "n", 2, n)
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    if isinstance(dim, str):
        dim = dim_index(input, dim)
    for name, o in (("prepend", prepend), ("append", append)):
        if o is not None and not isinstance(o, _C.TensorBase):
            raise TypeError(f"diff(): argument '{name}' must be Tensor, not {type(o).__name__}")
        _diff_check_other(input, o, dim)
    if n == 0:
        return input.clone(memory_format=tl.contiguous_format)
    x = input
    if prepend is not None or append is not None:
        x = tl.cat([t for t in (prepend, input, append) if t is not None], dim)
    d = wrap_dim(dim, x.dim())
    size = x.shape[d]
    out_len = size - 1
    for _ in range(min(n, size)):
        hi, lo = x.narrow(d, 1, out_len), x.narrow(d, 0, out_len)
        x = tl.logical_xor(hi, lo) if x.dtype == tl.bool else hi - lo
        out_len -= 1
    return x


# ---- the trapezoid rule ----

def _dx_scalar(op, dx):
    if isinstance(dx, complex) or (isinstance(dx, bool) and op != "trapz"):
        raise RuntimeError(f"{op}: Currently, we only support dx as a real number.")
    if isinstance(dx, _C.TensorBase):
        if dx.dtype.is_complex or dx.dtype == _C.bool:
            raise RuntimeError(f"{op}: Currently, we only support dx as a real number.")
        dx = dx.item()
    return float(dx)


def _x_viewed(op, y, x, d):
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError(f"{op}: There must be one `x` value for each sample point")
        sizes = [1] * y.dim()
        sizes[d] = x.shape[0]
        return x.view(sizes) if not x.has_names() else x.rename(None).view(sizes)
    if x.dim() < y.dim():
        return x.view([1] * (y.dim() - x.dim()) + list(x.shape))
    return x


def _left(t, d):
    """t.slice(d, 0, -1) as torch slices: empty when t has no samples along d."""
    return t.narrow(d, 0, max(t.shape[d] - 1, 0))


def _right(t, d):
    """t.slice(d, 1)."""
    return t.narrow(d, min(1, t.shape[d]), max(t.shape[d] - 1, 0))


def _trapezoid(name, y, x, dx, dim):
    op = "trapezoid" if name == "trapz" else name  # trapz's dx is a float (True is 1.0), trapezoid's a Number
    require_tensor(op, y, "y")
    tl = _tl()
    cumulative = op == "cumulative_trapezoid"
    if y.dim() == 0 and not isinstance(dim, str):
        d = wrap_dim(operator.index(dim), 0)
        if cumulative:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        raise IndexError(f"Dimension specified as {d if x is not None else dim} but tensor has no dimensions")
    d = dim_index(y, dim)
    if x is not None:
        if dx is not None:
            raise TypeError(f"{op}(): received both x and dx; give one of them")
        if not isinstance(x, _C.TensorBase):
            raise TypeError(f"{op}(): argument 'x' (position 2) must be Tensor, not {type(x).__name__}")
        if not cumulative and y.shape[d] == 0:
            return _zeros_except(y, d)
        if y.dtype == tl.bool or x.dtype == tl.bool:
            raise RuntimeError(f"{op}: received a bool input for `x` or `y`, but bool is not supported")
        xv = _x_viewed(op, y, x, d)
        s = (_left(y, d) + _right(y, d)) * (_right(xv, d) - _left(xv, d))
        return (s.cumsum(d) if cumulative else s.sum(d)) / 2.
    dx = 1.0 if dx is None else dx
    if not cumulative and y.shape[d] == 0:
        return _zeros_except(y, d)
    if y.dtype == tl.bool:
        raise RuntimeError(f"{op}: received a bool input for `y`, but bool is not supported")
    dx = _dx_scalar(name, dx)
    if cumulative:
        return (dx / 2. * (_left(y, d) + _right(y, d))).cumsum(d)
    return (y.sum(d) - (y.select(d, 0) + y.select(d, -1)) * 0.5) * dx


def _zeros_except(y, d):
    sizes = list(y.shape)
    del sizes[d]
    return _tl().zeros(sizes, dtype=y.dtype, device=y.device)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """torch.trapezoid: the trapezoid rule along dim, with sample points x or spacing dx."""
    return _trapezoid("trapezoid", y, x, dx, dim)


def trapz(y, x=None, *, dx=None, dim=-1):
    """torch.trapz: alias of trapezoid."""
    return _trapezoid("trapz", y, x, dx, dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """torch.cumulative_trapezoid: the running trapezoid rule along dim."""
    return _trapezoid("cumulative_trapezoid", y, x, dx, dim)


# ---- bincount and histogram ----

_reduce.add_return_type("histogram", "hist bin_edges")
_reduce.add_return_type("histogramdd", "hist bin_edges")
_INTEGRAL = ("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64")


def bincount(input, weights=None, minlength=0):
    """torch.bincount: the count (or weight sum) of each non-negative integer value."""
    require_tensor("bincount", input)
    tl = _tl()
    no_names("bincount", input, *([weights] if weights is not None else []))
    minlength = _int("bincount", "minlength", None, minlength)
    if str(input.dtype).split(".")[-1] not in _INTEGRAL:
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{input.dtype._cname}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if input.dim() == 1 and input.numel() == 0:
        return tl.zeros(minlength, dtype=tl.int64, device=input.device)
    if input.dim() != 1 or (input.numel() and bool((input < 0).any())):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != input.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    nbins = max(int(input.max().item()) + 1, minlength)
    idx = input.to(tl.int64)
    if weights is None:
        return tl.zeros(nbins, dtype=tl.int64, device=input.device).index_add_(
            0, idx, tl.ones(input.shape[0], dtype=tl.int64, device=input.device))
    wdt = tl.float32 if weights.dtype == tl.float32 else tl.float64
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns through its own copy for complex weights
        w = weights.real.to(wdt) if weights.dtype.is_complex else weights.to(wdt)
    return _accumulate(tl.zeros(nbins, dtype=wdt, device=input.device), idx, w)


def _accumulate(out, idx, w):
    """out[idx[i]] += w[i] in i's order (torch's sequential loops)."""
    return out.index_add_(0, idx, w)


_HIST_DTYPES = ("float32", "float64")


def _dim_edges(col, bins, lo_hi, d, dtype, device):
    """The edges of dimension d (torch's histogramdd checks and words): the given edges tensor,
    or bins + 1 points over [lo, hi] (the range given, else col's min and max; a point range
    widened by 1/2 each way; [0, 1] for no samples)."""
    tl = _tl()
    if isinstance(bins, _C.TensorBase):
        if bins.dim() != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but got "
                               f"{bins.dim()} dimensions in the bins tensor for dimension {d}")
        if bins.dtype != dtype:
            raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {dtype._typemeta} and bins for dimension {d} with dtype "
                               f"{bins.dtype._typemeta}")
        if bins.shape[0] - 1 <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins.shape[0] - 1} for dimension {d}")
        return bins.clone()
    nb = operator.index(bins)
    if nb <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {nb} for dimension {d}")
    if lo_hi is not None:
        lo, hi = lo_hi
    elif col.numel() == 0:
        lo, hi = 0.0, 1.0
    else:
        mn, mx = tl.aminmax(col)
        lo, hi = float(mn.item()), float(mx.item())
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_g(lo)} max {_g(hi)} "
                           f"for dimension {d}")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{_g(lo)}, {_g(hi)}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return tl.linspace(lo, hi, nb + 1, dtype=dtype, device=device)


def _histogramdd(x, bins, range, weight, density):
    """The histogram of the N samples of D coordinates in x (N, D): (hist of shape (bins_0, ...,
    bins_{D-1}), [edges of each dim]). bins: D ints or D edge tensors; range: None or 2 D
    numbers; weight: None or N values. A sample lands in a dim's bin k when edge k <= v <
    edge k+1 (the last bin includes its right edge); samples outside any dim's edges are dropped."""
    tl = _tl()
    n, D = x.shape
    if range is not None:
        if len(range) != 2 * D:
            raise RuntimeError(f"torch.histogramdd: for a {D}-dimensional histogram range should have {2 * D} "
                               f"elements, but got {len(range)}")
        pairs = [(float(range[2 * d]), float(range[2 * d + 1])) for d in builtins.range(D)]
    else:
        pairs = [None] * D
    edges = [_dim_edges(x[:, d], bins[d], pairs[d], d, x.dtype, x.device) for d in builtins.range(D)]
    sizes = [e.shape[0] - 1 for e in edges]
    hist = tl.zeros(math.prod(sizes), dtype=x.dtype, device=x.device)
    if n:
        keep = tl.ones(n, dtype=tl.bool, device=x.device)
        for d, e in enumerate(edges):
            keep &= (x[:, d] >= e[0]) & (x[:, d] <= e[-1])
        vals = x[keep]
        if vals.shape[0]:
            flat = tl.zeros(vals.shape[0], dtype=tl.int64, device=x.device)
            for d, e in enumerate(edges):
                col = vals[:, d].contiguous()
                if e.device.type == "cpu":
                    pos = tl.searchsorted(e, col, right=True) - 1
                else:  # no device searchsorted: the bins are found on the host
                    pos = (tl.searchsorted(e.cpu(), col.cpu(), right=True) - 1).to(e.device)
                flat = flat * sizes[d] + pos.clamp(0, sizes[d] - 1)
            w = weight[keep] if weight is not None else tl.ones(vals.shape[0], dtype=x.dtype, device=x.device)
            hist = _accumulate(hist, flat, w)
    hist = hist.reshape(sizes)
    if density:
        volume = None
        for d, e in enumerate(edges):
            width = (e[1:] - e[:-1]).reshape([-1 if k == d else 1 for k in builtins.range(D)])
            volume = width if volume is None else volume * width
        hist = hist / (hist.sum() * volume)
    return hist, edges


def _hist_checks(op, input, weight, inner):
    """torch's histogramdd checks of the input and weight; inner: the dims of one sample (0
    for histogram, 1 for histogramdd)."""
    require_tensor(op, input)
    no_names(op, input)
    if str(input.dtype).split(".")[-1] not in _HIST_DTYPES:
        raise NotImplementedError(f'"histogramdd" not implemented for \'{input.dtype._cname}\'')
    if inner and input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if weight is not None:
        require_tensor(op, weight, "weight")
        lead = list(input.shape[:-1]) if inner else list(input.shape)
        if list(weight.shape) != lead:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               f"input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(input.shape) + ([] if inner else [1])} and weight with shape {list(weight.shape)}")
        if weight.dtype != input.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               f"have the same dtype, but got input({input.dtype._typemeta}), and "
                               f"weight({weight.dtype._typemeta})")


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """torch.histogram: (hist, bin_edges) of input's values; bins a count or the edges."""
    _hist_checks("histogram", input, weight, 0)
    if isinstance(bins, _C.TensorBase) and range is not None:
        raise TypeError("histogram(): range= is only taken with an int bins")
    hist, (edges,) = _histogramdd(input.reshape(-1, 1), [bins], range, None if weight is None else weight.reshape(-1),
                                  density)
    rt = _reduce.return_types.histogram
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("histogram(): argument 'out' must be tuple of Tensors")
        from ._out import write_out
        return rt(write_out(hist, out[0], "histogram"), write_out(edges, out[1], "histogram"))
    return rt(hist, edges)


def histogramdd(input, bins, *, range=None, weight=None, density=False):
    """histogramdd(input, bins, *, range=None, weight=None, density=False) -> (hist, bin_edges)

    The D-dimensional histogram of input's rows (the last dim holds a sample's D coordinates;
    the others are flattened): bins an int for every dim, D ints, or D edge tensors; range
    2 D numbers (each dim's min and max); weight one value per sample; density divides by the
    total and the bin volumes. torch's checks in its order (the range, the bin counts, the
    weight, then the dtype)."""
    require_tensor("histogramdd", input)
    no_names("histogramdd", input)
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    D = input.shape[-1]
    x = input.reshape(-1, D)
    edge_tensors = isinstance(bins, (list, tuple)) and any(isinstance(b, _C.TensorBase) for b in bins)
    if not edge_tensors:  # the bin counts: the range and each dim's bounds are checked first
        if range is not None and len(range) != 2 * D:
            raise RuntimeError(f"torch.histogramdd: for a {D}-dimensional histogram range should have {2 * D} "
                               f"elements, but got {len(range)}")
        if range is not None:
            for d in builtins.range(D):
                lo, hi = float(range[2 * d]), float(range[2 * d + 1])
                if lo > hi:
                    raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_g(lo)} max "
                                       f"{_g(hi)} for dimension {d}")
    if isinstance(bins, (list, tuple)):
        if len(bins) != D:
            raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
        bins = list(bins)
    else:
        bins = [bins] * D
    for d, b in enumerate(bins):
        if not isinstance(b, _C.TensorBase) and operator.index(b) <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b} for dimension {d}")
    empty_half = x.shape[0] == 0 and input.dtype in (_C.float16, _C.bfloat16)  # (torch never dispatches then)
    if empty_half:
        _hist_checks("histogramdd", input.float(), None if weight is None else weight.float(), 1)
    else:
        _hist_checks("histogramdd", input, weight, 1)
    hist, edges = _histogramdd(x, bins, range, None if weight is None else weight.reshape(-1), density)
    return _reduce.return_types.histogramdd(hist, tuple(edges))


# ---- gradient ----

def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """gradient(input, *, spacing=1, dim=None, edge_order=1) -> tuple of Tensors

    The derivative of input sampled on a grid, one tensor per dim (all dims, or ``dim``):
    second-order central differences inside, first- or second-order one-sided ones at the
    edges. spacing: one number for every dim, a number per dim, or per dim a 1-D tensor of the
    coordinates (non-uniform steps). torch's checks, messages and formulas (the same operations
    in the same order)."""
    require_tensor("gradient", input)
    tl = _tl()
    if input.dtype == tl.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    dims = None if dim is None else [dim] if isinstance(dim, (int, str)) else list(dim)
    if isinstance(spacing, _C.TensorBase) and spacing.dim() == 0 or not isinstance(spacing, (list, tuple)):
        spacing_list, given = None, None  # one number for every dim
    else:
        spacing_list, given = list(spacing), len(spacing)
    if given is not None and dims is None and given != input.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
                           f"'self.dim() = {input.dim()}', since dim argument was not given, but got a list of length "
                           f"{given}")
    if given is not None and dims is not None and given != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments "
                           f"to have the same length, but got a spacing argument of length {given} and a dim argument of "
                           f"length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        seen = set()
        for d in dims:
            w = dim_index(input, d)
            if w in seen:
                raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
            seen.add(w)
        dims = [dim_index(input, d) for d in dims]
    else:
        dims = list(builtins.range(input.dim()))
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    if spacing_list is None:
        h = spacing.item() if isinstance(spacing, _C.TensorBase) else spacing
        spacing_list = [h] * len(dims)

    def sl(d, a, b=None):  # input[a:b] along d (torch's at::slice)
        return input[(slice(None),) * d + (slice(a, b),)]

    out = []
    for d, h in zip(dims, spacing_list):
        if isinstance(h, _C.TensorBase) and h.dim() != 0:
            if h.dim() != 1:
                raise RuntimeError("torch.gradient expected each element of spacing to have one dimension, but got an "
                                   f"element with {h.dim()} dimensions!")
            shape = [1] * input.dim()
            shape[d] = -1
            dx = h.diff(1, 0)
            dx1, dx2 = dx[:-1], dx[1:]
            a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            center = a * sl(d, 0, -2) + b * sl(d, 1, -1) + c * sl(d, 2)
            if edge_order == 1:
                first = (sl(d, 1, 2) - sl(d, 0, 1)) / dx[0]
                last = (sl(d, -1) - sl(d, -2, -1)) / dx[-1]
            else:
                a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
                b = (dx[0] + dx[1]) / (dx[0] * dx[1])
                c = (-dx[0]) / (dx[1] * (dx[0] + dx[1]))
                first = a * sl(d, 0, 1) + b * sl(d, 1, 2) + c * sl(d, 2, 3)
                a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
                b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
                c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
                last = a * sl(d, -3, -2) + b * sl(d, -2, -1) + c * sl(d, -1)
        else:
            if isinstance(h, _C.TensorBase):
                h = h.item()
            center = (sl(d, 2) - sl(d, 0, -2)) / h / 2
            if edge_order == 1:
                first = (sl(d, 1, 2) - sl(d, 0, 1)) / h
                last = (sl(d, -1) - sl(d, -2, -1)) / h
            else:
                first = (sl(d, 0, 1) * -1.5 + sl(d, 1, 2) * 2 - sl(d, 2, 3) / 2) / h
                last = (sl(d, -3, -2) / 2 - sl(d, -2, -1) * 2 + sl(d, -1) * 1.5) / h
        out.append(tl.cat([first, center, last], d))
    return tuple(out)


# ---- cov and corrcoef ----

def cov(input, *, correction=1, fweights=None, aweights=None):
    """torch.cov: the covariance matrix of the variables in input's rows."""
    require_tensor("cov", input)
    tl = _tl()
    no_names("cov", input, *[w for w in (fweights, aweights) if w is not None])
    correction = _int("cov", "correction", None, correction)
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    if input.dtype == tl.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    nobs = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
        if w.dim() > 1:
            raise RuntimeError("cov(): expected fweights to have one or fewer dimensions but got fweights with "
                               f"{w.dim()} dimensions")
        if w.dtype.is_floating_point or w.dtype.is_complex or w.dtype == tl.bool:
            raise RuntimeError("cov(): expected fweights to have integral dtype but got fweights with "
                               f"{w.dtype._cname} dtype")
        if w.numel() != nobs:
            raise RuntimeError("cov(): expected fweights to have the same numel as there are observations in the "
                               f"input but got {w.numel()} != {nobs}")
        if nobs and not bool(w.min() >= 0):
            raise RuntimeError("cov(): fweights cannot be negative")
    if aweights is not None:
        aw = aweights
        if aw.dim() > 1:
            raise RuntimeError("cov(): expected aweights to have one or fewer dimensions but got aweights with "
                               f"{aw.dim()} dimensions")
        if not aw.dtype.is_floating_point:
            raise RuntimeError("cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{aw.dtype._cname} dtype")
        if aw.numel() != nobs:
            raise RuntimeError("cov(): expected aweights to have the same numel as there are observations in the "
                               f"input but got {aw.numel()} != {nobs}")
        if nobs and not bool(aw.min() >= 0):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = w * aw if w is not None else aw
    dev = input.device
    w_sum = w.sum() if w is not None else tl.scalar_tensor(nobs, dtype=tl.int64, device=dev)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm = tl.scalar_tensor(nobs - correction, dtype=tl.int64, device=dev)
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = w_sum - correction
    elif fweights is None and nobs == 1 and correction == 1:
        norm = tl.scalar_tensor(0, dtype=tl.int64, device=dev)
    else:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    if bool(norm <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm = tl.zeros_like(norm)
    if nobs == 1 and (fweights is not None) != (aweights is not None):
        x = tl.zeros_like(x)
        if not (x.dtype.is_floating_point or x.dtype.is_complex):
            x = x.to(tl.float32)
    else:
        x = x - avg.unsqueeze(1)
    c = tl.mm(x, (x * w if w is not None else x).t().conj())
    if c.dtype.is_complex:
        c = tl.complex(c.real, tl.zeros_like(c.real)) if hasattr(tl, "complex") else c.real.to(c.dtype)
    return tl.true_divide(c, norm).squeeze()


def corrcoef(input):
    """torch.corrcoef: Pearson's correlation coefficients of the variables in input's rows."""
    require_tensor("corrcoef", input)
    tl = _tl()
    if input.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    sd = tl.sqrt(d.real if d.dtype.is_complex else d)
    c = c / sd.view(-1, 1)
    c = c / sd.view(1, -1)
    if c.dtype.is_complex:
        re, im = c.real.clip(-1, 1), c.imag.clip(-1, 1)
        return re.to(c.dtype) + im.to(c.dtype) * 1j
    return c.clip(-1, 1)


# ---- quantile ----

_INTERP = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(op, input, q, dim, keepdim, interpolation, ignore_nan):
    require_tensor(op, input)
    tl = _tl()
    no_names(op, input)
    if not isinstance(interpolation, str) or interpolation not in _INTERP:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    if not isinstance(q, _C.TensorBase):
        if isinstance(q, bool) or not isinstance(q, (int, float)):
            raise TypeError(f"{op}(): argument 'q' must be Tensor or float, not {type(q).__name__}")
        q = float(q)
        if not (0 <= q <= 1):
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {_g(q)}")
        q = tl.scalar_tensor(q, dtype=input.dtype, device=input.device)
    if dim is not None:
        dim = dim_index(input, dim) if isinstance(dim, str) else wrap_dim(operator.index(dim), input.dim())
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (tl.float32, tl.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype != input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if q.device != input.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")
    if dim is not None and input.dim() > 0:
        out_shape = list(input.shape)
        if keepdim:
            out_shape[dim] = 1
        else:
            del out_shape[dim]
    elif keepdim:
        out_shape = [1] * input.dim()
    else:
        out_shape = []
    if q.dim() > 0:
        out_shape.insert(0, q.numel())
    if input.device.type == "cpu" and not bool(((q >= 0) & (q <= 1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if dim is None:
        s = input.reshape(-1).sort()[0]
    elif dim == input.dim() - 1:
        s = input.sort()[0]
    else:
        s = input.unsqueeze(-1).transpose(dim, -1).sort()[0]
    in_shape = (list(out_shape) if q.dim() > 0 else [1] + out_shape)[1:] + [s.shape[-1]]
    s = s.reshape(in_shape)
    if s.shape[-1] > 2 ** 24:
        raise RuntimeError("quantile() input tensor is too large")
    if ignore_nan:
        ranks = q * (s.isnan().logical_not().sum(-1, keepdim=True) - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:
        last = s.shape[-1] - 1
        r, m = tl.broadcast_tensors(q * last, s.isnan().any(-1, keepdim=True))
        ranks = r.masked_fill(m, last)
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below = ranks.to(tl.int64)
    vb = s.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = tl.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = ranks.ceil().to(tl.int64)
        vb = vb.lerp(s.gather(-1, above), weights)
    if q.dim() == 0:
        vb = vb.squeeze(-1)
    else:
        vb = vb.unsqueeze(0).transpose(0, -1).squeeze(-1)
    return vb.reshape(out_shape)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """torch.quantile: the q-th quantiles of input (over dim, or all of it)."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, False)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """torch.nanquantile: quantile ignoring NaNs."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, True)


# ---- distances ----

def _broadcast_shape(sa, sb):
    """The broadcast shape, with the error torch's expand_outplace gives."""
    n = max(len(sa), len(sb))
    a, b = [1] * (n - len(sa)) + list(sa), [1] * (n - len(sb)) + list(sb)
    out = []
    for i, (p, q) in enumerate(zip(a, b)):
        if p != q and p != 1 and q != 1:
            raise RuntimeError(f"The size of tensor a ({p}) must match the size of tensor b ({q}) at non-singleton "
                               f"dimension {i}")
        out.append(q if p == 1 else p)
    return out


def dist(input, other, p=2):
    """torch.dist: the p-norm of input - other."""
    require_tensor("dist", input)
    require_tensor("dist", other, "other", 2)
    no_names("dist", input, other)
    if isinstance(p, bool) or not isinstance(p, (int, float, _C.TensorBase)):
        raise TypeError(f"dist(): argument 'p' must be Number, not {type(p).__name__}")
    ct = _tl().result_type(input, other)
    if not (ct.is_floating_point or ct.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {ct._cname} instead.")
    return _tl().norm(input - other, p)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """torch.cosine_similarity: sum(x1/|x1| * x2/|x2|) along dim, the norms clamped below at eps."""
    require_tensor("cosine_similarity", x1, "x1")
    require_tensor("cosine_similarity", x2, "x2", 2)
    tl = _tl()
    no_names("cosine_similarity", x1, x2)
    ct = tl.result_type(x1, x2)
    if not ct.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {ct._cname}")
    eps = float(eps)
    if eps < 0:
        raise RuntimeError(f"eps must be non-negative, got: {_g(eps)}")
    a = x1.to(ct) if not (x1.dtype.is_floating_point or x1.dtype.is_complex) else x1
    b = x2.to(ct) if not (x2.dtype.is_floating_point or x2.dtype.is_complex) else x2
    shape = _broadcast_shape(a.shape, b.shape)
    a, b = a.expand(shape), b.expand(shape)
    na = tl.linalg.vector_norm(a, 2, dim=dim, keepdim=True)
    nb = tl.linalg.vector_norm(b, 2, dim=dim, keepdim=True)
    edt = tl.float32 if ct in (tl.float16, tl.bfloat16) else ct
    e = tl.scalar_tensor(eps, dtype=edt, device=a.device)
    na = tl.clamp_min(na, e).to(na.dtype)
    nb = tl.clamp_min(nb, e).to(nb.dtype)
    return ((a / na) * (b / nb)).sum(dim)
