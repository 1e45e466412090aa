"""copy_ (broadcasting, casting between every pair of non-shell dtypes), the to()/type()/
float()/half()/... forms, fill_/zero_, contiguous/clone with memory_format, and copies
between overlapping views -- all against torch 2.13."""
import numpy as np
import pytest

import tensorlib as tl
from conftest import (REGULAR_DTYPE_NAMES, assert_same, assert_same_outcome, dtype_name, make_pair, nan_eq,
                      storage_ptr, tl_dtype, to_numpy, torch_dtype)

torch = pytest.importorskip("torch")

CAST_NAMES = REGULAR_DTYPE_NAMES + ["complex32"]

# values that exercise rounding, negative->unsigned, overflow, NaN/inf, signed zero
SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 127.0, 128.0, 255.0, 256.0, -129.0, 65504.0,
                    65520.0, 1e-8, 3.4e38, 1e39, float("inf"), float("-inf"), float("nan"), 1e10, -1e10,
                    2.0 ** 31, 2.0 ** 63, 0.1, 1 / 3])


def _src_pair(name):
    """(tl, torch) tensors of dtype name holding SPECIAL (cast from float64 by torch)."""
    t64 = torch.from_numpy(SPECIAL.copy())
    if name.startswith("complex"):
        t64 = torch.complex(t64, torch.from_numpy(SPECIAL[::-1].copy()))
    t = t64.to(torch_dtype(name))
    x = tl.empty(tuple(t.shape), dtype=tl_dtype(name))
    # bit copy from torch so both start identical (avoids depending on tl's own casts here)
    raw = t.contiguous().view(torch.uint8).numpy().copy() if t.dtype != torch.bool else t.numpy().view(np.uint8)
    x.view(tl.uint8).copy_(tl.from_numpy(raw.reshape(-1)).view(tl.uint8).reshape(x.view(tl.uint8).shape))
    return x, t


def _values_equal(a, b):
    """Compare tl tensor a and torch tensor b by value, NaN-aware (out-of-range float->int
    casts are undefined behaviour in C and in torch: those elements are skipped by the caller)."""
    assert tuple(a.shape) == tuple(b.shape)
    assert dtype_name(a.dtype) == dtype_name(b.dtype)
    ok = nan_eq(to_numpy(a), to_numpy(b))
    assert ok.all(), (to_numpy(a)[~ok], to_numpy(b)[~ok])


def _defined_mask(src_name, dst_name):
    """Elements of SPECIAL whose conversion src->dst is defined (C and torch agree only there)."""
    if dst_name in ("bool",) or dst_name.startswith(("float", "bfloat", "complex")):
        return np.ones(len(SPECIAL), dtype=bool)
    lo, hi = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2 ** 31, 2 ** 31 - 1),
              "int64": (-2 ** 63, 2 ** 63 - 1)}[dst_name]
    # what the source actually holds after its own rounding
    t = torch.from_numpy(SPECIAL.copy()).to(torch_dtype(src_name))
    v = t.real.to(torch.float64).numpy() if t.is_complex() else t.to(torch.float64).numpy()
    if src_name in ("bool",) or not (t.is_floating_point() or t.is_complex()):
        return np.ones(len(SPECIAL), dtype=bool)
    with np.errstate(invalid="ignore"):
        return np.isfinite(v) & (np.trunc(v) >= lo) & (np.trunc(v) <= hi)


@pytest.mark.parametrize("dst", CAST_NAMES)
@pytest.mark.parametrize("src", CAST_NAMES)
def test_copy_cast_all_pairs(src, dst):
    x, t = _src_pair(src)
    ox = tl.zeros(x.shape, dtype=tl_dtype(dst))
    ot = torch.zeros(t.shape, dtype=torch_dtype(dst))
    try:
        ot.copy_(t)
    except RuntimeError:
        pytest.skip(f"torch cannot copy {src} -> {dst} on the CPU")
    ox.copy_(x)
    m = _defined_mask(src, dst)  # complex -> real: the real part decides
    ax = to_numpy(ox)[m]
    at = to_numpy(ot)[m]
    ok = nan_eq(ax, at)
    assert ok.all(), (SPECIAL[m][~ok], ax[~ok], at[~ok])
    # and the .to() form gives the same
    tx = x.to(tl_dtype(dst))
    assert tx.dtype == tl_dtype(dst)
    assert nan_eq(to_numpy(tx)[m], at).all()


@pytest.mark.parametrize("dst_shape,src_shape", [((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (2, 1)), ((2, 3), ()),
                                                 ((4, 2, 3), (2, 3)), ((0, 3), (3,)), ((2, 3), (1,)),
                                                 ((3,), (2, 3)), ((2, 3), (3, 2)), ((2, 3), (0,))], ids=str)
def test_copy_broadcasting(dst_shape, src_shape):
    x, t = make_pair(dst_shape, "float64")
    sx, st = make_pair(src_shape, "int32", seed=1)
    assert_same_outcome(lambda: x.copy_(sx), lambda: t.copy_(st), compare=lambda a, b: assert_same(a, b))
    assert_same(x, t)


def test_copy_returns_self_and_keeps_strides():
    x, t = make_pair((3, 4), "float32")
    xv, tv = x.t(), t.t()
    sx, st = make_pair((4, 3), "int64", seed=2)
    r = xv.copy_(sx)
    assert r is xv
    tv.copy_(st)
    assert_same(xv, tv, strides=True)
    assert_same(x, t)


def test_copy_non_contiguous_both_sides():
    x, t = make_pair((4, 6), "int16")
    sx, st = make_pair((6, 8), "int16", seed=9)
    x[:, ::2].copy_(sx[1::2, ::2][:3].t()[:4])
    t[:, ::2].copy_(st[1::2, ::2][:3].t()[:4])
    assert_same(x, t)


def test_copy_from_expanded_and_to_self():
    x, t = make_pair((3, 4), "float32")
    x.copy_(x)
    t.copy_(t)
    assert_same(x, t)
    x.copy_(x[0].expand(3, 4))
    t.copy_(t[0].expand(3, 4))
    assert_same(x, t)


@pytest.mark.parametrize("case", ["shift_right", "shift_left", "transpose_self", "reverse_overlap"])
def test_copy_between_overlapping_views(case):
    x, t = make_pair((10,), "int64")
    if case == "shift_right":
        fx, ft = (lambda a: a[1:].copy_(a[:-1])), (lambda a: a[1:].copy_(a[:-1]))
    elif case == "shift_left":
        fx = ft = lambda a: a[:-1].copy_(a[1:])
    elif case == "transpose_self":
        x, t = make_pair((4, 4), "int64")
        fx = ft = lambda a: a.copy_(a.t())
    else:
        fx = ft = lambda a: a[2:8].copy_(a[0:6])
    # torch either resolves the overlap or raises RuntimeError; tensorlib must do the same
    assert_same_outcome(lambda: fx(x), lambda: ft(t), compare=lambda a, b: None)
    assert_same(x, t)


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
def test_to_forms(name):
    x, t = make_pair((2, 3), name)
    forms = [
        (lambda a: a.float(), "float32"), (lambda a: a.double(), "float64"), (lambda a: a.half(), "float16"),
        (lambda a: a.bfloat16(), "bfloat16"), (lambda a: a.bool(), "bool"), (lambda a: a.byte(), "uint8"),
        (lambda a: a.char(), "int8"), (lambda a: a.short(), "int16"), (lambda a: a.int(), "int32"),
        (lambda a: a.long(), "int64"), (lambda a: a.cfloat(), "complex64"), (lambda a: a.cdouble(), "complex128"),
    ]
    for f, dst in forms:
        assert_same_outcome(lambda: f(x), lambda: f(t), compare=lambda a, b: _values_equal(a, b))
        if dst == name:
            assert f(x) is x and f(t) is t
    for dst in REGULAR_DTYPE_NAMES:
        assert_same_outcome(lambda: x.to(tl_dtype(dst)), lambda: t.to(torch_dtype(dst)),
                            compare=lambda a, b: _values_equal(a, b))
        assert_same_outcome(lambda: x.to(dtype=tl_dtype(dst)), lambda: t.to(dtype=torch_dtype(dst)),
                            compare=lambda a, b: _values_equal(a, b))
        assert_same_outcome(lambda: x.type(tl_dtype(dst)), lambda: t.type(torch_dtype(dst)),
                            compare=lambda a, b: _values_equal(a, b))


def test_to_same_dtype_returns_self_unless_copy():
    x = tl.zeros(2, 3)
    assert x.to(tl.float32) is x
    assert x.to("cpu") is x
    assert x.to("cpu", tl.float32) is x
    assert x.to(x) is x
    y = x.to(tl.float32, copy=True)
    assert y is not x and y._storage_ptr() != x._storage_ptr()
    z = x.to(tl.zeros(1, dtype=tl.int8))
    assert z.dtype == tl.int8
    assert x.to(device="cpu", dtype=tl.float64).dtype == tl.float64
    assert x.to(non_blocking=True) is x


def test_to_keeps_strides_like_torch():
    x, t = make_pair((2, 3, 4), "float32")
    for f in (lambda a: a.transpose(0, 2), lambda a: a[:, ::2], lambda a: a.permute(1, 0, 2)):
        for dst in ("float64", "int32"):
            a, b = f(x).to(tl_dtype(dst)), f(t).to(torch_dtype(dst))
            assert_same(a, b, strides=True)


def test_legacy_type_strings():
    x, t = make_pair((2,), "float32")
    assert x.type() == t.type().replace("torch.", "tensorlib.")
    for s in ("torch.IntTensor", "torch.DoubleTensor", "torch.LongTensor", "torch.BoolTensor"):
        tl_s = s.replace("torch.", "tensorlib.")
        assert_same(x.type(tl_s), t.type(s))
    for name in REGULAR_DTYPE_NAMES:
        a, b = make_pair((1,), name)
        assert a.type() == b.type().replace("torch.", "tensorlib.")
    # the device and layout parts of the name, and torch's refusal for compressed layouts
    assert tl.empty(2, device="meta").type() == torch.empty(2, device="meta").type().replace("torch.", "tensorlib.")
    assert x.to_sparse().type() == t.to_sparse().type().replace("torch.", "tensorlib.")
    for f in (lambda a: a.reshape(1, 2).to_sparse_csr().type(), lambda a: a.reshape(1, 2).to_sparse_csc().type()):
        assert_same_outcome(lambda: f(x), lambda: f(t), message=True)


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES + ["complex32"])
def test_fill_and_zero(name):
    x, t = make_pair((3, 4), name) if name != "complex32" else (tl.empty(3, 4, dtype=tl.complex32),
                                                                 torch.empty(3, 4, dtype=torch.complex32))
    for v in (0, 1, -1, 2.5, True, 1 + 1j, float("nan"), 300):
        assert_same_outcome(lambda: x.fill_(v) is x, lambda: t.fill_(v) is t)
        assert nan_eq(to_numpy(x), to_numpy(t)).all(), v
    for view in (lambda a: a.t(), lambda a: a[:, ::2], lambda a: a[1]):
        view(x).zero_()
        view(t).zero_()
        assert nan_eq(to_numpy(x), to_numpy(t)).all()
    assert x.zero_() is x
    assert_same(x.fill_(tl.tensor(3)), t.fill_(torch.tensor(3)))
    assert_same_outcome(lambda: x.fill_(tl.zeros(2)), lambda: t.fill_(torch.zeros(2)))


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (1, 3, 1, 1), (2, 1, 4, 5), (0, 3, 2, 2), (2, 3, 1, 5)], ids=str)
@pytest.mark.parametrize("fmt", ["contiguous_format", "channels_last", "preserve_format"])
def test_contiguous_clone_memory_format(shape, fmt):
    base = make_pair(shape, "float32")
    inputs = [base, tuple(v.permute(0, 2, 3, 1) for v in make_pair((shape[0], shape[2], shape[3], shape[1]),
                                                                 "float32")),
              tuple(v.contiguous(memory_format=getattr(torch if isinstance(v, torch.Tensor) else tl, "channels_last"))
                    for v in base),
              tuple(v[:, :, ::2] for v in base)]
    for x, t in inputs:
        mx, mt = getattr(tl, fmt), getattr(torch, fmt)
        assert_same_outcome(lambda: x.clone(memory_format=mx), lambda: t.clone(memory_format=mt),
                            compare=lambda a, b: assert_same(a, b, strides=True))
        if fmt != "preserve_format":
            assert_same_outcome(lambda: x.contiguous(memory_format=mx), lambda: t.contiguous(memory_format=mt),
                                compare=lambda a, b: assert_same(a, b, strides=True))
            # contiguous() returns self when already in that format
            assert (x.contiguous(memory_format=mx) is x) == (t.contiguous(memory_format=mt) is t)
        else:
            assert_same_outcome(lambda: x.contiguous(memory_format=mx), lambda: t.contiguous(memory_format=mt),
                                compare=lambda a, b: assert_same(a, b, strides=True))
        assert_same_outcome(lambda: x.to(tl.float64, memory_format=mx), lambda: t.to(torch.float64, memory_format=mt),
                            compare=lambda a, b: assert_same(a, b, strides=True))


def test_channels_last_3d():
    x, t = make_pair((2, 3, 2, 3, 4), "int32")
    for f in (lambda a, m: a.contiguous(memory_format=m.channels_last_3d),
              lambda a, m: a.clone(memory_format=m.channels_last_3d)):
        assert_same(f(x, tl), f(t, torch), strides=True)
    assert_same_outcome(lambda: x.contiguous(memory_format=tl.channels_last),
                        lambda: t.contiguous(memory_format=torch.channels_last))
    assert_same_outcome(lambda: x[0].contiguous(memory_format=tl.channels_last_3d),
                        lambda: t[0].contiguous(memory_format=torch.channels_last_3d))


@pytest.mark.parametrize("make", ["contig", "t", "step", "expand", "0d", "empty", "offset"])
def test_clone_contiguous(make):
    x, t = make_pair((3, 4), "int64")
    f = {"contig": lambda a: a, "t": lambda a: a.t(), "step": lambda a: a[:, ::2], "expand": lambda a: a[:1].expand(5, 4),
         "0d": lambda a: a[1, 1], "empty": lambda a: a[:0], "offset": lambda a: a[1:, 1:]}[make]
    vx, vt = f(x), f(t)
    c, ct = vx.clone(), vt.clone()
    assert_same(c, ct, strides=True)
    assert storage_ptr(c) != storage_ptr(x)
    cc, cct = vx.contiguous(), vt.contiguous()
    assert_same(cc, cct, strides=True)
    assert (storage_ptr(cc) == storage_ptr(x)) == (storage_ptr(cct) == storage_ptr(t))
    c.fill_(0)
    assert_same(x, t)


def test_clone_keeps_names():
    x = tl.zeros(2, 3, names=("N", "C"))
    assert x.clone().names == ("N", "C")
    assert x.t().contiguous().names == ("C", "N")
    assert x.to(tl.int32).names == ("N", "C")
    assert x.float().names == ("N", "C")


@pytest.mark.parametrize("name", ["float8_e4m3fn", "float8_e5m2", "uint16", "float4_e2m1fn_x2", "float8_e8m0fnu"])
def test_shell_copy_same_dtype(name):
    x = tl.zeros(2, 4, dtype=tl_dtype(name))
    raw = tl.arange(8, dtype=tl.int64).to(tl.uint8).reshape(2, 4)
    x.view(tl.uint8).copy_(raw) if x.element_size() == 1 else None
    y = tl.empty(4, 2, dtype=tl_dtype(name))
    y.copy_(x.t())
    t = torch.zeros(2, 4, dtype=torch_dtype(name))
    if t.element_size() == 1:
        t.view(torch.uint8).copy_(torch.arange(8).to(torch.uint8).reshape(2, 4))
    ty = torch.empty(4, 2, dtype=torch_dtype(name))
    ty.copy_(t.t())
    assert y.view(tl.uint8).tolist() == ty.view(torch.uint8).tolist()
    assert x.clone().view(tl.uint8).tolist() == t.clone().view(torch.uint8).tolist()
