"""Random numbers on CUDA tensors: the grid of tests/_fake_cuda_random.py (every sampler x
dtypes x shapes, 0-d, empty and non-contiguous outputs, generators in step, state round
trips, errors) run in a subprocess (a registration lasts for its process). Without a device
it runs on the host-memory stand-in backend of tests/_fake_cuda.py, whose random entry is the
core's host runner of the per-block function the CUDA kernel runs: every CUDA result must
equal, bit for bit, the CPU's Generator(kind="philox") result of the same seed. With a device
(TL_EW_REAL=1, scripts/gpu_check.sh) the same grid runs on the real kernel (csrc/cuda/random.cu),
the float64 transcendental samplers within a few ulps."""
import os
import subprocess
import sys

import pytest

import tensorlib as tl
from _grid import run_grid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ["factories", "inplace", "params", "sequence", "default", "errors", "geometry", "counting"]


def _grid(section, real):
    return run_grid("_fake_cuda_random.py", section, real=real, timeout=600)


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid runs instead)")
@pytest.mark.parametrize("section", SECTIONS)
def test_random_on_stand_in_backend(section):
    assert _grid(section, False) > 3


@pytest.mark.skipif(not tl.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("section", SECTIONS)
def test_random_on_device(section):
    assert _grid(section, True) > 3


def test_cuda_seeding_without_device():
    """Seeding works without a device (the generators live in the core), as torch queues it;
    tl.manual_seed seeds the CUDA generators too."""
    r = subprocess.run([sys.executable, "-c",
                        "import tensorlib as tl\n"
                        "g = tl._C._device_generator(0)\n"
                        "assert g.initial_seed() == 67280421310721 and g.kind == 'philox', g.initial_seed()\n"
                        "tl.cuda.manual_seed(4); assert g.initial_seed() == 4\n"
                        "tl.cuda.manual_seed_all(6); assert tl._C._device_generator(3).initial_seed() == 6\n"
                        "tl.manual_seed(8); assert g.initial_seed() == 8 and tl._C._device_generator(1).initial_seed() == 8\n"
                        "s = tl.seed(); assert g.initial_seed() == s\n"
                        "assert str(g.device) == 'cuda:0'\n"
                        "print(tl.cuda.is_initialized())"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 0, r.stderr[-3000:]
    if not tl.cuda.is_available():
        assert r.stdout.strip() == "False"
