#!/usr/bin/env python3
"""Random API calls against tensorlib, looking for crashes, hangs and broken promises.

hypothesis draws calls -- a public function or Tensor method (or an operator) with arguments
from a pool of tensors (every dtype, 0-d, empty, strided, expanded, transposed, named,
read-only), Python numbers including values beyond 64 bits, None, strings, dtypes, tuples and
keywords -- and each call runs as Python source so that any finding is a runnable reproducer.
Workers run batches in subprocesses (address space limited, so huge sizes fail fast) and log
every call before running it, so the parent knows which call a worker died or hung on.

Findings:
  crash      the worker died from a signal (or an abort)
  hang       the worker ran past its time limit
  bad-exc    an exception class no call may raise: SystemError (a C function returned with an
             exception set, or without one), AttributeError, StopIteration, KeyError, ...
  half-write the call raised, but a tensor argument's storage bytes or geometry changed
A crash or hang is replayed alone in a fresh process and, if it reproduces, shrunk (arguments
simplified, keywords dropped) to a minimal reproducer.

Runs:
  python scripts/fuzz.py --seconds 3                       # the test suite's budget
  nice -n 19 python scripts/fuzz.py --calls 1000000 --jobs 2 --out build/fuzz   # the long run
  python scripts/fuzz.py --seconds 60 --only stft,istft,poisson        # a few new functions
Targets: tl.*, Tensor methods, operators, and tl.linalg/fft/sparse/special/signal.windows/array_api/
nn.functional; tensor
arguments come in every layout (COO, CSR, CSC, BSR, BSC besides strided), and the sparse
constructors get corrupted components half the time.
Findings go to --out as reproducer files (and a summary at the end); the exit status is 1
when anything was found. Same --seed, same calls.
"""
import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Exception classes a call may raise (torch's families, plus warnings turned errors); anything
# else, and SystemError above all, is a finding.
ALLOWED = ("TypeError", "ValueError", "RuntimeError", "IndexError", "NotImplementedError", "OverflowError",
           "OutOfMemoryError", "MemoryError", "BufferError", "UserWarning", "DeprecationWarning", "ZeroDivisionError")

# Functions whose argument checks torch writes as asserts (torch raises AssertionError too)
TORCH_ASSERTS = {"lobpcg"}

# Functions whose effect outlives the call or the process (threads, seeds are fine), or that
# need a real accelerator or file system.
SKIP = {"set_default_device", "set_printoptions", "share_memory_", "cuda", "load", "save", "set_num_threads",
        "set_default_dtype", "set_rng_state", "pin_memory", "numpy", "__array__", "tolist", "storage",
        "untyped_storage", "data_ptr"}

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "bfloat16",
          "float32", "float64", "complex32", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
          "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"]
COMMON = ["float32", "float64", "int64", "int32", "bool", "uint8", "int8", "float16", "bfloat16", "complex64"]
SHAPES = [(), (0,), (1,), (3,), (2, 3), (3, 1), (2, 0, 3), (1, 4, 1), (2, 2, 2), (2, 1, 2, 2)]
EDGE_INTS = [-2 ** 63, -2 ** 31, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 2 ** 31, 2 ** 32, 2 ** 62, 2 ** 63 - 1, 2 ** 63,
             2 ** 64, -2 ** 64]
FLOATS = ["0.0", "-0.0", "1.5", "-2.5", "float('nan')", "float('inf')", "float('-inf')", "1e300", "1e-300"]
STRINGS = ["'a'", "'N'", "'C'", "'sum'", "'mean'", "'floor'", "'trunc'", "'fro'", "'nuc'", "'ij'", "'xy'", "'left'",
           "'right'", "'tanh'", "'ii->i'", "'i,i->'", "'...'", "''", "'cpu'", "'meta'"]
KWARGS = ["dim", "keepdim", "out", "dtype", "inplace", "alpha", "value", "descending", "stable", "largest",
          "sorted", "memory_format", "names", "device", "correction", "unbiased", "rounding_mode", "out_int32",
          "right", "side", "sorter", "indexing", "reduce", "include_self", "accumulate", "as_tuple", "p", "k",
          "diagonal", "offset", "dim1", "dim2", "weight", "min", "max", "approximate", "decimals", "return_inverse",
          "return_counts", "copy", "max_version", "dl_device", "generator", "size", "stride", "storage_offset",
          "start_dim", "end_dim", "steps", "base", "requires_grad", "layout", "output_size", "eps", "nan", "posinf"]
FILLS = ["arange", "zeros", "ones", "special", "rand"]
SPECIALS = ["0.0", "-0.0", "1.5", "-7.25", "float('nan')", "float('inf')", "float('-inf')"]
VARIANTS = ["", "", "", "t", "step", "expand", "unsq", "named", "readonly", "view0", "clone", "sparse", "sparse"]
# sparse layouts of a tensor (compressed ones need 2-D or more; the block ones a blocksize)
SPARSE_CONV = [".to_sparse()", ".to_sparse(1)", ".to_sparse().coalesce()", ".to_sparse_csr()", ".to_sparse_csc()",
               ".to_sparse_bsr((1, 1))", ".to_sparse_bsc((1, 1))", ".to_sparse(layout=tl.sparse_csr)",
               ".to_sparse_bsr((2, 1))", ".to_sparse(layout=tl.sparse_bsc, blocksize=(1, 1))"]
# sub-modules whose public functions are fuzzed too (as tl.<module>.<name>)
SUBMODULES = ["linalg", "fft", "sparse", "special", "signal.windows", "array_api", "array_api.linalg", "array_api.fft",
              "nn.functional"]
# constructors of sparse tensors, fed corrupted components half the time
SPARSE_CTORS = {"sparse_coo_tensor": "coo", "sparse_csr_tensor": "csr", "sparse_csc_tensor": "csc",
                "sparse_bsr_tensor": "bsr", "sparse_bsc_tensor": "bsc", "sparse_compressed_tensor": "csr"}
BAD_INDEX_LISTS = ["[0, 1, 2]", "[0, 2, 1]", "[0, 0, 0]", "[1, 1, 2]", "[0, 3, 2]", "[-1, 0, 2]", "[0, 1]",
                   "[0, 1, 2, 3]", "[0, 2**62, 2]", "[0, 2**63 - 1, 2]", "[[0, 1], [1, 0]]", "[]", "[[0, 5], [1, -1]]",
                   "[[0, 1, 1], [2, 0, 1]]", "[[0], [2**40]]", "[0.0, 1.0, 2.0]", "[True, False, True]"]
SPARSE_SIZES = ["(2, 3)", "(2, 2)", "(1, 1)", "(0, 3)", "(2, 3, 2)", "(2**62, 2**62)", "(-1, 3)", "(3,)", "()",
                "(2, 4)", "(4, 2)", "None"]
VIEW_DTYPES = ["int8", "uint8", "int16", "float16", "int32", "float32"]
BOOLS = ["True", "False"]
INDEXES = ["slice(None, None, 2)", "slice(-1, None)", "slice(1, 2**62, 2**62)", "...", "(0, slice(None))",
           "(None, ...)", "tl.tensor([True, False, True])", "tl.tensor([0, -1, 2])", "[0, 0]"]
FOREIGN = ["1+2j", "complex('nan')", "np.float32(2.5)", "np.int64(-3)", "np.bool_(True)", "np.arange(3)", "b'abcd'",
           "bytearray(8)"]
OBJECTS = ["tl.contiguous_format", "tl.channels_last", "tl.preserve_format", "tl.strided", "tl.device('cpu')",
           "tl.Generator()", "tl.Size([2, 3])"]
OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor", "lshift", "rshift",
             "lt", "le", "eq", "ne", "gt", "ge", "neg", "pos", "abs", "invert", "getitem", "setitem", "iadd",
             "imul", "ifloordiv", "imod", "ipow", "matmul", "index", "bool", "float", "int", "complex", "len",
             "iter", "contains", "hash", "repr", "format"]


# ---- the arguments: every value is Python source ------------------------------------------------

class Chooser:
    """Choices for one call. hypothesis draws the call's target and a seed; the argument
    details come from a generator seeded by it: a hypothesis draw costs ~0.2 ms, more than
    most calls, and a call takes ~15 choices. A failing call is replayable from its source."""

    def __init__(self, draw):
        self.draw, self.rng = draw, None

    def reseed(self):
        self.rng = random.Random(self.num(0, 2 ** 63))

    def pick(self, seq):
        """seq: a module-level list (hypothesis strategies are cached by its identity)."""
        if self.rng:
            return self.rng.choice(seq)
        strat = _PICK.get(id(seq))
        if strat is None:
            from hypothesis import strategies as st
            strat = _PICK[id(seq)] = st.sampled_from(seq)
        return self.draw(strat)

    def num(self, lo, hi):
        if self.rng:
            return self.rng.randint(lo, hi)
        strat = _NUM.get((lo, hi))
        if strat is None:
            from hypothesis import strategies as st
            strat = _NUM[(lo, hi)] = st.integers(lo, hi)
        return self.draw(strat)


_PICK, _NUM = {}, {}

def tensor_src(d):
    """Source of a tensor: a dtype, a shape, values, then a layout variant."""
    dtype = d.pick(COMMON if d.num(0, 1) else DTYPES)
    shape = d.pick(SHAPES)
    n = 1
    for s in shape:
        n *= s
    kind = d.pick(FILLS)
    if kind == "special" and dtype in ("float32", "float64", "float16", "bfloat16", "complex64", "complex128"):
        vals = [d.pick(SPECIALS)
                for _ in range(n)]
        src = f"tl.tensor([{', '.join(vals)}], dtype=tl.{dtype}).reshape({shape})"
    elif kind == "rand":
        src = f"tl.randint(-4, 9, {shape}, generator=tl.Generator().manual_seed({d.num(0, 99)})).to(tl.{dtype})"
    elif kind == "arange":
        src = f"tl.arange({n}).reshape({shape}).to(tl.{dtype})"
    else:
        src = f"tl.{kind}({shape}, dtype=tl.{dtype})"
    variant = d.pick(VARIANTS)
    if variant == "t" and len(shape) >= 2:
        src += ".mT"
    elif variant == "step" and len(shape) >= 1:
        src = f"tl.cat([{src}, {src}], {len(shape) - 1}).narrow({len(shape) - 1}, 0, {2 * shape[-1]})[..., ::2]"
    elif variant == "expand":
        src += f".unsqueeze(0).expand(3, *{shape})"
    elif variant == "unsq":
        src += ".unsqueeze(-1)"
    elif variant == "named" and shape:
        names = ", ".join(repr("ABCD"[i]) for i in range(len(shape)))
        src += f".rename({names})"
    elif variant == "readonly" and dtype in ("float32", "int64", "uint8", "bool", "float64"):
        src = f"tl.from_numpy(_readonly(({src}).numpy()))"
    elif variant == "view0" and dtype != "float4_e2m1fn_x2":
        src += f".view(tl.{d.pick(VIEW_DTYPES)})"
    elif variant == "clone":
        src += ".clone(memory_format=tl.contiguous_format)"
    elif variant == "sparse":
        src += d.pick(SPARSE_CONV)
    return src


def index_src(d):
    """An index tensor for a sparse component: often valid, often not (out of range, unsorted,
    wrong dtype, wrong rank, strided)."""
    dtype = d.pick(["int64", "int64", "int32", "int16", "float32", "uint8"])
    src = f"tl.tensor({d.pick(BAD_INDEX_LISTS)}, dtype=tl.{dtype})"
    v = d.num(0, 5)
    if v == 0:
        src += ".flip(-1)"
    elif v == 1:
        src = f"tl.stack([{src}, {src}], -1)[..., 0]"
    return src


def sparse_ctor_args(d, layout):
    """Arguments of a sparse constructor with components that are sometimes right and often
    corrupted: out-of-range or unsorted indices, mismatched lengths, bad sizes and dtypes."""
    vals = tensor_src(d) if d.num(0, 2) else f"tl.ones({d.pick(['(3,)', '(2,)', '(3, 1, 1)', '(0,)', '(3, 2)'])})"
    if layout == "coo":
        args = [index_src(d), vals]
    else:
        args = [index_src(d), index_src(d), vals]
    if d.num(0, 3):
        args.append(d.pick(SPARSE_SIZES))
    return args


def value_src(d, depth=0):
    pick = d.num(0, 99)
    if pick < 38:
        return tensor_src(d)
    if pick < 55:
        return str(d.num(-3, 7) if d.num(0, 3) else d.pick(EDGE_INTS))
    if pick < 62:
        return d.pick(FLOATS)
    if pick < 67:
        return d.pick(BOOLS)
    if pick < 72:
        return "None"
    if pick < 77:
        return d.pick(STRINGS)
    if pick < 83:
        return "tl." + d.pick(DTYPES)
    if pick < 90 and depth == 0:
        items = [value_src(d, 1) if d.num(0, 1) else str(d.num(-2, 4))
                 for _ in range(d.num(0, 3))]
        if d.num(0, 1):
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if pick < 93:
        return d.pick(INDEXES)
    if pick < 96:
        return d.pick(FOREIGN)
    return d.pick(OBJECTS)


BUILTIN_OPS = ("bool", "float", "int", "complex", "len", "iter", "hash", "repr", "format")


def typed_src(d, typ):
    """A value of a type of tensorlib/_argcheck.py's notation (usually right, sometimes an edge)."""
    optional = typ.endswith("?")
    typ = typ.rstrip("?")
    if optional and d.num(0, 9) == 0:
        return "None"
    if typ in ("Tensor", "TensorOrScalar"):
        return tensor_src(d) if typ == "Tensor" or d.num(0, 3) else d.pick(FLOATS + ["2", "-1", "True"])
    if typ == "Tensor[]":
        items = [tensor_src(d) for _ in range(d.num(1, 3))]
        return "[" + ", ".join(items) + "]"
    if typ in ("int", "Dim"):
        return str(d.num(-2, 3)) if d.num(0, 5) else str(d.pick(EDGE_INTS)) if typ == "int" else d.pick(["'A'", "'N'"])
    if typ in ("int[]", "Dim[]"):
        return "(" + "".join(f"{d.num(-2, 3)}, " for _ in range(d.num(0, 3))) + ")" if d.num(0, 2) else str(d.num(-2, 3))
    if typ == "bool":
        return d.pick(BOOLS)
    if typ in ("float", "Scalar"):
        return d.pick(FLOATS) if d.num(0, 1) else str(d.num(-3, 5))
    if typ == "dtype":
        return "tl." + d.pick(COMMON if d.num(0, 3) else DTYPES)
    if typ == "str":
        return d.pick(STRINGS)
    return value_src(d)


def call_spec(d, targets):
    """[kind, name, [argument sources], {keyword: source}]; a method's self is argument 0.
    Targets with a declared signature get arguments of the declared types most of the time."""
    kind, name = d.pick(targets)
    d.reseed()
    if kind == "fn" and name in SPARSE_CTORS and d.num(0, 1):
        kwargs = {}
        if name == "sparse_compressed_tensor":
            kwargs["layout"] = "tl." + d.pick(["sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "strided"])
        if d.num(0, 2) == 0:
            kwargs[d.pick(["dtype", "check_invariants", "is_coalesced", "device"])] = value_src(d)
        return [kind, name, sparse_ctor_args(d, SPARSE_CTORS[name]), kwargs]
    sig = SIGS.get(name) if kind != "op" and d.num(0, 3) else None
    if sig:
        params = sig.params[1:] if kind == "method" else sig.params
        args, kwargs = [], {}
        for p in params:
            if p.has_default and d.num(0, 2) == 0:
                continue  # left out
            t = p.type + ("?" if p.optional else "")
            v = ", ".join(typed_src(d, t) for _ in range(d.num(1, 3))) if p.varargs else typed_src(d, t)
            if p.kwonly or (p.has_default and d.num(0, 3) == 0):
                kwargs[p.name] = v
            elif len(kwargs) == 0:
                args.append(v)
        if d.num(0, 9) == 0:
            args.append(value_src(d))  # one too many
    else:
        args = [value_src(d) for _ in range(d.num(0, 4))]
        kwargs = {d.pick(KWARGS): value_src(d) for _ in range(d.num(0, 2) * d.num(0, 1))}
    if kind == "method":
        args.insert(0, tensor_src(d))
    elif kind == "op":
        kwargs = {}
        arity = 1 if name in ("neg", "pos", "abs", "invert", "index") + BUILTIN_OPS else 3 if name == "setitem" else 2
        args = [tensor_src(d)] + [value_src(d) for _ in range(arity - 1)]
        if arity == 2 and name != "contains" and d.num(0, 1):
            args.reverse()
    return [kind, name, args, kwargs]


def render(spec, args=None):
    """Python source of the call; `args` (names) replace the argument sources when given."""
    kind, name, srcs, kwargs = spec
    a = list(args if args is not None else srcs)
    kw = [f"{k}={v}" for k, v in zip(kwargs, a[len(srcs):])] if args is not None else \
        [f"{k}={v}" for k, v in kwargs.items()]
    a = a[:len(srcs)]
    if kind == "fn":
        return f"tl.{name}({', '.join(a + kw)})"
    if kind == "method":
        return f"({a[0]}).{name}({', '.join(a[1:] + kw)})"
    return f"{name if name in BUILTIN_OPS else 'operator.' + name}({', '.join(a)})"


SIGS = {}


def targets():
    import tensorlib as tl
    import tensorlib.array_api  # noqa: F401
    from tensorlib import _argcheck
    for line in _argcheck.SIGNATURES.strip().splitlines():
        sig = _argcheck.Signature(line)
        SIGS[sig.name] = sig
    out = [("op", o) for o in OPERATORS]
    for n in dir(tl):
        if not n.startswith("_") and n not in SKIP and callable(getattr(tl, n)) and not isinstance(getattr(tl, n), type):
            out.append(("fn", n))
    for mod in SUBMODULES:
        m = tl
        for part in mod.split("."):
            m = getattr(m, part)
        for n in dir(m):
            f = getattr(m, n)
            if not n.startswith("_") and n not in SKIP and callable(f) and not isinstance(f, type) and \
                    getattr(f, "__module__", "") and not type(f).__name__ == "module":
                out.append(("fn", f"{mod}.{n}"))
    for n in dir(tl.Tensor):
        if (not n.startswith("_") or n in ("__dlpack__", "__dlpack_device__", "__array__", "__index__")) and \
                n not in SKIP and callable(getattr(tl.Tensor, n)):
            out.append(("method", n))
    return sorted(out)


def find_tensorlib():
    """Imports tensorlib from PYTHONPATH when it is there (the sanitizer's build), else from the
    repository's in-place build."""
    import importlib.util
    if importlib.util.find_spec("tensorlib") is None:
        sys.path.insert(0, ROOT)


# ---- running calls --------------------------------------------------------------------------------

PRELUDE = """import operator, warnings
import numpy as np
import tensorlib as tl
import tensorlib.array_api
warnings.simplefilter("ignore")
def _readonly(a):
    a.flags.writeable = False
    return a
"""


def _state(v):
    """What a failing call must leave alone: geometry and bytes of a strided tensor; layout,
    size, flags and the components' states of a sparse one."""
    import tensorlib as tl
    layout = v.layout
    if layout == tl.sparse_coo:
        parts = (v._indices(), v._values(), v.is_coalesced())
    elif layout in (tl.sparse_csr, tl.sparse_bsr):
        parts = (v.crow_indices(), v.col_indices(), v.values())
    elif layout in (tl.sparse_csc, tl.sparse_bsc):
        parts = (v.ccol_indices(), v.row_indices(), v.values())
    else:
        try:
            raw = v.untyped_storage().numpy().tobytes()
        except Exception:
            raw = None
        return [v.shape, v.stride(), v.storage_offset(), v.dtype, v.names, raw]
    return [layout, v.shape, v.dtype] + [_state(p) if isinstance(p, tl.Tensor) else p for p in parts]


def _snapshot(tl, values):
    return [(v, _state(v)) for v in values if isinstance(v, tl.Tensor)]


def _changed(snaps):
    try:
        return any(_state(v) != before for v, before in snaps)
    except Exception:  # an argument no longer reads back: it was damaged
        return True


STATS = {"returned": 0, "raised": 0, "unbuilt": 0}


def run_one(tl, env, spec):
    """Runs one call; returns None or (finding kind, detail). The arguments are built first
    (their own failures are not the call's), then the call runs on them."""
    kind, name, srcs, kwargs = spec
    names = [f"_a{i}" for i in range(len(srcs) + len(kwargs))]
    values = []
    try:
        for n, src in zip(names, srcs + list(kwargs.values())):
            env[n] = eval(src, env)
            values.append(env[n])
        snaps = _snapshot(tl, values)
        call = compile(render(spec, names), "<call>", "eval")
        try:
            eval(call, env)
            STATS["returned"] += 1
        except BaseException as e:  # noqa: BLE001 - classifying is the point
            STATS["raised"] += 1
            cls = type(e).__name__
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            allowed = ALLOWED + (("AssertionError",) if name in TORCH_ASSERTS else ())
            if isinstance(e, SystemError) or not any(c.__name__ in allowed for c in type(e).__mro__):
                return ("bad-exc", f"{cls}: {str(e)[:300]}")
            if _changed(snaps):
                return ("half-write", f"{cls}: {str(e)[:300]}")
        return None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # an argument could not be built
        STATS["unbuilt"] += 1
        return None
    finally:
        for n in names:
            env.pop(n, None)


def worker(args):
    """Draws and runs args.calls calls with hypothesis; logs each before running it."""
    limit_memory(args.mem_gb)
    sys.setrecursionlimit(2000)
    from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st
    find_tensorlib()
    import tensorlib as tl
    env = {}
    exec(PRELUDE, env)
    tgts = targets()
    if args.only:  # names of functions, methods or operators to draw from
        only = set(args.only.split(","))
        tgts = [t for t in tgts if t[1] in only]
    log = open(args.log, "w", buffering=1)
    findings, count = [], [0]
    per_example = 25

    @seed(args.seed)
    @settings(max_examples=-(-args.calls // per_example), database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def batch(data):
        for _ in range(per_example):
            spec = call_spec(Chooser(data.draw), tgts)
            log.write(json.dumps(spec) + "\n")
            count[0] += 1
            f = run_one(tl, env, spec)
            if f:
                findings.append({"kind": f[0], "detail": f[1], "call": spec})
                log.write("#FINDING " + json.dumps(findings[-1]) + "\n")

    batch()
    log.write(f"#DONE {count[0]} {json.dumps(STATS)}\n")
    log.close()


def limit_memory(gb):
    """Limits the address space so that huge sizes fail fast -- except under AddressSanitizer,
    whose shadow memory needs terabytes of address space (its allocator returns NULL instead,
    see scripts/sanitize.sh)."""
    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        resource.setrlimit(resource.RLIMIT_AS, (gb << 30, gb << 30))


def replay(spec, timeout, mem_gb):
    """Runs one call alone in a fresh process: 'crash', 'hang', a finding kind, or None."""
    code = f"import sys; sys.path.insert(0, {HERE!r})\nimport fuzz\nfuzz.find_tensorlib()\n" + PRELUDE + f"fuzz.limit_memory({mem_gb})\n" \
        f"f = fuzz.run_one(tl, globals(), {spec!r})\nprint('FINDING', f[0] if f else None)\n"
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, cwd=HERE)
    except subprocess.TimeoutExpired:
        return "hang"
    if p.returncode != 0:
        return "crash"
    last = p.stdout.strip().splitlines()[-1:] or ["FINDING None"]
    kind = last[0].split()[1]
    return None if kind == "None" else kind


def shrink(spec, kind, timeout, mem_gb):
    """Greedy shrinking: drop keywords and trailing arguments, replace arguments by simpler
    values, as long as the same kind of finding reproduces alone."""
    simpler = ["0", "1", "None", "tl.zeros(())", "tl.zeros(1)", "tl.zeros(2, 3)"]
    changed = True
    while changed:
        changed = False
        k, name, args, kwargs = spec
        cands = [[k, name, args, {a: b for a, b in kwargs.items() if a != drop}] for drop in kwargs]
        if len(args) > (1 if k == "method" else 0) and k != "op":
            cands.append([k, name, args[:-1], kwargs])
        for i, a in enumerate(args):
            cands += [[k, name, args[:i] + [s] + args[i + 1:], kwargs] for s in simpler if len(s) < len(a)]
        for c in cands:
            if replay(c, timeout, mem_gb) == kind:
                spec, changed = c, True
                break
    return spec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=0, help="stop after this many calls (0: use --seconds)")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long")
    ap.add_argument("--batch", type=int, default=5000, help="calls per worker process")
    ap.add_argument("--jobs", type=int, default=1, help="workers at once")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300, help="seconds a batch may take before it counts as a hang")
    ap.add_argument("--mem-gb", type=int, default=6, help="address-space limit of a worker")
    ap.add_argument("--out", default=None, help="directory for reproducers and the summary")
    ap.add_argument("--only", default="", help="comma-separated target names (functions, methods): only those")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--log", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    if not args.calls and not args.seconds:
        args.seconds = 10
    out = args.out or tempfile.mkdtemp(prefix="tlfuzz-")
    os.makedirs(out, exist_ok=True)
    start, done, batches, next_seed = time.time(), 0, 0, args.seed * 100003
    findings, running = [], []

    def budget_left():
        return (not args.calls or done + sum(r[3] for r in running) < args.calls) and \
            (not args.seconds or time.time() - start < args.seconds)

    def launch():
        nonlocal next_seed
        n = args.batch if not args.calls else min(args.batch, args.calls - done - sum(r[3] for r in running))
        if args.seconds and not args.calls:
            n = min(n, max(50, int(args.seconds * 300)))
        log = os.path.join(out, f"batch-{next_seed}.log")
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--seed", str(next_seed), "--calls", str(n),
               "--log", log, "--mem-gb", str(args.mem_gb)] + (["--only", args.only] if args.only else [])
        running.append((subprocess.Popen(cmd, cwd=HERE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE), log,
                        time.time(), n, next_seed))
        next_seed += 1

    while True:
        while len(running) < args.jobs and budget_left():
            launch()
        if not running:
            break
        time.sleep(0.05)
        for r in list(running):
            p, log, t0, n, sd = r
            hung = p.poll() is None and time.time() - t0 > args.timeout
            if p.poll() is None and not hung:
                continue
            if hung:
                p.kill()
            err = p.communicate()[1].decode(errors="replace")
            running.remove(r)
            batches += 1
            lines = open(log).read().splitlines() if os.path.exists(log) else []
            calls = [json.loads(ln) for ln in lines if not ln.startswith("#")]
            done += len(calls)
            for ln in lines:
                if ln.startswith("#FINDING "):
                    findings.append(json.loads(ln[9:]))
            if hung or p.returncode != 0:
                kind = "hang" if hung else "crash"
                suspect = calls[-1] if calls else None
                alone = replay(suspect, 60, args.mem_gb) if calls else None
                f = {"kind": kind, "call": suspect, "seed": sd, "alone": alone, "stderr": err[-2000:]}
                if alone == kind:
                    f["minimized"] = shrink(suspect, kind, 60, args.mem_gb)
                else:
                    f["context"] = calls[-50:]  # depends on earlier calls: the batch's tail replays it
                findings.append(f)
            else:
                os.remove(log)
    elapsed = time.time() - start
    for i, f in enumerate(findings):
        f["source"] = render(f.get("minimized") or f["call"]) if f["call"] else "<no call logged>"
        with open(os.path.join(out, f"finding-{i}-{f['kind']}.py"), "w") as fh:
            context = [f"try:\n    {render(c)}\nexcept Exception:\n    pass" for c in f.get("context", [])[:-1]]
            fh.write(f"# {f['kind']}: {f.get('detail', '')}\n" + PRELUDE + "\n".join(context) +
                     ("\n" if context else "") + f["source"] + "\n")
    kinds = {}
    for f in findings:
        kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    summary = {"calls": done, "batches": batches, "seconds": round(elapsed, 1), "findings": kinds, "out": out}
    with open(os.path.join(out, "summary.json"), "w") as fh:
        json.dump({**summary, "details": findings}, fh, indent=1)
    print(json.dumps(summary))
    for f in findings[:20]:
        print(f"{f['kind']}: {f['source']}  {f.get('detail', '')}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
