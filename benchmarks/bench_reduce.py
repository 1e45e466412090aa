"""Reduction, scan and sort rows: sum and mean of 1e7 float32 (all, axis 0, axis -1),
argmax (all, axis 0, axis -1), amax/amin over axis 0, argmin, var, cumsum, sort of 1e6 float32, and the selection ops
(topk, kthvalue; NumPy's argpartition as its nearest equivalent)."""
from harness import libs

np, torch, tl = libs()
N = 10**7
SHAPE = (1000, 10000)  # 1e7 elements for the axis rows


def _inputs(shape, dtype=np.float32):
    a = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    return a, tl.from_numpy(a.copy()), (torch.from_numpy(a.copy()) if torch else None)


def _row(shape, f_tl, f_np, f_torch, dtype=np.float32):
    def make():
        a, x, t = _inputs(shape, dtype)
        return {"tensorlib": lambda: f_tl(x), "numpy": lambda: f_np(a), "torch": torch and (lambda: f_torch(t))}
    return make


def _same(op, **kw):
    """The same method call on all three libraries (NumPy spells dim as axis)."""
    np_kw = {("axis" if k == "dim" else k): v for k, v in kw.items()}
    return (lambda x: getattr(x, op)(**kw)), (lambda a: getattr(a, op)(**np_kw)), (lambda t: getattr(t, op)(**kw))


ROWS = [
    ("sum 1e7 float32 (all)", _row((N,), *_same("sum"))),
    ("sum 1e7 float32 (axis 0)", _row(SHAPE, *_same("sum", dim=0))),
    ("sum 1e7 float32 (axis -1)", _row(SHAPE, *_same("sum", dim=-1))),
    ("mean 1e7 float32 (all)", _row((N,), *_same("mean"))),
    ("mean 1e7 float32 (axis 0)", _row(SHAPE, *_same("mean", dim=0))),
    ("mean 1e7 float32 (axis -1)", _row(SHAPE, *_same("mean", dim=-1))),
    ("argmax 1e7 float32 (all)", _row((N,), *_same("argmax"))),
    ("argmax 1e7 float32 (axis 0)", _row(SHAPE, *_same("argmax", dim=0))),
    ("argmax 1e7 float32 (axis -1)", _row(SHAPE, *_same("argmax", dim=-1))),
    ("amax 1e7 float32 (axis 0)", _row(SHAPE, lambda x: x.amax(0), lambda a: a.max(0), lambda t: t.amax(0))),
    ("amin 1e7 float64 (axis 0)", _row(SHAPE, lambda x: x.amin(0), lambda a: a.min(0), lambda t: t.amin(0),
                                       dtype=np.float64)),
    ("argmin 1e7 float64 (all)", _row((N,), *_same("argmin"), dtype=np.float64)),
    ("var 1e7 float32 (all)", _row((N,), lambda x: x.var(), lambda a: a.var(ddof=1), lambda t: t.var())),
    ("cumsum 1e7 float32", _row((N,), lambda x: x.cumsum(0), lambda a: a.cumsum(0), lambda t: t.cumsum(0))),
    ("sort 1e6 float32", _row((10**6,), lambda x: x.sort(), lambda a: np.sort(a, kind="stable"),
                               lambda t: t.sort(stable=True))),
    ("topk 10 of 1e6 float32", _row((10**6,), lambda x: x.topk(10), lambda a: np.argpartition(a, -10)[-10:],
                                     lambda t: t.topk(10))),
    ("topk 5 of (1000, 1000) float32 rows", _row((1000, 1000), lambda x: x.topk(5, 1),
                                                 lambda a: np.argpartition(a, -5, axis=1)[:, -5:],
                                                 lambda t: t.topk(5, 1))),
    ("kthvalue 1e6 float32", _row((10**6,), lambda x: x.kthvalue(500000), lambda a: np.partition(a, 499999)[499999],
                                  lambda t: t.kthvalue(500000))),
]
