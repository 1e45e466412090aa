"""Module-level forms of Tensor methods, storage sharing and the small Tensor predicates
(is_set_to, is_same_size, is_nonzero, to_dense, ravel, detach_), against torch 2.13."""
import os
import sys

import numpy as np
import pytest

import tensorlib as tl
from _oracle import make, noncontig, pair, same, torch

CALLS = [
    ("transpose", (0, 1)), ("permute", ((1, 0, 2),)), ("reshape", ((6, -1),)), ("squeeze", ()),
    ("unsqueeze", (1,)), ("narrow", (2, 1, 2)), ("select", (1, -1)), ("diagonal", (0, 0, 1)),
    ("flatten", ()), ("flatten", (1,)), ("movedim", (0, 2)), ("moveaxis", (2, 0)), ("swapaxes", (0, 2)),
    ("swapdims", (1, 2)), ("clone", ()), ("detach", ()), ("ravel", ()), ("unflatten", (2, (2, 2))),
    ("as_strided", ((2, 2), (1, 2), 1)),
]


@pytest.mark.parametrize("name,args", CALLS)
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_module_form_matches_torch(name, args, layout):
    if layout == "contiguous":
        x, t = pair(make((2, 3, 4)))
    else:
        x, t = noncontig((2, 3, 4))
    r, e = getattr(tl, name)(x, *args), getattr(torch, name)(t, *args)
    same(r, e, strides=True)
    # views stay views, copies stay copies, exactly where torch's do
    assert (r.data_ptr() == x.data_ptr() or r._storage_ptr() == x._storage_ptr()) == \
        (e.untyped_storage().data_ptr() == t.untyped_storage().data_ptr())


@pytest.mark.parametrize("name,args", [("chunk", (2, 1)), ("split", (2, 2)), ("unbind", (0,)),
                                       ("tensor_split", (3, 1))])
def test_module_form_sequences(name, args):
    x, t = pair(make((2, 3, 4)))
    rs, es = getattr(tl, name)(x, *args), getattr(torch, name)(t, *args)
    assert len(rs) == len(es)
    for r, e in zip(rs, es):
        same(r, e, strides=True)


@pytest.mark.parametrize("name", ["abs_", "neg_", "exp_", "sin_", "floor_", "sqrt_", "zero_"])
def test_module_inplace_forms(name):
    x, t = pair(make((3, 4)))
    x, t = x.abs(), t.abs()
    r, e = getattr(tl, name)(x), getattr(torch, name)(t)
    assert r is x and e is t
    np.testing.assert_allclose(x.numpy(), t.numpy(), rtol=1e-6)


def test_module_form_scalar_queries():
    x, t = pair(make((2, 3), "int16"))
    assert tl.is_signed(x) == torch.is_signed(t)
    assert tl.is_signed(tl.zeros(1, dtype=tl.uint8)) is False
    assert tl.get_device(x) == t.get_device() == -1
    assert tl.is_same_size(x, x.t()) == torch.is_same_size(t, t.t())


def test_module_form_rejects_non_tensor():
    with pytest.raises(TypeError, match="must be Tensor"):
        tl.transpose([1, 2], 0, 1)


def test_module_form_keeps_names():
    x = tl.zeros(2, 3, names=("N", "C"))
    assert tl.transpose(x, "N", "C").names == ("C", "N")
    assert tl.select(x, "N", 0).names == ("C",)


def test_is_set_to():
    x, t = pair(make((2, 3)))
    for fx, ft in [(lambda a: a, lambda a: a), (lambda a: a[:], lambda a: a[:]), (lambda a: a.t(), lambda a: a.t()),
                   (lambda a: a.view(3, 2), lambda a: a.view(3, 2)), (lambda a: a[1:], lambda a: a[1:]),
                   (lambda a: a.clone(), lambda a: a.clone())]:
        assert x.is_set_to(fx(x)) == t.is_set_to(ft(t))
    with pytest.raises(TypeError):
        x.is_set_to(3)


@pytest.mark.parametrize("value", [[0.5], [0.0], [[3]], [True], []])
def test_is_nonzero(value):
    x, t = tl.tensor(value), torch.tensor(value)
    try:
        expected = torch.is_nonzero(t)
    except RuntimeError as e:
        with pytest.raises(RuntimeError, match=str(e)):
            tl.is_nonzero(x)
    else:
        assert tl.is_nonzero(x) == expected


def test_to_dense_ravel_detach_inference():
    x, t = pair(make((2, 3)))
    assert x.to_dense() is x and t.to_dense() is t
    same(x.to_dense(tl.float64), t.to_dense(torch.float64))
    for fx, ft in [(lambda a: a, lambda a: a), (lambda a: a.t(), lambda a: a.t())]:
        r, e = fx(x).ravel(), ft(t).ravel()
        same(r, e, strides=True)
        assert (r._storage_ptr() == x._storage_ptr()) == (e.untyped_storage().data_ptr() ==
                                                            t.untyped_storage().data_ptr())
    assert x.detach_() is x and t.detach_() is t
    assert x.is_inference() is False and t.is_inference() is False


def test_share_memory_keeps_values_and_views():
    x = tl.arange(10.)
    v = x[2:5]
    assert not x.is_shared()
    assert x.share_memory_() is x
    assert x.is_shared() and v.is_shared()
    x[3] = 42
    np.testing.assert_array_equal(v.numpy(), [2, 42, 4])
    np.testing.assert_array_equal(x.numpy(), np.r_[0, 1, 2, 42, 4:10].astype(np.float32))
    assert x.share_memory_() is x  # already shared: no-op


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux", reason="needs fork")
def test_share_memory_is_seen_by_a_forked_child():
    y = tl.zeros(4, dtype=tl.int64).share_memory_()
    pid = os.fork()
    if pid == 0:  # child: write and leave without running any Python cleanup
        y[1] = 7
        os._exit(0)
    os.waitpid(pid, 0)
    assert y.tolist() == [0, 7, 0, 0]


def test_share_memory_refusals_leave_tensor_intact():
    a = np.ones(3)
    t = tl.from_numpy(a)
    with pytest.raises(RuntimeError, match="owned by another library"):
        t.share_memory_()
    assert not t.is_shared() and t.data_ptr() == a.ctypes.data
    x = tl.ones(3)
    m = memoryview(x.numpy())
    with pytest.raises(RuntimeError, match="exports"):
        x.share_memory_()
    del m
    s = tl.ones(3).share_memory_()
    with pytest.raises(RuntimeError, match="not resizable"):
        s.resize_(100)
    assert s.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("shape,fmt", [((2, 3, 1, 1), "channels_last"), ((2, 1, 4, 4), "channels_last"),
                                       ((1, 3, 1, 5), "channels_last"), ((1, 1, 1, 1), "channels_last"),
                                       ((2, 3, 1, 1, 1), "channels_last_3d"), ((2, 1, 4, 4, 2), "channels_last_3d")])
def test_to_memory_format_restrides_like_torch(shape, fmt):
    # torch's to() aliases only when suggest_memory_format() already equals the requested
    # format; with size-1 dims a contiguous tensor may be channels_last "contiguous" too, yet
    # to() still re-strides it (contiguous() does not)
    x, t = tl.empty(shape), torch.empty(shape)
    f, g = getattr(tl, fmt), getattr(torch, fmt)
    assert x.to(memory_format=f).stride() == t.to(memory_format=g).stride()
    assert x.contiguous(memory_format=f).stride() == t.contiguous(memory_format=g).stride()
    assert x.double(memory_format=f).stride() == t.double(memory_format=g).stride()
    y, u = x.to(memory_format=f), t.to(memory_format=g)
    assert y.to(memory_format=tl.contiguous_format).stride() == u.to(memory_format=torch.contiguous_format).stride()


def test_to_contiguous_format_aliases_transposed_like_torch():
    x, t = tl.ones(3, 4).t(), torch.ones(3, 4).t()
    assert x.to(memory_format=tl.contiguous_format).stride() == t.to(memory_format=torch.contiguous_format).stride()
