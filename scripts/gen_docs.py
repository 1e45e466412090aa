"""Composes tensorlib's docstrings into tensorlib/_docgen.py.

    .venv/bin/python scripts/gen_docs.py [--check] [--spec PATH/ops.tsv]

tensorlib/_docstrings.py holds what a person writes per op (summary, argument and return
descriptions, the example's code). This script adds what can be derived and composes each
public function's and Tensor method's docstring (_docstrings.compose):
  SIG      qualname -> (signature line, parameter names): the signature scripts/gen_stubs.py
           builds for the .pyi stubs (one source), annotations dropped, real defaults where known;
  RULE     qualname -> the named-tensor rule and SPARSE qualname -> the sparse support, from the
           spec's op inventory (../shared/spec/ops.tsv beside the repository), kept in
           scripts/doc_rules.tsv so that the script runs without the spec;
  OUT      entry -> what each line of the entry's example prints, run here with tensorlib and
           checked against torch 2.13 running the same lines (printing `torch` for `tensorlib`):
           a difference is reported unless the entry is in _docstrings.NOT_TORCH (named tensors,
           which torch 2.13 dropped, and tensorlib's own API).
  the Array API entries (array_api.*) are checked against NumPy's Array API namespace
  (array_api_compat.numpy) instead, line by line by value (same_value); the tl.cuda ones run with
  tensorlib.cuda as a build without CUDA (example_state), as torch's CPU-only build answers.
The public classes (_docstrings.CLASSES) and properties (PROPS; Tensor's and the other classes')
are composed too (compose_class, compose_property).
qualname: "add" for tensorlib.add, "Tensor.add" for the method, "cuda.init", "array_api.sum",
"Generator.manual_seed", "Tensor.shape". The output holds only the finished strings, so that import
does no composing; those of the modules that load on first use (LAZY_OWNERS) go to
tensorlib/_docgen_lazy.py, which `import tensorlib` does not read. --check exits 1 when the committed file
differs; tests/test_docstrings.py runs the doctests. Run scripts/gen_stubs.py afterwards: it reads
a C function's signature from the first line of its (new) docstring.
"""
import argparse
import ast
import contextlib
import importlib.util
import inspect
import io
import os
import re
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
_spec = importlib.util.spec_from_file_location("gen_stubs", os.path.join(ROOT, "scripts", "gen_stubs.py"))
gen_stubs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_stubs)

import tensorlib as tl  # noqa: E402
from tensorlib import _docstrings as D  # noqa: E402

OUT_PATH = os.path.join(ROOT, "tensorlib", "_docgen.py")
# the owners whose modules load on first use keep their docstrings apart, out of `import tensorlib`
LAZY_PATH = os.path.join(ROOT, "tensorlib", "_docgen_lazy.py")
LAZY_OWNERS = ("cuda", "array_api", "array_api.linalg", "array_api.fft")
DEFAULT_SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "ops.tsv")
# torch's defaults of the common arguments, for signatures that know only that there is one
COMMON_DEFAULTS = {"out": None, "alpha": 1, "beta": 1, "rounding_mode": None, "dtype": None, "keepdim": False,
                   "generator": None, "device": None, "layout": None, "requires_grad": False, "pin_memory": False,
                   "names": None, "value": 1}
# defaults that neither inspect nor a signature line knows, by qualname
QUAL_DEFAULTS = {"Tensor.__dlpack__": dict.fromkeys(("stream", "max_version", "dl_device", "copy"))}
_RET_NAMES = {"_int": "int", "_bool": "bool", "_float": "float", "_complex": "complex", "_DType": "dtype"}


def _known_defaults(obj, name):
    """Real default values by parameter name, from inspect or a `name(args)` docstring line."""
    params = gen_stubs._python_signature(obj) if obj is not None else None
    if params is None and obj is not None:
        params = (gen_stubs._doc_signature(obj, name) or (None, None))[0]
    known = {p.name: p.default for p in params or () if p.default is not p.empty and p.default is not Ellipsis}
    return {**COMMON_DEFAULTS, **known}


def _render(name, stub_sig, defaults, method):
    """`name(a, b=1, *, out=None) -> Ret` and the parameter names, from a stub signature."""
    sig, _, _ = stub_sig.partition("  #")
    fn = ast.parse("def f%s: ..." % sig).body[0]
    a = fn.args
    parts, names = [], []

    def one(arg, default):
        if arg.arg == "self":
            return
        names.append(arg.arg)
        text = arg.arg
        if default is not None:
            known = repr(defaults[arg.arg]) if arg.arg in defaults else "..."
            text += "=" + ("..." if " at 0x" in known else known)
        parts.append(text)

    pos = a.posonlyargs + a.args
    pos_defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for arg, d in zip(a.posonlyargs, pos_defaults):
        one(arg, d)
    if a.posonlyargs and [p for p in a.posonlyargs if p.arg != "self"]:
        parts.append("/")
    for arg, d in zip(a.args, pos_defaults[len(a.posonlyargs):]):
        one(arg, d)
    if a.vararg:
        names.append("*" + a.vararg.arg)
        parts.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        parts.append("*")
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        one(arg, d)
    if a.kwarg:
        names.append("**" + a.kwarg.arg)
        parts.append("**" + a.kwarg.arg)
    ret = ast.unparse(fn.returns) if fn.returns is not None else "Any"
    ret = _RET_NAMES.get(ret, ret).replace("_int", "int").replace("_bool", "bool")
    line = "%s(%s)" % (name, ", ".join(parts)) + ("" if ret == "Any" else " -> " + ret)
    return line, tuple(names)


# the submodules documented too: qualname prefix -> module
SUBMODULES = {"linalg": "tensorlib.linalg", "fft": "tensorlib.fft", "special": "tensorlib.special",
              "sparse": "tensorlib.sparse", "signal.windows": "tensorlib.signal.windows",
              "nn.functional": "tensorlib.nn.functional", "testing": "tensorlib.testing", "cuda": "tensorlib.cuda",
              "array_api": "tensorlib.array_api", "array_api.linalg": "tensorlib.array_api.linalg",
              "array_api.fft": "tensorlib.array_api.fft"}
# the operators and protocol methods of Tensor that help() users call (tensorlib's own, not object's)
TENSOR_DUNDERS = sorted(n for n in gen_stubs.TENSOR_DUNDERS if n != "__init__" and (
    n in vars(tl.Tensor) or n in vars(tl._C.TensorBase)))
_DEFAULT_RETURN = {m: d for m, _, d in gen_stubs.MODULES}


def public_callables():
    """(qualname, object, is_method) of every public function of tensorlib and its SUBMODULES and
    method of Tensor."""
    out = []
    for prefix, modname in [("", "tensorlib")] + [(k + ".", v) for k, v in SUBMODULES.items()]:
        mod = importlib.import_module(modname)
        for name in gen_stubs._public_names(mod):
            obj = getattr(mod, name)
            if not isinstance(obj, type) and gen_stubs._is_function(obj) and not isinstance(obj, type(tl)):
                out.append((prefix + name, obj, False))
    T = tl.Tensor
    for name in sorted(dir(T)):
        if name.startswith("_"):
            continue
        member = inspect.getattr_static(T, name)
        if isinstance(member, (property, type)) or not callable(getattr(T, name)) or inspect.isdatadescriptor(member):
            continue
        out.append(("Tensor." + name, getattr(T, name), True))
    out += [("Tensor." + name, getattr(T, name), True) for name in TENSOR_DUNDERS]
    out += [(qual, obj, True) for qual, obj, kind in class_members() if kind != "property"]
    return out


# members of the public classes not documented one by one: the context-manager and decorator
# protocol (each class's docstring and example show it)
CLASS_PROTOCOL = {"__enter__", "__exit__", "__call__", "clone"}


def class_members():
    """(qualname, member, kind) of the public methods ("method", "static": a staticmethod, as
    getattr gives it) and properties ("property": the descriptor) of the public classes other than
    Tensor, the exceptions and the named tuples (whose fields their class documents):
    "Generator.manual_seed", "finfo.eps"."""
    out = []
    for qual, cls in public_classes():
        if cls is tl.Tensor or issubclass(cls, BaseException) or (issubclass(cls, tuple) and hasattr(cls, "_fields")):
            continue
        seen = set()
        for klass in cls.__mro__:
            if not klass.__module__.startswith("tensorlib"):
                continue
            for name, member in sorted(vars(klass).items()):
                if name.startswith("_") or name in seen or name in CLASS_PROTOCOL:
                    continue
                seen.add(name)
                if isinstance(member, property) or inspect.isdatadescriptor(member):
                    out.append(("%s.%s" % (qual, name), member, "property"))
                elif isinstance(member, staticmethod):
                    out.append(("%s.%s" % (qual, name), getattr(cls, name), "static"))
                elif callable(member):
                    out.append(("%s.%s" % (qual, name), getattr(cls, name), "method"))
    return out


def public_classes():
    """(qualname, class) of every public class of tensorlib (Tensor, dtype, Size, ...; the
    return_types of the multi-result ops as "return_types.sort") and of the SUBMODULES."""
    out = []
    for prefix, modname in [("", "tensorlib")] + [(k + ".", v) for k, v in SUBMODULES.items()]:
        mod = importlib.import_module(modname)
        for name in gen_stubs._public_names(mod):
            obj = getattr(mod, name)
            if isinstance(obj, type) and (prefix == "" or getattr(tl, name, None) is not obj):
                out.append((prefix + name, obj))
    rt = tl.return_types
    out += [("return_types." + name, getattr(rt, name)) for name in sorted(vars(rt)) if not name.startswith("_")]
    return out


def public_properties():
    """(qualname, descriptor) of every public property of Tensor ("Tensor.shape") and of the other
    public classes ("finfo.eps")."""
    out = []
    for name in sorted(dir(tl.Tensor)):
        member = inspect.getattr_static(tl.Tensor, name)
        if not name.startswith("_") and (isinstance(member, property) or inspect.isdatadescriptor(member)):
            out.append(("Tensor." + name, member))
    return out + [(qual, member) for qual, member, kind in class_members() if kind == "property"]


def signatures():
    sig = {}
    for qual, obj, method in public_callables():
        owner, _, name = qual.rpartition(".")
        if method and owner != "Tensor":  # a method of another class (Generator.manual_seed)
            static = not hasattr(obj, "__self__") and inspect.isfunction(obj) and isinstance(
                inspect.getattr_static(dict(public_classes())[owner], name), staticmethod)
            stub = gen_stubs._signature(qual, name, obj, "Any", not static)
            defaults = {**COMMON_DEFAULTS, **_known_defaults(obj, name)}
        elif method:
            base = name[:-1] if name.endswith("_") else name
            module_fn = vars(tl).get(name, vars(tl).get(base))
            stub = gen_stubs._signature(qual, name, obj, "Tensor", True, module_fn)
            defaults = {**_known_defaults(module_fn, name), **_known_defaults(obj, name), **QUAL_DEFAULTS.get(qual, {})}
        else:
            modname = SUBMODULES.get(owner, "tensorlib")
            stub = gen_stubs._signature("%s.%s" % (modname, name), name, obj, _DEFAULT_RETURN[modname], False)
            defaults = _known_defaults(obj, name)
            if not owner:  # a module form of a method (tl.flatten), an in-place form (tl.round_): their twins'
                base = name[:-1] if name.endswith("_") else name
                for twin in (getattr(tl.Tensor, name, None), getattr(tl, base, None), getattr(tl.Tensor, base, None)):
                    defaults = {**_known_defaults(twin, base), **defaults}
        sig[qual] = _render(name, stub, defaults, method)
    return sig


_SPARSE_WORDS = {
    "zero_preserving_unary_all_layouts": "works on every sparse layout (COO, CSR, CSC, BSR, BSC), on the stored "
                                         "values; the result keeps the layout",
    "coo_supported": "accepts sparse COO tensors",
    "accepts_sparse": "accepts sparse tensors",
    "sparse_method": "a method of sparse tensors",
    "sparse_function": "a function of the sparse layouts",
}


def spec_columns(path):
    """RULE and SPARSE by qualname, from the spec's ops.tsv (tensorlib.add is "add")."""
    rule, sparse = {}, {}
    with open(path) as f:
        next(f)
        for line in f:
            op, _scope, _listed, name_rule, sp = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
            qual = op[len("tensorlib."):] if op.startswith("tensorlib.") else op
            if name_rule:
                rule[qual] = name_rule
            if sp:
                words = []
                for part in sp.split("; "):
                    words.append(_SPARSE_WORDS.get(part, part.replace("linalg: ", "")))
                sparse[qual] = "; ".join(words)
    return rule, sparse


def example_globals():
    """The names an example may use: ``tl`` (tensorlib) and ``xp`` (its Array API namespace)."""
    import tensorlib.array_api as xp
    return {"tl": tl, "xp": xp}


@contextlib.contextmanager
def example_state(key):
    """What an entry's example runs under, here and in tests/test_docstrings.py: the tl.cuda
    examples (and D.CUDA_STATE's) see tensorlib.cuda as a build without its CUDA backend (what torch's CPU-only build
    answers, on every machine: with or without a GPU, the examples print the same)."""
    if not (key.startswith("cuda.") or key in D.CUDA_STATE):
        yield
        return
    import tensorlib.cuda as c
    saved = c._backend, c._looked, c._initialized
    c._backend, c._looked, c._initialized = None, True, False
    try:
        yield
    finally:
        c._backend, c._looked, c._initialized = saved


def _exception_text(e):
    """The lines doctest expects for an exception (the stack elided)."""
    import traceback
    return "Traceback (most recent call last):\n  ...\n" + traceback.format_exception_only(type(e), e)[-1].rstrip("\n")


def run_lines(code, module, key="", env=None, values=None):
    """What each line of an example prints, run as an interactive session with `tl` bound (or the
    names of env). An entry of D.RAISES may raise: the line prints the exception as doctest shows
    it. values: a list that gets each line's displayed value (None when it shows nothing)."""
    env = dict(env or {"tl": module})
    module.manual_seed(0)  # as the doctest does: the random examples print torch's numbers
    out = []
    hook = sys.displayhook

    def record(value):
        if value is not None and values is not None:
            values[-1] = value
        hook(value)
    try:
        with example_state(key):
            for line in code.split("\n"):
                buf = io.StringIO()
                if values is not None:
                    values.append(None)
                sys.displayhook = record
                try:
                    with contextlib.redirect_stdout(buf):
                        exec(compile(line + "\n", "<example>", "single"), env)  # (a one-line with: needs the newline)
                except Exception as e:  # noqa: BLE001 - shown only where the entry says it raises
                    if key not in D.RAISES:
                        raise
                    buf.write(_exception_text(e))
                finally:
                    sys.displayhook = hook
                out.append(buf.getvalue().rstrip("\n"))
    finally:  # the global settings some examples change
        module.set_default_device(None)
        module.set_default_dtype(module.float32)
        module.set_printoptions(profile="default")
    return tuple(out)


def same_value(got, want):
    """Whether tensorlib's displayed value equals NumPy's (the Array API oracle): arrays by shape,
    dtype and values (float32 closeness; NumPy's default float64 stands for tensorlib's default
    float32 -- the standard leaves the default floating dtype to the library), tuples item by item."""
    import numpy as np
    if isinstance(got, tl.Tensor):
        if not isinstance(want, (np.ndarray, np.generic)):
            return False
        g, w = np.asarray(got.cpu()), np.asarray(want)
        if g.dtype != w.dtype and not (g.dtype, w.dtype) in ((np.float32, np.float64), (np.complex64, np.complex128)):
            return False
        if g.shape != w.shape:
            return False
        if g.dtype.kind in "fc":
            return bool(np.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True))
        return bool(np.array_equal(g, w))
    if isinstance(got, (tuple, list)):  # a list of arrays where NumPy gives a tuple (meshgrid): alike
        return isinstance(want, (tuple, list)) and len(got) == len(want) and all(map(same_value, got, want))
    if isinstance(got, tl.dtype):
        try:
            pair = (str(got).split(".")[-1], np.dtype(want).name)
        except TypeError:
            return False
        return pair[0] == pair[1] or pair in (("float32", "float64"), ("complex64", "complex128"))
    if isinstance(got, float) and isinstance(want, (float, np.floating)) and got != got:
        return want != want
    if isinstance(got, bool) or isinstance(want, (bool, np.bool_)):
        return isinstance(got, bool) and isinstance(want, (bool, np.bool_)) and got == bool(want)
    try:
        return bool(got == want)
    except Exception:  # noqa: BLE001
        return False


def examples(report):
    """What each entry's example prints with tensorlib; a difference from torch (when it is
    installed) goes into report."""
    try:
        import torch
    except ImportError:  # TENSORLIB_NO_TORCH environments: the outputs are still tensorlib's
        torch = None
    try:
        import array_api_compat.numpy as npx
    except ImportError:  # not installed: the outputs are still tensorlib's
        npx = None
    out = {}
    for key, code in D.example_codes():
        array_api = key.startswith("array_api.")
        got_values = []
        try:
            got = run_lines(code, tl, key, example_globals(), got_values)
        except Exception as e:  # noqa: BLE001 - reported, the entry's example must be fixed
            report.append("%s: tensorlib raised %s: %s" % (key, type(e).__name__, e))
            continue
        if array_api and npx is not None:  # the oracle is the standard, as NumPy implements it (array_api_compat's numpy
            want_values = []  # namespace: NumPy's own where it conforms, its adaptation where not)
            try:
                run_lines(code, tl, key, {"xp": npx}, want_values)
            except Exception as e:  # noqa: BLE001
                want_values = ["NumPy raised %s: %s" % (type(e).__name__, e)]
            if key not in D.NOT_NUMPY and (len(got_values) != len(want_values) or not all(
                    map(same_value, got_values, want_values))):
                report.append("%s: tensorlib shows %r, NumPy %r" % (key, got_values, want_values))
            out[key] = got
            continue
        if torch is None:
            out[key] = got
            continue
        try:
            with warnings.catch_warnings():  # torch's deprecation notes
                warnings.simplefilter("ignore")
                want = run_lines(code, torch, key)
        except Exception as e:  # noqa: BLE001 - tensorlib-only API
            want = ("torch raised %s: %s" % (type(e).__name__, e),)
        want = tuple(w.replace("torch.", "tensorlib.") for w in want)
        if got != want and key not in D.NOT_TORCH:
            report.append("%s: tensorlib prints %r, torch %r" % (key, got, want))
        out[key] = got
    return out


RULES_PATH = os.path.join(ROOT, "scripts", "doc_rules.tsv")


def rules_text(spec_path):
    """scripts/doc_rules.tsv's text from the spec: the public callables' name rules and sparse support."""
    quals = {q for q, _, _ in public_callables()}
    rule, sparse = spec_columns(spec_path)
    rows = sorted((q, rule.get(q, ""), sparse.get(q, "")) for q in set(rule) | set(sparse) if q in quals)
    return "# op\tname_rule\tsparse  (generated by scripts/gen_docs.py from the spec's ops.tsv)\n" + "".join(
        "%s\t%s\t%s\n" % row for row in rows)


def rule_columns():
    """RULE and SPARSE by qualname, from scripts/doc_rules.tsv."""
    rule, sparse = {}, {}
    with open(RULES_PATH) as f:
        for line in f:
            if not line.startswith("#"):
                q, r, sp = line.rstrip("\n").split("\t")
                if r:
                    rule[q] = r
                if sp:
                    sparse[q] = sp
    return rule, sparse


class Columns:
    """What _docstrings.compose reads besides the table; OUT only when a report list is given
    (the examples are run)."""

    def __init__(self, report=None):
        self.SIG = signatures()
        self.RULE, self.SPARSE = rule_columns()
        self.OUT = examples(report) if report is not None else {}


def documented():
    """(qualname, object) of each public callable that carries its own docstring: a method that is
    the module function itself (one Python function bound in both places) carries the function's."""
    out, seen = [], set()
    for qual, obj, method in public_callables():
        name = qual.rsplit(".", 1)[-1]
        if qual != name and not method and (getattr(tl, name, None) is obj or id(obj) in seen):
            continue  # tl.linalg.matrix_power is tl.matrix_power, xp.linalg.matmul xp.matmul: one docstring
        if not method:
            seen.add(id(obj))
        if method and getattr(tl, name, None) is obj:
            continue
        out.append((qual, obj))
    return out


def generate(report):
    g = Columns(report)
    docs = []
    for kind, compose in ((documented(), D.compose), (public_classes(), D.compose_class),
                          (public_properties(), D.compose_property)):
        for qual, _obj in kind:
            doc = compose(qual, g)
            if doc is None:
                report.append("%s: no entry in tensorlib/_docstrings.py" % qual)
            else:
                docs.append((qual, doc))
    groups = {}
    for qual, doc in sorted(docs):
        owner, _, name = qual.rpartition(".")
        groups.setdefault(owner, []).append((name, doc))
    head = ['"""The docstrings of the public functions, classes, Tensor methods and properties, composed by',
            "scripts/gen_docs.py from the table in _docstrings.py, the stub signatures, the spec's name rules",
            "and sparse support, and the examples' printed output: do not edit. tensorlib/_docattach.py",
            "attaches them; those of tensorlib.cuda and tensorlib.array_api are in _docgen_lazy.py, read at",
            "their own import. DOC: owner (\"\" for tensorlib, \"Tensor\", \"linalg\", \"cuda\", \"array_api.fft\",",
            "\"return_types\", ...) -> name -> docstring.\"\"\"", "# flake8: noqa", "DOC = {"]
    files = {}
    def lazy(owner):  # a lazily loaded module or a class of one ("cuda.Stream")
        return any(owner == o or owner.startswith(o + ".") for o in LAZY_OWNERS)
    for path, owners in ((OUT_PATH, [o for o in sorted(groups) if not lazy(o)]),
                         (LAZY_PATH, [o for o in sorted(groups) if lazy(o)])):
        lines = list(head)
        for owner in owners:
            lines.append("    %r: {" % owner)
            lines += ["        %r: %r," % kv for kv in groups[owner]]
            lines.append("    },")
        files[path] = "\n".join(lines + ["}", ""])
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--spec", default=DEFAULT_SPEC)
    args = ap.parse_args()
    outputs = []
    if os.path.exists(args.spec):
        outputs.append((RULES_PATH, rules_text(args.spec)))
    report = []
    files = generate(report)
    for path, text in outputs + list(files.items()):
        old = open(path).read() if os.path.exists(path) else None
        if args.check and old != text:
            sys.exit("%s is stale: run scripts/gen_docs.py" % path)
        if old != text and not args.check:
            with open(path, "w") as f:
                f.write(text)
    for r in report:
        print("gen_docs:", r, file=sys.stderr)
    print("%s: %d docstrings, %d problems" % (
        " + ".join(map(os.path.basename, files)), sum(t.count("\n        '") for t in files.values()), len(report)))
    sys.exit(1 if report else 0)


if __name__ == "__main__":
    main()
