"""Foundation rows: allocation, copies and casts, transposed copies, NumPy round trips,
per-call overhead of small ops, and printing."""
from harness import libs

np, torch, tl = libs()
N = 10**7


def _zeros():
    return {"tensorlib": lambda: tl.zeros(N),
            "numpy": lambda: np.zeros(N, np.float32),
            "torch": torch and (lambda: torch.zeros(N))}


def _unary(make_tl, make_np, make_torch, size=N, dtype="float32"):
    """Inputs of `size` random values; the three callables receive their library's array."""
    a = np.random.default_rng(0).standard_normal(size).astype(dtype)
    x = tl.from_numpy(a.copy())
    t = torch.from_numpy(a.copy()) if torch else None
    return {"tensorlib": lambda: make_tl(x), "numpy": lambda: make_np(a),
            "torch": torch and (lambda: make_torch(t))}


def _cast(tl_dt, np_dt, torch_dt):
    return lambda: _unary(lambda x: x.to(getattr(tl, tl_dt)), lambda a: a.astype(np_dt),
                          lambda t: t.to(getattr(torch, torch_dt)))


def _copy_into(dt):
    """copy_ into a preallocated float32 -> dt destination (no allocation in the loop)."""
    def make():
        a = np.random.default_rng(0).standard_normal(N).astype(np.float32)
        b = np.empty(N, dt)
        x, y = tl.from_numpy(a.copy()), tl.from_numpy(b.copy())
        t, u = (torch.from_numpy(a.copy()), torch.from_numpy(b.copy())) if torch else (None, None)
        return {"tensorlib": lambda: y.copy_(x), "numpy": lambda: np.copyto(b, a, casting="unsafe"),
                "torch": torch and (lambda: u.copy_(t))}
    return make


def _transpose_contiguous():
    a = np.random.default_rng(0).standard_normal((4096, 4096)).astype(np.float32)
    x = tl.from_numpy(a.copy())
    t = torch.from_numpy(a.copy()) if torch else None
    return {"tensorlib": lambda: x.t().contiguous(), "numpy": lambda: np.ascontiguousarray(a.T),
            "torch": torch and (lambda: t.t().contiguous())}


def _numpy_round_trip():
    a = np.ones((64, 64), np.float32)
    return {"tensorlib": lambda: tl.from_numpy(a).numpy(),
            "torch": torch and (lambda: torch.from_numpy(a).numpy())}


def _small(op):
    def make():
        a = np.arange(10, dtype=np.float32)
        x = tl.from_numpy(a.copy())
        t = torch.from_numpy(a.copy()) if torch else None
        impl = {"slice": (lambda v: v[1:3]), "view": (lambda v: v.view(-1)),
                "clone": (lambda v: v.clone())}[op]
        np_impl = {"slice": (lambda v: v[1:3]), "view": (lambda v: v.reshape(-1)),
                   "clone": (lambda v: v.copy())}[op]
        return {"tensorlib": lambda: impl(x), "numpy": lambda: np_impl(a),
                "torch": torch and (lambda: impl(t))}
    return make


def _repr():
    a = np.random.default_rng(0).standard_normal((1000, 1000)).astype(np.float32)
    x = tl.from_numpy(a.copy())
    t = torch.from_numpy(a.copy()) if torch else None
    return {"tensorlib": lambda: repr(x), "numpy": lambda: repr(a), "torch": torch and (lambda: repr(t))}


ROWS = [
    ("zeros 1e7 float32", _zeros),
    ("clone 1e7 float32", lambda: _unary(lambda x: x.clone(), lambda a: a.copy(), lambda t: t.clone())),
    ("cast 1e7 float32->float16 (new)", _cast("float16", np.float16, "float16")),
    ("cast 1e7 float32->float64 (new)", _cast("float64", np.float64, "float64")),
    ("copy_ 1e7 float32->float16 (into)", _copy_into(np.float16)),
    ("copy_ 1e7 float32->float64 (into)", _copy_into(np.float64)),
    ("transpose+contiguous 4096x4096 float32", _transpose_contiguous),
    ("from_numpy(a).numpy() 64x64", _numpy_round_trip),
    ("small: t[1:3] (10 elems)", _small("slice")),
    ("small: t.view(-1) (10 elems)", _small("view")),
    ("small: clone (10 elems)", _small("clone")),
    ("repr 1000x1000 float32", _repr),
]
