"""tensorlib.fft (csrc/ops/fft.c: mixed radix + Bluestein) against NumPy's and torch's pocketfft:
a smooth length, a power of two, a large prime (Bluestein) and a batched real transform."""
from harness import libs

np, torch, tl = libs()


def _c2c(shape, dtype="complex128"):
    def make():
        rng = np.random.default_rng(0)
        a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
        x = tl.from_numpy(a.copy())
        t = torch.from_numpy(a.copy()) if torch else None
        return {"tensorlib": lambda: tl.fft.fft(x), "numpy": lambda: np.fft.fft(a),
                "torch": torch and (lambda: torch.fft.fft(t))}
    return make


def _r2c(shape):
    def make():
        a = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        x = tl.from_numpy(a.copy())
        t = torch.from_numpy(a.copy()) if torch else None
        return {"tensorlib": lambda: tl.fft.rfft(x), "numpy": lambda: np.fft.rfft(a),
                "torch": torch and (lambda: torch.fft.rfft(t))}
    return make


ROWS = [
    ("fft c128 64x4096 (2^12)", _c2c((64, 4096))),
    ("fft c128 64x3000 (2^3 3 5^3)", _c2c((64, 3000))),
    ("fft c128 64x4099 (prime, Bluestein)", _c2c((64, 4099))),
    ("fft c64 1x1048576", _c2c((1 << 20,), "complex64")),
    ("rfft f32 256x1024", _r2c((256, 1024))),
]
