"""tensorlib.signal.windows against torch.signal.windows (torch 2.13): every window x lengths
0..17 x sym x dtypes (float32/float64 computed; others refused with torch's ValueError) x the
windows' own parameters; torch's errors and words."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

PARAMS = {"bartlett": {}, "blackman": {}, "cosine": {}, "exponential": {"tau": 2.0}, "gaussian": {"std": 1.5},
          "general_cosine": {"a": [0.4, 0.3, 0.2]}, "general_hamming": {"alpha": 0.6}, "hamming": {}, "hann": {},
          "kaiser": {"beta": 8.0}, "nuttall": {}}


def _outcome(lib, f):
    try:
        r = f(lib)
        return "ok", str(r.dtype).split(".")[-1], r.double().numpy()
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e).replace("torch", "tensorlib")


@pytest.mark.parametrize("fn", sorted(PARAMS))
@pytest.mark.parametrize("M", [0, 1, 2, 3, 5, 16, 17])
@pytest.mark.parametrize("sym", [True, False])
@pytest.mark.parametrize("dt", [None, "float32", "float64", "float16", "int32"])
def test_windows(fn, M, sym, dt):
    for extra in ({}, PARAMS[fn]):
        if fn == "general_cosine" and not extra:
            extra = {"a": [0.5, 0.5]}

        def f(lib):
            kw = dict(extra, sym=sym)
            if dt:
                kw["dtype"] = getattr(lib, dt)
            return getattr(lib.signal.windows, fn)(M, **kw)
        a, b = _outcome(torch, f), _outcome(tl, f)
        assert a[:2] == b[:2]
        if a[0] == "ok":
            np.testing.assert_allclose(b[2], a[2], rtol=1e-6, atol=1e-7 if dt != "float64" else 1e-14)


@pytest.mark.parametrize("call", [
    lambda w, lib: w.exponential(5, center=1.0), lambda w, lib: w.exponential(5, tau=0),
    lambda w, lib: w.gaussian(5, std=-1), lambda w, lib: w.kaiser(5, beta=-1),
    lambda w, lib: w.general_cosine(5, a=3), lambda w, lib: w.general_cosine(5, a=[]),
    lambda w, lib: w.hann(-1), lambda w, lib: w.hann(3, layout=lib.sparse_coo),
    lambda w, lib: w.exponential(5, center=1.0, sym=False), lambda w, lib: w.kaiser(6, beta=0.0, sym=False),
])
def test_window_errors_and_forms(call):
    a = _outcome(torch, lambda lib: call(lib.signal.windows, lib))
    b = _outcome(tl, lambda lib: call(lib.signal.windows, lib))
    assert a[:2] == b[:2]
    if a[0] == "ok":
        np.testing.assert_allclose(b[2], a[2], rtol=1e-6, atol=1e-7)
