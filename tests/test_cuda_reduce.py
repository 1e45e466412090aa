"""Reductions on CUDA tensors, the whole path (torch's dims, dtype, emptiness and out= rules in
the core, the geometry built from the CPU plan, the backend's reduce entry) on the host-memory
stand-in backend of tests/_fake_cuda.py, whose entry is the core's host runner of the
kernels/hd_reduce.h steps the CUDA kernel (csrc/cuda/reduce.cu) runs. Each section runs
tests/_fake_cuda_reduce.py in a subprocess (a registration lasts for its process) and compares
every result with tensorlib's CPU result of the same call and with torch 2.13. With a usable
CUDA device the same grid runs on it (TL_EW_REAL=1; scripts/gpu_check.sh)."""
import os
import subprocess
import sys

import pytest

import tensorlib as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ["basic", "extrema", "logic", "stats", "norm", "dtype_out", "errors", "large"]


def _run(section, real):
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.path.join(ROOT, "tests")}
    if real:
        env["TL_EW_REAL"] = "1"
    r = subprocess.run([sys.executable, "-W", "ignore", os.path.join("tests", "_fake_cuda_reduce.py"), section],
                       cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stderr[-4000:]
    lines = r.stdout.strip().splitlines()
    assert lines[-2] == "failures 0", "\n".join(lines[-62:])
    assert int(lines[-1].split()[1]) > 10, lines[-1]


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
@pytest.mark.parametrize("section", SECTIONS)
def test_reductions_on_stand_in_backend(section):
    _run(section, False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
@pytest.mark.parametrize("section", SECTIONS)
def test_reductions_on_real_device(section):
    _run(section, True)
