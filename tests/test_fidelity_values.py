"""Values, dtypes and argument checks that once differed from torch 2.13 (issue 9).

Each case is one call written once and run on both libraries (``m`` is tensorlib or torch):
both must return the same dtype, shape, values (and strides where the case says), or raise
the same exception type with the same message. No case depends on which SIMD path torch
picks: the inputs avoid special values where torch's kernels differ by CPU.
"""
import math

import numpy as np
import pytest

import tensorlib as tl

from conftest import assert_same_outcome

torch = pytest.importorskip("torch")

NAN = float("nan")


def _compare(strides=False):
    def cmp(a, b):
        if isinstance(b, bool):
            assert a is b or a == b, (a, b)
            return
        if isinstance(b, tuple) and not isinstance(b, torch.Tensor):
            assert tuple(a) == b, (a, b)
            return
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1], (a.dtype, b.dtype)
        assert tuple(a.shape) == tuple(b.shape)
        if strides:
            assert tuple(a.stride()) == tuple(b.stride()), (a.stride(), b.stride())
        if b.dtype == torch.complex32:  # NumPy has no complex32
            a, b = a.to(tl.complex64), b.to(torch.complex64)
        x, y = a.numpy(), b.numpy()
        np.testing.assert_allclose(x.astype(np.complex128), y.astype(np.complex128), rtol=1e-6, equal_nan=True)
    return cmp


def _h(m, *v, dtype=None):
    return m.tensor(list(v), dtype=dtype)


CASES = {
    # round: decimals= selects the float kernel (integers refused), without it ints are kept
    "round_int_decimals": lambda m: m.round(_h(m, 15, 25), decimals=-1),
    "round_int_decimals_pos": lambda m: m.round(_h(m, 15, 25), decimals=2),
    "round_int_decimals_0": lambda m: m.round(_h(m, 15, 25), decimals=0),
    "round_int_plain": lambda m: m.round(_h(m, 15, 25)),
    "round_bool": lambda m: m.round(_h(m, True)),
    "round_method_int_decimals": lambda m: _h(m, 3).round(decimals=1),
    "round_float_decimals": lambda m: m.round(_h(m, 1.25, 2.5, -3.75), decimals=1),
    # clamp: a NaN bound gives NaN; bool with two tensor bounds is refused
    "clamp_nan_min": lambda m: m.clamp(_h(m, 1.0, 2.0), min=NAN),
    "clamp_nan_max": lambda m: m.clamp(_h(m, 1.0, 2.0), max=NAN),
    "clamp_nan_both": lambda m: m.clamp(_h(m, 1.0, 2.0, NAN), min=NAN, max=1.0),
    "clamp_min_nan_fn": lambda m: m.clamp_min(_h(m, 1.0, 2.0), NAN),
    "clamp_int_nan": lambda m: m.clamp(_h(m, 1, 2), min=NAN),
    "clamp_f64_nan_max": lambda m: m.clamp(_h(m, 1.0, 2.0, dtype=m.float64), min=0.0, max=NAN),
    "clamp_bool_tensor_bounds": lambda m: m.clamp(_h(m, True, False), min=_h(m, False, False), max=_h(m, True, True)),
    "clamp_bool_one_tensor_bound": lambda m: m.clamp(_h(m, True, False), min=_h(m, False, False)),
    "clamp_bool_int_bounds": lambda m: m.clamp(_h(m, True, False), min=_h(m, 0, 0), max=_h(m, 1, 1)),
    "clamp_bool_scalar": lambda m: m.clamp(_h(m, True), min=True, max=True),
    "clamp_min_bool_scalar": lambda m: m.clamp_min(_h(m, True), True),
    # nansum into an integer dtype skips NaN
    "nansum_int64": lambda m: m.nansum(_h(m, 1.5, NAN, 2.7), dtype=m.int64),
    "nansum_int32_dim": lambda m: m.nansum(m.tensor([[1.5, NAN], [NAN, 2.0]]), dim=0, dtype=m.int32),
    "nansum_bool": lambda m: m.nansum(_h(m, 0.5, NAN), dtype=m.bool),
    "nansum_f64_to_f32": lambda m: m.nansum(_h(m, 1.5, NAN, dtype=m.float64), dtype=m.float32),
    # bool add with alpha: alpha is truthy
    "add_bool_alpha": lambda m: m.add(_h(m, False, True), True, alpha=2),
    "add_bool_tensor_alpha": lambda m: m.add(_h(m, False, False), _h(m, True, False), alpha=3),
    # addr's alpha/beta follow add's rules; the products' complex alpha does not convert
    "addr_int_float_alpha": lambda m: m.addr(m.zeros(2, 2, dtype=m.int64), _h(m, 1, 2), _h(m, 1, 2), alpha=1.5),
    "addr_int_float_beta": lambda m: m.addr(m.zeros(2, 2, dtype=m.int64), _h(m, 1, 2), _h(m, 1, 2), beta=0.0),
    "addr_int_both": lambda m: m.addr(m.zeros(2, 2, dtype=m.int64), _h(m, 1, 2), _h(m, 1, 2), alpha=1.5, beta=True),
    "addr_float_bool_alpha": lambda m: m.addr(m.zeros(2, 2), _h(m, 1.0, 2.0), _h(m, 1.0, 2.0), alpha=True),
    "addr_float_complex_alpha": lambda m: m.addr(m.zeros(2, 2), _h(m, 1.0, 2.0), _h(m, 1.0, 2.0), alpha=1j),
    "addr_bool_int_alpha": lambda m: m.addr(m.zeros(2, 2, dtype=m.bool), _h(m, True, False), _h(m, True, True), alpha=2),
    "addmm_int_complex_alpha": lambda m: m.addmm(m.ones(2, 2, dtype=m.int64), m.ones(2, 2, dtype=m.int64),
                                                 m.ones(2, 2, dtype=m.int64), alpha=1 + 1j),
    "addmm_float_complex_beta": lambda m: m.addmm(m.ones(2, 2), m.ones(2, 2), m.ones(2, 2), beta=1j),
    "addmm_int_float_alpha": lambda m: m.addmm(m.ones(2, 2, dtype=m.int64), m.ones(2, 2, dtype=m.int64),
                                               m.ones(2, 2, dtype=m.int64), alpha=2.0),
    # scalar / tensor is reciprocal(tensor) * scalar
    "complex_div_half": lambda m: (1 + 2j) / _h(m, 1.0, 2.0, dtype=m.float16),
    "int_div_int_tensor": lambda m: 3 / _h(m, 3, 7),
    "float_div_f32": lambda m: 1.7 / _h(m, 0.3, 3.0, 7.0),
    "complex_div_complex32": lambda m: 2 / _h(m, 1 + 1j, dtype=m.complex32),
    # lerp: a 0-d weight takes part in promotion
    "lerp_int_0d_float_weight": lambda m: m.lerp(_h(m, 1, 2), _h(m, 3, 4), m.tensor(0.5)),
    "lerp_int_scalar_weight": lambda m: m.lerp(_h(m, 1, 2), _h(m, 3, 4), 0.5),
    "lerp_int_1d_weight": lambda m: m.lerp(_h(m, 1, 2), _h(m, 3, 4), _h(m, 0.5, 0.5)),
    "lerp_int_0d_int_weight": lambda m: m.lerp(_h(m, 1, 2), _h(m, 3, 4), m.tensor(1)),
    "lerp_end_dtype": lambda m: m.lerp(_h(m, 1.0, 2.0), _h(m, 3, 4), 0.5),
    "lerp_end_dtype_f64": lambda m: m.lerp(_h(m, 1.0, 2.0), _h(m, 3.0, 4.0, dtype=m.float64), 0.5),
    "lerp_f32_0d_f64_weight": lambda m: m.lerp(_h(m, 1.0, 2.0), _h(m, 3.0, 4.0), m.tensor(0.25, dtype=m.float64)),
    "lerp_int_out_long": lambda m: m.lerp(_h(m, 1, 2), _h(m, 3, 4), m.tensor(0.5), out=m.empty(2, dtype=m.int64)),
    "lerp_0d_all": lambda m: m.lerp(m.tensor(1), m.tensor(3), m.tensor(0.5)),
    "lerp_scalar_end": lambda m: m.lerp(_h(m, 1.0), 2.0, 0.5),
    # histc refuses a NaN automatic range (message compared up to the NaN's sign)
    "histc_nan_auto": lambda m: m.histc(_h(m, 1.0, NAN)),
    "histc_nan_given_range": lambda m: m.histc(_h(m, 1.0, NAN), bins=4, min=0, max=2),
    "histc_inf_auto": lambda m: m.histc(_h(m, 1.0, math.inf)),
    # in-place abs of complex is refused; out= is fine
    "abs_inplace_complex": lambda m: _h(m, 1 + 1j).abs_(),
    "abs_fn_inplace_complex": lambda m: m.abs_(_h(m, 3 + 4j)),
    "abs_out_complex": lambda m: m.abs(_h(m, 3 + 4j), out=m.empty(1, dtype=m.complex64)),
    # conj_physical of a real tensor is the tensor itself
    "conj_physical_real_is_self": lambda m: (lambda x: m.conj_physical(x) is x)(_h(m, 1.0, 2.0)),
    "conj_physical_method_is_self": lambda m: (lambda x: x.conj_physical() is x)(_h(m, 1, 2)),
    "conj_physical_complex_copy": lambda m: (lambda x: m.conj_physical(x) is x)(_h(m, 1j)),
    "conj_physical_real_out": lambda m: m.conj_physical(_h(m, 1.0), out=m.empty(1)),
    # tril/triu results are contiguous
    "tril_transposed": lambda m: m.tril(m.arange(12.0).reshape(3, 4).t()),
    "triu_batched_transposed": lambda m: m.triu(m.arange(24.0).reshape(2, 3, 4).transpose(1, 2), 1),
    "tril_strided": lambda m: m.tril(m.arange(20.0).reshape(5, 4)[::2]),
    # data_ptr of a tensor without elements
    "data_ptr_empty": lambda m: m.empty(0).data_ptr() == 0,
    "data_ptr_empty_view": lambda m: m.ones(3)[3:].data_ptr() == 0,
    "data_ptr_nonempty": lambda m: m.ones(3).data_ptr() != 0,
    # dim=None where torch's overloads take no None
    "max_dim_none": lambda m: m.max(m.ones(3), dim=None),
    "min_dim_none_pos": lambda m: m.ones(3).min(None, True),
    "median_dim_none": lambda m: m.median(m.ones(3), dim=None),
    "nanmedian_dim_none": lambda m: m.ones(3).nanmedian(dim=None),
    "prod_dim_none": lambda m: m.prod(m.ones(3), dim=None),
    "logsumexp_dim_none": lambda m: m.logsumexp(m.ones(3), dim=None),
    "max_no_dim": lambda m: m.max(m.arange(3.0)),
    "prod_no_dim": lambda m: m.arange(1.0, 4.0).prod(),
    # ~ on floating tensors
    "invert_float": lambda m: ~m.ones(2),
    "invert_complex": lambda m: ~m.ones(2, dtype=m.complex64),
    "invert_int": lambda m: ~_h(m, 1, -2),
    "bitwise_not_float": lambda m: m.bitwise_not(m.ones(2)),
    # reductions: torch's order of dtype, dim and emptiness checks
    "nanmean_int_dtype": lambda m: m.nanmean(m.ones(3), dtype=m.int64),
    "nanmean_complex_dtype": lambda m: m.nanmean(m.ones(3), dtype=m.complex64),
    "nanmean_int_input_float_dtype": lambda m: m.nanmean(m.ones(3, dtype=m.int64), dtype=m.float32),
    "nanmean_complex_input": lambda m: m.nanmean(m.ones(2, dtype=m.complex64)),
    "nanmean_f64_dtype": lambda m: m.nanmean(m.ones(3), dtype=m.float64),
    "mean_bad_dim_bad_dtype": lambda m: m.mean(m.ones(3), dim=5, dtype=m.int64),
    "nanmean_bad_dim_bad_dtype": lambda m: m.nanmean(m.ones(3), dim=5, dtype=m.int64),
    "std_int_bad_dim": lambda m: m.std(m.ones(3, dtype=m.int64), dim=5),
    "mean_int_dup_dims": lambda m: m.mean(m.ones(0, 3, dtype=m.int64), dim=(0, 0)),
    "norm_int_bad_dim": lambda m: m.norm(m.ones(3, dtype=m.int64), dim=5),
    "amax_empty_dup": lambda m: m.amax(m.ones(0, 3), dim=(0, 0)),
    "amax_empty_then_bad": lambda m: m.amax(m.ones(0, 3), dim=(0, 5)),
    "amax_bad_then_empty": lambda m: m.amax(m.ones(0, 3), dim=(5, 0)),
    "amax_later_empty": lambda m: m.amax(m.ones(0, 3), dim=(1, 0)),
    "amin_dup_nonempty": lambda m: m.amin(m.ones(0, 3), dim=(1, 1)),
    "sum_empty_dup": lambda m: m.sum(m.ones(0, 3), dim=(0, 0)),
    "argmax_bool_empty": lambda m: m.argmax(m.ones(0, 3, dtype=m.bool), dim=0),
    "argmax_empty": lambda m: m.argmax(m.ones(0, 3), dim=0),
    # tensor(): errors for data that is not numbers
    "tensor_str_list": lambda m: m.tensor(["a"]),
    "tensor_str": lambda m: m.tensor("a"),
    "tensor_num_str": lambda m: m.tensor([1, "a"]),
    "tensor_nested_str": lambda m: m.tensor([[1], "a"]),
    "tensor_none": lambda m: m.tensor(None),
    "tensor_none_float": lambda m: m.tensor(None, dtype=m.float32),
    "tensor_none_int": lambda m: m.tensor(None, dtype=m.int64),
    "tensor_none_in_list_float": lambda m: m.tensor([None], dtype=m.float32),
    "tensor_none_in_list_int": lambda m: m.tensor([1, None], dtype=m.int64),
    "tensor_object_float": lambda m: m.tensor(object(), dtype=m.float32),
    "tensor_0d_float_into_int": lambda m: m.tensor([m.tensor(1.5)], dtype=m.int64),
    "tensor_0d_float_into_bool": lambda m: m.tensor([m.tensor(1.5)], dtype=m.bool),
    "tensor_0d_float_mixed_into_int": lambda m: m.tensor([m.tensor(1.5), 2], dtype=m.int64),
    "tensor_1elem_float_into_int32": lambda m: m.tensor([[m.tensor([1.5])]], dtype=m.int32),
    "tensor_0d_complex_into_float": lambda m: m.tensor([m.tensor(1 + 1j)], dtype=m.float32),
    "tensor_0d_bool_into_int": lambda m: m.tensor([m.tensor(True)], dtype=m.int64),
    "tensor_0d_int_into_float": lambda m: m.tensor([m.tensor(2)], dtype=m.float32),
    "tensor_0d_float_inferred": lambda m: m.tensor([m.tensor(1.5), 2]),
    "tensor_float_list_into_int": lambda m: m.tensor([1.5, -2.5], dtype=m.int64),
    "tensor_0d_tensor_into_int": lambda m: m.tensor(m.tensor(1.5), dtype=m.int64),
}

# Messages compared but for: "nan" vs "-nan" (the NaN's sign comes from torch's min/max
# kernel), and TypeErrors of torch's argument parser, whose text depends on the call form
# (function or method, positional or keyword); their type is compared.
MESSAGE_EXEMPT = {"histc_nan_auto", "lerp_scalar_end", "logsumexp_dim_none", "max_dim_none", "min_dim_none_pos",
                  "median_dim_none", "nanmedian_dim_none", "prod_dim_none"}
STRIDES = {"tril_transposed", "triu_batched_transposed", "tril_strided"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    f = CASES[name]
    assert_same_outcome(lambda: f(tl), lambda: f(torch), message=name not in MESSAGE_EXEMPT,
                        compare=_compare(strides=name in STRIDES))


def test_histc_nan_range_message():
    with pytest.raises(RuntimeError, match=r"torch.histc: range of \[-?nan, -?nan\] is not finite"):
        tl.histc(tl.tensor([1.0, NAN]))


def test_clamp_nan_bound_every_float_dtype():
    # the mathematical answer (NumPy's too): a NaN bound makes every element NaN
    for dt in (tl.float16, tl.bfloat16, tl.float32, tl.float64):
        x = tl.arange(-3.0, 4.0).to(dt)
        for kw in ({"min": NAN}, {"max": NAN}, {"min": NAN, "max": NAN}, {"min": -1.0, "max": NAN}):
            r = tl.clamp(x, **kw)
            assert r.dtype == dt
            assert np.isnan(r.float().numpy()).all(), (dt, kw)
        np.testing.assert_array_equal(tl.clamp(x, min=-1.0, max=1.0).float().numpy(),
                                      np.clip(np.arange(-3.0, 4.0), -1.0, 1.0))


def test_clamp_nan_bound_strided_and_inplace():
    x = tl.arange(12.0).reshape(3, 4).t()
    x.clamp_(max=NAN)
    assert np.isnan(x.numpy()).all()
    y = tl.arange(6.0)
    out = tl.empty(6)
    tl.clamp(y, min=NAN, out=out)
    assert np.isnan(out.numpy()).all()
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_nansum_int_dtype_large_and_strided():
    a = np.arange(10_000, dtype=np.float64) / 7
    a[::3] = np.nan
    x = tl.from_numpy(a)[::2]
    want = np.trunc(np.nan_to_num(a[::2])).astype(np.int64).sum()
    assert tl.nansum(x, dtype=tl.int64).item() == want
    assert tl.from_numpy(a).isnan().sum().item() == np.isnan(a).sum()  # input untouched


@pytest.mark.parametrize("arr", [
    lambda: np.ones((3, 4)).T, lambda: np.ones((3, 4))[:, ::2], lambda: np.ones((0, 4)).T,
    lambda: np.asfortranarray(np.ones((2, 3, 4))), lambda: np.ones((4, 5))[::2, ::2].T,
    lambda: np.broadcast_to(np.ones(3), (2, 3)), lambda: np.ones((2, 3, 4)).transpose(1, 0, 2),
    lambda: np.ones((3, 4), dtype=np.float32).T, lambda: np.ones((1, 4)).T,
], ids=["T", "step", "empty_T", "fortran", "step_T", "broadcast", "perm", "f32_T", "col"])
def test_tensor_from_ndarray_keeps_layout(arr):
    a = arr()
    for kw in ({}, {"dtype": "float32"}):
        x = tl.tensor(a, **({"dtype": tl.float32} if kw else {}))
        t = torch.tensor(a, **({"dtype": torch.float32} if kw else {}))
        assert x.stride() == t.stride(), (x.stride(), t.stride())
        np.testing.assert_array_equal(x.numpy(), t.numpy())
        assert not np.shares_memory(x.numpy(), a)  # a copy, never a view


@pytest.mark.parametrize("kind", ["mt19937", "philox"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_rand_narrow_floats_stay_below_the_bound(kind, dt):
    # float32 uniforms just below 1 round up to 1.0 in float16/bfloat16; the range is [0, 1)
    g = tl.Generator(kind=kind)
    g.manual_seed(0)
    v = tl.rand(1_000_000, dtype=getattr(tl, dt), generator=g).float().numpy()
    assert v.max() < 1.0 and v.min() >= 0.0
    y = tl.empty(1_000_000, dtype=getattr(tl, dt)).uniform_(2.0, 3.0, generator=g).float().numpy()
    assert y.max() < 3.0 and y.min() >= 2.0
