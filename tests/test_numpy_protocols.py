"""Mixing tensors and NumPy arrays: operators, ufuncs (__array_ufunc__), functions
(__array_function__) and indexing with ndarrays. The rule (docs/interop.md): results are
tensors computed by tensorlib with torch's promotion, an ndarray operand acting as a tensor;
NumPy functions tensorlib does not implement return what NumPy returns."""
import operator
import warnings

import numpy as np
import pytest

import tensorlib as tl
from tensorlib import _numpy_proto

BINOPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
INT_BINOPS = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]
DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.bool_]


def _np_of(t):
    return np.asarray(t)


def _arrays(dt_t, dt_a):
    rng = np.random.default_rng(0)
    x = (rng.integers(1, 5, (2, 3)) if dt_t != np.bool_ else rng.integers(0, 2, (2, 3))).astype(dt_t)
    y = (rng.integers(1, 5, (3,)) if dt_a != np.bool_ else rng.integers(0, 2, (3,))).astype(dt_a)
    return x, y


def _same_as_tensor_op(op, t, a):
    """op(t, a) with a as a tensor: the answer the ndarray operand must give."""
    try:
        return op(t, tl.as_tensor(a)), None
    except Exception as e:  # noqa: BLE001 - the class is compared
        return None, type(e)


@pytest.mark.parametrize("op", BINOPS + INT_BINOPS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dt_t", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dt_a", [np.float64, np.int64, np.bool_], ids=lambda d: np.dtype(d).name)
def test_operators_with_ndarray_both_sides(op, dt_t, dt_a):
    x, y = _arrays(dt_t, dt_a)
    t = tl.tensor(x)
    for left, right, lt, rt in ((t, y, t, tl.as_tensor(y)), (y, t, tl.as_tensor(y), t)):
        want, exc = None, None
        try:
            want = op(lt, rt)
        except Exception as e:  # noqa: BLE001
            exc = type(e)
        if exc is not None:
            with pytest.raises(exc):
                op(left, right)
            continue
        got = op(left, right)
        assert isinstance(got, tl.Tensor), (op, type(left), type(right))
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        np.testing.assert_array_equal(_np_of(got), _np_of(want))


def test_operator_values_match_numpy():
    x = np.arange(1, 7, dtype=np.float64).reshape(2, 3)
    y = np.array([0.5, 2.0, 4.0])
    t = tl.tensor(x)
    for op in (operator.add, operator.sub, operator.mul, operator.truediv, operator.lt):
        np.testing.assert_array_equal(_np_of(op(t, y)), op(x, y))
        np.testing.assert_array_equal(_np_of(op(y, t)), op(y, x))


def test_ndarray_operand_promotes_as_a_tensor():
    t = tl.ones(3)  # float32
    assert (t + np.ones(3)).dtype == tl.float64           # a float64 tensor operand
    assert (t + np.ones(3, dtype=np.int64)).dtype == tl.float32
    assert (t + np.array(2.0)).dtype == tl.float32        # 0-d: a 0-d tensor does not promote
    assert (tl.ones(3, dtype=tl.uint8) + np.array([300], dtype=np.int64)).dtype == tl.int64


def test_ndarray_operand_non_contiguous_and_negative_strides():
    x = np.arange(12.0).reshape(3, 4)
    t = tl.tensor(x)
    for a in (x.T.copy().T, x[::-1], x[:, ::-2].repeat(2, axis=1), x.astype(">f8")):
        np.testing.assert_array_equal(_np_of(t + a), x + a)
        np.testing.assert_array_equal(_np_of(a - t), a - x)


def test_inplace_operators_stay_in_place():
    t = tl.tensor([1.0, 2.0, 3.0])
    ptr = t.data_ptr()
    u = t
    u += np.array([1.0, 1.0, 1.0])
    assert u is t and t.data_ptr() == ptr
    np.testing.assert_array_equal(_np_of(t), [2.0, 3.0, 4.0])
    a = np.array([1.0, 2.0, 3.0])
    b = a
    b += tl.tensor([1.0, 1.0, 1.0])
    assert b is a and type(b) is np.ndarray
    np.testing.assert_array_equal(a, [2.0, 3.0, 4.0])
    i = tl.tensor([1, 2, 3])
    with pytest.raises(RuntimeError):  # float result into an int tensor: torch's refusal
        i += np.array([0.5, 0.5, 0.5])
    np.testing.assert_array_equal(_np_of(i), [1, 2, 3])


def test_ndarray_operand_errors():
    t = tl.ones(3)
    with pytest.raises(RuntimeError, match="must match the size"):
        t + np.ones(2)
    with pytest.raises(TypeError):  # str arrays stay NumPy's: its UFuncTypeError is a TypeError
        t + np.array(["a", "b", "c"])


def test_names_survive_ndarray_operands():
    t = tl.ones(2, 3, names=("N", "C"))
    assert (t + np.ones(3)).names == ("N", "C")
    assert (np.ones(3) * t).names == ("N", "C")


# ---- ufuncs ----

def test_ufunc_table_entries_exist():
    for np_name, tl_name in _numpy_proto._UFUNCS.items():
        assert isinstance(getattr(np, np_name), np.ufunc), np_name
        assert callable(getattr(tl, tl_name)), tl_name


UNARY_FLOAT = ["negative", "positive", "absolute", "sign", "sqrt", "square", "reciprocal", "exp", "exp2",
               "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
               "sinh", "cosh", "tanh", "arcsinh", "arctanh", "deg2rad", "rad2deg", "floor", "ceil", "trunc",
               "rint", "isnan", "isinf", "isfinite", "signbit", "logical_not"]


@pytest.mark.parametrize("name", UNARY_FLOAT)
def test_unary_ufuncs_run_tensorlib(name):
    x = np.array([[0.25, -0.5, 0.75], [0.1, 0.9, -0.3]], dtype=np.float32)
    t = tl.tensor(x)
    got = getattr(np, name)(t)
    want = getattr(tl, _numpy_proto._UFUNCS[name])(t)
    assert isinstance(got, tl.Tensor) and got.dtype == want.dtype
    np.testing.assert_array_equal(_np_of(got), _np_of(want))
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(x)
    np.testing.assert_allclose(_np_of(got).astype(ref.dtype), ref, rtol=2e-6, atol=1e-6, equal_nan=True)


BINARY_UFUNCS = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power",
                 "arctan2", "hypot", "copysign", "maximum", "minimum", "fmax", "fmin", "equal", "not_equal",
                 "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
                 "logaddexp", "heaviside", "nextafter"]


@pytest.mark.parametrize("name", BINARY_UFUNCS)
def test_binary_ufuncs_run_tensorlib(name):
    x = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
    y = np.array([2.0, -0.5, 3.0])
    t = tl.tensor(x)
    got = getattr(np, name)(t, y)
    want = getattr(tl, _numpy_proto._UFUNCS[name])(t, tl.as_tensor(y))
    assert isinstance(got, tl.Tensor) and got.dtype == want.dtype
    np.testing.assert_array_equal(_np_of(got), _np_of(want))
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(_np_of(got), getattr(np, name)(x, y), rtol=1e-12)
    flipped = getattr(np, name)(y, t)  # the ndarray first: NumPy still hands the call to us
    assert isinstance(flipped, tl.Tensor)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(_np_of(flipped), getattr(np, name)(y, x), rtol=1e-12)


def test_ufunc_scalar_first_and_dtype():
    t = tl.tensor([1, 2, 3], dtype=tl.int32)
    r = np.subtract(10, t)
    assert isinstance(r, tl.Tensor) and r.dtype == tl.int32
    np.testing.assert_array_equal(_np_of(r), [9, 8, 7])
    r = np.sqrt(t)  # tensorlib's promotion: an int tensor's sqrt is the default float dtype
    assert r.dtype == tl.float32
    r = np.sqrt(t, dtype=np.float64)
    assert r.dtype == tl.float64
    np.testing.assert_allclose(_np_of(r), np.sqrt([1.0, 2.0, 3.0]))


def test_ufunc_out_tensor_and_ndarray():
    t = tl.tensor([1.0, 2.0, 3.0])
    o = tl.empty(3)
    assert np.multiply(t, 2.0, out=o) is o
    np.testing.assert_array_equal(_np_of(o), [2.0, 4.0, 6.0])
    a = np.zeros(3)
    assert np.add(t, 1.0, out=a) is a
    np.testing.assert_array_equal(a, [2.0, 3.0, 4.0])
    o2 = tl.zeros(2, 3)  # out= broadcasts the result, as NumPy's out does
    np.add(t, 1.0, out=(o2,))
    np.testing.assert_array_equal(_np_of(o2), [[2.0, 3.0, 4.0]] * 2)


def test_ufunc_fallbacks_return_tensors():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    t = tl.tensor(x)
    r = np.add.reduce(t, axis=0)
    assert isinstance(r, tl.Tensor)
    np.testing.assert_array_equal(_np_of(r), x.sum(0))
    r = np.add.reduce(t, axis=None)  # a NumPy scalar result comes back as a 0-d tensor
    assert isinstance(r, tl.Tensor) and r.dim() == 0 and float(r) == 10.0
    r = np.spacing(t)
    assert isinstance(r, tl.Tensor)
    np.testing.assert_array_equal(_np_of(r), np.spacing(x))
    m, e = np.frexp(t)
    np.testing.assert_array_equal(_np_of(m), np.frexp(x)[0])
    np.testing.assert_array_equal(_np_of(e), np.frexp(x)[1])
    r = np.multiply.outer(t[0], t[1])
    np.testing.assert_array_equal(_np_of(r), np.multiply.outer(x[0], x[1]))
    o = tl.zeros(2, 2)
    np.add(t, 1, out=o, where=np.array([True, False]))  # where= runs in NumPy, in place
    np.testing.assert_array_equal(_np_of(o), [[2.0, 0.0], [4.0, 0.0]])


# ---- functions ----

FUNCS = [
    ("sum", {}), ("sum", {"axis": 1}), ("sum", {"axis": (0, 1), "keepdims": True}), ("sum", {"axis": None, "keepdims": True}),
    ("mean", {}), ("mean", {"axis": 0}), ("prod", {"axis": 1}), ("max", {}), ("amax", {"axis": 0}),
    ("min", {"axis": 1, "keepdims": True}), ("amin", {}), ("std", {}), ("std", {"axis": 0, "ddof": 1}),
    ("var", {"axis": 1}), ("argmax", {}), ("argmax", {"axis": 1}), ("argmin", {"axis": 0}),
    ("cumsum", {}), ("cumsum", {"axis": 0}), ("cumprod", {"axis": 1}), ("any", {}), ("all", {"axis": 0}),
    ("transpose", {}), ("squeeze", {}), ("sort", {}), ("sort", {"axis": 0}), ("argsort", {"kind": "stable"}),
    ("flip", {}), ("flip", {"axis": 1}), ("round", {"decimals": 1}), ("nansum", {}), ("nanmean", {"axis": 0}),
]


@pytest.mark.parametrize("name,kw", FUNCS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(FUNCS)])
def test_functions_run_tensorlib(name, kw):
    x = np.array([[0.5, -2.25, 3.0], [1.75, 0.0, -1.5]])
    if name in ("any", "all"):
        x = x > 0
    t = tl.tensor(x)
    got = getattr(np, name)(t, **kw)
    want = getattr(np, name)(x, **kw)
    assert isinstance(got, tl.Tensor), name
    assert tuple(got.shape) == np.shape(want)
    np.testing.assert_allclose(_np_of(got), want, rtol=1e-12)


def test_join_where_clip_reshape_and_friends():
    x = np.arange(6.0).reshape(2, 3)
    t = tl.tensor(x)
    for got, want in [
        (np.concatenate([t, t]), np.concatenate([x, x])),
        (np.concatenate([t, x], axis=1), np.concatenate([x, x], axis=1)),
        (np.concatenate([t, t], axis=None), np.concatenate([x, x], axis=None)),
        (np.stack([t, t], axis=1), np.stack([x, x], axis=1)),
        (np.where(t > 2, t, -t), np.where(x > 2, x, -x)),
        (np.where(t > 2, 0.0, x), np.where(x > 2, 0.0, x)),
        (np.clip(t, 1, 4), np.clip(x, 1, 4)),
        (np.reshape(t, (3, 2)), np.reshape(x, (3, 2))),
        (np.expand_dims(t, (0, 2)), np.expand_dims(x, (0, 2))),
        (np.dot(t, t.T), np.dot(x, x.T)),
        (np.isclose(t, x + 1e-9), np.isclose(x, x + 1e-9)),
    ]:
        assert isinstance(got, tl.Tensor)
        np.testing.assert_array_equal(_np_of(got), want)
    (rows, cols) = np.where(t > 2)
    np.testing.assert_array_equal(_np_of(rows), np.where(x > 2)[0])
    np.testing.assert_array_equal(_np_of(cols), np.where(x > 2)[1])
    assert np.allclose(t, x) is True


def test_unlisted_functions_run_numpy():
    t = tl.tensor([1.0, 2.0])
    r = np.atleast_2d(t)  # libraries rely on these returning ndarrays
    assert type(r) is np.ndarray and r.shape == (1, 2)
    assert type(np.copy(t)) is np.ndarray
    assert np.shape(t) == (2,) and np.ndim(t) == 0 + 1
    r = np.sum(t, out=np.zeros(()))  # an argument the tensorlib version does not take
    assert type(r) is np.ndarray and float(r) == 3.0


# ---- indexing ----

def test_indexing_with_ndarrays():
    x = np.arange(12).reshape(3, 4)
    t = tl.tensor(x)
    for key in (np.array([0, 2]), np.array([[1], [2]]), np.array([True, False, True]), np.array(1),
                (slice(None), np.array([3, 0])), (np.array([0, 1]), np.array([2, 3])), np.int64(2)):
        got = t[key]
        np.testing.assert_array_equal(_np_of(got), x[key])
    u = t.clone()
    u[np.array([0, 2])] = 0
    y = x.copy()
    y[np.array([0, 2])] = 0
    np.testing.assert_array_equal(_np_of(u), y)
    with pytest.raises(IndexError):
        t[np.array([0.5])]


@pytest.mark.parametrize("dt", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64])
def test_ndarray_integer_indices_are_positions_at_any_width(dt):
    """An integer ndarray indexes by position whatever its width and sign (NumPy's meaning;
    torch 2.13's too except for uint8 ndarrays, which it still reads as deprecated masks, and
    dask indexes its blocks with uint8 arrays): reads and writes."""
    x = np.arange(20.0).reshape(5, 4)
    t = tl.tensor(x)
    for key in (np.array([4, 0, 2], dtype=dt), (slice(None), np.array([[3], [1]], dtype=dt))):
        got = t[key]
        assert got.dtype == tl.float64
        np.testing.assert_array_equal(_np_of(got), x[key])
    u, y = t.clone(), x.copy()
    u[np.array([0, 2], dtype=dt)] = -1.0
    y[np.array([0, 2], dtype=dt)] = -1.0
    np.testing.assert_array_equal(_np_of(u), y)
    if np.dtype(dt).kind == "i":
        np.testing.assert_array_equal(_np_of(t[np.array([-1], dtype=dt)]), x[[-1]])
    if dt is not np.uint8:  # a list of NumPy integer scalars: positions too (of uint8 ones, a mask as in torch)
        np.testing.assert_array_equal(_np_of(t[[dt(4), dt(1)]]), x[[4, 1]])


def test_integer_index_tensors_keep_torchs_rules(torch):
    """Tensors as indices: uint8 is a mask, int64/int32 positions, other integer dtypes are
    refused with torch's IndexError."""
    x = np.arange(20.0).reshape(5, 4)
    t, tt = tl.tensor(x), torch.tensor(x)
    mask = np.array([1, 0, 1, 0, 1], dtype=np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's deprecation of uint8 masks
        expected = tt[torch.from_numpy(mask)].numpy()
    np.testing.assert_array_equal(_np_of(t[tl.from_numpy(mask)]), expected)
    for name in ("int8", "int16", "uint16", "uint32", "uint64"):
        with pytest.raises(IndexError) as e_torch:
            tt[torch.tensor([0, 2], dtype=getattr(torch, name))]
        with pytest.raises(IndexError) as e:
            t[tl.tensor([0, 2], dtype=getattr(tl, name))]
        assert str(e.value) == str(e_torch.value), name
