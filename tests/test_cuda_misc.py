"""masked_scatter_/masked_scatter, unique_consecutive, unique(dim=) and multinomial of CUDA tensors,
composed in the core from the backend's entries (select, index, sort, scan, reduce, random,
element-wise), on the host-memory stand-in backend of tests/_fake_cuda.py whose entries are the
core's host runners of what the CUDA kernels run: every result must equal tensorlib's CPU result
bit for bit (multinomial: the CPU Philox generator's numbers for the same seed, and the same
generator state after), every refusal the CPU's. The grid runs in a subprocess (a registration
lasts for its process). With a usable CUDA device the same grid runs on it (TL_EW_REAL=1;
scripts/gpu_check.sh)."""
import pytest

import tensorlib as tl
from _grid import run_grid


def _run(real):
    assert run_grid("_fake_cuda_misc.py", real=real) > 2500


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_misc_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_misc_on_real_device():
    _run(True)
