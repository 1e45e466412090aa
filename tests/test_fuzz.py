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
