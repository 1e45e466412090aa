"""tensorlib.sinc (function, Tensor.sinc/sinc_, special.sinc) against torch 2.13: real dtypes bit
for bit (torch's scalar kernel: pi * x and sin in the compute type, 1 at 0), complex within a
few ulps (the complex sin and division are the C library's, torch's are libstdc++'s), integer
and bool inputs promote to the default float dtype, complex32 refused; out= and in place."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

VALS = [0.0, -0.0, 0.5, 1.5, -2.0, 1e-20, 1e-5, 3.0, 1e10, 123.456, float("inf"), float("-inf"), float("nan")]


def _run(lib, dt, vals):
    try:
        if "complex" in dt:
            x = (lib.tensor(vals) + 1j * lib.tensor(vals[::-1])).to(getattr(lib, dt))
        else:
            x = lib.tensor(vals if dt != "bool" else [0, 1, 1]).to(getattr(lib, dt))
        r = lib.sinc(x)
        return "ok", str(r.dtype).split(".")[-1], r.resolve_conj().numpy() if r.is_complex() else r.double().numpy()
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e).replace("torch", "tensorlib")


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int8", "bool", "uint8",
                                "complex64", "complex128", "complex32", "uint16", "float8_e4m3fn"])
def test_sinc_values_and_dtypes(dt):
    a, b = _run(torch, dt, VALS), _run(tl, dt, VALS)
    assert a[0] == b[0] and a[1] == b[1], (a[:2], b[:2])
    if a[0] != "ok":
        return
    if "complex" in dt:
        np.testing.assert_allclose(b[2], a[2], rtol=4e-7 if dt == "complex64" else 1e-15, equal_nan=True)
    else:
        np.testing.assert_array_equal(b[2], a[2])
        np.testing.assert_array_equal(np.signbit(b[2]), np.signbit(a[2]))


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_sinc_random_bit_for_bit(dt):
    x = np.random.default_rng(0).standard_normal(20000) * 50
    a = torch.sinc(torch.tensor(x).to(getattr(torch, dt))).double().numpy()
    b = tl.sinc(tl.tensor(x).to(getattr(tl, dt))).double().numpy()
    np.testing.assert_array_equal(b, a)


def test_sinc_forms():
    x = tl.tensor([[0.0, 0.5], [1.5, 2.5]]).t()  # non-contiguous
    want = torch.sinc(torch.tensor([[0.0, 0.5], [1.5, 2.5]]).t())
    np.testing.assert_array_equal(x.sinc().numpy(), want.numpy())
    np.testing.assert_array_equal(tl.special.sinc(x).numpy(), want.numpy())
    out = tl.empty(0, dtype=tl.float64)
    assert tl.sinc(x, out=out) is out and out.dtype == tl.float64
    np.testing.assert_allclose(out.numpy(), want.double().numpy(), rtol=1e-7)
    y = x.clone()
    assert y.sinc_() is y
    np.testing.assert_array_equal(y.numpy(), want.numpy())
    z = tl.tensor([0.5])
    tl.sinc_(z)
    assert z.item() == torch.sinc(torch.tensor([0.5])).item()
    with pytest.raises(RuntimeError):  # an int tensor cannot hold the float result
        tl.arange(3).sinc_()
    with pytest.raises(RuntimeError):
        torch.arange(3).sinc_()
    assert tl.sinc(tl.zeros(0, 3)).shape == (0, 3) and tl.sinc(tl.tensor(0.0)).item() == 1.0
