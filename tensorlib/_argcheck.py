"""torch's argument-type errors for the Python-level functions and methods.

torch's argument parser refuses a wrong argument type before any work starts, with a
TypeError naming the argument: ``flipud(): argument 'input' (position 1) must be Tensor, not
int``. tensorlib's Python-level ops would otherwise fail somewhere inside, with an
AttributeError, a StopIteration or a RuntimeError. ``SIGNATURES`` declares each such op's
parameters in torch's notation; ``install`` wraps the op so that when a call raises, its
arguments are checked against the declaration and a wrong type becomes torch's TypeError.
A successful call pays only the wrapper's frame; nothing is checked.

Types: ``Tensor``, ``Tensor[]`` (a tuple or list of tensors), ``Tensor...`` (varargs of
tensors, or one sequence of them), ``int``, ``int[]`` (an int or a sequence of ints),
``Dim`` (an int or a dim name), ``Dim[]`` (one or a sequence), ``bool``, ``float``,
``Scalar`` (a Python number or a one-element tensor), ``TensorOrScalar``, ``str``,
``dtype``, ``any``; a trailing ``?`` also allows None.
"""
import functools
import inspect
import operator

from . import _C

SIGNATURES = """
alias_copy(Tensor input, *, Tensor? out=None)
detach_copy(Tensor input, *, Tensor? out=None)
t_copy(Tensor input, *, Tensor? out=None)
transpose_copy(Tensor input, Dim dim0, Dim dim1, *, Tensor? out=None)
permute_copy(Tensor input, Dim[] dims, *, Tensor? out=None)
diagonal_copy(Tensor input, int offset=0, Dim dim1=0, Dim dim2=1, *, Tensor? out=None)
expand_copy(Tensor input, int[] size, *, bool implicit=False, Tensor? out=None)
select_copy(Tensor input, Dim dim, int index, *, Tensor? out=None)
slice_copy(Tensor input, Dim dim=0, int? start=None, int? end=None, int step=1, *, Tensor? out=None)
squeeze_copy(Tensor input, Dim[]? dim=None, *, Tensor? out=None)
unsqueeze_copy(Tensor input, int dim, *, Tensor? out=None)
view_copy(Tensor input, any size, *, Tensor? out=None)
unfold_copy(Tensor input, Dim dimension, int size, int step, *, Tensor? out=None)
narrow_copy(Tensor input, Dim dim, int start, int length, *, Tensor? out=None)
as_strided_copy(Tensor input, int[] size, int[] stride, int? storage_offset=None, *, Tensor? out=None)
view_as_real_copy(Tensor input, *, Tensor? out=None)
view_as_complex_copy(Tensor input, *, Tensor? out=None)
split_copy(Tensor input, int split_size, Dim dim=0, *, Tensor[]? out=None)
split_with_sizes_copy(Tensor input, int[] split_sizes, Dim dim=0, *, Tensor[]? out=None)
unbind_copy(Tensor input, Dim dim=0, *, Tensor[]? out=None)
values_copy(Tensor input, *, Tensor? out=None)
indices_copy(Tensor input, *, Tensor? out=None)
crow_indices_copy(Tensor input, *, Tensor? out=None)
col_indices_copy(Tensor input, *, Tensor? out=None)
ccol_indices_copy(Tensor input, *, Tensor? out=None)
row_indices_copy(Tensor input, *, Tensor? out=None)
select_scatter(Tensor input, Tensor src, Dim dim, int index)
slice_scatter(Tensor input, Tensor src, Dim dim=0, int? start=None, int? end=None, int step=1)
diagonal_scatter(Tensor input, Tensor src, int offset=0, Dim dim1=0, Dim dim2=1)
as_strided_scatter(Tensor input, Tensor src, int[] size, int[] stride, int? storage_offset=None)
addcdiv(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor? out=None)
addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor? out=None)
addcdiv_(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1)
addcmul_(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1)
align_as(Tensor input, Tensor other)
all(Tensor input, Dim[]? dim=None, bool keepdim=False, *, Tensor? out=None)
any(Tensor input, Dim[]? dim=None, bool keepdim=False, *, Tensor? out=None)
allclose(Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
isclose(Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
amax(Tensor input, Dim[] dim=(), bool keepdim=False, *, Tensor? out=None)
amin(Tensor input, Dim[] dim=(), bool keepdim=False, *, Tensor? out=None)
aminmax(Tensor input, *, Dim? dim=None, bool keepdim=False, any out=None)
argmax(Tensor input, Dim? dim=None, bool keepdim=False, *, Tensor? out=None)
argmin(Tensor input, Dim? dim=None, bool keepdim=False, *, Tensor? out=None)
argsort(Tensor input, Dim dim=-1, bool descending=False, bool stable=False)
argwhere(Tensor input)
atleast_1d(Tensor... tensors)
atleast_2d(Tensor... tensors)
atleast_3d(Tensor... tensors)
broadcast_tensors(Tensor... tensors)
broadcast_to(Tensor input, int[] size)
bucketize(TensorOrScalar input, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor? out=None)
cat(Tensor[] tensors, Dim dim=0, *, Tensor? out=None)
concat(Tensor[] tensors, Dim dim=0, *, Tensor? out=None)
concatenate(Tensor[] tensors, Dim axis=0, Tensor? out=None)
stack(Tensor[] tensors, Dim dim=0, *, Tensor? out=None)
hstack(Tensor[] tensors, *, Tensor? out=None)
vstack(Tensor[] tensors, *, Tensor? out=None)
row_stack(Tensor[] tensors, *, Tensor? out=None)
dstack(Tensor[] tensors, *, Tensor? out=None)
column_stack(Tensor[] tensors, *, Tensor? out=None)
chunk(Tensor input, int chunks, Dim dim=0)
clamp(Tensor input, TensorOrScalar? min=None, TensorOrScalar? max=None, *, Tensor? out=None)
clip(Tensor input, TensorOrScalar? min=None, TensorOrScalar? max=None, *, Tensor? out=None)
clamp_(Tensor input, TensorOrScalar? min=None, TensorOrScalar? max=None)
clip_(Tensor input, TensorOrScalar? min=None, TensorOrScalar? max=None)
clamp_max(Tensor input, TensorOrScalar max, *, Tensor? out=None)
clamp_min(Tensor input, TensorOrScalar min, *, Tensor? out=None)
clamp_max_(Tensor input, TensorOrScalar max)
clamp_min_(Tensor input, TensorOrScalar min)
conj(Tensor input)
count_nonzero(Tensor input, Dim[]? dim=None)
cross(Tensor input, Tensor other, Dim? dim=None)
cummax(Tensor input, Dim dim, *, any out=None)
cummin(Tensor input, Dim dim, *, any out=None)
cumprod(Tensor input, Dim dim, *, dtype? dtype=None, Tensor? out=None)
cumsum(Tensor input, Dim dim, *, dtype? dtype=None, Tensor? out=None)
cumprod_(Tensor input, Dim dim, *, dtype? dtype=None)
cumsum_(Tensor input, Dim dim, *, dtype? dtype=None)
diag(Tensor input, int diagonal=0)
diag_embed(Tensor input, int offset=0, int dim1=-2, int dim2=-1)
diagflat(Tensor input, int offset=0)
einsum(any equation, any... operands)
view_as_real(Tensor input)
view_as_complex(Tensor input)
complex(Tensor real, Tensor imag, *, Tensor? out=None)
polar(Tensor abs, Tensor angle, *, Tensor? out=None)
kron(Tensor input, Tensor other, *, Tensor? out=None)
block_diag(Tensor... tensors)
cartesian_prod(Tensor... tensors)
combinations(Tensor input, int r=2, bool with_replacement=False)
vander(Tensor x, int? N=None, bool increasing=False)
tril_indices(int row, int col, int offset=0, *, dtype? dtype=None, any device=None, any layout=None, bool pin_memory=False, bool requires_grad=False)
triu_indices(int row, int col, int offset=0, *, dtype? dtype=None, any device=None, any layout=None, bool pin_memory=False, bool requires_grad=False)
unravel_index(Tensor indices, any shape)
hsplit(Tensor input, int[] indices_or_sections)
vsplit(Tensor input, int[] indices_or_sections)
dsplit(Tensor input, int[] indices_or_sections)
split_with_sizes(Tensor input, int[] split_sizes, Dim dim=0)
fill_diagonal_(Tensor input, Scalar fill_value, bool wrap=False)
new_empty_strided(Tensor input, int[] size, int[] stride, *, dtype? dtype=None, any layout=None, any device=None, bool pin_memory=False, bool requires_grad=False)
empty_like(Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, any memory_format=None)
zeros_like(Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, any memory_format=None)
ones_like(Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, any memory_format=None)
full_like(Tensor input, Scalar fill_value, *, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, any memory_format=None)
rand_like(Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, any memory_format=None, any generator=None)
randn_like(Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, any memory_format=None, any generator=None)
eq_(Tensor input, TensorOrScalar other)
ne_(Tensor input, TensorOrScalar other)
lt_(Tensor input, TensorOrScalar other)
le_(Tensor input, TensorOrScalar other)
gt_(Tensor input, TensorOrScalar other)
ge_(Tensor input, TensorOrScalar other)
equal(Tensor input, Tensor other)
expand_as(Tensor input, Tensor other)
reshape_as(Tensor input, Tensor other)
view_as(Tensor input, Tensor other)
type_as(Tensor input, Tensor other)
is_same_size(Tensor input, Tensor other)
is_set_to(Tensor input, Tensor tensor)
flip(Tensor input, int[] dims)
fliplr(Tensor input)
flipud(Tensor input)
float_power(TensorOrScalar input, TensorOrScalar exponent, *, Tensor? out=None)
gather(Tensor input, Dim dim, Tensor index, *, bool sparse_grad=False)
gelu(Tensor input, str approximate='none')
heaviside(Tensor input, Tensor values, *, Tensor? out=None)
heaviside_(Tensor input, Tensor values)
histc(Tensor input, int bins=100, Scalar min=0, Scalar max=0, *, Tensor? out=None)
imag(Tensor input)
real(Tensor input)
index_add(Tensor input, Dim dim, Tensor index, Tensor source, *, Scalar alpha=1)
index_add_(Tensor input, Dim dim, Tensor index, Tensor source, *, Scalar alpha=1)
index_reduce(Tensor input, Dim dim, Tensor index, Tensor source, str reduce, *, bool include_self=True)
index_reduce_(Tensor input, Dim dim, Tensor index, Tensor source, str reduce, *, bool include_self=True)
index_copy(Tensor input, Dim dim, Tensor index, Tensor source)
index_copy_(Tensor input, Dim dim, Tensor index, Tensor source)
index_fill(Tensor input, Dim dim, Tensor index, TensorOrScalar value)
index_fill_(Tensor input, Dim dim, Tensor index, TensorOrScalar value)
index_put(Tensor input, any indices, Tensor values, bool accumulate=False)
index_put_(Tensor input, any indices, Tensor values, bool accumulate=False)
index_select(Tensor input, Dim dim, Tensor index)
inner(Tensor input, Tensor other, *, Tensor? out=None)
is_complex(Tensor input)
is_floating_point(Tensor input)
numel(Tensor input)
kthvalue(Tensor input, int k, Dim dim=-1, bool keepdim=False, *, any out=None)
ldexp(Tensor input, Tensor other, *, Tensor? out=None)
ldexp_(Tensor input, Tensor other)
rsub(Tensor input, TensorOrScalar other, *, Scalar alpha=1)
lerp(Tensor input, Tensor end, TensorOrScalar weight, *, Tensor? out=None)
lerp_(Tensor input, Tensor end, TensorOrScalar weight)
logit(Tensor input, float? eps=None, *, Tensor? out=None)
logit_(Tensor input, float? eps=None)
logsumexp(Tensor input, Dim[] dim, bool keepdim=False, *, Tensor? out=None)
masked_fill(Tensor input, Tensor mask, TensorOrScalar value)
masked_fill_(Tensor input, Tensor mask, TensorOrScalar value)
masked_scatter(Tensor input, Tensor mask, Tensor source)
masked_scatter_(Tensor input, Tensor mask, Tensor source)
masked_select(Tensor input, Tensor mask, *, Tensor? out=None)
max(Tensor input, any dim=None, bool keepdim=False, *, any out=None, Tensor? other=None)
min(Tensor input, any dim=None, bool keepdim=False, *, any out=None, Tensor? other=None)
mean(Tensor input, Dim[]? dim=None, bool keepdim=False, *, dtype? dtype=None, Tensor? out=None)
nanmean(Tensor input, Dim[]? dim=None, bool keepdim=False, *, dtype? dtype=None, Tensor? out=None)
sum(Tensor input, Dim[]? dim=None, bool keepdim=False, *, dtype? dtype=None, Tensor? out=None)
nansum(Tensor input, Dim[]? dim=None, bool keepdim=False, *, dtype? dtype=None, Tensor? out=None)
prod(Tensor input, Dim? dim=None, bool keepdim=False, *, dtype? dtype=None, Tensor? out=None)
median(Tensor input, Dim? dim=None, bool keepdim=False, *, any out=None)
nanmedian(Tensor input, Dim? dim=None, bool keepdim=False, *, any out=None)
mode(Tensor input, Dim dim=-1, bool keepdim=False, *, any out=None)
meshgrid(Tensor... tensors, str? indexing=None)
movedim(Tensor input, int[] source, int[] destination)
moveaxis(Tensor input, int[] source, int[] destination)
msort(Tensor input, *, Tensor? out=None)
multinomial(Tensor input, int num_samples, bool replacement=False, *, any generator=None, Tensor? out=None)
nan_to_num(Tensor input, float? nan=0.0, float? posinf=None, float? neginf=None, *, Tensor? out=None)
nan_to_num_(Tensor input, float? nan=0.0, float? posinf=None, float? neginf=None)
nextafter(Tensor input, Tensor other, *, Tensor? out=None)
nextafter_(Tensor input, Tensor other)
nonzero(Tensor input, *, bool as_tuple=False)
norm(Tensor input, any p='fro', Dim[]? dim=None, bool keepdim=False, Tensor? out=None, dtype? dtype=None)
positive(Tensor input)
put(Tensor input, Tensor index, Tensor source, bool accumulate=False)
put_(Tensor input, Tensor index, Tensor source, bool accumulate=False)
renorm(Tensor input, float p, int dim, float maxnorm)
renorm_(Tensor input, float p, int dim, float maxnorm)
repeat_interleave(Tensor input, any repeats=None, int? dim=None, *, int? output_size=None)
resize_as_(Tensor input, Tensor the_template, *, any memory_format=None)
result_type(TensorOrScalar tensor, TensorOrScalar other)
roll(Tensor input, int[] shifts, Dim[]? dims=None)
rot90(Tensor input, int k=1, int[] dims=(0, 1))
scatter(Tensor input, Dim dim, Tensor index, TensorOrScalar? src=None, TensorOrScalar? value=None, *, str? reduce=None)
scatter_(Tensor input, Dim dim, Tensor index, TensorOrScalar? src=None, TensorOrScalar? value=None, *, str? reduce=None)
scatter_add(Tensor input, Dim dim, Tensor index, Tensor src)
scatter_add_(Tensor input, Dim dim, Tensor index, Tensor src)
scatter_reduce(Tensor input, Dim dim, Tensor index, Tensor src, str reduce, *, bool include_self=True)
scatter_reduce_(Tensor input, Dim dim, Tensor index, Tensor src, str reduce, *, bool include_self=True)
searchsorted(Tensor sorted_sequence, TensorOrScalar input, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor? out=None)
sort(Tensor input, Dim dim=-1, bool descending=False, bool stable=False, *, any out=None)
split(Tensor input, any split_size_or_sections, Dim dim=0)
fill(Tensor input, TensorOrScalar value)
rms_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, float? eps=None)
stft(Tensor input, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool center=True, str pad_mode="reflect", bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None)
istft(Tensor input, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool center=True, bool normalized=False, bool? onesided=None, int? length=None, bool return_complex=False)
resize_as(Tensor input, Tensor the_template)
range(Scalar start, Scalar end, Scalar step=1, *, Tensor? out=None, dtype? dtype=None, any layout=None, any device=None, bool requires_grad=False, bool pin_memory=False)
unsafe_chunk(Tensor input, int chunks, Dim dim=0)
unsafe_split(Tensor input, int split_size, Dim dim=0)
unsafe_split_with_sizes(Tensor input, int[] split_sizes, Dim dim=0)
square(Tensor input, *, Tensor? out=None)
swapaxes(Tensor input, Dim axis0, Dim axis1)
swapdims(Tensor input, Dim axis0, Dim axis1)
take(Tensor input, Tensor index)
take_along_dim(Tensor input, Tensor indices, Dim? dim=None)
tensor_split(Tensor input, any indices_or_sections, Dim dim=0)
tensordot(Tensor a, Tensor b, any dims=2, Tensor? out=None)
tile(Tensor input, int[] dims)
topk(Tensor input, int k, Dim dim=-1, bool largest=True, bool sorted=True, *, any out=None)
trace(Tensor input)
tril(Tensor input, int diagonal=0)
triu(Tensor input, int diagonal=0)
tril_(Tensor input, int diagonal=0)
triu_(Tensor input, int diagonal=0)
unbind(Tensor input, Dim dim=0)
unique(Tensor input, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None)
unique_consecutive(Tensor input, bool return_inverse=False, bool return_counts=False, int? dim=None)
where(Tensor condition, TensorOrScalar? input=None, TensorOrScalar? other=None, *, Tensor? out=None)
diff(Tensor input, int n=1, Dim dim=-1, Tensor? prepend=None, Tensor? append=None, *, Tensor? out=None)
trapezoid(Tensor y, Tensor? x=None, *, Scalar? dx=None, Dim dim=-1)
trapz(Tensor y, Tensor? x=None, *, float? dx=None, Dim dim=-1)
cumulative_trapezoid(Tensor y, Tensor? x=None, *, Scalar? dx=None, Dim dim=-1)
bincount(Tensor input, Tensor? weights=None, int minlength=0)
histogram(Tensor input, any bins=100, *, any range=None, Tensor? weight=None, bool density=False, any out=None)
cov(Tensor input, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None)
corrcoef(Tensor input)
quantile(Tensor input, TensorOrScalar q, int? dim=None, bool keepdim=False, *, str interpolation="linear", Tensor? out=None)
nanquantile(Tensor input, TensorOrScalar q, int? dim=None, bool keepdim=False, *, str interpolation="linear", Tensor? out=None)
dist(Tensor input, Tensor other, Scalar p=2)
cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08)
"""


def _is_int(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    if isinstance(v, _C.TensorBase):
        return v.dim() == 0 and not v.dtype.is_floating_point and not v.dtype.is_complex and v.dtype != _C.bool
    try:
        operator.index(v)
    except Exception:
        return False
    return True


def _is_scalar(v):
    if isinstance(v, (bool, int, float, complex)):
        return True
    if isinstance(v, _C.TensorBase):
        return v.numel() == 1
    return type(v).__module__ == "numpy" and hasattr(v, "dtype") and getattr(v, "shape", None) == ()


def _seq(v, ok):
    return isinstance(v, (tuple, list, _C.Size)) and all(ok(x) for x in v)


_CHECKS = {
    "Tensor": (lambda v: isinstance(v, _C.TensorBase), "Tensor"),
    "Tensor[]": (lambda v: _seq(v, _CHECKS["Tensor"][0]), "tuple of Tensors"),
    "int": (_is_int, "int"),
    "int[]": (lambda v: _is_int(v) or _seq(v, _is_int), "tuple of ints"),
    "Dim": (lambda v: _is_int(v) or isinstance(v, str), "int"),
    "Dim[]": (lambda v: _is_int(v) or isinstance(v, str) or _seq(v, lambda x: _is_int(x) or isinstance(x, str)),
              "tuple of ints"),
    "bool": (lambda v: isinstance(v, bool) or (type(v).__module__ == "numpy" and type(v).__name__ == "bool"), "bool"),
    "float": (lambda v: isinstance(v, (int, float)) or (isinstance(v, _C.TensorBase) and v.dim() == 0
                                                       and not v.dtype.is_complex), "float"),
    "Scalar": (_is_scalar, "Number"),
    "TensorOrScalar": (lambda v: isinstance(v, _C.TensorBase) or _is_scalar(v), "Tensor"),
    "str": (lambda v: isinstance(v, str), "str"),
    "dtype": (lambda v: isinstance(v, _C.dtype) or v in (float, int, bool, complex), "tensorlib.dtype"),
}


class _Param:
    __slots__ = ("name", "type", "optional", "kwonly", "varargs", "has_default")

    def __init__(self, decl, kwonly):
        decl, _, default = decl.partition("=")
        typ, name = decl.split()
        self.name, self.kwonly, self.has_default = name, kwonly, bool(default)
        self.varargs = typ.endswith("...")
        typ = typ[:-3] if self.varargs else typ
        self.optional = typ.endswith("?")
        self.type = typ.rstrip("?")


class Signature:
    """One op's declared parameters; diagnose() finds the first argument of a wrong type."""

    def __init__(self, line):
        self.name, _, rest = line.partition("(")
        self.params, kwonly = [], False
        decls, depth, cur = [], 0, ""
        for ch in rest[:-1]:  # commas inside a default's parentheses do not split
            depth += (ch == "(") - (ch == ")")
            if ch == "," and depth == 0:
                decls.append(cur)
                cur = ""
            else:
                cur += ch
        for decl in filter(None, (d.strip() for d in decls + [cur])):
            if decl == "*":
                kwonly = True
            else:
                self.params.append(_Param(decl, kwonly))

    def _bind(self, args, kwargs):
        """[(param, value, position or None)] for the given arguments, or None if they do not
        fit the declaration at all (too many, unknown keywords: Python's own error stands)."""
        out, positional = [], [p for p in self.params if not p.kwonly]
        i = 0
        for p in positional:
            if i >= len(args):
                break
            if p.varargs:
                rest = args[i:]
                value = rest[0] if len(rest) == 1 and isinstance(rest[0], (tuple, list)) else tuple(rest)
                out.append((p, value, i + 1))
                i = len(args)
                break
            out.append((p, args[i], i + 1))
            i += 1
        if i < len(args):
            return None
        byname = {p.name: p for p in self.params}
        for k, v in kwargs.items():
            if k not in byname:
                return None
            out.append((byname[k], v, None))
        return out

    def diagnose(self, args, kwargs, method):
        """TypeError for the first argument whose type the declaration refuses, or None."""
        bound = self._bind(((None,) if method else ()) + tuple(args), kwargs)
        for p, v, pos in bound or ():
            if p.type == "any" or (method and pos == 1) or (v is None and p.optional):
                continue
            check, what = _CHECKS[p.type]
            ok = _seq(v, check) if p.varargs else check(v)
            if not ok:
                if p.varargs:
                    what = "tuple of Tensors"
                where = "" if pos is None else f" (position {pos - 1 if method else pos})"
                return TypeError(f"{self.name}(): argument '{p.name}'{where} must be {what}, not {type(v).__name__}")
        return None


# Failures that a call with well-typed arguments never produces: when one escapes and no
# declared type is violated, the arguments are still wrong in a way the table does not
# describe, and torch would have refused them as a TypeError too.
_NEVER = (AttributeError, StopIteration, KeyError, AssertionError)


def _diagnose(sig, method, e, args, kwargs):
    """The TypeError to raise instead of e, or None to let e propagate."""
    if method:
        args = args[1:]
    err = sig.diagnose(args, kwargs, method)
    if err is None and isinstance(e, _NEVER):
        types = ", ".join(type(a).__name__ for a in args)
        err = TypeError(f"{sig.name}() received an invalid combination of arguments - got ({types})")
    return err


def _wrap(fn, sig, method):
    """fn behind a wrapper with fn's own signature (no *args/**kwargs packing on the success
    path); a failure is diagnosed from the arguments given (trailing ones still equal to
    their defaults count as not given)."""
    env = {"fn": fn, "diag": functools.partial(_diagnose, sig, method)}
    decl, call, pos, kw, star = [], [], [], [], None
    for p in inspect.signature(fn, follow_wrapped=False).parameters.values():
        dflt = ""
        if p.default is not p.empty:
            env["d_" + p.name] = p.default
            dflt = "=d_" + p.name
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            decl.append(p.name + dflt)
            call.append(p.name)
            pos.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            decl.append("*" + p.name)
            call.append("*" + p.name)
            star = p.name
        elif p.kind == p.KEYWORD_ONLY:
            if star is None:
                decl.append("*")
                star = ""
            decl.append(p.name + dflt)
            call.append(f"{p.name}={p.name}")
            kw.append(p.name)
        else:
            decl.append("**" + p.name)
            call.append("**" + p.name)
            kw.append("**" + p.name)
    def tup(items):
        return "(" + "".join(i + ", " for i in items) + ")"

    def dflt_of(name):
        return "d_" + name if "d_" + name in env else "NODEF"

    given_pos = f"given({tup(pos)}, {tup(dflt_of(n) for n in pos)})" + (f" + {star}" if star else "")
    given_kw = ", ".join(f"**{k[2:]}" if k.startswith("**") else
                         f"**({{}} if {k} is {dflt_of(k)} else {{'{k}': {k}}})" for k in kw)
    src = (f"def checked({', '.join(decl)}):\n"
           f"    try:\n"
           f"        return fn({', '.join(call)})\n"
           f"    except TypeError:\n"
           f"        raise\n"
           f"    except Exception as e:\n"
           f"        err = diag(e, {given_pos}, {{{given_kw}}})\n"
           f"        if err is None:\n"
           f"            raise\n"
           f"        raise err from None\n")
    env.update(given=_given, NODEF=_NODEF)
    exec(src, env)
    checked = functools.update_wrapper(env["checked"], fn)
    checked.__tl_argcheck__ = True
    return checked


_NODEF = object()


def _given(values, defaults):
    """Positional values without the trailing ones that are still their defaults."""
    n = len(values)
    while n and values[n - 1] is defaults[n - 1]:
        n -= 1
    return values[:n]


def install(namespace, tensor_class):
    """Wraps every declared op found as a Python function in `namespace` (the module form,
    input at position 1) and as a Python method of `tensor_class` (self not counted)."""
    import types
    for line in SIGNATURES.strip().splitlines():
        sig = Signature(line)
        fn = namespace.get(sig.name)
        if isinstance(fn, types.FunctionType) and not getattr(fn, "__tl_argcheck__", False):
            namespace[sig.name] = _wrap(fn, sig, False)
        m = tensor_class.__dict__.get(sig.name)
        if isinstance(m, types.FunctionType) and not getattr(m, "__tl_argcheck__", False):
            setattr(tensor_class, sig.name, _wrap(m, sig, True))
