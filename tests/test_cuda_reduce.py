"""Reductions on CUDA tensors, the whole path (torch's dims, dtype, emptiness and out= rules in
the core, the geometry built from the CPU plan, the backend's reduce entry) on the host-memory
stand-in backend of tests/_fake_cuda.py, whose entry is the core's host runner of the
kernels/hd_reduce.h steps the CUDA kernel (csrc/cuda/reduce.cu) runs. Each section runs
tests/_fake_cuda_reduce.py in a subprocess (a registration lasts for its process) and compares
every result with tensorlib's CPU result of the same call and with torch 2.13. With a usable
CUDA device the same grid runs on it (TL_EW_REAL=1; scripts/gpu_check.sh)."""
import pytest

import tensorlib as tl
from _grid import run_grid

SECTIONS = ["basic", "extrema", "logic", "stats", "norm", "dtype_out", "errors", "large"]


def _run(section, real):
    assert run_grid("_fake_cuda_reduce.py", section, real=real) > 10


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
@pytest.mark.parametrize("section", SECTIONS)
def test_reductions_on_stand_in_backend(section):
    _run(section, False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
@pytest.mark.parametrize("section", SECTIONS)
def test_reductions_on_real_device(section):
    _run(section, True)
