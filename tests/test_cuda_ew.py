"""Element-wise ops on CUDA tensors, the whole dispatch path (device rule, promotion,
allocation, out= and in-place checks, the index calculator, the backend's strided
element-wise entry) on the host-memory stand-in backend of tests/_fake_cuda.py, whose entry is
the core's host runner of the hd_math.h formulas the CUDA kernel runs. Each section runs
tests/_fake_cuda_ew.py in a subprocess (a registration lasts for its process) and compares
every result with tensorlib's CPU result of the same call and with torch 2.13."""
import pytest

import tensorlib as tl
from _grid import run_grid


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (tests/test_cuda.py runs on it)")
@pytest.mark.parametrize("section", ["unary", "binary", "mixed", "errors", "geometry", "copies", "xops", "xparams", "cmath", "cspecial"])
def test_elementwise_on_stand_in_backend(section):
    assert run_grid("_fake_cuda_ew.py", section) > 10
