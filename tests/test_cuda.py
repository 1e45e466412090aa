"""CUDA backend on a GPU (skipped where tl.cuda.is_available() is False, i.e. on CI and on
machines without a driver or device). Every CUDA result is compared with the CPU result
of the same call; scripts/gpu_check.sh runs this file on the lent GPU machine."""
import os

import numpy as np
import pytest

import tensorlib as tl

pytestmark = pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")

DTYPES = [tl.float32, tl.float64, tl.int64]
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 1025)]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-50, 50, size=shape) if dtype == tl.int64 else rng.standard_normal(shape) * 3
    return tl.tensor(a.tolist(), dtype=dtype) if shape else tl.tensor(float(a) if dtype != tl.int64 else int(a), dtype=dtype)


def test_device_queries():
    assert tl.cuda.device_count() >= 1
    tl.cuda.init()
    assert tl.cuda.is_initialized()
    assert tl.cuda.current_device() == 0
    p = tl.cuda.get_device_properties(0)
    assert p.total_memory > 0 and tl.cuda.get_device_name(0) == p.name
    assert tl.cuda.get_device_capability(0) == (p.major, p.minor)
    with tl.cuda.device(0):
        assert tl.cuda.current_device() == 0
    tl.cuda.synchronize()


@pytest.mark.parametrize("dtype", DTYPES + [tl.int8, tl.bool, tl.float16, tl.complex64])
@pytest.mark.parametrize("shape", SHAPES)
def test_roundtrip_copies(shape, dtype):
    x = _data(shape, tl.float64).to(dtype)
    g = x.cuda()
    assert g.is_cuda and g.device == tl.device("cuda", 0) and g.get_device() == 0
    assert g.shape == x.shape and g.dtype == dtype
    d2d = g.to("cuda:0", copy=True)
    back = d2d.cpu()
    assert not back.is_cuda and back.device.type == "cpu"
    assert tl.equal(back, x)
    assert g.to("cuda") is g


def test_factories_and_repr():
    z = tl.zeros(2, 3, device="cuda")
    assert z.is_cuda and z.cpu().tolist() == [[0.0] * 3] * 2
    assert "device='cuda:0'" in repr(tl.ones(2, device="cuda"))
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor to numpy|can't convert cuda"):
        z.numpy()


@pytest.mark.parametrize("dtype", [None, tl.int32, tl.float16, tl.bfloat16, tl.float64, tl.complex64])
def test_filled_factories_match_cpu(dtype):
    kw = {} if dtype is None else {"dtype": dtype}
    calls = [lambda **k: tl.arange(7, **k), lambda **k: tl.eye(3, 4, **k), lambda **k: tl.full((2, 3), 3, **k),
             lambda **k: tl.ones(4, **k), lambda **k: tl.zeros(2, 5, **k)]
    if dtype is None or dtype.is_floating_point:
        calls += [lambda **k: tl.linspace(-1, 2, 9, **k), lambda **k: tl.logspace(0, 2, 5, **k),
                  lambda **k: tl.arange(0, 1, 0.125, **k)]
    for f in calls:
        g, c = f(device="cuda", **kw), f(**kw)
        assert g.is_cuda and g.dtype == c.dtype and g.stride() == c.stride()
        assert tl.equal(g.cpu(), c)


def test_like_factories_and_fill_keep_dense_strides():
    x = tl.arange(120.).reshape(2, 3, 4, 5).to(memory_format=tl.channels_last)
    for f in (tl.zeros_like, tl.ones_like):
        g = f(x, device="cuda")
        assert g.is_cuda and g.stride() == x.stride() and tl.equal(g.cpu(), f(x))
    g = tl.full_like(x, 7, device="cuda", dtype=tl.int16)
    assert g.stride() == x.stride() and tl.equal(g.cpu(), tl.full_like(x, 7, dtype=tl.int16))
    g = x.cuda()
    assert g.stride() == x.stride() and tl.equal(g.cpu(), x)
    assert tl.full((3,), -0.0, device="cuda").cpu().signbit().all()
    g = tl.empty(5, device="cuda").fill_(2.5)
    assert g.tolist() == [2.5] * 5
    with pytest.raises(NotImplementedError, match="non-dense"):
        g[::2].fill_(1)


def test_item_and_tolist_read_a_host_copy():
    x = tl.tensor([[1.5, -2.0], [3.0, 4.25]])
    g = x.cuda()
    assert g.tolist() == x.tolist() and g[1, 1].item() == 4.25


def test_cast_on_upload_and_noncontiguous_source():
    x = tl.arange(12).reshape(3, 4).t()
    g = x.to("cuda", tl.float32)
    assert g.dtype == tl.float32 and tl.equal(g.cpu(), x.float())


def test_memory_statistics_and_cache():
    tl.cuda.empty_cache()
    base = tl.cuda.memory_allocated()
    g = tl.empty(1 << 20, device="cuda")
    assert tl.cuda.memory_allocated() >= base + (4 << 20)
    assert tl.cuda.max_memory_allocated() >= tl.cuda.memory_allocated()
    reserved = tl.cuda.memory_reserved()
    del g
    assert tl.cuda.memory_allocated() == base
    assert tl.cuda.memory_reserved() == reserved  # the block is cached
    g = tl.empty(1 << 20, device="cuda")        # and reused
    assert tl.cuda.memory_reserved() == reserved
    del g
    tl.cuda.empty_cache()
    assert tl.cuda.memory_reserved() < reserved
    tl.cuda.reset_peak_memory_stats()
    assert tl.cuda.max_memory_allocated() == tl.cuda.memory_allocated()


from test_cuda_api import HD_BINARY, HD_UNARY, CATEGORY, _binary_operands, _bits, _cases, _close, _values  # noqa: E402

# CUDA's libdevice functions differ from glibc's by a few ulps; + - * / sqrt, comparisons,
# rounding, integer and bit ops are exact on both (nvcc contracts a*b+c into FMA, so the
# composite float formulas get a tolerance too).
EXACT_UNARY = {"NEG", "ABS", "SIGN", "SGN", "CEIL", "FLOOR", "TRUNC", "ROUND", "FRAC", "SQRT", "SQUARE",
               "RELU", "RECIPROCAL", "CONJ_PHYSICAL", "ISNAN", "ISINF", "ISPOSINF", "ISNEGINF",
               "ISFINITE", "ISREAL", "SIGNBIT", "LOGICAL_NOT", "BITWISE_NOT", "ANGLE"}
EXACT_BINARY = {"ADD", "SUB", "MUL", "DIV", "DIV_TRUNC", "FMOD", "MAXIMUM", "MINIMUM", "FMAX", "FMIN",
                "COPYSIGN", "EQ", "NE", "LT", "LE", "GT", "GE", "LOGICAL_AND", "LOGICAL_OR",
                "LOGICAL_XOR", "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR", "LSHIFT", "RSHIFT", "GCD",
                "LCM", "HEAVISIDE", "NEXTAFTER"}


def _tile(values, n=3000):
    return (values * (n // len(values) + 1))[:n]


@pytest.mark.parametrize("op,dtype", _cases(HD_UNARY))
def test_elementwise_unary_matches_cpu(op, dtype):
    a = tl.tensor(_tile(_values(dtype)), dtype=getattr(tl, dtype))
    cpu, gpu = tl._C._hd_apply(op, a), tl._C._hd_apply(op, a.cuda())
    assert gpu.is_cuda and gpu.dtype == cpu.dtype
    gpu = gpu.cpu()
    complex_ = a.is_complex() and op not in ("NEG", "CONJ_PHYSICAL", "ISNAN", "ISINF", "ISFINITE", "ISREAL", "LOGICAL_NOT")
    if CATEGORY[dtype] < 3 or (op in EXACT_UNARY and not complex_):
        assert _bits(gpu, op != "SIGN") == _bits(cpu, op != "SIGN")
    else:
        _close(gpu, cpu, dtype, 8 if op in ("LGAMMA", "ERFC", "TAN", "EXPM1") else 4)


@pytest.mark.parametrize("op,dtype", _cases(HD_BINARY))
def test_elementwise_binary_matches_cpu(op, dtype):
    a, b = _binary_operands(op, dtype)
    ta, tb = (tl.tensor(_tile(v), dtype=getattr(tl, dtype)) for v in (a, b))
    cpu, gpu = tl._C._hd_apply(op, ta, tb), tl._C._hd_apply(op, ta.cuda(), tb.cuda())
    assert gpu.is_cuda and gpu.dtype == cpu.dtype
    gpu = gpu.cpu()
    exact = op in EXACT_BINARY or (op == "POW" and CATEGORY[dtype] < 3)
    if CATEGORY[dtype] < 3 or (exact and not (ta.is_complex() and op in ("MUL", "DIV"))):
        assert _bits(gpu, op not in ("FMAX", "FMIN")) == _bits(cpu, op not in ("FMAX", "FMIN"))
    else:
        _close(gpu, cpu, dtype, 4)


@pytest.mark.parametrize("op", ["ADD", "MUL", "EQ"])
@pytest.mark.parametrize("shape", SHAPES)
def test_elementwise_shapes(op, shape):
    a, b = _data(shape, tl.float32, 1), _data(shape, tl.float32, 2)
    assert tl.equal(tl._C._hd_apply(op, a.cuda(), b.cuda()).cpu(), tl._C._hd_apply(op, a, b))


def test_streams_and_events():
    c = tl.cuda
    d = c.default_stream()
    assert d.cuda_stream == 0 and c.current_stream() == d and d.device == tl.device("cuda", 0)
    s = c.Stream()
    assert s.cuda_stream != 0 and s != d and c.Stream(priority=-1).priority == -1
    a = tl.arange(1 << 20, dtype=tl.float32).cuda()
    start, end = c.Event(enable_timing=True), c.Event(enable_timing=True)
    assert start.query() and start.cuda_event == 0
    s.wait_stream(d)  # a was written on the default stream
    with c.stream(s) as r:
        assert r is None and c.current_stream() == s
        start.record()
        b = tl._C._hd_apply("MUL", a, a)  # launched on s; its block comes from s's free list
        end.record()
    assert c.current_stream() == d
    end.synchronize()
    assert end.query() and s.query() and start.elapsed_time(end) >= 0
    d.wait_event(end)
    assert tl.equal(b.cpu(), tl._C._hd_apply("MUL", a.cpu(), a.cpu()))
    with s:  # a Stream is its own context manager too
        assert c.current_stream() == s
    ev = s.record_event()
    ev.wait(d)
    s.synchronize()
    assert "cuda_stream=" in repr(s) and repr(ev).startswith("<tensorlib.cuda.Event 0x")
    with c.device(0) as r:
        assert r is None


def test_unsupported_ops_raise_not_crash():
    g = tl.ones(3, device="cuda")
    with pytest.raises(NotImplementedError, match="asin is not implemented for cuda tensors of dtype complex64"):
        g.to(tl.complex64).asin()
    with pytest.raises(NotImplementedError, match="from the 'CUDA' backend"):
        tl.searchsorted(g, g)
    with pytest.raises(RuntimeError, match="one device"):
        tl._C._hd_apply("ADD", g, tl.ones(3))


@pytest.mark.parametrize("section", ["unary", "binary", "mixed", "errors", "copies", "xops", "xparams", "cmath",
                                     "cspecial"])
def test_public_elementwise_ops_match_cpu(section):
    """The public element-wise ops on CUDA tensors (the strided kernel of elementwise.cu
    through the core's dispatch): the grid of tests/_fake_cuda_ew.py on the real device, each
    result against the CPU result of the same call and torch 2.13. (xops: bitwise, elementwise.cu
    being compiled without FMA contraction; xparams: bitwise but for logit/erfinv/digamma, whose
    libdevice calls differ by ulps.)"""
    from _grid import run_grid
    assert run_grid("_fake_cuda_ew.py", section, real=True) > 10
