"""Bad input raises the exception type torch 2.13 raises (and leaves inputs untouched):
negative sizes, overflowing size products, very high rank, as_strided out of bounds,
impossible view() (with torch's hint to use reshape), bad devices, unknown dtypes and
wrong argument types."""
import pytest

import tensorlib as tl
from conftest import assert_same, assert_same_outcome, make_pair

torch = pytest.importorskip("torch")


def _same(f, message=False):
    """f(module) raises (or not) alike for tensorlib and torch."""
    return assert_same_outcome(lambda: f(tl), lambda: f(torch), message=message,
                               compare=lambda a, b: None)


FACTORY_CASES = {
    "neg_size": lambda m: m.zeros(-1),
    "neg_size_2d": lambda m: m.zeros(2, -3),
    "neg_size_empty": lambda m: m.empty(-2),
    "neg_size_ones": lambda m: m.ones((3, -1)),
    "neg_size_full": lambda m: m.full((-1,), 1.0),
    "overflow": lambda m: m.empty(2 ** 62, 2 ** 62),
    "overflow2": lambda m: m.zeros(2 ** 40, 2 ** 40),
    "overflow3": lambda m: m.empty(2 ** 31, 2 ** 31, 2 ** 31),
    "overflow_int64": lambda m: m.empty(2 ** 63),
    "size_str": lambda m: m.zeros("a"),
    "size_float": lambda m: m.zeros(2.5),
    "size_none": lambda m: m.zeros(None),
    "size_none_in": lambda m: m.zeros((2, None)),
    "size_bool": lambda m: m.zeros(True),
    "size_float_in": lambda m: m.zeros([2, 3.0]),
    "dtype_str": lambda m: m.zeros(2, dtype="float32"),
    "dtype_int": lambda m: m.zeros(2, dtype=3),
    "dtype_py_int": lambda m: m.zeros(2, dtype=int),
    "dtype_py_float": lambda m: m.zeros(2, dtype=float),
    "dtype_py_bool": lambda m: m.zeros(2, dtype=bool),
    "full_dtype_str": lambda m: m.full((2,), 1, dtype="x"),
    "unknown_kw": lambda m: m.zeros(2, bogus=1),
    "device_bad": lambda m: m.zeros(2, device="cuda:x"),
    "device_type": lambda m: m.zeros(2, device=1.5),
    "empty_strided_dims": lambda m: m.empty_strided((2,), (1, 2)),
    "empty_strided_neg": lambda m: m.empty_strided((2,), (-1,)),
    "empty_strided_negsize": lambda m: m.empty_strided((-2,), (1,)),
    "arange_str": lambda m: m.arange("a"),
    "eye_neg": lambda m: m.eye(-1),
    "tensor_str": lambda m: m.tensor("abc"),
    "tensor_none": lambda m: m.tensor(None),
    "tensor_dtype_str": lambda m: m.tensor([1], dtype="float32"),
}


@pytest.mark.parametrize("case", list(FACTORY_CASES))
def test_factory_bad_input(case):
    _same(FACTORY_CASES[case])


def test_high_rank():
    _same(lambda m: m.zeros([1] * 64))
    # torch 2.13 accepts more than 64 dims; tensorlib's fixed limit (TL_MAX_DIMS) is 64 and
    # going past it must be a clear RuntimeError, never a crash
    for rank in (65, 200):
        with pytest.raises(RuntimeError, match="64"):
            tl.zeros([1] * rank)
        with pytest.raises(RuntimeError, match="64"):
            tl.zeros([1] * 64).unsqueeze(0)
        with pytest.raises(RuntimeError, match="64"):
            tl.zeros([1] * 64).view([1] * rank)


def test_negative_size_message():
    _same(lambda m: m.zeros(-1), message=True)
    _same(lambda m: m.empty(2 ** 62, 2 ** 62), message=True)


OP_CASES = {
    "view_numel": lambda a: a.view(7),
    "view_two_infer": lambda a: a.view(-1, -1),
    "view_neg": lambda a: a.view(-2, 3),
    "view_noncontig": lambda a: a.t().view(6),
    "view_dtype_noncontig": lambda a: a.t().view(tl.complex128 if isinstance(a, tl.Tensor) else torch.complex128),
    "view_dtype_cols": lambda a: a.view(tl.complex128 if isinstance(a, tl.Tensor) else torch.complex128),
    "view_str": lambda a: a.view("x"),
    "reshape_numel": lambda a: a.reshape(4, 2),
    "reshape_two_infer": lambda a: a.reshape(-1, -1),
    "as_strided_oob": lambda a: a.as_strided((7,), (1,)),
    "as_strided_oob2": lambda a: a.as_strided((2, 3), (3, 2)),
    "as_strided_neg_off": lambda a: a.as_strided((2,), (1,), -1),
    "as_strided_neg_stride": lambda a: a.as_strided((2,), (-1,), 3),
    "as_strided_neg_size": lambda a: a.as_strided((-1,), (1,)),
    "as_strided_dims": lambda a: a.as_strided((2, 2), (1,)),
    "as_strided_off_oob": lambda a: a.as_strided((1,), (1,), 6),
    "expand_neg_lead": lambda a: a.expand(-1, 2, 3),
    "expand_bad": lambda a: a.expand(3, 3),
    "expand_fewer": lambda a: a.expand(3),
    "permute_dup": lambda a: a.permute(0, 0),
    "permute_len": lambda a: a.permute(0),
    "permute_range": lambda a: a.permute(0, 2),
    "transpose_str": lambda a: a.transpose(1.5, 0),
    "transpose_range": lambda a: a.transpose(0, 2),
    "narrow_str": lambda a: a.narrow(0, "a", 1),
    "narrow_oob": lambda a: a.narrow(1, 2, 2),
    "narrow_neg_len": lambda a: a.narrow(1, 0, -1),
    "select_oob": lambda a: a.select(0, 5),
    "select_neg_oob": lambda a: a.select(1, -4),
    "size_oob": lambda a: a.size(2),
    "stride_oob": lambda a: a.stride(-3),
    "unsqueeze_oob": lambda a: a.unsqueeze(5),
    "squeeze_oob": lambda a: a.squeeze(4),
    "index_oob": lambda a: a[2],
    "index_huge": lambda a: a[2 ** 70],
    "index_float": lambda a: a[1.0],
    "index_too_many": lambda a: a[0, 0, 0],
    "to_str_dtype": lambda a: a.to("float32"),
    "to_bad_kw": lambda a: a.to(dtype="float32"),
    "fill_str": lambda a: a.fill_("x"),
    "fill_none": lambda a: a.fill_(None),
    "fill_tensor_nd": lambda a: a.fill_(a),
    "copy_shape": lambda a: a.copy_(tl.zeros(4) if isinstance(a, tl.Tensor) else torch.zeros(4)),
    "copy_list": lambda a: a.copy_([1, 2, 3]),
    "diagonal_same": lambda a: a.diagonal(0, 1, 1),
    "unfold_big": lambda a: a.unfold(1, 4, 1),
    "unfold_step0": lambda a: a.unfold(1, 2, 0),
    "split_neg": lambda a: a.split(-1),
    "chunk_zero": lambda a: a.chunk(0),
    "movedim_dup": lambda a: a.movedim((0, 0), (0, 1)),
    "flatten_order": lambda a: a.flatten(1, 0),
    "item_many": lambda a: a.item(),
    "contig_bad_fmt": lambda a: a.contiguous(memory_format="x"),
    "clone_bad_fmt": lambda a: a.clone(memory_format=1),
    "is_contig_cl_2d": lambda a: a.is_contiguous(memory_format=tl.channels_last if isinstance(a, tl.Tensor)
                                                 else torch.channels_last),
    "contig_cl_2d": lambda a: a.contiguous(memory_format=tl.channels_last if isinstance(a, tl.Tensor)
                                           else torch.channels_last),
}


@pytest.mark.parametrize("case", list(OP_CASES))
def test_op_bad_input_leaves_input_untouched(case):
    x, t = make_pair((2, 3), "float32")
    before = (tuple(x.shape), x.stride(), x.storage_offset(), x.tolist())
    assert_same_outcome(lambda: OP_CASES[case](x), lambda: OP_CASES[case](t), compare=lambda a, b: None)
    assert (tuple(x.shape), x.stride(), x.storage_offset(), x.tolist()) == before
    assert_same(x, t)


def test_view_hint_mentions_reshape():
    x, t = make_pair((2, 3), "float32")
    e = assert_same_outcome(lambda: x.t().view(6), lambda: t.t().view(6), message=True)
    assert ".reshape(...)" in str(e)
    assert_same_outcome(lambda: x.view(7), lambda: t.view(7), message=True)


def test_as_strided_oob_message():
    x, t = make_pair((2, 3), "float32")
    assert_same_outcome(lambda: x.as_strided((7,), (1,)), lambda: t.as_strided((7,), (1,)), message=True)


def test_dim_messages():
    x, t = make_pair((2, 3), "float32")
    for f in (lambda a: a.size(2), lambda a: a.transpose(0, 5), lambda a: a.select(0, 5), lambda a: a[5]):
        assert_same_outcome(lambda: f(x), lambda: f(t), message=True)


def test_set_default_dtype_bad():
    for bad in (tl.int32, "float64", None):
        tbad = torch.int32 if bad is tl.int32 else bad
        assert_same_outcome(lambda: tl.set_default_dtype(bad), lambda: torch.set_default_dtype(tbad))
    assert tl.get_default_dtype() is tl.float32


def test_bad_device_strings():
    for bad in ("cuda:", "gpu", "cuda:-1", "cpu:0:0", ""):
        _same(lambda m: m.device(bad))
        _same(lambda m: m.zeros(1, device=bad))


def test_unknown_dtype_attribute():
    with pytest.raises(AttributeError):
        tl.float128  # noqa: B018
    with pytest.raises(AttributeError):
        tl.zeros(1).dtype.bogus  # noqa: B018


def test_size_ctor_bad_input():
    _same(lambda m: m.Size([1, "a"]))
    _same(lambda m: m.Size(3))
    assert tl.Size([2, 3]) == torch.Size([2, 3])


# ---- ops torch refuses for complex operands with its own message ------------------------------

COMPLEX_REFUSALS = {
    "floor": lambda m, z: m.floor(z), "ceil": lambda m, z: m.ceil(z), "trunc": lambda m, z: m.trunc(z),
    "fix": lambda m, z: m.fix(z), "maximum": lambda m, z: m.maximum(z, z), "minimum": lambda m, z: m.minimum(z, z),
    "fmax": lambda m, z: m.fmax(z, z), "fmin": lambda m, z: m.fmin(z, z), "max_other": lambda m, z: m.max(z, z),
    "clamp": lambda m, z: m.clamp(z, 0, 1), "clamp_min": lambda m, z: m.clamp_min(z, 0),
    "clamp_max": lambda m, z: m.clamp_max(z, 1), "clip": lambda m, z: m.clip(z, 0, 1), "relu": lambda m, z: m.relu(z),
    "signbit": lambda m, z: m.signbit(z), "deg2rad": lambda m, z: m.deg2rad(z), "rad2deg": lambda m, z: m.rad2deg(z),
    "isposinf": lambda m, z: m.isposinf(z), "isneginf": lambda m, z: m.isneginf(z), "topk": lambda m, z: m.topk(z, 1),
}


@pytest.mark.parametrize("case", list(COMPLEX_REFUSALS))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_refusals_match_torch(case, dtype):
    _same(lambda m: COMPLEX_REFUSALS[case](m, m.tensor([1 + 1j, -2j], dtype=getattr(m, dtype))), message=True)


# ---- 0-d inputs: torch answers before dispatching on dtype ------------------------------------

ZERO_DIM = {
    "kthvalue_bool": lambda m: m.tensor(True).kthvalue(1), "kthvalue_k2": lambda m: m.tensor(3).kthvalue(2),
    "kthvalue_complex": lambda m: m.tensor(1j).kthvalue(1, 0), "kthvalue_baddim": lambda m: m.tensor(3).kthvalue(1, 1),
    "mode_complex": lambda m: m.tensor(1 + 2j).mode(), "mode_bool_keepdim": lambda m: m.tensor(True).mode(0, True),
    "cummax_complex": lambda m: m.tensor(1 + 2j).cummax(0), "cummin_complex": lambda m: m.tensor(1 + 2j).cummin(-1),
    "cummax_baddim": lambda m: m.tensor(1 + 2j).cummax(1), "cummin_baddim": lambda m: m.tensor(2.0).cummin(2),
}


@pytest.mark.parametrize("case", list(ZERO_DIM))
def test_zero_dim_order_statistics(case):
    r = assert_same_outcome(lambda: ZERO_DIM[case](tl), lambda: ZERO_DIM[case](torch), message=True,
                            compare=lambda a, b: (assert_same(a[0], b[0]), assert_same(a[1], b[1])))
    del r


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "float32", "float64"])
@pytest.mark.parametrize("op", ["median", "nanmedian"])
def test_median_of_empty(dtype, op):
    # torch gives NaN cast to the dtype (INT64_MIN for int64, as an x86 conversion)
    x = getattr(tl.zeros(0, 3, dtype=getattr(tl, dtype)), op)()
    t = getattr(torch.zeros(0, 3, dtype=getattr(torch, dtype)), op)()
    assert_same(x, t)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "uint16", "int32", "int64"])
@pytest.mark.parametrize("value", [-0.5, -1.0, 255.5, 256.0, -0.0, -128.5, 127.5, -129.0, 1e19, -1e19, 1.5, -1, 300])
def test_checked_fill_conversion(dtype, value):
    # torch's checked_convert: Python floats must lie in [lowest, max] (no two's complement wrap),
    # Python ints may wrap into unsigned types while their magnitude fits
    _same(lambda m: m.full((2,), value, dtype=getattr(m, dtype)), message=True)
    _same(lambda m: m.zeros(2, dtype=getattr(m, dtype)).fill_(value), message=True)
