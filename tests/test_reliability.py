"""Issue 13's reproducers: views whose extents overflow, failing calls that wrote into their
inputs, calls that left the interpreter with a stale exception, and exception classes that
differ from torch 2.13's. Each case failed (or crashed) before the fix."""
import pytest

import tensorlib as tl

I64 = 2 ** 63 - 1


# ---- size, stride, offset and extent arithmetic -------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: tl.zeros(1, dtype=tl.uint8).as_strided((5,), (2 ** 62,)),
    lambda: tl.arange(8.).as_strided((3,), (1,), I64),
    lambda: tl.arange(8.).as_strided((1,), (1,), 2 ** 62),      # byte offset wraps
    lambda: tl.zeros(2).as_strided((0,), (1,), I64),             # even when empty
    lambda: tl.zeros(2).as_strided((2, 2), (2 ** 62, 2 ** 62)),
    lambda: tl.arange(8.)[1::2][::2 ** 62],                      # stride * step wraps
    lambda: tl.ones(4).unfold(0, 1, 2 ** 62),
    lambda: tl.empty((0, 2 ** 62, 2 ** 62)),                     # contiguous strides wrap
    lambda: tl.empty((2 ** 62, 0, 2 ** 62)),                     # zero-length dims multiply as 1
    lambda: tl.empty_strided((0, 2), (2 ** 62, 2 ** 62)),
    lambda: tl.zeros(1).expand(2 ** 62, 4),                      # numel wraps
])
def test_overflowing_geometry_is_refused(make):
    with pytest.raises(RuntimeError, match="overflow"):
        make()


@pytest.mark.parametrize("args", [
    (I64, (1,), (1,)),          # offset past the storage
    (4, (2,), (-1,)),           # negative stride reaching before the offset
    (0, (3,), (1,)),            # larger than the storage
    (-1, (1,), (1,)),
    (2 ** 61, (0,), (1,)),      # empty, but the byte offset wraps
])
def test_set_validates_against_the_storage(args):
    x = tl.arange(3.)
    before = (x.shape, x.stride(), x.storage_offset(), x.tolist())
    with pytest.raises(RuntimeError):
        x.set_(tl.zeros(2), *args)
    assert (x.shape, x.stride(), x.storage_offset(), x.tolist()) == before


def test_valid_geometry_still_accepted():
    x = tl.arange(8.)
    assert x.set_(tl.arange(4.), 1, (3,), (1,)).tolist() == [1.0, 2.0, 3.0]
    assert tl.zeros(2).as_strided((0,), (1,), 100).storage_offset() == 100
    assert tl.zeros(1).expand(I64)[::2 ** 51].shape == (4096,)
    assert tl.zeros(1).expand(I64).unsqueeze(0).stride() == (0, 0)
    assert tl.empty((0, 2 ** 40)).shape == (0, 2 ** 40)
    assert tl.arange(8.)[::2 ** 40].tolist() == [0.0]
    assert tl.zeros(3, 4).diagonal(2 ** 62).shape == (0,)
    assert tl.zeros(3, 4).diagonal(-2 ** 63).shape == (0,)
    assert tl.zeros(3, 4).diagonal(-2).tolist() == [0.0]


def test_unfold_at_max_rank():
    with pytest.raises(RuntimeError, match="64"):
        tl.zeros([1] * 64).unfold(0, 1, 1)
