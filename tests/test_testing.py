"""tensorlib.testing.assert_close against torch.testing.assert_close: same pass/fail, same
exception class, same message (module name aside)."""
import math

import numpy as np
import pytest

import tensorlib as tl
from tensorlib.testing import assert_close

torch = pytest.importorskip("torch")

NAN, INF = math.nan, math.inf


def T(lib, data, dtype="float32", t=False):
    x = lib.tensor(np.array(data, dtype=dtype if dtype != "bfloat16" else "float32"))
    if dtype == "bfloat16":
        x = x.to(lib.bfloat16)
    return x.t() if t else x


# (actual, expected, kwargs): data given as (data, dtype[, transposed]) tuples become tensors of
# each library; other values pass as they are
CASES = [
    (([1., 2., 3.],), ([1., 2.5, 3.],), {}),
    (([1, 2, 3], "int64"), ([1, 4, 3], "int64"), {}),
    (([1., 2.],), ([1., 2., 3.],), {}),
    (([1., 2.],), ([1., 2.], "float64"), {}),
    (([1., 2.],), ([1., 2.1],), {"rtol": 0.1, "atol": 0}),
    (([1., 2.],), ([1., 2.1],), {"rtol": 0.1}),
    (([[1., 2.], [3, 4]],), ([[1., 2.], [3, 5]],), {"msg": "custom"}),
    (([True], "bool"), ([False], "bool"), {}),
    (([1 + 1j], "complex64"), ([1 + 2j], "complex64"), {}),
    (([[1., 2.], [3., 4.]], "float32", True), ([[1., 3.], [2., 4.]],), {"check_stride": True}),
    (([[1., 2.], [3., 4.]], "float32", True), ([[1., 3.], [2., 4.]],), {}),
    (([0., 1.],), ([1e-9, 1.],), {}),
    (([1., INF],), ([1., INF],), {}),
    (([1., INF],), ([1., -INF],), {}),
    (([NAN, 1.],), ([NAN, 1.],), {}),
    (([NAN, 1.],), ([NAN, 1.],), {"equal_nan": True}),
    (([1., 2.],), ([1, 2], "int64"), {}),
    (([1., 2.],), ([1, 2], "int64"), {"check_dtype": False}),
    (([1.],), ([1.1], "float64"), {"check_dtype": False}),
    ((1.0, "float32"), (2.0, "float32"), {}),
    ((5, "int64"), (6, "int64"), {}),
    (([[0., 0], [0, 0]],), ([[0., 0], [0, 1]],), {}),
    (([1., 2.], "float16"), ([1.01, 2.], "float16"), {}),
    (([1., 2.], "bfloat16"), ([1.1, 2.], "bfloat16"), {}),
    (([2 ** 60], "int64"), ([-2 ** 62], "int64"), {}),
    (([250], "uint8"), ([3], "uint8"), {}),
    (([1, 2], "int64"), ([1, 3], "int64"), {"rtol": 0.5, "atol": 0}),
    (([1, 2], "int32"), ([1, 3], "int8"), {"check_dtype": False}),
    (([], "float32"), ([], "float32"), {}),
    (([0.],), ([-0.],), {}),
    (([0., 0.],), ([0., 1e-3],), {}),
    (([[1., 2., 3.], [4., 5., 6.]],), ([[1., 2., 3.], [4., 5., 6.5]],), {"rtol": 0, "atol": 0}),
]


def _build(lib, spec):
    if isinstance(spec, tuple):
        return T(lib, *spec)
    return spec


def _outcome(fn, *args, **kw):
    try:
        fn(*args, **kw)
        return None, None
    except Exception as e:  # noqa: BLE001 - class and text are compared
        return type(e), str(e)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_tensor_pairs_match_torch(case):
    a, e, kw = CASES[case]
    got = _outcome(assert_close, _build(tl, a), _build(tl, e), **kw)
    want = _outcome(torch.testing.assert_close, _build(torch, a), _build(torch, e), **kw)
    assert got[0] is want[0], (got, want)
    if want[1] is not None:
        assert got[1] == want[1].replace("torch.", "tensorlib."), (got[1], want[1])


PY_CASES = [
    (1.0, 1.5, {}), (1, 2, {}), (1, 1.0, {}), (1.0, 1.0 + 1e-8, {}), (1j, 1j + 1e-8, {}), (None, None, {}),
    (None, 1, {}), (True, False, {}), (True, True, {}), ([1, 2], [1, 2, 3], {}), ((1, 2), [1, 2], {}),
    ({"a": 1, "b": 2}, {"a": 1, "c": 2}, {}), ("a", "a", {}), (1, 2, {"rtol": 1, "atol": 0}), (1, 1, {"rtol": 0, "atol": 0}),
    (2.0, 1.0, {"rtol": 0, "atol": 0}), ([1.0, [2.0, {"k": 3.0}]], [1.0, [2.0, {"k": 3.5}]], {}),
]


@pytest.mark.parametrize("case", range(len(PY_CASES)))
def test_python_values_match_torch(case):
    a, e, kw = PY_CASES[case]
    got = _outcome(assert_close, a, e, **kw)
    want = _outcome(torch.testing.assert_close, a, e, **kw)
    assert got == want


def test_nested_containers_of_tensors_name_the_item():
    a = [tl.tensor([1.]), [tl.tensor([1.]), {"k": tl.tensor([2.])}]]
    e = [tl.tensor([1.]), [tl.tensor([1.]), {"k": tl.tensor([3.])}]]
    with pytest.raises(AssertionError, match=r"The failure occurred for item \[1\]\[1\]\['k'\]$"):
        assert_close(a, e)
    with pytest.raises(AssertionError, match="^Xtensor"):
        assert_close(tl.tensor([1.]), tl.tensor([2.]), msg=lambda m: "X" + m.lower())


def test_numpy_arrays_and_mixing():
    assert_close(np.array([1., 2.]), np.array([1., 2.]))
    with pytest.raises(AssertionError, match="Tensor-likes are not close"):
        assert_close(np.array([1., 2.]), np.array([1., 2.5]))
    with pytest.raises(TypeError, match="No comparison pair"):
        assert_close(tl.tensor([1.]), np.array([1.]))


def test_names_do_not_block_value_comparison():
    a = tl.ones(2, 3, names=("N", "C"))
    assert_close(a, tl.ones(2, 3))
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 6"):
        b = tl.ones(2, 3)
        b[1, 2] = 2
        assert_close(a, b)
