"""torch's remaining small functions and methods against torch 2.13: range, empty_permuted,
nonzero_static, fill, unsafe_chunk/split/split_with_sizes, constant_pad_nd (and narrow's
check order), typename, to_dlpack, the older sparse product names, the module forms of
in-place methods, and the legacy methods new/resize/resize_as/apply_/map_/map2_: values,
dtypes, shapes, strides, errors and their messages."""
import warnings

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def _lib_dtype(lib, dt):
    return getattr(lib, dt)


def _outcome(f, lib):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", f(lib)
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e).replace("torch.", "tensorlib.").replace("torch", "tensorlib")


def _plain(v):
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    if hasattr(v, "stride") and hasattr(v, "dtype") and not isinstance(v, np.ndarray):
        if str(v.device) == "meta":
            return ("meta", str(v.dtype).split(".")[-1], tuple(v.shape), tuple(v.stride()))
        return (str(v.dtype).split(".")[-1], tuple(v.shape), tuple(v.stride()), v.tolist())
    return v


def _check(f, message=True):
    """f(lib) gives the same outcome with tensorlib as with torch: the value (dtype, shape,
    strides, elements) or the exception type and (unless message=False: torch words it with
    its internals) message."""
    got, want = _outcome(f, tl), _outcome(f, torch)
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert _plain(got[1]) == _plain(want[1])
    elif message:
        assert got[1] == want[1]


# ---- range ----

RANGE_CASES = [(0, 3), (0, 1, 0.3), (3, 0, -1), (0.5, 3), (0, 10.0), (0, 3, 0), (3, 0), (0, float("inf")),
               (-2.5, 2.5, 0.5), (1, 2, 0.1), (5, 5), (0, 2 ** 62, 2 ** 60), (0, 1, 1 / 3)]


@pytest.mark.parametrize("args", RANGE_CASES)
@pytest.mark.parametrize("dt", [None, "float64", "float16", "int32", "int64", "uint8", "bool", "complex64"])
def test_range(args, dt):
    if dt == "uint8" and (args[0] > args[1] or len(args) > 2 and args[2] < 0):
        pytest.skip("torch wraps the negative values of a uint8 range; not a contract")
    if dt in ("int32", "int64", "uint8") and len(args) > 2 and int(args[2]) == 0:
        # torch truncates the step to 0 and divides by it (SIGFPE); tensorlib checks the truncated step
        with pytest.raises(RuntimeError, match="step must be nonzero"), pytest.warns(UserWarning):
            tl.range(*args, dtype=getattr(tl, dt))
        return
    _check(lambda lib: lib.range(*args) if dt is None else lib.range(*args, dtype=_lib_dtype(lib, dt)))


def test_range_forms():
    _check(lambda lib: lib.range(lib.tensor(0), lib.tensor(2.0)))
    _check(lambda lib: lib.range(0, "3"))
    _check(lambda lib: lib.range(0, 3, device="meta"))
    out = tl.empty(2)
    with pytest.warns(UserWarning, match="deprecated"):
        r = tl.range(0, 3, out=out)
    assert r is out and out.tolist() == [0, 1, 2, 3]


# ---- empty_permuted ----

@pytest.mark.parametrize("size,perm", [((2, 3, 4), (2, 0, 1)), ((2, 3), (1, 0)), ((2, 3), (0, 1)), ((), ()),
                                       ((2, 0, 3), (2, 1, 0)), ((2, 3, 4, 5), (0, 2, 3, 1)), ((2, 3), (0, 0)),
                                       ((2, 3), (0,)), ((2, 3), (1, 2)), ((2, 3), (-1, 0)), ((2, -3), (1, 0))])
def test_empty_permuted(size, perm):
    _check(lambda lib: lib.empty_permuted(size, perm, device="meta"))
    _check(lambda lib: lib.empty_permuted(size, perm, dtype=lib.int8).stride())


def test_empty_permuted_argument_types():
    _check(lambda lib: lib.empty_permuted((2, 3), (1.0, 0)))
    _check(lambda lib: lib.empty_permuted(2, (0,)))
    _check(lambda lib: lib.empty_permuted(size=(2,), physical_layout=(0,)).shape)


# ---- nonzero_static ----

@pytest.mark.parametrize("dt", ["float32", "int64", "bool", "complex64", "float16", "int8"])
@pytest.mark.parametrize("size", [0, 1, 3, 8])
def test_nonzero_static(dt, size):
    a = np.array([[0, 1, 0], [2, 0, 3]])
    _check(lambda lib: lib.nonzero_static(lib.tensor(a).to(_lib_dtype(lib, dt)), size=size))
    _check(lambda lib: lib.tensor(a).to(_lib_dtype(lib, dt)).t().nonzero_static(size=size, fill_value=-7))
    _check(lambda lib: lib.nonzero_static(lib.tensor(5).to(_lib_dtype(lib, dt)), size=size))
    _check(lambda lib: lib.nonzero_static(lib.zeros(0, 2, dtype=_lib_dtype(lib, dt)), size=size))


def test_nonzero_static_errors_out_and_meta():
    x = lambda lib: lib.tensor([0, 1, 2])  # noqa: E731
    _check(lambda lib: lib.nonzero_static(x(lib), size=-1))
    _check(lambda lib: lib.nonzero_static(x(lib), size=True))
    _check(lambda lib: lib.nonzero_static(x(lib), size=2.0))
    _check(lambda lib: lib.nonzero_static(x(lib), size=2, fill_value=2.5))
    _check(lambda lib: lib.nonzero_static(x(lib), size=3, fill_value=2 ** 40))
    _check(lambda lib: lib.nonzero_static(x(lib), size=4, out=lib.empty(0, dtype=lib.int64)))
    _check(lambda lib: lib.nonzero_static(x(lib), size=4, out=lib.empty(0, dtype=lib.int32)))
    _check(lambda lib: lib.nonzero_static(lib.ones(2, 3, device="meta"), size=2))
    # a negative-stride NumPy source
    src = np.arange(-3, 4)[::-1]
    assert tl.nonzero_static(tl.asarray(src), size=8).tolist() == \
        torch.nonzero_static(torch.tensor(src.copy()), size=8).tolist()


# ---- fill, unsafe_chunk/split, module forms of in-place methods ----

def test_fill():
    _check(lambda lib: lib.fill(lib.arange(6.0).reshape(2, 3), 2.5))
    _check(lambda lib: lib.fill(lib.arange(6.0).reshape(2, 3).t(), lib.tensor(3)))
    _check(lambda lib: lib.fill(lib.zeros(2, dtype=lib.int32), 2.7))
    _check(lambda lib: lib.fill(lib.zeros(2), lib.tensor([1.0, 2.0])))
    _check(lambda lib: lib.fill(3, 2), message=False)
    x = tl.arange(3.0)
    tl.fill(x, 9.0)
    assert x.tolist() == [0.0, 1.0, 2.0]  # out of place


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.unsafe_chunk(x, 2, 1), lambda lib, x: x.unsafe_chunk(3), lambda lib, x: lib.unsafe_chunk(x, 0),
    lambda lib, x: lib.unsafe_split(x, 2, 1), lambda lib, x: x.unsafe_split(1), lambda lib, x: lib.unsafe_split(x, -1),
    lambda lib, x: lib.unsafe_split_with_sizes(x, [1, 2], 1), lambda lib, x: x.unsafe_split_with_sizes([1, 1]),
    lambda lib, x: lib.unsafe_split(x, [1, 2]), lambda lib, x: lib.unsafe_split(x, 2.0),
    lambda lib, x: lib.unsafe_chunk(x, 2.0), lambda lib, x: lib.unsafe_split_with_sizes(x, 3),
    lambda lib, x: lib.unsafe_chunk(x[0, 0], 2),
])
def test_unsafe_split_family(call):
    _check(lambda lib: call(lib, lib.arange(6.0).reshape(2, 3)))


def test_unsafe_split_gives_views():
    x = tl.arange(6.0)
    a, b = tl.unsafe_split(x, 3)
    a.fill_(-1)
    assert x.tolist()[:3] == [-1, -1, -1]


def test_module_forms_of_inplace_methods():
    _check(lambda lib: lib.as_strided_(lib.arange(6.0), (2, 2), (1, 2)).shape)
    for name, args in (("gcd_", (lambda lib: lib.tensor([4, 6]), lambda lib: lib.tensor([6, 4]))),
                       ("lcm_", (lambda lib: lib.tensor([4, 6]), lambda lib: lib.tensor([6, 4]))),
                       ("ldexp_", (lambda lib: lib.tensor([1.0, 2.0]), lambda lib: lib.tensor([2, 3])))):
        def f(lib, name=name, args=args):
            first = args[0](lib)
            r = getattr(lib, name)(first, *[a(lib) for a in args[1:]])
            assert r is first
            return r
        _check(f)
    x = tl.tensor([0.5, 2.0], dtype=tl.float64)  # (torch's i0 differs by an ulp between its SIMD builds)
    assert tl.i0_(x) is x
    np.testing.assert_allclose(x.numpy(), torch.i0(torch.tensor([0.5, 2.0], dtype=torch.float64)).numpy(), rtol=4e-16)
    _check(lambda lib: lib.resolve_conj(lib.tensor([1 + 2j]).conj()))
    _check(lambda lib: lib.resolve_neg(lib.tensor([1.0, -2.0])))


# ---- constant_pad_nd and narrow ----

PADS = [((2, 2), (1,)), ((2, 2), (-1, 1, 1, 0), 5), ((2, 2), (1, 1, 1, 1, 1, 1)), ((2, 2), (-3, 0)),
        ((2, 2), (-2, 0)), ((2, 2), (-3, 2)), ((2, 2), (0, 0)), ((2, 2), (1, -3, 0, 0)), ((2, 2), (-1, -2, 0, 0)),
        ((), ()), ((), (1, 1)), ((2, 2), (1, 1), 1 + 2j), ((0, 3), (1, 1, 2, 0), 4), ((3, 4, 5), (2, -1, 0, 3, -1, 1), -2.5),
        ((2, 2), (1, 1.5)), ((2, 2), (1, 1), 300), ((2, 2), (1, 1), True)]


@pytest.mark.parametrize("case", PADS)
@pytest.mark.parametrize("dt", ["float32", "int32", "uint8", "bool", "complex64"])
def test_constant_pad_nd(case, dt):
    shape, pad = case[0], case[1]
    rest = case[2:]

    def f(lib):
        x = lib.arange(int(np.prod(shape)) if shape else 1).to(_lib_dtype(lib, dt)).reshape(shape)
        return lib.constant_pad_nd(x, pad, *rest)
    _check(f)


def test_constant_pad_nd_layouts():
    _check(lambda lib: lib.constant_pad_nd(lib.ones(2, 3).t(), (1, 0), 7))
    _check(lambda lib: lib.constant_pad_nd(lib.ones(2, 1, 3, 3).to(memory_format=lib.channels_last), (1, 1)))
    _check(lambda lib: lib.constant_pad_nd(lib.ones(2, 3, 3, 3).to(memory_format=lib.channels_last), (1, 1, 0, 2)))
    _check(lambda lib: lib.constant_pad_nd(lib.ones(1, 2, 2, 2, 2).to(memory_format=lib.channels_last_3d), (1, 1)))
    x = tl.ones(2, 2)
    assert tl.constant_pad_nd(x, (0, 0)).data_ptr() != x.data_ptr()  # a new tensor even without padding


@pytest.mark.parametrize("args", [(0, 3, -1), (0, 0, -1), (5, 0, -1), (0, 3, 0), (0, -3, 1), (0, 1, 2), (0, -1, 1)])
def test_narrow_check_order(args):
    _check(lambda lib: lib.ones(2).narrow(*args))


# ---- typename, to_dlpack, the older sparse names ----

def test_typename():
    assert tl.typename(tl.ones(2)) == "tensorlib.FloatTensor"
    assert tl.typename(tl.ones(2, dtype=tl.int64)) == torch.typename(torch.ones(2, dtype=torch.int64)).replace(
        "torch", "tensorlib")
    for obj in (1, "s", None, np.float32(1), np.ndarray, warnings.warn):
        assert tl.typename(obj) == torch.typename(obj)


def test_to_dlpack():
    cap = tl.to_dlpack(tl.arange(4.0))
    assert "capsule" in type(cap).__name__.lower()
    assert tl.from_dlpack(cap).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert torch.from_dlpack(tl.utils.dlpack.to_dlpack(tl.arange(3))).tolist() == [0, 1, 2]
    x = tl.arange(3.0)
    assert tl.utils.dlpack.from_dlpack(tl.to_dlpack(x)).data_ptr() == x.data_ptr()
    _check(lambda lib: lib.to_dlpack([1]), message=False)  # (torch names its _to_dlpack)


def test_older_sparse_product_names():
    def operands(lib):
        s = lib.tensor([[0, 1.0], [2, 0]]).to_sparse()
        return s, lib.arange(6.0).reshape(2, 3)
    _check(lambda lib: lib.dsmm(*operands(lib)))
    _check(lambda lib: lib.spmm(*operands(lib)))
    _check(lambda lib: lib.spmm(operands(lib)[1].t(), operands(lib)[1]))
    _check(lambda lib: lib.hsmm(*operands(lib)).to_dense())
    _check(lambda lib: lib.hsmm(operands(lib)[1].t(), operands(lib)[1]), message=False)
    _check(lambda lib: lib.saddmm(operands(lib)[0], operands(lib)[0], lib.ones(2, 2), beta=2, alpha=3).to_dense())


# ---- legacy methods ----

@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).apply_(lambda v: v * 2),
    lambda lib: lib.ones(2, dtype=lib.int32).apply_(lambda v: v / 2),
    lambda lib: lib.arange(6.0).reshape(2, 3).t().apply_(lambda v: v + 1),
    lambda lib: lib.ones(2, dtype=lib.bool).apply_(lambda v: 0),
    lambda lib: lib.tensor([1 + 1j]).apply_(lambda v: v * 1j),
    lambda lib: lib.ones(2).apply_(lambda v: "x"),
    lambda lib: lib.ones(2).apply_(3),
    lambda lib: lib.ones(2, device="meta").apply_(lambda v: v),
    lambda lib: lib.zeros(0).apply_(lambda v: v),
    lambda lib: lib.ones(2, 3).map_(lib.arange(3.0), lambda a, b: a + b),
    lambda lib: lib.ones(2).map_(lib.ones(3), lambda a, b: a),
    lambda lib: lib.ones(2).map_(lib.ones(2, dtype=lib.int64), lambda a, b: a + b),
    lambda lib: lib.ones(2, 3).map2_(lib.arange(3.0), lib.ones(2, 1) * 5, lambda a, b, c: a + b + c),
    lambda lib: lib.tensor([2 ** 62, 3]).apply_(lambda v: v + 1),
])
def test_apply_map(call):
    _check(call)


def test_new_of_another_dtype():
    _check(lambda lib: lib.ones(2).new(lib.ones(2, dtype=lib.int64)), message=False)  # (torch: TensorOptions text)


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).new(2, 3, device="meta"),
    lambda lib: lib.ones(2).new(lib.Size([2, 3])).shape,
    lambda lib: lib.ones(2).new([[1, 2], [3, 4]]),
    lambda lib: lib.ones(2, dtype=lib.int8).new((2, 3)),
    lambda lib: lib.ones(2).new(2, 3.0),
    lambda lib: lib.ones(2).new(-1),
    lambda lib: lib.ones(2).new().shape,
    lambda lib: lib.ones(2, 3).t().new(lib.ones(2, 3).t()).stride(),
    lambda lib: lib.ones(2, 3).t().resize(3, 2).stride(),
    lambda lib: lib.ones(2).resize(4),
    lambda lib: lib.arange(6.0).resize(2, 3),
    lambda lib: lib.ones(2).resize_as(lib.ones(2, 1)),
])
def test_legacy_new_resize(call):
    _check(call)


def test_new_aliases_and_resize_shares_storage():
    x = tl.arange(4.0)
    y = x.new(x)
    y[0] = 7
    r = x.resize(2, 2)
    r[1, 1] = 9
    assert x.tolist() == [7.0, 1.0, 2.0, 9.0]


def test_backend_flags_and_const_data_ptr():
    x = tl.ones(2)
    for name in ("is_ipu", "is_xla", "is_mps", "is_xpu", "is_maia", "is_mtia", "is_vulkan"):
        assert getattr(x, name) is False and getattr(torch.ones(2), name) is False
    assert x.const_data_ptr() == x.data_ptr()


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).resize(lib.ones(1), 2), lambda lib: lib.ones(2).resize(2.0),
    lambda lib: lib.ones(2).resize_as(1.5), lambda lib: lib.zeros(3, 1).istft(5, 4, -2, 1e-300),
    lambda lib: lib.zeros(3).stft("a"), lambda lib: lib.stft(lib.zeros(10), 4, window=[1, 2, 3, 4], return_complex=True),
    lambda lib: lib.range(0, 3, dtype=(1,)),
])
def test_argument_types_raise_type_error(call):
    """Wrong argument types raise TypeError (the fuzzer found AttributeErrors); torch words some
    of them through its overload lists (and its Python-level resize_as lets AttributeError out)."""
    with pytest.raises(TypeError):
        call(tl)
    with pytest.raises((TypeError, AttributeError)):
        call(torch)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16", "int64", "complex64"])
@pytest.mark.parametrize("shp", [[6], [5, 6], (4, 5, 6)])
@pytest.mark.parametrize("weight", [False, True])
@pytest.mark.parametrize("eps", [None, 0.1])
def test_rms_norm(dt, shp, weight, eps):
    x = np.random.default_rng(0).standard_normal((4, 5, 6))

    def f(lib):
        kw = {} if eps is None else {"eps": eps}
        if weight:
            kw["weight"] = lib.tensor(np.linspace(0.5, 2, int(np.prod(shp))).reshape(shp)).to(getattr(lib, dt))
        r = lib.rms_norm(lib.tensor(x).to(getattr(lib, dt)), shp, **kw)
        return str(r.dtype).split(".")[-1], r.resolve_conj().numpy() if r.is_complex() else r.double().numpy()
    got, want = _outcome(f, tl), _outcome(f, torch)
    assert got[0] == want[0]
    if want[0] == "ok":
        assert got[1][0] == want[1][0]
        np.testing.assert_allclose(got[1][1], want[1][1], rtol=1e-2 if dt in ("float16", "bfloat16") else 1e-5)
    else:
        assert got[1] == want[1]


@pytest.mark.parametrize("call", [
    lambda lib: lib.rms_norm(lib.ones(2, 3), [2]), lambda lib: lib.rms_norm(lib.ones(2, 3), [3], lib.ones(2)),
    lambda lib: lib.rms_norm(lib.ones(2, 3), []),
])
def test_rms_norm_errors(call):
    _check(call)


def test_determinism_switches():
    try:
        assert tl.are_deterministic_algorithms_enabled() is False and tl.get_deterministic_debug_mode() == 0
        tl.use_deterministic_algorithms(True, warn_only=True)
        assert tl.are_deterministic_algorithms_enabled() and tl.is_deterministic_algorithms_warn_only_enabled()
        assert tl.get_deterministic_debug_mode() == 1
        tl.set_deterministic_debug_mode("error")
        assert tl.get_deterministic_debug_mode() == 2 and not tl.is_deterministic_algorithms_warn_only_enabled()
        with pytest.raises(RuntimeError):
            tl.set_deterministic_debug_mode("loud")
        with pytest.raises(TypeError):
            tl.use_deterministic_algorithms(1)
    finally:
        tl.use_deterministic_algorithms(False)


@pytest.mark.parametrize("kw", [{}, {"rtol": 1e-3}, {"atol": 1e-2}, {"equal_nan": True}, {"rtol": 0, "atol": 0},
                                {"rtol": 3e-3, "atol": 1e-4}])
@pytest.mark.parametrize("scale", [1e-5, 1e-3, 1e-1])
def test_isclose_complex32(kw, scale):
    """complex32 isclose (was refused; torch computes it as a composite, each step and both
    tolerances rounded to half precision): the same answers as torch's, near the boundary too."""
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(5000) + 1j * rng.standard_normal(5000)).astype(np.complex64)
    b = a * (1 + rng.standard_normal(5000) * scale)
    x = np.concatenate([a, [np.nan, np.inf, complex(np.inf, 1), 0]])
    y = np.concatenate([b, [np.nan, np.inf, complex(np.inf, 1), 1e-9]])
    want = torch.isclose(torch.tensor(x).to(torch.complex32), torch.tensor(y).to(torch.complex32), **kw).numpy()
    got = tl.isclose(tl.tensor(x).to(tl.complex32), tl.tensor(y).to(tl.complex32), **kw).numpy()
    np.testing.assert_array_equal(got, want)
    assert tl.allclose(tl.tensor(x[:5]).to(tl.complex32), tl.tensor(x[:5]).to(tl.complex32))
