"""Tensor._base / _is_view() (view tracking, set by the gate for every op) and detach_(),
against torch 2.13: which results are views, and that _base is the root tensor."""
import pytest
import torch

import tensorlib as tl


def _cases(m):
    return {
        "view": lambda x, z: x.view(12), "view_of_view": lambda x, z: x.view(12).view(3, 4),
        "view_shape_same": lambda x, z: x.view(3, 4), "view_dtype": lambda x, z: x.view(m.int32),
        "slice": lambda x, z: x[1:], "int_index": lambda x, z: x[0], "int_int_index": lambda x, z: x[0][1:],
        "ellipsis": lambda x, z: x[...], "none_index": lambda x, z: x[None], "advanced_index": lambda x, z: x[[0, 1]],
        "T": lambda x, z: x.T, "mT": lambda x, z: x.mT, "t": lambda x, z: x.t(), "transpose": lambda x, z: x.transpose(0, 1),
        "permute": lambda x, z: x.permute(1, 0), "movedim": lambda x, z: x.movedim(0, 1), "swapaxes": lambda x, z: x.swapaxes(0, 1),
        "real_complex": lambda x, z: z.real, "imag": lambda x, z: z.imag, "real_of_real": lambda x, z: x.real,
        "unbind": lambda x, z: x.unbind()[1], "split": lambda x, z: x.split(2)[1], "split_sizes": lambda x, z: x.split([1, 2])[0],
        "chunk": lambda x, z: x.chunk(2)[0], "tensor_split": lambda x, z: x.tensor_split(2)[1],
        "narrow": lambda x, z: x.narrow(0, 1, 1), "select": lambda x, z: x.select(0, 1),
        "diagonal": lambda x, z: x.diagonal(), "as_strided": lambda x, z: x.as_strided((2,), (1,)),
        "expand": lambda x, z: x[0:1].expand(3, 4), "expand_as": lambda x, z: x[0].expand_as(x),
        "broadcast_tensors": lambda x, z: m.broadcast_tensors(x, x[0])[1],
        "unsqueeze": lambda x, z: x.unsqueeze(0), "squeeze": lambda x, z: x.unsqueeze(0).squeeze(0),
        "unflatten": lambda x, z: x.unflatten(1, (2, 2)), "unfold": lambda x, z: x.unfold(1, 2, 1),
        "flatten": lambda x, z: x.flatten(), "ravel": lambda x, z: x.ravel(), "view_as": lambda x, z: x.view_as(x),
        "reshape_view": lambda x, z: x.reshape(12), "reshape_copy": lambda x, z: x.t().reshape(12),
        "contiguous_self": lambda x, z: x.contiguous(), "contiguous_copy": lambda x, z: x.t().contiguous(),
        "clone": lambda x, z: x.clone(), "detach": lambda x, z: x.detach(), "flip": lambda x, z: x.flip(0),
        "to_same": lambda x, z: x.to(m.float32), "float": lambda x, z: x.float(), "double": lambda x, z: x.double(),
        "conj_of_real": lambda x, z: x.conj(), "atleast_2d": lambda x, z: m.atleast_2d(x),
        "positive": lambda x, z: x.positive(), "add": lambda x, z: x + 1, "add_": lambda x, z: x.add_(0),
        "from_numpy": lambda x, z: m.from_numpy(x.numpy()),
    }


def _describe(m, name):
    x = m.arange(12.).view(3, 4).clone()
    z = m.tensor([1 + 2j, 3 - 1j])
    r = _cases(m)[name](x, z)
    b = r._base
    who = None if b is None else ("x" if b is x else "z" if b is z else "other")
    return r._is_view(), who, r is x


@pytest.mark.parametrize("name", sorted(_cases(tl)))
def test_base_matches_torch(name):
    assert _describe(tl, name) == _describe(torch, name)


def test_base_is_root_and_kept_alive():
    x = tl.arange(6.)
    v = x.view(2, 3)[1][1:]
    assert v._base is x and x._base is None and not x._is_view()
    del x
    assert v._base.shape == (6,)  # the view keeps its base alive
    parts = tl.arange(6.).split(2)
    assert parts[0]._base is parts[2]._base


def test_detach_inplace():
    x = tl.ones(3)
    assert x.detach_() is x
    msg = "Can't detach views in-place. Use detach() instead."
    for v in (x[1:], x.view(3), x.unsqueeze(0)):
        with pytest.raises(RuntimeError, match=msg.replace("(", r"\(").replace(")", r"\)")) as ei:
            v.detach_()
        with pytest.raises(RuntimeError) as et:
            torch.ones(3)[1:].detach_()
        assert str(ei.value) == str(et.value)
    d = x[1:].detach()  # detach() is not a view for torch either
    assert d._base is None and d.detach_() is d


def test_data_property_as_torch():
    import torch
    for m in (tl, torch):
        x = m.ones(2)
        d = x.data
        assert d._base is None and not d._is_view() and d.data_ptr() == x.data_ptr()
        x.data = m.zeros(3, dtype=m.int64)  # takes the other's storage, shape and dtype
        assert x.shape == (3,) and x.dtype == m.int64 and x.tolist() == [0, 0, 0]
        with pytest.raises(TypeError, match="Variable data has to be a tensor, but got int"):
            x.data = 3
