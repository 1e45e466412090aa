"""Corner cases found by differential runs against torch 2.13: all/any over an
empty dim list reduce nothing (keepdim and layouts of those results); Tensor.flip's forms."""
import numpy as np
import pytest

import tensorlib as tl
from conftest import assert_same

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("op", ["all", "any"])
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "bool", "complex64", "float16"])
@pytest.mark.parametrize("dims", [(), []])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "0-d"])
def test_all_any_over_no_dims(op, dtype, dims, keepdim, layout):
    a = np.random.default_rng(0).integers(-1, 2, size=(3, 4)).astype(np.float64)
    x, t = tl.from_numpy(a.copy()).to(getattr(tl, dtype)), torch.from_numpy(a.copy()).to(getattr(torch, dtype))
    if layout == "transposed":
        x, t = x.t(), t.t()
    elif layout == "0-d":
        x, t = x[1, 1], t[1, 1]
    r, e = getattr(tl, op)(x, dims, keepdim), getattr(torch, op)(t, dims, keepdim)
    assert_same(r, e)
    assert r.stride() == e.stride()


@pytest.mark.parametrize("call", [lambda x: x.flip(0, 1), lambda x: x.flip([1]), lambda x: x.flip(dims=(0,)),
                                  lambda x: x.flip(1), lambda x: x.flip(0, 0), lambda x: x.flip()])
def test_flip_method_forms(call):
    from conftest import assert_same_outcome
    a = np.arange(6).reshape(2, 3)
    assert_same_outcome(lambda: call(tl.from_numpy(a.copy())), lambda: call(torch.from_numpy(a.copy())),
                        message=True, compare=assert_same)
