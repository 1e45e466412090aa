"""The docstrings of tensorlib's public functions and Tensor methods: one table.

Per op, a person writes a one-line summary, the descriptions of its arguments that the shared
ones in ARGS (this file) do not cover, what it returns, and an example's code; the entries live
in the parts _docstrings_functions.py, _docstrings_more.py and _docstrings_api.py (tl.cuda, the
Array API, the operators, the CLASSES and PROPS tables). scripts/gen_docs.py adds
what can be derived -- the signature (the one scripts/gen_stubs.py builds for the stubs), the
named-tensor rule and sparse support (from the spec's op inventory, kept in scripts/doc_rules.tsv)
and what each example line prints (run with tensorlib, checked against torch) -- composes

    name(args) -> Ret
    <summary>
    Args: <one line per parameter>     Returns: <text>
    Named tensors: <rule>              Sparse: <support>
    Example: <doctest>

with ``compose`` and writes the finished strings into _docgen.py. Import only attaches those
(tensorlib/__init__.py: ``__doc__``, or a C function's PyMethodDef through _C._add_docstr); this
module is not imported at run time. A method that mirrors a function (``Tensor.add`` and
``tl.add``) shares its entry; an in-place method (``add_``) shares its out-of-place entry.
tests/test_docstrings.py runs every example as a doctest and checks that no public callable lacks
a part.
"""
# ---- argument descriptions shared by every op that takes an argument of that name ----
ARGS = {
    "input": "the tensor the op reads.",
    "other": "the second operand: a tensor or a Python number, broadcast against ``input``.",
    "dim": "the dim (an int, negative counting from the end, or a dim name) to work along.",
    "keepdim": "keep the reduced dims in the result with size 1.",
    "dtype": "the dtype of the result (and of the computation); None keeps the default.",
    "out": "a tensor to write the result into (resized if needed); it is also returned.",
    "alpha": "the number ``other`` is multiplied by first.",
    "device": "the device of the result; None means the default device.",
    "layout": "the layout of the result (only ``tl.strided`` for dense factories).",
    "requires_grad": "accepted for compatibility; tensorlib has no autograd, True raises.",
    "pin_memory": "True puts the result in pinned (page-locked) host memory; needs a usable CUDA device, else torch's RuntimeError.",
    "memory_format": "the memory layout of the result (``tl.preserve_format`` keeps input's strides).",
    "generator": "the random generator to draw from; None uses the default one.",
    "*size": "the shape, as ints or one sequence of ints.",
    "size": "the shape, as a sequence of ints.",
    "names": "dim names for the result (a tuple of str or None), or None for none.",
    "tensors": "the tensors (a list or tuple) to combine.",
    "*tensors": "the tensors, as separate arguments or one sequence.",
    "descending": "sort from largest to smallest.",
    "stable": "keep equal elements in their original order.",
    "non_blocking": "True lets a copy between a CUDA device and pinned host memory run asynchronously (a device-to-host result is allocated pinned), as torch's.",
    "copy": "always copy, even when nothing changes.",
    "dim0": "the first dim (an int or a name).",
    "dim1": "the second dim (an int or a name).",
    "dim2": "the third dim (an int or a name).",
    "rounding_mode": "None for true division, ``'trunc'`` to round toward zero, ``'floor'`` to round down.",
    "unbiased": "divide by N - 1 (Bessel's correction) instead of N.",
    "correction": "the difference subtracted from the element count in the divisor (1: sample statistics).",
    "*dims": "the dims, as ints or names, separate or as one sequence.",
    "dims": "the dims (ints or names).",
    "condition": "a bool tensor choosing, per element, between ``input`` and ``other``.",
    "value": "the scalar multiplying the product or quotient term.",
    "mask": "a bool tensor broadcastable to ``input``: True marks the elements to act on.",
    "index": "an int64 tensor of indices along ``dim``.",
    "src": "the tensor whose values are written.",
    "reduce": "how colliding writes combine (``'sum'``, ``'prod'``, ``'mean'``, ``'amax'``, ``'amin'``).",
    "mat1": "the first matrix (n x m).",
    "mat2": "the second matrix (m x p).",
    "vec": "a 1-D vector (length m).",
    "mat": "a matrix (n x m).",
    "batch1": "a batch of matrices (b x n x m).",
    "batch2": "a batch of matrices (b x m x p).",
    "beta": "the factor of ``input`` in the sum.",
    "fill_value": "the value every element gets.",
    "start": "the first value (or the end when ``end`` is not given).",
    "end": "the value the sequence stops before (arange) or ends at (linspace).",
    "step": "the difference between consecutive values.",
    "steps": "how many values to produce.",
    "low": "the smallest value drawn (inclusive).",
    "high": "the bound values stay below (exclusive).",
    "mean": "the mean of the normal distribution.",
    "std": "the standard deviation of the normal distribution.",
    "p": "the probability of drawing 1.",
    "min": "the lower bound (a number, a tensor or None).",
    "max": "the upper bound (a number, a tensor or None).",
    "k": "how many elements to take.",
    "largest": "take the largest elements (False: the smallest).",
    "sorted": "return the elements in sorted order.",
    "return_inverse": "also return, per input element, the index of its value in the output.",
    "return_counts": "also return how many times each value occurs.",
    "equal_nan": "count two NaNs as equal.",
    "rtol": "the relative tolerance.",
    "atol": "the absolute tolerance.",
    "diagonal": "which diagonal: 0 the main one, positive above it, negative below.",
    "offset": "which diagonal: 0 the main one, positive above it, negative below.",
    "shape": "the new shape; one entry may be -1 (inferred).",
    "*shape": "the new shape, as ints or one sequence; one entry may be -1 (inferred).",
    "exponent": "the power: a tensor or a number.",
    "weight": "the weight (a number or a tensor).",
    "seed": "the seed (an int).",
    "obj": "the object to test.",
    "data": "the data: a nested list or tuple of numbers, a NumPy array, a tensor or a scalar.",
    "x": "the input tensor.",
    "y": "the second input tensor.",
    "A": "the matrix (or batch of matrices), shape (*, m, n).",
    "B": "the right-hand side, shape (*, m, k).",
    "split_size_or_sections": "the size of each piece (an int) or the list of piece sizes.",
    "chunks": "how many pieces to make.",
    "sections": "how many equal pieces, or the list of indices to split at.",
    "indices_or_sections": "how many equal pieces, or the list of indices to split at.",
    "nan": "what NaN becomes.",
    "posinf": "what +inf becomes (None: the dtype's largest value).",
    "neginf": "what -inf becomes (None: the dtype's smallest value).",
    "decimals": "how many decimal places to round to (negative: to tens, hundreds, ...).",
    "*args": "the arguments, as in the function form.",
    "**kwargs": "the keyword arguments, as in the function form.",
}

# ---- the entries: summary, returns, example code, per-op argument descriptions ----
# A value is (summary, returns, example) or (summary, returns, example, {arg: description}).
# Part 1 (_docstrings_functions): the functions of tensorlib; part 2 (_docstrings_more): the
# methods only Tensor has and the submodules' functions.
# Part 3 (_docstrings_api): tensorlib.cuda, the Array API namespace, Tensor's operators and
# protocol methods, and the two tables of what is not a function: CLASSES and PROPS.
from . import _docstrings_functions as _part1, _docstrings_more as _part2, _docstrings_api as _part3  # noqa: E402

ARGS.update(_part1.ARGS)
ARGS.update(_part2.ARGS)
ARGS.update(_part3.ARGS)
OPS = {**_part1.OPS, **_part2.OPS, **_part3.OPS}
# classes: qualname -> (signature line, summary, example, {arg: description}); the signature line
# is the constructor's call ("Size(sizes=())"), or "class tensorlib.dtype" for what is not built
CLASSES = _part3.CLASSES
# properties: qualname -> (summary, type, example)
PROPS = _part3.PROPS
# entries whose example shows an exception (doctest's traceback form): the tl.cuda examples of what
# needs a device (scripts/gen_docs.py runs them as a build without CUDA, torch's CPU-only build)
RAISES = _part3.RAISES
# entries besides the tl.cuda ones whose example runs as a build without CUDA (they need a device)
CUDA_STATE = _part3.CUDA_STATE
# Array API entries whose example NumPy (the oracle of array_api.*) does not show alike, and why
NOT_NUMPY = _part3.NOT_NUMPY
assert not (set(OPS) & set(CLASSES) or set(OPS) & set(PROPS) or set(CLASSES) & set(PROPS))

# entries whose example prints what torch 2.13 cannot (named tensors, tensorlib's own API)
NOT_TORCH = {"sparse.from_scipy", "gelu", "silu", "mish", "get_printoptions", "Tensor.align_as", "Tensor.align_to",
             "Tensor.refine_names", "Tensor.rename", "Tensor.has_names", "Tensor.astype", "Tensor.to_scipy", "Tensor.to_device",
             "Tensor.is_non_overlapping_and_dense",
             "values_copy", "indices_copy"}  # (torch 2.13 has no sparse kernel for these two: it raises)

NOT_TORCH |= _part3.NOT_TORCH

_INPLACE = "In place: writes the result into ``self`` and returns it. "


def entry(qual):
    """(key, summary, returns, code, arg descriptions) of an op, or None when it has none."""
    name = qual.rsplit(".", 1)[-1]
    for key in (qual, name) if qual.startswith("Tensor.") else (qual,):
        if key in OPS:
            return (key,) + _unpack(OPS[key])
    if name.endswith("_") and not name.endswith("__"):
        base = entry(qual[:-1])
        if base:
            key, summary, _ret, code, args = base
            return key, _INPLACE + summary, "``self``, modified.", code, args
    return None


def _unpack(v):
    return (v[0], v[1], v[2], v[3] if len(v) > 3 else {})


def example_codes():
    """(key, code) of every example."""
    return ([(k, _unpack(v)[2]) for k, v in OPS.items()] + [(k, v[2]) for k, v in CLASSES.items()]
            + [(k, v[2]) for k, v in PROPS.items()])


def _example(key, code, g):
    lines = ["", "Example:"]
    printed_lines = g.OUT.get(key, ())  # () until scripts/gen_docs.py has run the example
    for i, src in enumerate(code.split("\n")):
        printed = printed_lines[i] if i < len(printed_lines) else ""
        lines.append("    >>> " + src)
        if printed:
            lines += ["    " + (s or "<BLANKLINE>") for s in printed.split("\n")]
    return lines


def compose_class(qual, g):
    """The docstring of a public class: its constructor's call, summary, Args, Example."""
    if qual not in CLASSES:
        return None
    sig, summary, code, args = CLASSES[qual]
    lines = [sig, "", summary]
    if args:
        lines += ["", "Args:"] + ["    %s: %s" % (a.lstrip("*"), d) for a, d in args.items()]
    return "\n".join(lines + _example(qual, code, g)) + "\n"


def compose_property(qual, g):
    """The docstring of a property: one line, its type, an example."""
    if qual not in PROPS:
        return None
    summary, typ, code = PROPS[qual]
    return "\n".join([summary, "", "Type:", "    " + typ] + _example(qual, code, g)) + "\n"


# where tensorlib (and torch) support less than the spec's sparse column says, by op name
SPARSE_NOTE = {"angle": "works on the compressed layouts (CSR, CSC, BSR, BSC), on the stored values; COO is "
                        "refused, as in torch"}

_NAME_RULE = {
    "keeps_input_names": "the result keeps ``input``'s dim names.",
    "unifies_names": "the operands' names unify from the last dim on (None matches any name).",
    "removes_dims": "the names of the dims the op consumes are dropped; the others stay.",
    "none": "accepted; the result carries no names of its own (an in-place form keeps ``self``'s).",
    "factory": "``names=`` names the result's dims.",
    "see_docs": "see the summary above.",
    "aligns_mask_then_unifies": "the mask is aligned to ``input`` by name, then the names unify.",
    "resize_same_shape_only": "a named tensor can only be resized to its own shape.",
    "out_semantics": "``self`` keeps its names; the source's must unify with them.",
}


def compose(qual, g):
    """The docstring of one public callable, or None when the table has no entry for it.
    g: the generated columns (scripts/gen_docs.py): SIG, RULE, SPARSE by qualname, OUT by entry."""
    found = entry(qual)
    if not found:
        return None
    key, summary, returns, code, own = found
    sig, params = g.SIG[qual]
    name = qual.rsplit(".", 1)[-1]

    lines = [sig, "", summary]
    if params:
        lines += ["", "Args:"]
        for p in params:
            lines.append("    %s: %s" % (p.lstrip("*"), own.get(p) or ARGS.get(p) or ARGS.get(p.lstrip("*"), "")))
    lines += ["", "Returns:", "    " + returns]
    twin = name if qual.startswith("Tensor.") else "Tensor." + name if qual == name else None  # the twin
    rule = g.RULE.get(qual) or g.RULE.get(twin)
    if rule:
        lines += ["", "Named tensors: " + _NAME_RULE.get(rule, rule)]
    sparse = g.SPARSE.get(qual) or g.SPARSE.get(twin)
    sparse = sparse and SPARSE_NOTE.get(name.rstrip("_"), sparse)
    if sparse:
        lines += ["", "Sparse: " + sparse + "."]
    if qual != name and not key.startswith("Tensor."):  # a method sharing a function's entry: input is self
        lines = [line.replace("``input``", "``self``") for line in lines]
    lines += _example(key, code, g)
    return "\n".join(lines) + "\n"

