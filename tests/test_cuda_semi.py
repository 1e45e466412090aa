"""2:4 semi-structured tensors on CUDA (tensorlib/_semi_structured.py): the grid of
tests/_fake_cuda_semi.py (every product form with the 2:4 operand on either side, transposed or
not, mm/matmul/addmm/linear, float16, bfloat16, int8 through the backend's 2:4 entry, float32 as
a host round trip, moving the matrix, errors) on the host-memory stand-in backend of
tests/_fake_cuda.py, whose entry is the core's host runner of the same call: every result must
equal tensorlib's CPU result of the same call, products also torch 2.13's. The script runs in a
subprocess (a registration lasts for its process). With a usable CUDA device the same grid runs
on cuSPARSELt (TL_EW_REAL=1; scripts/gpu_check.sh)."""
import pytest

import tensorlib as tl
from _grid import run_grid


def _run(real):
    assert run_grid("_fake_cuda_semi.py", real=real) > 400


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_semi_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_semi_on_real_device():
    _run(True)
