"""Linear algebra composed from the C matrix products: einsum, tensordot, inner and the
in-place add-product methods.

einsum parses the subscripts, takes diagonals for repeated labels, sums labels used by
one operand only, and contracts operands pairwise left to right, each contraction as one
permute/reshape + bmm (OpenBLAS underneath)."""
from . import _C
from ._util import no_names as _no_names, wrap_dim as _wrap

_OPS = ("mm", "bmm", "matmul", "mv", "dot", "vdot", "outer", "ger", "addmm", "addmv", "addr", "baddbmm", "addbmm")
globals().update({name: getattr(_C, name) for name in _OPS})





def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _sum_last(t, k):
    """Sums the last k dims of t (a matrix-vector product with ones keeps it in BLAS).
    Bool and integer operands sum to int64, as torch's einsum (it calls sum there)."""
    if k == 0:
        return t
    if not (t.dtype.is_floating_point or t.dtype.is_complex):
        return t.sum(tuple(range(t.dim() - k, t.dim())))
    lead = tuple(t.shape[:t.dim() - k])
    n = _prod(t.shape[t.dim() - k:])
    ones = _C.ones(n, dtype=t.dtype)
    flat = t.reshape(_prod(lead), n) if lead else t.reshape(1, n)
    return _C.mv(flat, ones).reshape(lead)


def tensordot(a, b, dims=2, out=None):
    """tensordot(a, b, dims=2, out=None) -> Tensor

    Contracts the last ``dims`` dims of a with the first ``dims`` of b, or the dims listed
    in ``dims = ([a dims], [b dims])``."""
    _no_names("tensordot", a, b)
    if isinstance(dims, int) or (hasattr(dims, "dim") and dims.dim() == 0):
        n = int(dims)
        if n < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={n}")
        if n > a.dim() or n > b.dim():
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={n}")
        da, db = list(range(a.dim() - n, a.dim())), list(range(n))
        shown_a, shown_b = [d - a.dim() for d in da], db
    else:
        da, db = dims
        da = [int(d) for d in (da.tolist() if hasattr(da, "tolist") else ([da] if isinstance(da, int) else da))]
        db = [int(d) for d in (db.tolist() if hasattr(db, "tolist") else ([db] if isinstance(db, int) else db))]
        if len(da) != len(db):
            raise RuntimeError("both dimension lists should have same length")
        shown_a, shown_b = da, db
        da = [_wrap(d, a.dim()) for d in da]
        db = [_wrap(d, b.dim()) for d in db]
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    for x, y, sx, sy in zip(da, db, shown_a, shown_b):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[x]} in dim {sx} "
                               f"and second has size {b.shape[y]} in dim {sy}")
    fa = [d for d in range(a.dim()) if d not in da]
    fb = [d for d in range(b.dim()) if d not in db]
    k = _prod(a.shape[d] for d in da)
    ma = _prod(a.shape[d] for d in fa)
    nb = _prod(b.shape[d] for d in fb)
    am = a.permute(*(fa + da)).reshape(ma, k)
    bm = b.permute(*(db + fb)).reshape(k, nb)
    r = _C.mm(am, bm).reshape(tuple(a.shape[d] for d in fa) + tuple(b.shape[d] for d in fb))
    return r if out is None else _C._write_out(r, out, "tensordot", True)





def inner(input, other, *, out=None):
    """inner(input, other, *, out=None) -> Tensor

    Sum of products over the last dims of input and other (a scalar times a tensor
    when either is 0-D)."""
    _no_names("inner", input, other)
    if input.dim() == 0 or other.dim() == 0:
        s, t = (input, other) if input.dim() == 0 else (other, input)
        if s.dtype != t.dtype:
            raise RuntimeError("both inputs should have same dtype")
        r = _C.mul(s, t)  # one product per element (torch's 0-d path; bool included)
    else:
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                               f"{list(input.shape)} and {list(other.shape)}")
        r = tensordot(input, other, ([-1], [-1]))
    return r if out is None else _C._write_out(r, out, "inner", True)


# ---- einsum ----

def _parse_term(term, where):
    labels, i = [], 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "...":
                raise RuntimeError("einsum(): found '.' for operand " + where + " that is not part of any ellipsis")
            if "..." in labels:
                raise RuntimeError("einsum(): found '.' for operand " + where + " for which an ellipsis was already found")
            labels.append("...")
            i += 3
            continue
        if not c.isalpha():
            raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                               "subscripts must be in [a-zA-Z]")
        labels.append(c)
        i += 1
    return labels


def einsum(equation, *operands):
    """einsum(equation, *operands) -> Tensor

    Sums products of operand elements over the indices the subscript string names
    ('ij,jk->ik', 'bij,bjk->bik', 'ii->i', '...ij,...jk', implicit outputs)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    _no_names("einsum", *operands)
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError(f"einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the equation")
    parsed = [_parse_term(t, str(i)) for i, t in enumerate(terms)]
    # expand ellipses into positional labels ("...", k) counted from the right
    ell = 0
    full = []
    for i, (labs, op) in enumerate(zip(parsed, operands)):
        nlet = len([x for x in labs if x != "..."])
        if "..." in labs:
            e = op.dim() - nlet
            if e < 0:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({nlet}) is more than the number "
                                   f"of dimensions ({op.dim()}) for operand {i}")
            ell = max(ell, e)
        elif nlet != op.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({nlet}) does not match the number "
                               f"of dimensions ({op.dim()}) for operand {i} and no ellipsis was given")
    for labs, op in zip(parsed, operands):
        out = []
        for x in labs:
            if x == "...":
                e = op.dim() - (len(labs) - 1)
                out.extend(("...", ell - e + j) for j in range(e))
            else:
                out.append(x)
        full.append(out)
    counts = {}
    for labs in full:
        for x in labs:
            counts[x] = counts.get(x, 0) + 1
    ell_labels = [("...", j) for j in range(ell)]
    if arrow:
        out_labels = []
        for x in _parse_term(rhs, "output"):
            if x == "...":
                out_labels.extend(ell_labels)
            else:
                if x in out_labels:
                    raise RuntimeError(f"einsum(): output subscript {x} appears more than once in the output")
                if x not in counts:
                    raise RuntimeError(f"einsum(): output subscript {x} does not appear in the equation for any input "
                                       "operand")
                out_labels.append(x)
    else:
        out_labels = ell_labels + sorted(x for x, c in counts.items() if isinstance(x, str) and c == 1)
    # sizes, with size-1 broadcasting
    sizes = {}
    for i, (labs, op) in enumerate(zip(full, operands)):
        for x, s in zip(labs, op.shape):
            prev = sizes.get(x)
            if prev is None or prev == 1:
                sizes[x] = s
            elif s != 1 and s != prev:
                name = x if isinstance(x, str) else "..."
                raise RuntimeError(f"einsum(): subscript {name} has size {s} for operand {i} which does not broadcast "
                                   f"with previously seen size {prev}")
    # per operand: diagonals for repeated labels
    ops = []
    for labs, op in zip(full, operands):
        labs = list(labs)
        t = op
        while len(set(labs)) != len(labs):
            seen = {}
            for d, x in enumerate(labs):
                if x in seen:
                    t = t.diagonal(0, seen[x], d)
                    labs = [y for k, y in enumerate(labs) if k not in (seen[x], d)] + [x]
                    break
                seen[x] = d
        ops.append((t, labs))

    def needed(labels_later, x):
        return x in out_labels or any(x in l for l in labels_later)

    def reduce_unneeded(t, labs, later):
        drop = [x for x in labs if not needed(later, x)]
        if not drop:
            return t, labs
        keep = [x for x in labs if x in labs and x not in drop]
        t = t.permute(*([labs.index(x) for x in keep] + [labs.index(x) for x in drop]))
        return _sum_last(t, len(drop)), keep

    t, labs = ops[0]
    t, labs = reduce_unneeded(t, labs, [l for _, l in ops[1:]])
    for idx in range(1, len(ops)):
        u, ulabs = ops[idx]
        later = [l for _, l in ops[idx + 1:]]
        u, ulabs = reduce_unneeded(u, ulabs, later + [labs])
        t, labs = reduce_unneeded(t, labs, later + [ulabs])
        batch = [x for x in labs if x in ulabs and needed(later, x)]
        contr = [x for x in labs if x in ulabs and not needed(later, x)]
        a_only = [x for x in labs if x not in ulabs]
        b_only = [x for x in ulabs if x not in labs]
        ta = t.permute(*[labs.index(x) for x in batch + a_only + contr])
        tb = u.permute(*[ulabs.index(x) for x in batch + contr + b_only])
        ta = ta.expand(*[sizes[x] for x in batch] + list(ta.shape[len(batch):len(batch) + len(a_only)]) +
                       [sizes[x] for x in contr])
        tb = tb.expand(*[sizes[x] for x in batch + contr] + list(tb.shape[len(batch) + len(contr):]))
        nb_, k = _prod(sizes[x] for x in batch), _prod(sizes[x] for x in contr)
        ma = _prod(ta.shape[len(batch):len(batch) + len(a_only)])
        nn = _prod(tb.shape[len(batch) + len(contr):])
        r = _C.bmm(ta.reshape(nb_, ma, k), tb.reshape(nb_, k, nn))
        t = r.reshape(tuple(ta.shape[:len(batch) + len(a_only)]) + tuple(tb.shape[len(batch) + len(contr):]))
        labs = batch + a_only + b_only
    t, labs = reduce_unneeded(t, labs, [])
    t = t.permute(*[labs.index(x) for x in out_labels]) if labs else t
    return t.expand(*[sizes[x] for x in out_labels]) if out_labels else t


def _inplace(op):
    def method(self, *args, **kwargs):
        r = op(self, *args, **kwargs)
        if tuple(r.shape) != tuple(self.shape):
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(r.shape)}")
        return self.copy_(r)
    method.__name__ = op.__name__ + "_"
    method.__doc__ = f"In-place {op.__name__}: writes the result into self."
    return method


def _install_methods(cls):
    for name in ("addmm", "addmv", "addr", "baddbmm", "addbmm"):
        setattr(cls, name + "_", _inplace(getattr(_C, name)))

    def tensor_inner(self, other):
        """inner(other) -> Tensor. See tensorlib.inner."""
        return inner(self, other)
    cls.inner = tensor_inner


# ---- LinAlgError and matrix norms (singular values: tensorlib/_linalg_lapack.py) ----

class LinAlgError(RuntimeError):
    """A linear-algebra routine failed (torch.linalg.LinAlgError): a singular matrix where an
    inverse is needed, a matrix that is not positive-definite, an SVD that did not converge."""


def _real_dtype(dt):
    return {"complex64": _C.float32, "complex128": _C.float64, "complex32": _C.float16}.get(str(dt).split(".")[-1], dt)


def _matrix_norm_checks(A, dim, dtype, low_precision):
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dt = A.dtype
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_cname(dt)}")
    if not low_precision and str(dt).split(".")[-1] in ("float16", "bfloat16", "complex32"):
        raise RuntimeError(f"linalg.matrix_norm: Low precision dtypes not supported. Got {_cname(dt)}")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got " + " ".join(str(int(d)) for d in dim))
    d0, d1 = _wrap(int(dim[0]), A.dim()), _wrap(int(dim[1]), A.dim())
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    if dtype is not None:
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(f"linalg.matrix_norm: dtype should be floating point or complex, but got {_cname(dtype)}")
        if dt.is_complex != dtype.is_complex:
            kind = "complex" if dt.is_complex else "real"
            raise RuntimeError(f"linalg.matrix_norm: dtype should be {kind} for {kind} inputs, but got {_cname(dtype)}")
        if _C.promote_types(dt, dtype) != dtype:
            raise RuntimeError(f"linalg.matrix_norm: the dtype of the input ({_cname(dt)}) should be convertible "
                               f"without narrowing to the specified dtype ({_cname(dtype)})")
    return d0, d1


def _cname(dt):
    return dt._cname


def _max0(t, d, keepdim=False):
    """amax over d, 0 over an empty d (torch's matrix norms of positive order: norms are >= 0)."""
    from . import _reduce
    return (_reduce.sum if t.size(d) == 0 else _reduce.amax)(t, d, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None, out=None) -> Tensor

    Matrix norm over the two dims in dim: 'fro', 'nuc' (sum of singular values), 2 / -2
    (largest / smallest singular value), 1 / -1 (max / min column abs-sum), inf / -inf
    (max / min row abs-sum); batched over the other dims."""
    from . import _reduce
    if not isinstance(A, _C.TensorBase):
        raise TypeError(f"linalg_matrix_norm(): argument 'input' (position 1) must be Tensor, not {type(A).__name__}")
    _no_names("linalg.matrix_norm", A)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        d0, d1 = _matrix_norm_checks(A, dim, dtype, ord == "fro")
    else:
        o = float(ord)
        if abs(o) not in (1.0, 2.0, float("inf")):
            raise RuntimeError(f"linalg.matrix_norm: Order {o:g} not supported.")
        d0, d1 = _matrix_norm_checks(A, dim, dtype, abs(o) != 2.0)
    if ord == "fro":
        r = _reduce.norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    elif ord == "nuc" or abs(o) == 2.0:
        A_ = A.to(dtype) if dtype is not None else A
        rest = [d for d in range(A.dim()) if d not in (d0, d1)]
        from ._linalg_lapack import svdvals
        sv = svdvals(A_.permute(rest + [d0, d1]))
        if ord != "nuc" and o < 0 and sv.size(-1) == 0:
            raise IndexError("amin(): Expected reduction dim -1 to have non-zero size.")
        r = (_reduce.sum if ord == "nuc" else _max0 if o > 0 else _reduce.amin)(sv, -1)
        if keepdim:
            for d in sorted((d0, d1)):
                r = r.unsqueeze(d)
    else:
        if abs(o) == float("inf"):
            d0, d1 = d1, d0
        if not keepdim and d0 < d1:
            d1 -= 1
        col = _reduce.norm(A, 1, d0, keepdim, dtype=dtype)
        r = (_max0 if o > 0 else _reduce.amin)(col, d1, keepdim)
    return r if out is None else _C._write_out(r, out, "linalg_matrix_norm", True)


def _norm_str(input, p, dim, keepdim, out, dtype):
    """torch.norm's string orders other than a vector 'fro': the matrix norm over dim
    (every dim when None, which torch then requires to be two)."""
    if dim is None:
        dim = list(range(input.dim()))
    elif not isinstance(dim, (tuple, list)):
        dim = [dim]
    return matrix_norm(input, p, dim, keepdim, dtype=dtype, out=out)
