"""tensorlib.fft against torch.fft 2.13: values (with tolerance), dtypes, shapes and errors on a
grid of lengths (powers of two, odd, primes small and large, Bluestein lengths), n smaller and
larger than the input, every norm, multi-dim, non-contiguous inputs and empty/invalid sizes."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

NORMS = [None, "backward", "ortho", "forward"]
LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 30, 61, 64, 67, 97, 100, 127, 256, 1009]
TL_DT = {np.float32: tl.float32, np.float64: tl.float64, np.complex64: tl.complex64,
         np.complex128: tl.complex128, np.int64: tl.int64, np.bool_: tl.bool}
TORCH_DT = {np.float32: torch.float32, np.float64: torch.float64, np.complex64: torch.complex64,
            np.complex128: torch.complex128, np.int64: torch.int64, np.bool_: torch.bool}


def _data(shape, np_dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np_dtype is np.bool_:
        return rng.random(shape) < 0.5
    if np_dtype is np.int64:
        return rng.integers(-5, 6, shape).astype(np.int64)
    a = rng.standard_normal(shape)
    if np.issubdtype(np_dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(np_dtype)


def _pair(a):
    return tl.tensor(a), torch.tensor(a)


def _close(got, want, tol_scale=1.0):
    assert isinstance(got, tl.Tensor)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    assert tuple(got.shape) == tuple(want.shape)
    g, w = got.numpy(), want.resolve_conj().resolve_neg().numpy()
    single = want.dtype in (torch.float32, torch.complex64)
    scale = max(1.0, float(np.abs(w).max()) if w.size else 1.0)
    atol = (2e-5 if single else 1e-12) * scale * tol_scale
    np.testing.assert_allclose(g, w, rtol=0, atol=atol)


def _raises_like(fn_tl, fn_torch):
    with pytest.raises(Exception) as want:
        fn_torch()
    with pytest.raises(type(want.value)) as got:
        fn_tl()
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dt", [np.complex128, np.complex64, np.float32])
def test_fft_ifft_lengths(n, dt):
    t, r = _pair(_data((3, n), dt, n))
    for norm in NORMS:
        _close(tl.fft.fft(t, norm=norm), torch.fft.fft(r, norm=norm))
        _close(tl.fft.ifft(t, norm=norm), torch.fft.ifft(r, norm=norm))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128, np.int64, np.bool_])
def test_fft_dtypes(dt):
    t, r = _pair(_data((4, 6), dt))
    for name in ("fft", "ifft", "fftn", "ifftn", "fft2", "ifft2", "irfft", "hfft", "irfftn", "irfft2"):
        _close(getattr(tl.fft, name)(t), getattr(torch.fft, name)(r))
    if not np.issubdtype(dt, np.complexfloating):
        for name in ("rfft", "ihfft", "rfftn", "rfft2", "ihfftn", "ihfft2"):
            _close(getattr(tl.fft, name)(t), getattr(torch.fft, name)(r))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 9, 13, 16, 63])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_n_trims_and_pads(n, dim):
    t, r = _pair(_data((7, 9), np.float64, n))
    c, rc = _pair(_data((7, 9), np.complex128, n))
    for norm in NORMS:
        for name in ("fft", "ifft", "rfft", "ihfft"):
            _close(getattr(tl.fft, name)(t, n=n, dim=dim, norm=norm), getattr(torch.fft, name)(r, n=n, dim=dim, norm=norm))
        for name in ("fft", "ifft", "irfft", "hfft"):
            _close(getattr(tl.fft, name)(c, n=n, dim=dim, norm=norm), getattr(torch.fft, name)(rc, n=n, dim=dim, norm=norm))


@pytest.mark.parametrize("m", [1, 2, 3, 4, 6, 9, 17])
def test_c2r_default_length_and_imaginary_dc(m):
    # irfft/hfft ignore the imaginary parts of the DC and Nyquist terms
    c, rc = _pair(_data((2, m), np.complex64, m))
    if m == 1:
        _raises_like(lambda: tl.fft.irfft(c), lambda: torch.fft.irfft(rc))
        return
    for name in ("irfft", "hfft"):
        for norm in NORMS:
            _close(getattr(tl.fft, name)(c, norm=norm), getattr(torch.fft, name)(rc, norm=norm))


def test_round_trips():
    x = tl.tensor(_data((5, 31), np.float64))
    np.testing.assert_allclose(tl.fft.irfft(tl.fft.rfft(x), n=31).numpy(), x.numpy(), atol=1e-12)
    np.testing.assert_allclose(tl.fft.ifft(tl.fft.fft(x)).real.numpy(), x.numpy(), atol=1e-12)
    np.testing.assert_allclose(tl.fft.hfft(tl.fft.ihfft(x), n=31).numpy(), x.numpy(), atol=1e-12)
    np.testing.assert_allclose(tl.fft.irfftn(tl.fft.rfftn(x), s=x.shape).numpy(), x.numpy(), atol=1e-12)


@pytest.mark.parametrize("shape,s,dim", [
    ((4, 6), None, None), ((4, 6, 5), None, None), ((4, 6, 5), (3, 8), None), ((4, 6, 5), None, (0, 2)),
    ((4, 6, 5), (5, -1), (2, 0)), ((4, 6, 5), (7,), None), ((3, 4), None, (-1,)), ((2, 3, 4), (4, 4, 4), None),
    ((4, 6, 5), None, (1, 0)),
])
def test_nd(shape, s, dim):
    t, r = _pair(_data(shape, np.float64))
    c, rc = _pair(_data(shape, np.complex128))
    for norm in NORMS:
        for name in ("fftn", "ifftn", "rfftn", "ihfftn"):
            _close(getattr(tl.fft, name)(t, s=s, dim=dim, norm=norm), getattr(torch.fft, name)(r, s=s, dim=dim, norm=norm))
        for name in ("fftn", "ifftn", "irfftn", "hfftn"):
            _close(getattr(tl.fft, name)(c, s=s, dim=dim, norm=norm), getattr(torch.fft, name)(rc, s=s, dim=dim, norm=norm))


@pytest.mark.parametrize("s,dim", [(None, (-2, -1)), ((5, 4), (-2, -1)), (None, (0, 2)), ((3, 3), (2, 1))])
def test_2d(s, dim):
    t, r = _pair(_data((3, 4, 6), np.float32))
    c, rc = _pair(_data((3, 4, 6), np.complex64))
    for name in ("fft2", "ifft2", "rfft2", "ihfft2"):
        _close(getattr(tl.fft, name)(t, s=s, dim=dim), getattr(torch.fft, name)(r, s=s, dim=dim))
    for name in ("fft2", "ifft2", "irfft2", "hfft2"):
        _close(getattr(tl.fft, name)(c, s=s, dim=dim, norm="ortho"), getattr(torch.fft, name)(rc, s=s, dim=dim, norm="ortho"))


def test_non_contiguous_inputs_and_input_untouched():
    a = _data((6, 8, 10), np.complex128)
    t, r = tl.tensor(a), torch.tensor(a)
    views = [(lambda x: x.transpose(0, 2)), (lambda x: x[::2, :, 1::3]), (lambda x: x[:, 3]),
             (lambda x: x.permute(1, 2, 0).flip(-1))]
    for v in views:
        for dim in (0, 1, -1):
            if dim >= v(t).dim():
                continue
            _close(tl.fft.fft(v(t), dim=dim), torch.fft.fft(v(r), dim=dim))
            _close(tl.fft.irfft(v(t), dim=dim), torch.fft.irfft(v(r), dim=dim))
            _close(tl.fft.rfft(v(t).real, dim=dim), torch.fft.rfft(v(r).real, dim=dim))
        _close(tl.fft.fftn(v(t)), torch.fft.fftn(v(r)))
    np.testing.assert_array_equal(t.numpy(), a)


def test_1d_result_layout():
    # the transformed dim is innermost in memory, as in torch
    t, r = _pair(_data((3, 4, 5), np.float32))
    assert tl.fft.fft(t, dim=1).stride() == torch.fft.fft(r, dim=1).stride()
    assert tl.fft.rfft(t, dim=1).stride() == torch.fft.rfft(r, dim=1).stride()
    assert tl.fft.fftn(t).stride() == torch.fft.fftn(r).stride()


def test_zero_dim_and_empty_batch():
    t, r = _pair(np.array(2.5))
    _close(tl.fft.fftn(t), torch.fft.fftn(r))
    # torch's MKL path refuses an empty batch; the transforms of no rows are no rows
    t = tl.zeros(0, 4)
    assert tl.fft.fft(t).shape == (0, 4) and tl.fft.fft(t).dtype == tl.complex64
    assert tl.fft.rfft(t).shape == (0, 3) and tl.fft.irfft(t.double()).shape == (0, 6)
    t, r = _pair(np.zeros(0))
    _close(tl.fft.fft(t, n=4), torch.fft.fft(r, n=4))


@pytest.mark.parametrize("call", [
    "fft(x0)", "fft(x, n=0)", "fft(x, n=-1)", "fft(x2, dim=2)", "fft(s)", "fft(x, norm='bad')",
    "rfft(c)", "ihfft(c)", "irfft(one)", "irfft(x0)", "irfft(x, n=0)", "ihfft(x0)", "fft(x, n=2.0)",
    "fftn(x2, s=(2, 3, 4))", "fftn(x2, dim=(0, 0))", "fftn(x2, s=(2, 3), dim=(0,))", "rfftn(x2, dim=())",
    "fft2(x)", "fft(h)", "fft(bh)", "rfft(h)", "fftfreq(5, dtype=i64)", "fft([1, 2])", "fft(x2, dim=(0, 1))",
])
def test_errors_match_torch(call):
    env = {}
    for mod, lib in ((tl, "tl"), (torch, "torch")):
        env[lib] = dict(x=mod.zeros(3), x0=mod.zeros(0), x2=mod.zeros(3, 4), s=mod.tensor(1.0), one=mod.zeros(1),
                        c=mod.zeros(3, dtype=mod.complex64), h=mod.zeros(4, dtype=mod.float16),
                        bh=mod.zeros(4, dtype=mod.bfloat16), i64=mod.int64)
    _raises_like(lambda: eval("tl.fft." + call, {"tl": tl}, env["tl"]),
                 lambda: eval("torch.fft." + call, {"torch": torch}, env["torch"]))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 8, 11])
@pytest.mark.parametrize("d", [1.0, 0.3, 2])
def test_freqs(n, d):
    for dtype in (None, "float64"):
        kw = {} if dtype is None else {"dtype": getattr(tl, dtype)}
        kt = {} if dtype is None else {"dtype": getattr(torch, dtype)}
        _close(tl.fft.fftfreq(n, d, **kw), torch.fft.fftfreq(n, d, **kt), 0.01)
        _close(tl.fft.rfftfreq(n, d=d, **kw), torch.fft.rfftfreq(n, d=d, **kt), 0.01)


@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1), (-1,), ()])
def test_shifts(dim):
    for shape in ((5,), (4, 7), (3, 6)):
        t, r = _pair(np.arange(int(np.prod(shape))).reshape(shape))
        if dim is not None and dim != () and len(shape) == 1 and dim not in (0, (-1,)):
            continue
        for name in ("fftshift", "ifftshift"):
            if dim == ():
                _raises_like(lambda: getattr(tl.fft, name)(t, dim=dim), lambda: getattr(torch.fft, name)(r, dim=dim))
                continue
            got, want = getattr(tl.fft, name)(t, dim=dim), getattr(torch.fft, name)(r, dim=dim)
            np.testing.assert_array_equal(got.numpy(), want.numpy())
            assert got.dtype == tl.int64


def test_matches_numpy_on_large_primes_and_smooth_lengths():
    # Bluestein (4099, 2003 prime; 67 * 71) and every butterfly (radix 2, 3, 4, 5, generic 7/11/13)
    # against NumPy's pocketfft
    for n in (4099, 2003, 67 * 71, 12288, 243, 3125, 3000, 2 * 7 * 11 * 13):
        a = _data((2, n), np.complex128, n)
        np.testing.assert_allclose(tl.fft.fft(tl.tensor(a)).numpy(), np.fft.fft(a), atol=1e-9)
        np.testing.assert_allclose(tl.fft.ifft(tl.tensor(a)).numpy(), np.fft.ifft(a), atol=1e-12)
        # rfft of 2n points runs one complex transform of n (packed pairs): every n above
        np.testing.assert_allclose(tl.fft.rfft(tl.tensor(a.real.copy()), n=2 * n).numpy(),
                                   np.fft.rfft(a.real, n=2 * n), atol=1e-9)


def test_out():
    x, r = _pair(_data((3, 5), np.float32))
    o, ro = tl.empty(0, dtype=tl.complex64), torch.empty(0, dtype=torch.complex64)
    assert tl.fft.fft(x, out=o) is o and torch.fft.fft(r, out=ro) is ro
    _close(o, ro)
    o = tl.empty(3, 3, dtype=tl.complex128)   # a wider complex out takes the result cast
    tl.fft.rfft(x, out=o)
    _close(o, torch.fft.rfft(r, out=torch.empty(3, 3, dtype=torch.complex128)), 2e7)  # float32 accuracy
    f = tl.empty(4, dtype=tl.float64)
    tl.fft.fftfreq(4, out=f)
    _close(f, torch.fft.fftfreq(4, out=torch.empty(4, dtype=torch.float64)))
    with pytest.raises(RuntimeError):
        tl.fft.fft(x, out=tl.empty(3, 5))    # a real out cannot take a complex result
    with pytest.raises(RuntimeError):
        torch.fft.fft(r, out=torch.empty(3, 5))
    assert "out" in str(__import__("inspect").signature(tl.fft.ifftn))


@pytest.mark.parametrize("call,kernel", [
    ("fft(x)", "_fft_r2c"), ("fft(c)", "_fft_c2c"), ("ifft(x)", "_fft_r2c"), ("rfft(x)", "_fft_r2c"),
    ("irfft(c)", "_fft_c2r"), ("irfftn(c)", "_fft_c2r"), ("hfft(c)", "_conj"), ("ihfft(x)", "_fft_r2c"),
    ("fftn(x)", "_fft_c2c"), ("rfftn(x)", "_fft_r2c"), ("hfftn(c)", "_fft_c2c"), ("fft2(c)", "_fft_c2c"),
])
def test_named_tensors_are_refused_as_torch_1_13_does(call, kernel):
    # torch 1.13 (the named-tensor oracle) has no fft rule for names and names the kernel it stops in
    env = {"x": tl.ones(2, 4, names=("a", "b")), "c": tl.ones(2, 4, dtype=tl.complex64, names=("a", "b"))}
    with pytest.raises(RuntimeError, match=f"^aten::{kernel} is not yet supported with named tensors"):
        eval("tl.fft." + call, {"tl": tl}, env)
