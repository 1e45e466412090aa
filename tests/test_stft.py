"""stft and istft against torch 2.13 over a grid of signal lengths, n_fft, hops, centring and
pad modes, normalization, windows (none, full, shorter than n_fft), real/complex and batched
signals, lengths; values to rounding (tensorlib.fft and torch's pocketfft add in different
orders), shapes and dtypes exactly; torch's errors and messages."""
import itertools
import re

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def _outcome(lib, fn, args, kwargs):
    try:
        r = getattr(lib, fn)(*args, **kwargs)
        arr = r.resolve_conj().numpy() if r.is_complex() else r.numpy()
        return "ok", str(r.dtype).split(".")[-1], tuple(r.shape), arr
    except Exception as e:  # noqa: BLE001 - compared with torch's
        # torch prints win_length where it means n_fft in one message; compare the rest
        return type(e).__name__, re.sub(r"but got n_fft=\d+", "", str(e).replace("torch", "tensorlib"))


def _compare(fn, make_args, kwargs, rtol=1e-9, atol=1e-9):
    """make_args(lib, kwargs) -> (args, kwargs) of lib.fn; tensorlib's outcome is torch's."""
    a = _outcome(torch, fn, *make_args(torch, kwargs))
    b = _outcome(tl, fn, *make_args(tl, kwargs))
    assert a[0] == b[0], (a[:3], b[:3])
    if a[0] == "ok":
        assert a[1:3] == b[1:3]
        np.testing.assert_allclose(b[3], a[3], rtol=rtol, atol=atol)
    else:
        assert a[1] == b[1]


def _windows(n_fft, win, lib, dt):
    if win is None:
        return {}
    if win == "hann":
        return {"window": lib.tensor(np.hanning(n_fft) + 0.1).to(getattr(lib, dt))}
    return {"window": lib.tensor(np.hanning(n_fft - 1) + 0.1).to(getattr(lib, dt)), "win_length": n_fft - 1}


STFT_GRID = list(itertools.product([5, 64], [4, 9, 16], [None, 3], [True, False],
                                   ["reflect", "constant", "replicate", "circular"], [False, True],
                                   [None, "hann", "short"], [False, True]))


@pytest.mark.parametrize("L,n_fft,hop,center,pad_mode,normalized,win,cplx", STFT_GRID)
def test_stft(L, n_fft, hop, center, pad_mode, normalized, win, cplx):
    rng = np.random.default_rng(L * 1000 + n_fft)
    sig = rng.standard_normal((2, L))
    if cplx:
        sig = sig + 1j * rng.standard_normal(sig.shape)

    def make(lib, kw):  # a batch of two, float64
        return (lib.tensor(sig), n_fft), dict(kw, **_windows(n_fft, win, lib, "float64"))

    def make1(lib, kw):  # one signal, float32
        return ((lib.tensor(sig[0]).to(lib.complex64 if cplx else lib.float32), n_fft),
                dict(kw, **_windows(n_fft, win, lib, "float32")))
    kw = dict(hop_length=hop, center=center, pad_mode=pad_mode, normalized=normalized, return_complex=True)
    _compare("stft", make, kw)
    _compare("stft", make1, kw, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("onesided", [None, True, False])
def test_stft_return_real_and_onesided(onesided):
    x = np.random.default_rng(0).standard_normal(20)
    _compare("stft", lambda lib, k: ((lib.tensor(x), 8), k), dict(return_complex=False, onesided=onesided))
    _compare("stft", lambda lib, k: ((lib.tensor(x + 1j), 8), k), dict(return_complex=True, onesided=onesided))
    # a non-contiguous signal
    _compare("stft", lambda lib, k: ((lib.tensor(np.stack([x, x])).t().contiguous().t(), 8), k),
             dict(return_complex=True, onesided=onesided))


@pytest.mark.parametrize("call", [
    lambda lib: lib.stft(lib.arange(10.0), 4),
    lambda lib: lib.stft(lib.arange(10), 4, return_complex=True),
    lambda lib: lib.stft(lib.arange(3.0), 8, return_complex=True),
    lambda lib: lib.stft(lib.arange(10.0), 4, win_length=5, return_complex=True),
    lambda lib: lib.stft(lib.arange(10.0), 4, window=lib.ones(3), return_complex=True),
    lambda lib: lib.stft(lib.ones(2, 3, 10), 4, return_complex=True),
    lambda lib: lib.stft(lib.arange(10.0), 4, hop_length=0, return_complex=True),
    lambda lib: lib.stft(lib.arange(10.0), 0, return_complex=True),
    lambda lib: lib.stft(lib.arange(10.0) + 1j, 4, return_complex=True, onesided=True),
    lambda lib: lib.stft(lib.arange(10.0), 4, return_complex=True, pad_mode="foo"),
    lambda lib: lib.stft(lib.arange(10.0), 4, center=True, align_to_window=True, return_complex=True),
    lambda lib: lib.stft(lib.arange(10.0), 4, window=lib.ones(4, dtype=lib.float64), return_complex=True),
    lambda lib: lib.istft(lib.ones(3, 5), 4),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 4, hop_length=5),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 4, win_length=5),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 4, window=lib.ones(3)),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 6),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 4, onesided=False),
    lambda lib: lib.istft(lib.ones(5) + 0j, 4),
    lambda lib: lib.istft(lib.ones(3, 0) + 0j, 4),
    lambda lib: lib.istft(lib.ones(4, 5) + 0j, 4, return_complex=True, onesided=True),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 4, window=lib.ones(4) + 0j),
    lambda lib: lib.istft(lib.ones(3, 5) + 0j, 4, hop_length=0),
    lambda lib: lib.istft(lib.ones(1, 2, 3, 5) + 0j, 4),
    lambda lib: lib.istft(lib.ones(3, 5, dtype=lib.complex64), 4),
    lambda lib: lib.istft(lib.ones(3, 11) + 0j, 4, win_length=3, length=17),  # the window envelope vanishes
])
def test_errors(call):
    got, want = [], []
    for lib, out in ((tl, got), (torch, want)):
        try:
            r = call(lib)
            out.extend(["ok", str(r.dtype).split(".")[-1], tuple(r.shape)])
        except Exception as e:  # noqa: BLE001
            out.extend([type(e).__name__, re.sub(r"but got n_fft=\d+", "", str(e).replace("torch", "tensorlib"))])
    assert got == want


ISTFT_GRID = list(itertools.product([10, 33], [4, 8], [None, 3], [True, False], [False, True],
                                    [None, "hann", "short"], ["real", "complex", "twosided"], [None, 40]))


@pytest.mark.parametrize("L,n_fft,hop,center,normalized,win,mode,length", ISTFT_GRID)
def test_istft(L, n_fft, hop, center, normalized, win, mode, length):
    rng = np.random.default_rng(L + n_fft)
    sig = rng.standard_normal((2, L))
    if mode == "complex":
        sig = sig + 1j * rng.standard_normal(sig.shape)
    wkw = _windows(n_fft, win, torch, "float64")
    spec = torch.stft(torch.tensor(sig), n_fft, hop_length=hop, center=center, normalized=normalized,
                      return_complex=True, onesided=mode == "real", **wkw).numpy()

    def make(lib, kw):
        kw = dict(kw, **_windows(n_fft, win, lib, "float64"))
        return (lib.tensor(spec), n_fft), kw
    kw = dict(hop_length=hop, center=center, normalized=normalized, length=length, return_complex=mode != "real")
    _compare("istft", make, kw)
    _compare("istft", lambda lib, k: ((make(lib, k)[0][0][0], n_fft), make(lib, k)[1]), kw)  # one signal


@pytest.mark.parametrize("L,n_fft,hop,win_length", [(20, 8, 2, 5), (20, 8, 3, 8), (30, 16, 4, 9), (7, 8, 1, 5)])
@pytest.mark.parametrize("align", [True, False])
def test_stft_align_to_window(L, n_fft, hop, win_length, align):
    x = np.random.default_rng(L).standard_normal(L)
    w = np.hanning(win_length) + 0.1
    _compare("stft", lambda lib, k: ((lib.tensor(x), n_fft), dict(k, window=lib.tensor(w))),
             dict(hop_length=hop, win_length=win_length, center=False, align_to_window=align, return_complex=True))


def test_stft_align_past_the_end():
    """torch 2.13 reads past the signal here (RuntimeError from setStorage); tensorlib's frames
    are the zero-padded signal's, equal to the transform computed by hand."""
    x = np.random.default_rng(3).standard_normal(9)
    w = np.hanning(3) + 0.1
    got = tl.stft(tl.tensor(x), 8, hop_length=1, win_length=3, window=tl.tensor(w), center=False,
                  align_to_window=True, return_complex=True).numpy()
    padded = np.concatenate([np.zeros(2), x, np.zeros(3)])
    wn = np.concatenate([np.zeros(2), w, np.zeros(3)])
    want = np.stack([np.fft.rfft(padded[i:i + 8] * wn) for i in range(7)], axis=1)
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_methods_and_round_trip():
    x = tl.tensor(np.random.default_rng(5).standard_normal((2, 50)), dtype=tl.float32)
    w = tl.hann_window(16) if hasattr(tl, "hann_window") else tl.tensor(np.hanning(17)[:16], dtype=tl.float32)
    s = x.stft(16, hop_length=4, window=w, return_complex=True)
    assert s.dtype == tl.complex64 and s.shape == (2, 9, 13)
    y = s.istft(16, hop_length=4, window=w, length=50)
    np.testing.assert_allclose(y.numpy(), x.numpy(), atol=1e-5)
