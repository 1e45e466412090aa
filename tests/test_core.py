"""Tensor attributes and Python protocols, checked against torch 2.13.

size/stride/storage_offset/data_ptr/element_size/nbytes/itemsize/is_contiguous (with
memory formats), dim/numel/len/iter/bool/int/float/index, item, tolist, pickle and
deepcopy round trips (with names), and the autograd attributes answered honestly.
"""
import copy
import operator
import pickle

import numpy as np
import pytest

import tensorlib as tl
from conftest import (ALL_DTYPE_NAMES, REGULAR_DTYPE_NAMES, SHAPES, assert_same, assert_same_outcome, dtype_name,
                      make_pair, tl_dtype, torch_dtype)

torch = pytest.importorskip("torch")


def _views(x):
    """The same family of views for tensorlib and torch tensors."""
    out = {"base": x}
    if x.dim() >= 2:
        out["t01"] = x.transpose(0, 1)
        out["step"] = x[:, ::2]
        out["narrow"] = x.narrow(1, 1, x.shape[1] - 1) if x.shape[1] > 0 else x
    if x.dim() >= 1 and x.shape[0] > 0:
        out["sel"] = x.select(0, x.shape[0] - 1)
        out["exp"] = x.unsqueeze(0).expand(3, *x.shape)
    return out


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_shape_attributes(shape):
    x, t = make_pair(shape, "float32")
    for k, v in _views(x).items():
        tv = _views(t)[k]
        assert tuple(v.shape) == tuple(tv.shape), k
        assert tuple(v.size()) == tuple(tv.size()), k
        assert v.stride() == tv.stride(), k
        assert v.storage_offset() == tv.storage_offset(), k
        assert v.dim() == tv.dim() == v.ndim == v.ndimension(), k
        assert v.numel() == tv.numel() == v.nelement(), k
        assert v.is_contiguous() == tv.is_contiguous(), k
        for d in range(-v.dim(), v.dim()):
            assert v.size(d) == tv.size(d)
            assert v.stride(d) == tv.stride(d)
        if v.numel():  # torch gives 0 as the data_ptr of an empty storage
            assert v.data_ptr() - x.data_ptr() == (tv.data_ptr() - t.data_ptr()), k


def test_size_is_tuple_subclass():
    s = tl.zeros(2, 3).size()
    assert isinstance(s, tuple) and isinstance(s, tl.Size)
    assert s == (2, 3)
    assert s[0] == 2
    assert s.numel() == 6
    assert tl.Size([2, 3]) == s
    assert isinstance(s[:1], tl.Size)


def test_size_stride_dim_out_of_range():
    x = tl.zeros(2, 3)
    t = torch.zeros(2, 3)
    for f in ("size", "stride"):
        for d in (2, -3, 100):
            with pytest.raises(IndexError) as e:
                getattr(x, f)(d)
            with pytest.raises(IndexError) as et:
                getattr(t, f)(d)
            assert str(e.value) == str(et.value)


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_element_size_nbytes_itemsize(name):
    x = tl.empty(3, 4, dtype=tl_dtype(name))
    t = torch.empty(3, 4, dtype=torch_dtype(name))
    assert x.element_size() == t.element_size()
    assert x.itemsize == t.itemsize
    assert x.nbytes == t.nbytes
    # nbytes of a view counts its elements, not the storage
    assert x[:, :2].nbytes == t[:, :2].nbytes
    assert x.dtype.itemsize == t.dtype.itemsize


def test_data_ptr_and_offset_of_views():
    x, t = make_pair((4, 5), "int32")
    for sl in [(slice(1, None),), (slice(None), slice(2, None)), (2, 3), (slice(None, None, 2), 1)]:
        v, tv = x[sl], t[sl]
        assert v.storage_offset() == tv.storage_offset()
        assert v.data_ptr() - x.data_ptr() == tv.data_ptr() - t.data_ptr()
        assert v._storage_ptr() == x._storage_ptr()


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (1, 3, 4, 5), (2, 1, 4, 5), (2, 3, 1, 1), (2, 3, 1, 5),
                                   (0, 3, 4, 5), (1, 1, 1, 1)], ids=str)
def test_is_contiguous_memory_formats_4d(shape):
    x, t = make_pair(shape, "float32")
    cases = {
        "plain": (x, t),
        "cl": (x.contiguous(memory_format=tl.channels_last), t.contiguous(memory_format=torch.channels_last)),
        "perm": (x.permute(0, 2, 3, 1), t.permute(0, 2, 3, 1)),
        "step": (x[:, :, ::2], t[:, :, ::2]),
    }
    for k, (a, b) in cases.items():
        assert a.stride() == b.stride(), k
        assert a.is_contiguous() == b.is_contiguous(), k
        assert a.is_contiguous(memory_format=tl.contiguous_format) == \
            b.is_contiguous(memory_format=torch.contiguous_format), k
        assert a.is_contiguous(memory_format=tl.channels_last) == \
            b.is_contiguous(memory_format=torch.channels_last), k


@pytest.mark.parametrize("shape", [(2, 3, 4, 5, 6), (1, 3, 1, 5, 1)], ids=str)
def test_is_contiguous_channels_last_3d(shape):
    x, t = make_pair(shape, "float32")
    a = x.contiguous(memory_format=tl.channels_last_3d)
    b = t.contiguous(memory_format=torch.channels_last_3d)
    assert a.stride() == b.stride()
    for fx, ft in ((tl.contiguous_format, torch.contiguous_format),
                   (tl.channels_last_3d, torch.channels_last_3d)):
        assert a.is_contiguous(memory_format=fx) == b.is_contiguous(memory_format=ft)
        assert x.is_contiguous(memory_format=fx) == t.is_contiguous(memory_format=ft)


def test_len_and_iter():
    x, t = make_pair((3, 2), "int64")
    assert len(x) == len(t)
    rows = list(x)
    assert len(rows) == 3
    for r, tr in zip(rows, t):
        assert_same(r, tr)
    assert rows[0]._storage_ptr() == x._storage_ptr()
    with pytest.raises(TypeError):
        len(tl.tensor(1.0))
    with pytest.raises(TypeError):
        iter(tl.tensor(1.0))
    assert list(tl.zeros(0, 3)) == []


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
def test_scalar_conversions_one_element(name):
    for shape in [(), (1,), (1, 1)]:
        for seed in (3, 4):
            x, t = make_pair(shape, name, seed=seed)
            for conv in (bool, int, float, complex, operator.index):
                assert_same_outcome(lambda: conv(x), lambda: conv(t))


def test_complex_to_real_scalar():
    for v in (1 + 0j, 2 - 3j):
        for conv in (bool, int, float, complex):
            assert_same_outcome(lambda: conv(tl.tensor(v)), lambda: conv(torch.tensor(v)))


def test_conversions_of_many_or_no_elements_raise():
    for shape in [(2,), (0,), (2, 3)]:
        for conv in (bool, int, float, complex, operator.index, lambda a: a.item()):
            assert_same_outcome(lambda: conv(tl.zeros(shape)), lambda: conv(torch.zeros(shape)), message=True)


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
def test_item(name):
    x, t = make_pair((1,), name, seed=5)
    a, b = x.item(), t.item()
    assert type(a) is type(b)
    assert a == b
    a, b = x.reshape(()).item(), t.reshape(()).item()
    assert type(a) is type(b) and a == b


def test_item_special_values():
    for v in (float("inf"), float("-inf"), -0.0, 1e-40):
        for name in ("float32", "float64", "float16", "bfloat16"):
            a = tl.tensor(v, dtype=tl_dtype(name)).item()
            b = torch.tensor(v, dtype=torch_dtype(name)).item()
            assert a == b and str(a) == str(b), (name, v, a, b)
    assert np.isnan(tl.tensor(float("nan")).item())


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 3)], ids=str)
def test_tolist(name, shape):
    x, t = make_pair(shape, name, seed=7)
    a, b = x.tolist(), t.tolist()
    assert a == b

    def types(v):
        return [types(e) for e in v] if isinstance(v, list) else type(v)
    assert types(a) == types(b)
    assert x.t().tolist() == t.t().tolist() if len(shape) == 2 else True


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_pickle_round_trip(name):
    itemsize = tl_dtype(name).itemsize
    raw = bytearray((i * 37 + 11) % 256 for i in range(6 * itemsize))
    if name == "bool":
        raw = bytearray(b % 2 for b in raw)
    x = tl.frombuffer(raw, dtype=tl_dtype(name)).reshape(2, 3).clone()
    for v in (x, x.t(), x[:, 1:], x[0]):
        y = pickle.loads(pickle.dumps(v))
        assert y.dtype == v.dtype
        assert tuple(y.shape) == tuple(v.shape)
        a = v.contiguous().reshape(-1).view(tl.uint8)
        b = y.contiguous().reshape(-1).view(tl.uint8)
        assert a.tolist() == b.tolist()
        assert y._storage_ptr() != v._storage_ptr()


def test_pickle_keeps_names_and_zero_dim():
    x = tl.zeros(2, 3, names=("N", "C"))
    y = pickle.loads(pickle.dumps(x))
    assert y.names == ("N", "C")
    z = pickle.loads(pickle.dumps(tl.tensor(2.5)))
    assert z.shape == () and z.item() == 2.5
    e = pickle.loads(pickle.dumps(tl.zeros(0, 4, dtype=tl.int16)))
    assert e.shape == (0, 4) and e.dtype == tl.int16


def test_deepcopy_and_copy():
    x, t = make_pair((3, 4), "float64")
    y = copy.deepcopy(x)
    assert_same(y, t, strides=True)
    assert y._storage_ptr() != x._storage_ptr()
    y.fill_(0)
    assert_same(x, t)
    # deepcopy keeps shared structure inside containers
    a, b = copy.deepcopy([x, x])
    assert a is b
    # deepcopy keeps names
    n = tl.zeros(2, 3, names=("A", None))
    assert copy.deepcopy(n).names == ("A", None)
    # shallow copy shares data like torch
    s = copy.copy(x)
    assert s._storage_ptr() == x._storage_ptr()


def test_autograd_attributes():
    x = tl.zeros(2)
    t = torch.zeros(2)
    assert x.requires_grad is t.requires_grad is False
    assert x.grad is None
    assert x.is_leaf is t.is_leaf is True
    assert x.grad_fn is None
    d = x.detach()
    assert d._storage_ptr() == x._storage_ptr()
    assert d.is_leaf and not d.requires_grad
    assert x.requires_grad_(False) is x
    with pytest.raises(RuntimeError):
        x.requires_grad_(True)
    with pytest.raises(RuntimeError):
        tl.zeros(2, requires_grad=True)


def test_detach_keeps_names():
    x = tl.zeros(2, 3, names=("N", "C"))
    assert x.detach().names == ("N", "C")


def test_device_layout_attributes():
    x = tl.zeros(2)
    assert x.device == tl.device("cpu")
    assert x.is_cpu and not x.is_cuda
    assert x.layout == tl.strided
    assert not x.is_sparse and not x.is_sparse_csr and not x.is_meta and not x.is_quantized
    assert x.get_device() == torch.zeros(2).get_device()


@pytest.mark.parametrize("name", ["float32", "int64", "bool", "complex64"])
def test_T_mT(name):
    for shape in [(2, 3), (2, 3, 4)]:
        x, t = make_pair(shape, name)
        assert_same(x.mT, t.mT, strides=True)
    x, t = make_pair((2, 3), name)
    assert_same(x.T, t.T, strides=True)
    if name.startswith("complex") and not hasattr(tl.Tensor, "conj"):
        pytest.skip("conj not implemented yet")
    assert_same(x.H, t.H.resolve_conj() if name.startswith("complex") else t.H)


def test_dtype_of_tensor_is_singleton():
    assert tl.zeros(1).dtype is tl.float32
    assert tl.zeros(1, dtype=tl.int64).dtype is tl.long
    assert dtype_name(tl.zeros(1, dtype=tl.half).dtype) == "float16"
