"""softmax / log_softmax, the math constants, in-place views, float_power_, grad modes and
the legacy typed constructors (tensorlib/_compat.py), checked against torch 2.13."""
import math

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def _t(x):
    return torch.from_numpy(np.array(x))


@pytest.mark.parametrize("fname", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -2), ((), 0), ((0, 3), 1),
                                       ((2, 0), 1)])
def test_softmax_matches_torch(fname, dtype, shape, dim):
    rng = np.random.default_rng(0)
    a = np.asarray(rng.standard_normal(shape) * 30).astype(dtype)
    r = getattr(tl, fname)(tl.tensor(a), dim)
    e = getattr(torch, fname)(torch.from_numpy(a), dim)
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    tol = 1e-2 if dtype == "float16" else 1e-5
    np.testing.assert_allclose(r.numpy().astype("float64"), e.numpy().astype("float64"), rtol=tol, atol=tol)
    m = getattr(tl.tensor(a), fname)(dim)  # method form
    np.testing.assert_array_equal(m.numpy(), r.numpy())


def test_softmax_stable_and_dtype():
    x = tl.tensor([[1000.0, 1001.0], [-1000.0, -1001.0]])
    r = tl.softmax(x, 1).numpy()
    assert np.isfinite(r).all()
    np.testing.assert_allclose(r.sum(1), [1.0, 1.0], rtol=1e-6)
    ls = tl.log_softmax(tl.tensor([0.0, -200.0], dtype=tl.float32), 0).numpy()
    np.testing.assert_allclose(ls, [0.0, -200.0], atol=1e-5)  # softmax underflows, log_softmax does not
    i = tl.tensor([1, 2, 3])
    r = tl.softmax(i, 0, dtype=tl.float64)
    assert r.dtype == tl.float64
    np.testing.assert_allclose(r.numpy(), torch.softmax(_t([1, 2, 3]), 0, dtype=torch.float64).numpy())
    assert i.softmax(0, dtype=tl.float32).dtype == tl.float32


@pytest.mark.parametrize("fname", ["softmax", "log_softmax"])
@pytest.mark.parametrize("data,dim", [([1, 2], 0), ([[1, 2]], 0), ([[1, 2]], 1), ([1j], 0)])
def test_softmax_errors_match_torch(fname, data, dim):
    with pytest.raises(NotImplementedError) as e:
        getattr(torch, fname)(torch.tensor(data), dim)
    with pytest.raises(NotImplementedError) as r:
        getattr(tl, fname)(tl.tensor(data), dim)
    assert str(r.value) == str(e.value)


def test_softmax_keeps_names():
    x = tl.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], names=("N", "C"))
    for f in (tl.softmax, tl.log_softmax):
        r = f(x, "C")
        assert r.names == ("N", "C")
        np.testing.assert_allclose(r.rename(None).numpy(), f(x.rename(None), 1).numpy())


def test_constants():
    assert tl.pi == math.pi == torch.pi and tl.e == math.e == torch.e
    assert tl.inf == math.inf and math.isnan(tl.nan) and tl.newaxis is None
    assert tl.zeros(2, 3)[:, tl.newaxis].shape == (2, 1, 3)


@pytest.mark.parametrize("call", [("unsqueeze_", (1,)), ("squeeze_", ()), ("squeeze_", (0,)), ("t_", ()),
                                  ("transpose_", (0, 2)), ("swapdims_", (1, 2)), ("swapaxes_", (0, 1)),
                                  ("as_strided_", ((2, 2), (1, 2), 1))])
def test_inplace_views(call):
    name, args = call
    shape = (1, 4) if name == "t_" else (1, 2, 3)
    a = np.arange(math.prod(shape), dtype="float32").reshape(shape)
    x, y = tl.tensor(a), torch.from_numpy(a.copy())
    rx, ry = getattr(x, name)(*args), getattr(y, name)(*args)
    assert rx is x and ry is y
    assert tuple(x.shape) == tuple(y.shape) and x.stride() == y.stride()
    assert x.storage_offset() == y.storage_offset()
    np.testing.assert_array_equal(x.numpy(), y.numpy())


def test_inplace_view_shares_storage_and_refuses_names():
    x = tl.zeros(2, 3)
    v = x[0]
    x.t_()
    x[1, 0] = 5.0
    assert v[1].item() == 5.0
    with pytest.raises(RuntimeError, match="named tensors"):
        tl.zeros(2, names=("N",)).unsqueeze_(0)


def test_float_power_():
    x = tl.tensor([1.0, 2.0, 3.0], dtype=tl.float64)
    assert x.float_power_(2) is x
    np.testing.assert_array_equal(x.numpy(), [1.0, 4.0, 9.0])
    with pytest.raises(RuntimeError) as e:
        torch.ones(2).float_power_(2)
    with pytest.raises(RuntimeError) as r:
        tl.ones(2).float_power_(2)
    assert str(r.value) == str(e.value)


def test_grad_modes():
    assert tl.is_grad_enabled() and not tl.is_inference_mode_enabled()
    with tl.no_grad():
        assert not tl.is_grad_enabled()
        with tl.enable_grad():
            assert tl.is_grad_enabled()
        assert not tl.is_grad_enabled()
    assert tl.is_grad_enabled()

    @tl.no_grad()
    def f(x):
        return tl.is_grad_enabled(), x

    @tl.no_grad
    def g():
        return tl.is_grad_enabled()

    @tl.inference_mode()
    def h():
        return tl.is_inference_mode_enabled(), tl.is_grad_enabled()
    assert f(3) == (False, 3) and g() is False and h() == (True, False)
    assert tl.is_grad_enabled() and not tl.is_inference_mode_enabled()
    with tl.set_grad_enabled(False):
        assert not tl.is_grad_enabled()
    assert tl.is_grad_enabled()
    tl.set_grad_enabled(False)
    assert not tl.is_grad_enabled()
    tl.set_grad_enabled(True)
    assert tl.is_grad_enabled()
    with tl.inference_mode(False):
        assert not tl.is_inference_mode_enabled()


@pytest.mark.parametrize("name", ["FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor",
                                  "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"])
def test_legacy_constructors(name):
    T, U = getattr(tl, name), getattr(torch, name)
    for args in [(5, 7, 3), (), (0,)]:
        r, e = T(*args), U(*args)
        assert tuple(r.shape) == tuple(e.shape) and str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    r, e = T([[1, 0], [2, 3]]), U([[1, 0], [2, 3]])
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
    np.testing.assert_array_equal(r.to(tl.float64).numpy(), e.double().numpy())
    assert isinstance(r, T) and not isinstance(r.to(tl.complex64), T)
    with pytest.raises(TypeError) as ee:
        U(2, "a")
    with pytest.raises(TypeError) as er:
        T(2, "a")
    assert str(er.value) == str(ee.value)


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated:UserWarning")
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool"])
def test_storage_matches_torch(dtype):
    a = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    x, y = tl.tensor(a)[1:, ::2], torch.from_numpy(a.copy())[1:, ::2]
    s, e = x.storage(), y.storage()
    assert len(s) == len(e) == s.size() == e.size() == 12
    assert s.tolist() == e.tolist() and list(s) == list(e) and s[5] == e[5]
    assert s.element_size() == e.element_size() and s.nbytes() == e.nbytes()
    assert s.data_ptr() == x.untyped_storage().data_ptr()
    assert repr(s).replace("tensorlib", "torch") == repr(e)
    base = tl.tensor(a)
    base[1:, ::2].storage()[0] = a.flat[1]  # shares memory with the tensor
    assert base[0, 0].item() == a.flat[1]
