"""Issue 13's reproducers: views whose extents overflow, failing calls that wrote into their
inputs, calls that left the interpreter with a stale exception, and exception classes that
differ from torch 2.13's. Each case failed (or crashed) before the fix."""
import pytest

import tensorlib as tl

I64 = 2 ** 63 - 1


# ---- size, stride, offset and extent arithmetic -------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: tl.zeros(1, dtype=tl.uint8).as_strided((5,), (2 ** 62,)),
    lambda: tl.arange(8.).as_strided((3,), (1,), I64),
    lambda: tl.arange(8.).as_strided((1,), (1,), 2 ** 62),      # byte offset wraps
    lambda: tl.zeros(2).as_strided((0,), (1,), I64),             # even when empty
    lambda: tl.zeros(2).as_strided((2, 2), (2 ** 62, 2 ** 62)),
    lambda: tl.arange(8.)[1::2][::2 ** 62],                      # stride * step wraps
    lambda: tl.ones(4).unfold(0, 1, 2 ** 62),
    lambda: tl.empty((0, 2 ** 62, 2 ** 62)),                     # contiguous strides wrap
    lambda: tl.empty((2 ** 62, 0, 2 ** 62)),                     # zero-length dims multiply as 1
    lambda: tl.empty_strided((0, 2), (2 ** 62, 2 ** 62)),
    lambda: tl.zeros(1).expand(2 ** 62, 4),                      # numel wraps
])
def test_overflowing_geometry_is_refused(make):
    with pytest.raises(RuntimeError, match="overflow"):
        make()


@pytest.mark.parametrize("args", [
    (I64, (1,), (1,)),          # offset past the storage
    (4, (2,), (-1,)),           # negative stride reaching before the offset
    (0, (3,), (1,)),            # larger than the storage
    (-1, (1,), (1,)),
    (2 ** 61, (0,), (1,)),      # empty, but the byte offset wraps
])
def test_set_validates_against_the_storage(args):
    x = tl.arange(3.)
    before = (x.shape, x.stride(), x.storage_offset(), x.tolist())
    with pytest.raises(RuntimeError):
        x.set_(tl.zeros(2), *args)
    assert (x.shape, x.stride(), x.storage_offset(), x.tolist()) == before


def test_valid_geometry_still_accepted():
    x = tl.arange(8.)
    assert x.set_(tl.arange(4.), 1, (3,), (1,)).tolist() == [1.0, 2.0, 3.0]
    assert tl.zeros(2).as_strided((0,), (1,), 100).storage_offset() == 100
    assert tl.zeros(1).expand(I64)[::2 ** 51].shape == (4096,)
    assert tl.zeros(1).expand(I64).unsqueeze(0).stride() == (0, 0)
    assert tl.empty((0, 2 ** 40)).shape == (0, 2 ** 40)
    assert tl.arange(8.)[::2 ** 40].tolist() == [0.0]
    assert tl.zeros(3, 4).diagonal(2 ** 62).shape == (0,)
    assert tl.zeros(3, 4).diagonal(-2 ** 63).shape == (0,)
    assert tl.zeros(3, 4).diagonal(-2).tolist() == [0.0]


def test_unfold_at_max_rank():
    with pytest.raises(RuntimeError, match="64"):
        tl.zeros([1] * 64).unfold(0, 1, 1)


# ---- failing calls leave their inputs untouched -------------------------------------------------

INT_DTYPES = [tl.uint8, tl.int8, tl.int16, tl.int32, tl.int64]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("op", [
    lambda x, d: x.__ifloordiv__(d),
    lambda x, d: x.floor_divide_(d),
    lambda x, d: x.remainder_(d),
    lambda x, d: x.fmod_(d),
    lambda x, d: x.div_(d, rounding_mode="floor"),
    lambda x, d: x.div_(d, rounding_mode="trunc"),
    lambda x, d: x.__imod__(d),
])
@pytest.mark.parametrize("divisor", ["scalar", "tensor", "strided", "0-d"])
def test_integer_division_by_zero_writes_nothing(dtype, op, divisor):
    x = tl.tensor([5, 6, 7, 8], dtype=dtype)
    d = {"scalar": 0, "tensor": tl.tensor([1, 2, 0, 1], dtype=dtype),
         "strided": tl.tensor([1, 9, 2, 9, 3, 9, 0, 9], dtype=dtype)[::2],
         "0-d": tl.tensor(0, dtype=dtype)}[divisor]
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        op(x, d)
    assert x.tolist() == [5, 6, 7, 8]


def test_integer_division_by_zero_out_untouched():
    out = tl.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        tl.remainder(tl.tensor([4, 5, 6]), tl.tensor([1, 0, 1]), out=out)
    assert out.tolist() == [1, 2, 3]
    out = tl.tensor([1, 2])  # would be resized
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        tl.floor_divide(tl.tensor([4, 5, 6]), 0, out=out)
    assert out.tolist() == [1, 2]
    u = tl.tensor([5, 6], dtype=tl.uint8)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        u.remainder_(2 ** 32)  # the scalar wraps to 0 in uint8, as in torch
    assert u.tolist() == [5, 6]


def test_integer_division_without_zero_or_elements():
    assert (tl.tensor([7, -7]) // tl.tensor([2, 2])).tolist() == [3, -4]
    assert (tl.zeros(0, dtype=tl.int64) // tl.tensor([0])).tolist() == []  # nothing computed: no error, as torch
    assert (tl.tensor([5.0]) // 0).tolist() == [float("inf")]


def test_rot90_roll_leave_k_and_shifts_alone():
    x = tl.arange(4.).view(2, 2)
    k = tl.tensor(5)
    assert tl.rot90(x, k).tolist() == tl.rot90(x, 1).tolist()
    assert k.item() == 5
    s = tl.tensor([5])
    assert tl.roll(tl.arange(3.), s, 0).tolist() == [1.0, 2.0, 0.0]
    assert s.tolist() == [5]


@pytest.mark.parametrize("fn", [tl.silu, tl.mish])
def test_activation_inplace_truth_error(fn):
    z = tl.tensor([-1.0, 2.0])
    with pytest.raises(RuntimeError, match="ambiguous"):
        fn(z, inplace=tl.ones(2))
    assert z.tolist() == [-1.0, 2.0]
    tl.ones(1) + 1  # and no stale exception surfaces in the next call


# ---- a clean interpreter state --------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: tl.mode(tl.ones(3), 0, tl.ones(2)),
    lambda: tl.median(tl.ones(3), 0, tl.ones(2)),
    lambda: tl.nanmedian(tl.ones(3), 0, tl.ones(2)),
    lambda: tl.kthvalue(tl.ones(3), 1, 0, tl.ones(2)),
    lambda: tl.sort(tl.ones(3), 0, descending=tl.ones(2)),
    lambda: tl.topk(tl.ones(3), 1, largest=tl.ones(2)),
    lambda: tl.searchsorted(tl.ones(3), tl.ones(2), right=tl.ones(2)),
    lambda: tl.sum(tl.ones(3), 0, keepdim=tl.ones(2)),
    lambda: tl.ones(2).__dlpack__(max_version=1),
    lambda: tl.ones(2).__dlpack__(dl_device=1),
])
def test_failed_truth_tests_and_bad_tuples_raise_cleanly(call):
    with pytest.raises((TypeError, RuntimeError)) as e:
        call()
    assert not isinstance(e.value, SystemError)
    assert (tl.ones(2) * 2).tolist() == [2.0, 2.0]


# ---- torch's exception classes ------------------------------------------------------------------

def test_out_of_memory_is_runtime_and_memory_error():
    assert issubclass(tl.OutOfMemoryError, RuntimeError) and issubclass(tl.OutOfMemoryError, MemoryError)
    with pytest.raises(RuntimeError, match="can't allocate memory") as e:
        tl.empty(2 ** 46)  # 256 TiB: refused by the allocator
    assert isinstance(e.value, MemoryError)


@pytest.mark.parametrize("call, exc", [
    (lambda: tl.empty((2, 2 ** 64)), TypeError),
    (lambda: tl.empty(2, 2 ** 64), TypeError),
    (lambda: tl.zeros(3).view((2 ** 64,)), TypeError),
    (lambda: tl.ones(2).as_strided((2,), (2 ** 64,)), TypeError),
    (lambda: tl.zeros(3) + 2 ** 64, OverflowError),
    (lambda: tl.zeros(3) + (-2 ** 64), OverflowError),
    (lambda: 2 ** 64 * tl.zeros(3), OverflowError),
    (lambda: tl.zeros(3) < 2 ** 64, OverflowError),
    (lambda: tl.scalar_tensor(2 ** 64), OverflowError),
    (lambda: tl.full((2,), 2 ** 64), OverflowError),
    (lambda: tl.zeros(3).fill_(2 ** 64), OverflowError),
    (lambda: tl.zeros(2).add(1, alpha=2 ** 64), OverflowError),
    (lambda: tl.arange(2 ** 64), OverflowError),
    (lambda: tl.tensor(2 ** 64), ValueError),
    (lambda: tl.zeros(3).narrow(0, 2 ** 64, 1), ValueError),
])
def test_ints_beyond_64_bits(call, exc):
    """torch's argument parser: int lists TypeError, scalars OverflowError, ints ValueError."""
    with pytest.raises(exc):
        call()
    x = tl.zeros(3)
    with pytest.raises(OverflowError):
        x += 2 ** 64
    assert x.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("call, message", [
    (lambda: tl.flipud(1), "flipud(): argument 'input' (position 1) must be Tensor, not int"),
    (lambda: tl.masked_select(tl.ones(2), 1), "masked_select(): argument 'mask' (position 2) must be Tensor, not int"),
    (lambda: tl.ones(2, 2).diag_embed(0, 2, -1.5), "diag_embed(): argument 'dim2' (position 3) must be int, not float"),
    (lambda: tl.mode(tl.ones(3), 0, tl.ones(2)), "mode(): argument 'keepdim' (position 3) must be bool, not Tensor"),
    (lambda: tl.ones(2).expand_as(3), "expand_as(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: tl.ones(2).view_as(None), "view_as(): argument 'other' (position 1) must be Tensor, not NoneType"),
    (lambda: tl.meshgrid(1, 2), "meshgrid(): argument 'tensors' (position 1) must be tuple of Tensors, not tuple"),
    (lambda: tl.take_along_dim(tl.ones(2), 1), "take_along_dim(): argument 'indices' (position 2) must be Tensor"),
    (lambda: tl.ones(2).sum(keepdim=tl.ones(2)), "sum(): argument 'keepdim' must be bool, not Tensor"),
    (lambda: tl.einsum(tl.ones(2), tl.ones(2)), "einsum()"),
    (lambda: tl.inner(tl.ones(2), tl.ones(2), tl.zeros(())), "takes 2 positional arguments"),
])
def test_wrong_argument_types_are_type_errors(call, message):
    """torch's parser words; never AttributeError, StopIteration or SystemError."""
    with pytest.raises(TypeError) as e:
        call()
    assert message in str(e.value)


def test_inner_out_is_keyword_only():
    c = tl.zeros(())
    with pytest.raises(TypeError):
        tl.inner(tl.ones(2), tl.ones(2), c)
    assert c.item() == 0.0
    assert tl.inner(tl.ones(2), tl.ones(2), out=c).item() == 2.0 and c.item() == 2.0


def test_tensor_split_refuses_impossible_counts_at_once():
    with pytest.raises(RuntimeError, match="sections"):
        tl.tensor_split(tl.ones(3), 2 ** 32)
    assert len(tl.ones(3).tensor_split(5)) == 5  # a few empty pieces stay allowed, as in torch


@pytest.mark.parametrize("dtype, exp", [(tl.int8, 200), (tl.int8, 128), (tl.uint8, 256), (tl.int16, 40000)])
def test_integer_pow_scalar_exponent_must_fit(dtype, exp):
    x = tl.tensor([2], dtype=dtype)
    with pytest.raises(RuntimeError, match="without overflow"):
        x ** exp
    with pytest.raises(RuntimeError, match="without overflow"):
        x.pow_(exp)
    assert x.tolist() == [2]
    assert (x ** 3).tolist() == [8]


@pytest.mark.parametrize("args", [((1, ), ), (("ii", ), )])
def test_einsum_without_operands_is_a_value_error(args):
    with pytest.raises(ValueError, match="at least one operand"):
        tl.einsum(*args[0])


@pytest.mark.parametrize("shape, ishape, dim", [((2, 3), (1, 3), 0), ((2, 1), (2, 3), 1), ((1, 3), (2, 3), 0),
                                                ((2, 1, 4), (1, 3, 2), 2)])
def test_take_along_dim_broadcasts_the_index(shape, ishape, dim):
    """torch 2.13 broadcasts input and indices over every dimension but `dim`."""
    import math
    import numpy as np
    x = tl.arange(float(math.prod(shape))).reshape(shape)
    idx = (tl.arange(math.prod(ishape)) % shape[dim]).reshape(ishape)
    xa, ia = x.numpy(), idx.numpy()
    bshape = np.broadcast_shapes(tuple(1 if d == dim else s for d, s in enumerate(xa.shape)),
                                 tuple(1 if d == dim else s for d, s in enumerate(ia.shape)))
    xb = np.broadcast_to(xa, tuple(xa.shape[d] if d == dim else s for d, s in enumerate(bshape)))
    ib = np.broadcast_to(ia, tuple(ia.shape[d] if d == dim else s for d, s in enumerate(bshape)))
    want = np.take_along_axis(xb, ib, dim)
    got = tl.take_along_dim(x, idx, dim)
    assert tuple(got.shape) == want.shape and got.numpy().tolist() == want.tolist()


def test_debug_checks_flag():
    """TL_DEBUG_CHECKS (slots that return a value with an exception set abort) is on in the
    sanitizer and TENSORLIB_DEBUG builds only; scripts/sanitize.sh asserts it is there."""
    assert tl._C._debug_checks in (0, 1)
    z = tl.ones(2)
    for bad in (lambda: z + "a", lambda: z[tl.ones(2)], lambda: z < "a", lambda: bool(z)):
        with pytest.raises((TypeError, IndexError, RuntimeError)) as e:
            bad()
        assert not isinstance(e.value, SystemError)


def test_contains_refuses_non_scalars():
    """Found by scripts/fuzz.py: `x in obj` raised AttributeError for objects that are neither
    tensors nor numbers."""
    import numpy as np
    x = tl.arange(4.)
    for bad in (tl.device("cpu"), "mean", tl.float64, None):
        with pytest.raises(RuntimeError, match="only supports Tensor or scalar"):
            bad in x
    assert 2 in x and 2.5 not in x and np.float32(3) in x and tl.tensor(1.) in x and True in tl.tensor([True])


def test_out_with_unsupported_conversion_is_not_resized():
    """Found by scripts/fuzz.py: out= was resized before the conversion was refused."""
    out = tl.zeros((2, 2), dtype=tl.float4_e2m1fn_x2)
    with pytest.raises(RuntimeError, match="not supported"):
        tl.cat([tl.zeros((2, 8), dtype=tl.int8)], 1, out=out)
    assert out.shape == (2, 2) and out.stride() == (2, 1)


# Found by the s19 fuzz campaign (scripts/fuzz.py with sparse arguments and the sub-modules):
# wrong argument types reached attribute lookups deep inside (AttributeError) instead of torch's
# TypeError. Each call raised AttributeError before the fix.
def _sparse_2x2():
    return tl.ones(2, 2).to_sparse()


WRONG_TYPES = [
    # the layout gate sends a call to the sparse handlers when any argument is sparse
    lambda: tl.arctan(False, tl.zeros((2, 3)).to_sparse(), 1e300),
    lambda: tl.isfinite([], tl.zeros((2, 3)).to_sparse_csr(), True),
    lambda: tl.sqrt((), tl.arange(3.).reshape(3, 1).to_sparse(1)),
    lambda: tl.mish((), tl.zeros((2, 2)).to_sparse_bsc((1, 1))),
    lambda: tl.mm(2, _sparse_2x2()),
    # tensorlib.sparse
    lambda: tl.sparse.sum(2),
    lambda: tl.sparse.sparse_sum((4,)),
    lambda: tl.sparse.mm(-0.0, tl.complex64),
    lambda: tl.sparse.from_scipy(tl.ones(2)),
    lambda: tl.sparse.spsolve(tl.int64, 0.0),
    lambda: tl.sparse.softmax(2, 0),
    lambda: tl.sparse.spdiags(7, None, (2, 2)),
    # tensorlib.linalg, tensorlib.nn.functional
    lambda: tl.linalg.vander(1.0),
    lambda: tl.linalg.tensorsolve(1, 2),
    lambda: tl.linalg.diagonal(1j),
    lambda: tl.linalg.tensorinv(False),
    lambda: tl.linalg.vecdot(tl.ones(2), tl.bool),
    lambda: tl.nn.functional.linear(tl.ones(2), "trunc"),
    lambda: tl.linalg.householder_product(tl.ones(4, 1), None),
    lambda: tl.sspaddmm(_sparse_2x2(), 2, 3),
    lambda: tl.hspmm(_sparse_2x2(), [1.0]),
    lambda: tl.var_mean([-2, tl.ones(3, 1), tl.zeros((2, 2, 2)).to_sparse(1)], tl.zeros(3)),
    lambda: tl.sparse.mm([0, 0], tl.ones(2, 2).to_sparse_csc()),
    lambda: 4 @ tl.ones(2, 2).to_sparse_csc(),
    lambda: tl.ones(2, 3).addmm_(tl.ones(2, 3).to_sparse(), True),
    lambda: tl.bmm(tl.ones(1, 2, 2).to_sparse(), 1),
    lambda: tl.sparse.sampled_addmm(True, tl.float32, -1),
    lambda: tl.sparse.sampled_addmm(tl.ones(2, 2).to_sparse_csr(), 1, 2),
    # the s20 campaign (seed 8, 200,000 calls): its only finding
    lambda: tl.linalg.multi_dot((tl.float8_e4m3fn, -2)),
    lambda: tl.linalg.multi_dot([tl.ones(2, 2), 3]),
    # the suite's fuzz run after the s21 merges (torch 2.13 itself raises AttributeError here)
    lambda: tl.pca_lowrank(False),
    lambda: tl.svd_lowrank(tl.ones(3, 3), M=2),
    lambda: tl.lobpcg([[1.0]]),
    lambda: tl.lobpcg(tl.eye(6), B="x"),
]


@pytest.mark.parametrize("call", WRONG_TYPES, ids=range(len(WRONG_TYPES)))
def test_wrong_argument_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_array_api_arrays_must_be_arrays():
    import tensorlib.array_api as xp
    calls = [lambda: xp.searchsorted(2, tl.ones(3)), lambda: xp.clip((3, 3)), lambda: xp.unique_all("N"),
             lambda: xp.cumulative_sum(1 + 2j), lambda: xp.linalg.matrix_transpose(tl.device("cpu")),
             lambda: xp.linalg.inv(3), lambda: xp.fft.fft([1.0]), lambda: xp.matmul(tl.ones(2, 2), 5),
             lambda: xp.take_along_axis(tl.ones(2, 2), tl.int64), lambda: xp.finfo([-1, -1]), lambda: xp.can_cast(tl.int8, 3), lambda: xp.where(1, 2, 3)]
    for call in calls:
        with pytest.raises(TypeError):
            call()
    # what the standard allows still works: scalars in element-wise functions, arrays' dtypes
    assert xp.add(1, tl.ones(2)).tolist() == [2.0, 2.0] and xp.finfo(tl.ones(1)).bits == 32
    assert xp.where(tl.tensor([True, False]), 1.0, tl.zeros(2)).tolist() == [1.0, 0.0]
    assert xp.can_cast(tl.int8, tl.float32) and xp.from_dlpack(tl.ones(2)).tolist() == [1.0, 1.0]
