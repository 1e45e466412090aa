"""scripts/fuzz.py, the random-call fuzzer (issue 13): a few seconds of it on every run, and
its own machinery -- classifying a call's outcome, catching a worker that dies -- checked on
calls whose outcome is known. The long run is documented in docs/reliability.md."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("hypothesis")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fuzz  # noqa: E402

import tensorlib as tl  # noqa: E402


def test_short_fuzz_run_finds_nothing(tmp_path):
    # a fixed number of calls (not seconds): the same calls on every machine, fast or loaded
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "fuzz.py"), "--calls", "3000", "--batch", "1000",
                        "--seed", "1", "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert p.returncode == 0, p.stdout + p.stderr
    assert summary["calls"] >= 100 and summary["findings"] == {}


def _env():
    env = {}
    exec(fuzz.PRELUDE, env)
    return env


def test_outcomes_are_classified():
    env = _env()
    assert fuzz.run_one(tl, env, ["fn", "add", ["tl.ones(2)", "1"], {}]) is None
    assert fuzz.run_one(tl, env, ["fn", "add", ["tl.ones(2)", "'a'"], {}]) is None       # a TypeError is fine
    kind, detail = fuzz.run_one(tl, env, ["fn", "no_such_function", [], {}])
    assert kind == "bad-exc" and detail.startswith("AttributeError")
    # A call that raises after writing into its argument is a half-write.
    fake = type("FakeModule", (), {})()
    fake.zeros, fake.bad = tl.zeros, lambda x: (x.fill_(7), 1 // 0)
    env["tl"] = fake
    kind, detail = fuzz.run_one(tl, env, ["fn", "bad", ["tl.zeros(2)"], {}])
    assert kind == "half-write" and detail.startswith("ZeroDivisionError")
    assert fuzz.render(["method", "add", ["tl.ones(2)", "1"], {"alpha": "2"}]) == "(tl.ones(2)).add(1, alpha=2)"

def test_a_dying_call_is_caught_and_replayed():
    spec = ["fn", "abs", ["__import__('os').abort()"], {}]
    assert fuzz.replay(spec, 60, 4) == "crash"
    assert fuzz.replay(["fn", "abs", ["tl.ones(2)"], {}], 60, 4) is None
    assert fuzz.render(spec) == "tl.abs(__import__('os').abort())"


def test_sparse_arguments_and_sub_modules_are_covered():
    names = {n for _, n in fuzz.targets()}
    assert {"linalg.inv", "fft.fft", "sparse.mm", "array_api.matmul", "sparse_csr_tensor"} <= names
    env = _env()
    # a sparse argument's components count for half-writes
    fake = type("FakeModule", (), {})()
    fake.bad = lambda s: (s.values().fill_(7), 1 // 0)
    env["tl"] = fake
    env["_s"] = tl.ones(2, 2).to_sparse_csr()
    kind, _ = fuzz.run_one(tl, env, ["fn", "bad", ["_s"], {}])
    assert kind == "half-write"
    # a LinAlgError is a RuntimeError: allowed
    env["tl"] = tl
    assert fuzz.run_one(tl, env, ["fn", "linalg.inv", ["tl.zeros(2, 2)"], {}]) is None
    # the sparse constructors get generated components
    import random
    d = fuzz.Chooser(None)
    d.rng = random.Random(0)
    args = fuzz.sparse_ctor_args(d, "csr")
    assert len(args) >= 3 and all(isinstance(a, str) for a in args)
