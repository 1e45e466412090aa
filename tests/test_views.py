"""Every view op against torch 2.13: values, shape, strides, storage offset and storage
sharing (view vs copy decided like torch, e.g. for reshape), basic indexing reads and
writes, and writes showing through views."""
import numpy as np
import pytest

import tensorlib as tl
from conftest import assert_same, assert_same_outcome, make_pair, storage_ptr

torch = pytest.importorskip("torch")


def _check_view(fn, base_shape=(2, 3, 4), name="int64", base=None, copy_ok=False):
    """Applies fn to a tensorlib and a torch tensor built alike; compares results
    (tensor or tuple of tensors) in values, strides, offset and storage sharing."""
    if base is None:
        x, t = make_pair(base_shape, name)
    else:
        x, t = base
    rx, rt = fn(x), fn(t)
    if isinstance(rt, (tuple, list)):
        assert isinstance(rx, (tuple, list)) and len(rx) == len(rt)
        pairs = list(zip(rx, rt))
    else:
        pairs = [(rx, rt)]
    for a, b in pairs:
        assert_same(a, b, strides=True)
        assert a.storage_offset() == b.storage_offset(), (a.storage_offset(), b.storage_offset())
        shares_t = storage_ptr(b) == storage_ptr(t)
        shares_x = storage_ptr(a) == storage_ptr(x)
        if t.numel() and b.numel():
            assert shares_x == shares_t, f"view/copy differs: torch shares={shares_t}"
    return rx, rt


def _outcome(fn, shape=(2, 3, 4), name="int64", base=None):
    """Like _check_view but first checks torch's outcome (error or not)."""
    if base is None:
        base = make_pair(shape, name)
    x, t = base
    return assert_same_outcome(lambda: fn(x), lambda: fn(t),
                               compare=lambda a, b: _check_view(fn, base=base))


BASES = {
    "contig": lambda: make_pair((2, 3, 4), "int64"),
    "transposed": lambda: tuple(v.transpose(0, 2) for v in make_pair((4, 3, 2), "int64")),
    "stepped": lambda: tuple(v[:, ::2] for v in make_pair((2, 6, 4), "int64")),
    "offset": lambda: tuple(v[1:, 1:] for v in make_pair((3, 4, 4), "int64")),
    "expanded": lambda: tuple(v.expand(2, 3, 4) for v in make_pair((1, 3, 1), "int64")),
}

OPS = {
    "view_flat": lambda a: a.view(-1),
    "view_2d": lambda a: a.view(6, 4),
    "view_split_last": lambda a: a.view(2, 3, 2, 2),
    "view_tuple": lambda a: a.view((4, -1)),
    "reshape_flat": lambda a: a.reshape(-1),
    "reshape_2d": lambda a: a.reshape(6, 4),
    "reshape_mid": lambda a: a.reshape(2, 12),
    "reshape_perm": lambda a: a.reshape(4, 3, 2),
    "reshape_same": lambda a: a.reshape(2, 3, 4),
    "reshape_add1": lambda a: a.reshape(2, 1, 3, 4, 1),
    "flatten": lambda a: a.flatten(),
    "flatten_12": lambda a: a.flatten(1, 2),
    "flatten_01": lambda a: a.flatten(0, 1),
    "flatten_same": lambda a: a.flatten(1, 1),
    "unflatten": lambda a: a.unflatten(2, (2, 2)),
    "unflatten_neg": lambda a: a.unflatten(-1, (-1, 2)),
    "t_sel": lambda a: a[0].t(),
    "transpose": lambda a: a.transpose(0, 2),
    "transpose_neg": lambda a: a.transpose(-1, -2),
    "permute": lambda a: a.permute(2, 0, 1),
    "permute_tuple": lambda a: a.permute((1, 2, 0)),
    "permute_neg": lambda a: a.permute(-1, 0, 1),
    "expand": lambda a: a.unsqueeze(0).expand(5, 2, 3, 4),
    "expand_m1": lambda a: a[:, :1].expand(-1, 7, -1),
    "expand_as": lambda a: a[:1].expand_as(a),
    "squeeze": lambda a: a[:, :1].squeeze(),
    "squeeze_dim": lambda a: a[:, :1].squeeze(1),
    "squeeze_noop": lambda a: a.squeeze(0),
    "squeeze_tuple": lambda a: a[:1, :1].squeeze((0, 1)),
    "unsqueeze0": lambda a: a.unsqueeze(0),
    "unsqueeze_last": lambda a: a.unsqueeze(-1),
    "unsqueeze_mid": lambda a: a.unsqueeze(2),
    "narrow": lambda a: a.narrow(2, 1, 2),
    "narrow_neg": lambda a: a.narrow(-2, 1, 1),
    "narrow_empty": lambda a: a.narrow(0, 2, 0),
    "select": lambda a: a.select(1, 2),
    "select_neg": lambda a: a.select(-1, -1),
    "unbind0": lambda a: a.unbind(0),
    "unbind2": lambda a: a.unbind(2),
    "split2": lambda a: a.split(2, dim=2),
    "split3": lambda a: a.split(3, 2),
    "split_sizes": lambda a: a.split([1, 3], 2),
    "split_big": lambda a: a.split(10, 1),
    "chunk2": lambda a: a.chunk(2, 2),
    "chunk3": lambda a: a.chunk(3, 2),
    "chunk_more": lambda a: a.chunk(5, 1),
    "tensor_split": lambda a: a.tensor_split(3, 2),
    "tensor_split_idx": lambda a: a.tensor_split([1, 3], 2),
    "diagonal": lambda a: a.diagonal(),
    "diagonal_off": lambda a: a.diagonal(1, 1, 2),
    "diagonal_neg": lambda a: a.diagonal(-1, 2, 1),
    "diagonal_far": lambda a: a.diagonal(10, 1, 2),
    "as_strided": lambda a: a.as_strided((3, 2), (1, 3)),
    "as_strided_off": lambda a: a.as_strided((2, 2), (4, 1), 3),
    "movedim": lambda a: a.movedim(0, -1),
    "movedim_multi": lambda a: a.movedim((0, 1), (2, 0)),
    "moveaxis": lambda a: a.moveaxis(2, 0),
    "swapaxes": lambda a: a.swapaxes(0, 1),
    "swapdims": lambda a: a.swapdims(1, 2),
    "unfold": lambda a: a.unfold(2, 2, 1),
    "unfold_step": lambda a: a.unfold(2, 2, 2),
    "unfold_0": lambda a: a.unfold(1, 3, 1),
    "mT": lambda a: a.mT,
    "view_as": lambda a: a.reshape(-1).view_as(a.reshape(4, 6)),
    "index_int": lambda a: a[1],
    "index_neg": lambda a: a[-1, -2],
    "index_slice": lambda a: a[:, 1:],
    "index_step": lambda a: a[:, ::2, 1::2],
    "index_none": lambda a: a[None, :, None],
    "index_ellipsis": lambda a: a[..., 1],
    "index_ellipsis_mid": lambda a: a[0, ..., 0],
    "index_mixed": lambda a: a[1, None, ::2, ...],
    "index_empty_slice": lambda a: a[:, 3:1],
    "index_clamped": lambda a: a[:, -10:10],
    "index_all": lambda a: a[...],
    "index_tuple_empty": lambda a: a[()],
}


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("op", list(OPS))
def test_view_ops(op, base):
    _outcome(OPS[op], base=BASES[base]())


@pytest.mark.parametrize("name", ["bool", "uint8", "int16", "float16", "bfloat16", "float32", "complex64",
                                  "complex128", "float64"])
def test_views_on_dtypes(name):
    for op in ("transpose", "index_step", "view_flat", "diagonal", "unfold", "expand", "select"):
        _outcome(OPS[op], base=make_pair((2, 3, 4), name))


@pytest.mark.parametrize("shape,new", [((), (1,)), ((), (1, 1)), ((1,), ()), ((), ()), ((0,), (0, 3)),
                                       ((2, 0), (0,)), ((0, 3), (3, 0)), ((0, 3), (-1,)), ((4,), (2, -1))],
                         ids=str)
def test_view_reshape_edge_shapes(shape, new):
    for f in (lambda a: a.view(new), lambda a: a.reshape(new)):
        _outcome(f, base=make_pair(shape, "float32"))


def test_view_zero_dim():
    x, t = make_pair((), "float32")
    _check_view(lambda a: a.view(1), base=(x, t))
    _check_view(lambda a: a.reshape(1, 1), base=(x, t))


@pytest.mark.parametrize("new", [(5, 5), (-1, -1), (7,), (-1, 5), (2, -1, 0)], ids=str)
def test_view_bad_sizes(new):
    _outcome(lambda a: a.view(new), shape=(2, 3, 4))
    _outcome(lambda a: a.reshape(new), shape=(2, 3, 4))


def test_view_incompatible_strides_message():
    x, t = make_pair((2, 3, 4), "float32")
    e = assert_same_outcome(lambda: x.transpose(0, 1).view(-1), lambda: t.transpose(0, 1).view(-1), message=True)
    assert "reshape" in str(e)
    # reshape copies in exactly that case
    _check_view(lambda a: a.transpose(0, 1).reshape(-1), base=(x, t))


@pytest.mark.parametrize("src,dst", [("float32", "int32"), ("float32", "int16"), ("float32", "uint8"),
                                     ("int64", "float64"), ("int16", "int32"), ("uint8", "int32"),
                                     ("complex64", "float32"), ("float32", "complex64"), ("bool", "int8"),
                                     ("float64", "int8"), ("bfloat16", "int16"),
                                     ("float16", "bfloat16"), ("float32", "float32")])
@pytest.mark.parametrize("shape", [(2, 4), (4,), (), (3, 0), (2, 3)], ids=str)
def test_view_dtype(src, dst, shape):
    x, t = make_pair(shape, src)
    for f in (lambda a: a, lambda a: a.t() if a.dim() == 2 else a, lambda a: a[..., ::2] if a.dim() else a,
              lambda a: a[..., 1:] if a.dim() else a):
        def cmp(a, b):
            assert tuple(a.shape) == tuple(b.shape) and a.stride() == b.stride()
            assert a.storage_offset() == b.storage_offset()
            assert a.dtype == getattr(tl, dst)
            assert _bits(a) == _bits(b)
        assert_same_outcome(lambda: f(x).view(getattr(tl, dst)), lambda: f(t).view(getattr(torch, dst)),
                            compare=cmp)


def _bits(v):
    """Raw bits of each element as nested lists (for NaN-safe comparison of reinterpreted data)."""
    isz = v.element_size()
    if isinstance(v, tl.Tensor):
        c = v.contiguous()
        raw = c.reshape(-1).view(tl.uint8).tolist() if c.numel() else []
    else:
        c = v.contiguous()
        raw = c.reshape(-1).view(torch.uint8).tolist() if c.numel() else []
    return [tuple(raw[i:i + isz]) for i in range(0, len(raw), isz)]


# ---- writes through views ---------------------------------------------------------------

WRITES = {
    "int": lambda a: a.__setitem__(1, 7),
    "slice": lambda a: a.__setitem__((slice(None), slice(1, None)), -3),
    "step": lambda a: a.__setitem__((slice(None), slice(None, None, 2)), 5),
    "ellipsis": lambda a: a.__setitem__((Ellipsis, 0), 9),
    "none": lambda a: a.__setitem__((None, 0), 4),
    "elem": lambda a: a.__setitem__((0, 1, 2), 11),
    "neg": lambda a: a.__setitem__((-1, -1), 8),
    "tensor_val": lambda a: a.__setitem__(0, a[1]),
    "broadcast_row": lambda a: a.__setitem__((slice(None),), a[0, 0]),
    "all": lambda a: a.__setitem__(Ellipsis, 1),
    "float_into_int": lambda a: a.__setitem__(0, 2.7),
}


@pytest.mark.parametrize("w", list(WRITES))
@pytest.mark.parametrize("base", ["contig", "transposed", "stepped", "offset"])
def test_setitem(w, base):
    x, t = BASES[base]()
    ox, ot = outer_of(x), outer_of(t)
    assert_same_outcome(lambda: WRITES[w](x), lambda: WRITES[w](t), compare=lambda a, b: None)
    assert_same(x, t)
    assert_same(ox, ot)


def outer_of(v):
    """A view of v's whole storage, to check nothing outside v was written."""
    n = v.untyped_storage().nbytes() // v.element_size() if not isinstance(v, tl.Tensor) else \
        v._storage_nbytes() // v.element_size()
    return v.as_strided((n,), (1,), 0)


def test_setitem_value_dtypes():
    x, t = make_pair((3, 4), "float32")
    for v in (True, 3, 2.5, np.float64(1.25)):
        x[1] = v
        t[1] = v
        assert_same(x, t)
    x[0] = tl.tensor([1, 2, 3, 4], dtype=tl.int8)
    t[0] = torch.tensor([1, 2, 3, 4], dtype=torch.int8)
    assert_same(x, t)
    xi, ti = make_pair((3,), "int32")
    assert_same_outcome(lambda: xi.__setitem__(0, 1 + 2j), lambda: ti.__setitem__(0, 1 + 2j),
                        compare=lambda a, b: None)


def test_setitem_shape_mismatch():
    x, t = make_pair((3, 4), "float32")
    assert_same_outcome(lambda: x.__setitem__(0, tl.zeros(3)), lambda: t.__setitem__(0, torch.zeros(3)))
    assert_same(x, t)


@pytest.mark.parametrize("idx", [(3,), (-4,), (0, 0, 0), (slice(None), 4), (None, 5), (Ellipsis, Ellipsis),
                                 (1.5,), ("a",)], ids=str)
def test_bad_indexing(idx):
    x, t = make_pair((3, 4), "float32")
    assert_same_outcome(lambda: x[idx], lambda: t[idx], compare=lambda a, b: assert_same(a, b))


def test_zero_step_slice():
    x, t = make_pair((3, 4), "float32")
    assert_same_outcome(lambda: x[::0], lambda: t[::0])
    assert_same_outcome(lambda: x[::-1], lambda: t[::-1], compare=assert_same)


def test_writes_show_through_views():
    x = tl.zeros(3, 4, dtype=tl.int32)
    t = torch.zeros(3, 4, dtype=torch.int32)
    for f in (lambda a: a.t(), lambda a: a[1:], lambda a: a.view(12), lambda a: a.diagonal(),
              lambda a: a.unfold(1, 2, 2), lambda a: a.unsqueeze(0)[0], lambda a: a.narrow(1, 1, 2),
              lambda a: a.select(0, 2), lambda a: a.chunk(2, 1)[1], lambda a: a.as_strided((2,), (5,), 1),
              lambda a: a.movedim(0, 1), lambda a: a.view(tl.uint8 if isinstance(a, tl.Tensor) else torch.uint8)):
        vx, vt = f(x), f(t)
        vx.fill_(3)
        vt.fill_(3)
        assert_same(x, t)
        vx[...] = 0
        vt[...] = 0
    x.view(-1)[5] = 42
    t.view(-1)[5] = 42
    assert_same(x, t)
    x.t()[2, 1] = 7
    t.t()[2, 1] = 7
    assert_same(x, t)


@pytest.mark.parametrize("args", [(0, 0), (0, 5), (3, 0), (-4, 0), (0, -1)], ids=str)
def test_narrow_errors(args):
    _outcome(lambda a: a.narrow(0, *args), shape=(3, 4))


@pytest.mark.parametrize("f", [
    lambda a: a.transpose(0, 3), lambda a: a.permute(0, 1), lambda a: a.permute(0, 0, 1),
    lambda a: a.expand(2, 4), lambda a: a.expand(3), lambda a: a.squeeze(5), lambda a: a.unsqueeze(4),
    lambda a: a.select(0, 3), lambda a: a.select(2, 0), lambda a: a.diagonal(0, 0, 0), lambda a: a.unfold(1, 5, 1),
    lambda a: a.unfold(1, 2, 0), lambda a: a.split(-1), lambda a: a.chunk(0), lambda a: a.split([1, 1]),
    lambda a: a.movedim(0, 5), lambda a: a.movedim((0, 0), (1, 2)), lambda a: a.unflatten(1, (3, 3)),
    lambda a: a.flatten(1, 0), lambda a: a.unsqueeze(0).t(),
    lambda a: a.as_strided((5,), (3,)), lambda a: a.as_strided((2,), (-1,)), lambda a: a.view(-1, -1),
])
def test_view_op_errors(f):
    _outcome(f, shape=(3, 4))


def test_t_on_low_dims():
    for shape in [(), (3,), (2, 3)]:
        _outcome(lambda a: a.t(), shape=shape)
        _outcome(lambda a: a.T, shape=shape)


@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 1), (1, 1, 1)], ids=str)
def test_squeeze_unsqueeze_small_shapes(shape):
    for f in (lambda a: a.squeeze(), lambda a: a.unsqueeze(0), lambda a: a.unsqueeze(-1), lambda a: a.flatten(),
              lambda a: a.squeeze(0), lambda a: a.squeeze(-1), lambda a: a.reshape(-1)):
        _outcome(f, base=make_pair(shape, "float32"))


def test_shell_dtype_views():
    for name in ("float8_e4m3fn", "uint16", "float4_e2m1fn_x2"):
        x = tl.zeros(2, 4, dtype=getattr(tl, name))
        t = torch.zeros(2, 4, dtype=getattr(torch, name))
        for f in (lambda a: a.t(), lambda a: a[:, 1:], lambda a: a.reshape(8), lambda a: a.view(4, 2),
                  lambda a: a.unsqueeze(0).expand(3, 2, 4), lambda a: a.transpose(0, 1).contiguous()):
            a, b = f(x), f(t)
            assert tuple(a.shape) == tuple(b.shape) and a.stride() == b.stride()
            assert a.dtype == x.dtype
