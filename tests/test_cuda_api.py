"""tensorlib.cuda without a usable GPU (this machine and CI): lazy loading, torch's answers
and errors, the CUDA module's build and registration interface, and the host/device element
math of csrc/kernels/hd_math.h run on the CPU (the formulas the CUDA launcher runs)."""
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch

import tensorlib as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
no_gpu = pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here")


def _run(code):
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_import_does_not_load_cuda():
    out = _run("import sys, tensorlib as tl\n"
               "tl.zeros(2) + 1; repr(tl.ones(3))\n"
               "print('tensorlib.cuda' in sys.modules, 'tensorlib._C_cuda' in sys.modules)\n"
               "tl.cuda.device_count()\n"
               "print('tensorlib.cuda' in sys.modules)")
    assert out.split() == ["False", "False", "True"]


def _expected_error():
    """torch's exception for 'CUDA cannot be used' in this build's situation."""
    if tl.cuda.is_built():  # built, but no driver or no device: torch's CUDA build raises this
        return RuntimeError, r"Found no NVIDIA driver|No CUDA GPUs are available"
    return AssertionError, "Torch not compiled with CUDA enabled"


@no_gpu
def test_queries_without_gpu():
    assert tl.cuda.is_available() is False
    assert tl.cuda.device_count() == 0
    assert tl.cuda.is_initialized() is False
    for f in (tl.cuda.memory_allocated, tl.cuda.max_memory_allocated, tl.cuda.memory_reserved,
              tl.cuda.max_memory_reserved):
        assert f() == 0
    assert tl.cuda.empty_cache() is None
    tl.cuda.reset_peak_memory_stats()
    tl.cuda.manual_seed(0)
    tl.cuda.manual_seed_all(1)
    assert tl.cuda.is_initialized() is False


@no_gpu
@pytest.mark.parametrize("call", [
    lambda: tl.zeros(2, device="cuda"),
    lambda: tl.empty(2, 3, device="cuda:0"),
    lambda: tl.ones(1, device=tl.device("cuda")),
    lambda: tl.tensor([1.0], device="cuda"),
    lambda: tl.zeros(2).cuda(),
    lambda: tl.zeros(2).to("cuda"),
    lambda: tl.arange(3).to(tl.device("cuda", 0)),
    lambda: tl.cuda.init(),
    lambda: tl.cuda.current_device(),
    lambda: tl.cuda.synchronize(),
    lambda: tl.cuda.get_device_name(),
    lambda: tl.cuda.get_device_properties(0),
    lambda: tl.cuda.get_device_capability(),
    lambda: tl.cuda.set_device(0),
])
def test_cuda_use_raises_torchs_error(call):
    exc, msg = _expected_error()
    with pytest.raises(exc, match=msg):
        call()
    assert tl.cuda.is_initialized() is False


@pytest.mark.skipif(torch.version.cuda is not None, reason="the oracle is a CPU-only torch build")
def test_not_built_matches_cpu_torch():
    """Without the CUDA module tensorlib answers like a CPU-only torch build (the oracle here)."""
    out = _run("import sys; sys.modules['tensorlib._C_cuda'] = None\n"
               "import tensorlib as tl, torch\n"
               "def err(f):\n"
               "    try: f()\n"
               "    except BaseException as e: return (type(e).__name__, str(e))\n"
               "pairs = [(lambda: tl.zeros(2, device='cuda'), lambda: torch.zeros(2, device='cuda')),\n"
               "         (lambda: tl.zeros(2).cuda(), lambda: torch.zeros(2).cuda()),\n"
               "         (tl.cuda.current_device, torch.cuda.current_device),\n"
               "         (tl.cuda.get_device_name, torch.cuda.get_device_name)]\n"
               "print(all(err(a) == err(b) and err(a) is not None for a, b in pairs), tl.cuda.is_built(),\n"
               "      tl.cuda.is_available(), tl.cuda.device_count())")
    assert out.split() == ["True", "False", "False", "0"]


def test_other_device_types_still_refused():
    with pytest.raises(RuntimeError, match="no backend is loaded for device type 'mps'"):
        tl.zeros(2, device="mps")


def _nvcc_present():
    return os.environ.get("TENSORLIB_CUDA") != "0" and (
        shutil.which("nvcc") or os.path.isfile("/usr/local/cuda/bin/nvcc"))


@pytest.mark.skipif(not _nvcc_present(), reason="no nvcc: the CUDA module is not built")
def test_cuda_module_built_and_registration_interface():
    import tensorlib._C_cuda as m
    assert tl.cuda.is_built()
    assert m.device_count() == tl.cuda.device_count()
    if not tl.cuda.is_available():
        assert m.device_count() == 0
        with pytest.raises(RuntimeError, match=r"Found no NVIDIA driver|No CUDA GPUs are available"):
            m.init()
    # the core's capsule is versioned and refuses other objects
    assert "_backend_api" in dir(tl._C)
    with pytest.raises(ValueError):
        m.register(object())


# --- host/device element math (csrc/kernels/hd_math.h) on the CPU -------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.5, 2.5, 1e-30, -3e38, 88.0, 89.0, -104.0, 710.0, math.inf, -math.inf, math.nan]
INTS = [0, 1, -1, 7, -9, 2**62, -2**63, 2**63 - 1, 123456789]
BINARY = {"ADD": torch.add, "SUB": torch.sub, "MUL": torch.mul, "DIV": torch.div}
UNARY = {"NEG": torch.neg, "ABS": torch.abs, "EXP": None}


def _pairs(values):
    a = [x for x in values for _ in values]
    b = [y for _ in values for y in values]
    return a, b


def _same(got, want, exact):
    g, w = np.asarray(got.tolist(), dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert np.array_equal(np.isnan(g), np.isnan(w))
    ok = ~np.isnan(w)
    if exact:
        assert np.array_equal(g[ok], w[ok]) and np.array_equal(np.signbit(g[ok]), np.signbit(w[ok]))
    else:
        np.testing.assert_allclose(g[ok], w[ok], rtol=2e-7 if got.dtype == tl.float32 else 1e-15)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(BINARY))
def test_hd_binary_float(op, dtype):
    a, b = _pairs(SPECIAL)
    ta, tb = tl.tensor(a, dtype=getattr(tl, dtype)), tl.tensor(b, dtype=getattr(tl, dtype))
    npd = np.dtype(dtype)
    with np.errstate(all="ignore"):  # the IEEE answer, computed in the dtype itself
        want = {"ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "DIV": np.divide}[op](
            np.array(a, npd), np.array(b, npd))
    got = tl._C._hd_apply(op, ta, tb)
    assert got.dtype == ta.dtype and got.shape == ta.shape
    _same(got, want, exact=True)


@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL"])
def test_hd_binary_int64_wraps_like_torch(op):
    a, b = _pairs(INTS)
    got = tl._C._hd_apply(op, tl.tensor(a), tl.tensor(b))
    want = BINARY[op](torch.tensor(a), torch.tensor(b))
    assert got.dtype == tl.int64 and got.tolist() == want.tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(UNARY))
def test_hd_unary_float(op, dtype):
    x = np.array(SPECIAL, np.dtype(dtype))
    with np.errstate(all="ignore"):
        want = {"NEG": np.negative, "ABS": np.abs, "EXP": np.exp}[op](x)
    got = tl._C._hd_apply(op, tl.tensor(SPECIAL, dtype=getattr(tl, dtype)))
    _same(got, want, exact=op != "EXP")


@pytest.mark.parametrize("op", ["NEG", "ABS"])
def test_hd_unary_int64_wraps_like_torch(op):
    got = tl._C._hd_apply(op, tl.tensor(INTS))
    assert got.tolist() == UNARY[op](torch.tensor(INTS)).tolist()


def test_hd_refusals():
    with pytest.raises(RuntimeError, match="not defined for int64"):
        tl._C._hd_apply("DIV", tl.tensor([1]), tl.tensor([1]))
    with pytest.raises(RuntimeError, match="not defined for int64"):
        tl._C._hd_apply("EXP", tl.tensor([1]))
    with pytest.raises(RuntimeError, match="support float32, float64 and int64"):
        tl._C._hd_apply("ADD", tl.tensor([1], dtype=tl.int32), tl.tensor([1], dtype=tl.int32))
    with pytest.raises(RuntimeError, match="contiguous operands"):
        tl._C._hd_apply("ADD", tl.ones(2, 2).t(), tl.ones(2, 2))
    with pytest.raises(ValueError, match="unknown backend binary op"):
        tl._C._hd_apply("POW", tl.ones(2), tl.ones(2))
