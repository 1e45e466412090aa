"""2:4 semi-structured tensors on "cuda" (tensorlib/_semi_structured.py) on the host-memory
stand-in backend of tests/_fake_cuda.py: to_sparse_semi_structured of a CUDA tensor, .cuda()/
.cpu()/.to() of a SparseSemiStructuredTensor, and every product form (S @ B, A @ S, either
transposed, mm, matmul, addmm with alpha/beta, linear with and without bias, the @ operator)
for float16, bfloat16 and int8 through the backend's 2:4 entry (backend/semi.c; its stand-in
is the core's host runner of the same call, cuSPARSELt on CUDA), float32 through the host
round trip (cuSPARSELt's float sparsity is 1:2). Operands hold small integers so that each
product is exact in each dtype; int8 products wrap as the CPU's (int32 then cast). Each result
must equal tensorlib's CPU result of the same call exactly (values, dtype, shape) and be on the
device, and the products also torch 2.13's dense product (int8: wrapped). The stand-in's log
must show the entry reached (COMPRESS once per side, then MM) and no host round trip of the
product; errors must be the CPU's. Run as a script in a subprocess: prints failures, then
`failures N` and `ok N`. With TL_EW_REAL=1 the grid runs on a real CUDA device (cuSPARSELt)."""


import numpy as np
import torch

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome, as_np  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402
import tensorlib._semi_structured as _ss  # noqa: E402
from tensorlib.sparse import to_sparse_semi_structured as semi  # noqa: E402

FAIL = []
COUNT = [0]
DTYPES = ["float16", "bfloat16", "int8", "float32"]
DEVICE_DTYPES = ("float16", "bfloat16", "int8")
SIZE, COMPRESS, MM = 0, 1, 2


def pattern(dt, rows, cols, seed):
    """A tensorlib CPU 2:4 matrix of small integers (int8: up to 9, so that products wrap)."""
    rng = np.random.default_rng(seed)
    hi = 10 if dt == "int8" else 4
    v = rng.integers(-hi, hi, size=(rows, cols))
    keep = np.zeros((rows, cols), bool)
    for r in range(rows):
        for g in range(0, cols, 4):
            keep[r, g + rng.choice(4, size=rng.integers(0, 3), replace=False)] = True
    return tensor(v * keep, dt)


def tensor(v, dt):
    if dt == "bfloat16":
        return tl.tensor(np.asarray(v, np.float32)).to(tl.bfloat16)
    return tl.tensor(np.asarray(v, np.float64 if dt != "int8" else np.int64)).to(getattr(tl, dt))


def dense(dt, shape, seed):
    rng = np.random.default_rng(seed)
    return tensor(rng.integers(-10 if dt == "int8" else -3, 11 if dt == "int8" else 4, size=shape), dt)


def torch_mm(a, b, dt):
    """torch 2.13's dense product of numpy operands, as the CPU kernel computes it (int8: int32 then wrapped)."""
    if dt == "int8":
        return (torch.tensor(a, dtype=torch.int32) @ torch.tensor(b, dtype=torch.int32)).to(torch.int8).numpy()
    return (torch.tensor(a, dtype=torch.float64) @ torch.tensor(b, dtype=torch.float64)).numpy()


def same(what, got, want, ref=None):
    COUNT[0] += 1
    if not isinstance(got, tl.Tensor) or not got.is_cuda or got.dtype != want.dtype or got.shape != want.shape:
        FAIL.append(f"{what}: device {got!r} vs CPU {want.dtype} {tuple(want.shape)}")
        return
    if not np.array_equal(as_np(got), as_np(want)):
        FAIL.append(f"{what}: device {as_np(got)} vs CPU {as_np(want)}")
    if ref is not None:
        COUNT[0] += 1
        if not np.array_equal(as_np(want).astype(np.float64), ref.astype(np.float64)):
            FAIL.append(f"{what}: CPU {as_np(want)} vs torch {ref}")


def semi_calls(since):
    return [c[1:] for c in LOG[since:] if c[0] == "semi"]


def round_trips(since):
    """Device-to-host copies of more than a few bytes since the mark."""
    return [c[3] for c in LOG[since:] if c[0] == "copy" and c[1] == 0 and c[2] == 1 and c[3] > 8]


def forms(dt, m, k, n, seed):
    """(name, f, operands as CPU tensors, torch reference) for each product form of one 2:4
    matrix: S (m x k) on either side, transposed or not."""
    s_d = pattern(dt, m, k, seed)
    b = dense(dt, (k, n), seed + 1)       # S @ B
    a = dense(dt, (n, m), seed + 2)       # A @ S
    bt = dense(dt, (m, n), seed + 3)      # S^T @ B
    at = dense(dt, (n, k), seed + 4)      # A @ S^T
    bias = dense(dt, (m,), seed + 5)
    inp = dense(dt, (m, n), seed + 6)
    S, B, A, BT, AT = (as_np(x) for x in (s_d, b, a, bt, at))
    out = [("S@B mm", lambda s, x: tl.mm(s, x), s_d, b, torch_mm(S, B, dt)),
           ("S@B matmul", lambda s, x: tl.matmul(s, x), s_d, b, torch_mm(S, B, dt)),
           ("S@B op", lambda s, x: s @ x, s_d, b, torch_mm(S, B, dt)),
           ("A@S mm", lambda s, x: tl.mm(x, s), s_d, a, torch_mm(A, S, dt)),
           ("A@S op", lambda s, x: x @ s, s_d, a, torch_mm(A, S, dt)),
           ("S^T@B", lambda s, x: tl.mm(s.t(), x), s_d, bt, torch_mm(S.T, BT, dt)),
           ("S@B strided", lambda s, x: tl.mm(s, x[:, ::2]), s_d, dense(dt, (k, 2 * n), seed + 7),
            None),
           ("A@S^T", lambda s, x: tl.mm(x, s.t()), s_d, at, torch_mm(AT, S.T, dt)),
           ("linear", lambda s, x: __ss.linear(x, s), s_d, at, torch_mm(AT, S.T, dt)),
           ("addmm", lambda s, x, i: tl.addmm(i, s, x), s_d, (b, inp),
            None if dt == "int8" else torch_mm(S, B, dt) + as_np(inp)),
           ("addmm beta alpha", lambda s, x, i: tl.addmm(i, s, x, beta=2, alpha=3), s_d, (b, inp),
            None if dt == "int8" else 3 * torch_mm(S, B, dt) + 2 * as_np(inp))]
    return out, bias


def main():
    seed = 0
    for dt in DTYPES:
        for m, k, n in [(4, 32 if dt == "int8" else 16, 3), (8, 64, 5), (33, 64, 1), (2, 32 if dt == "int8" else 16, 40),
                        (3, 32, 0)]:
            seed += 10
            fs, bias = forms(dt, m, k, n, seed)
            for name, f, s_cpu, x, ref in fs:
                what = f"{dt} {name} S{m}x{k} n{n}"
                xs = x if isinstance(x, tuple) else (x,)
                rc, ec = outcome(lambda: f(semi(s_cpu), *xs))
                # half the cases built from a CUDA tensor, half moved with .cuda()
                built = seed % 20 != 0
                sd = semi(s_cpu.cuda()) if built else semi(s_cpu).cuda()
                xd = [t.cuda() for t in xs]
                mark2 = len(LOG)
                rg, eg = outcome(lambda: f(sd, *xd))
                calls, copies = semi_calls(mark2), round_trips(mark2)
                if ec is not None or eg is not None:
                    COUNT[0] += 1
                    if type(ec) is not type(eg) or str(ec) != str(eg):
                        FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
                    continue
                same(what, rg, rc, ref)
                if REAL:
                    continue
                COUNT[0] += 1
                if dt in DEVICE_DTYPES:
                    mms = [c for c in calls if c[0] == MM]
                    if n == 0:  # an empty product never reaches the entry
                        mms = [None] if not mms else mms + [None]
                        if len(mms) != 1:
                            FAIL.append(f"{what}: semi entry calls {calls}")
                    elif len(mms) != 1 or mms[0][2] != (0 if name in ("A@S mm", "A@S op", "S^T@B") else 1):
                        FAIL.append(f"{what}: semi entry calls {calls}")
                    if built and (copies or len(calls) != (n != 0)):
                        FAIL.append(f"{what}: device-to-host copies {copies} / compressions {calls} in the product")
                elif calls:
                    FAIL.append(f"{what}: float32 reached the semi entry: {calls}")
                # a second product of the same matrix and side compresses and copies nothing
                if dt in DEVICE_DTYPES:
                    mark3 = len(LOG)
                    outcome(lambda: f(sd, *xd))
                    COUNT[0] += 1
                    if [c for c in semi_calls(mark3) if c[0] != MM] or round_trips(mark3):
                        FAIL.append(f"{what}: compressed again: {semi_calls(mark3)}, copies {round_trips(mark3)}")
            # linear with bias
            s_cpu = pattern(dt, m, k, seed + 7)
            x = dense(dt, (n, k), seed + 8)
            b = dense(dt, (m,), seed + 9)
            want = _ss.linear(x, semi(s_cpu), b)
            got = _ss.linear(x.cuda(), semi(s_cpu.cuda()), b.cuda())
            same(f"{dt} linear bias S{m}x{k} n{n}", got, want)
            # moving back and forth keeps the matrix
            sd = semi(s_cpu.cuda())
            for what, t in [("cpu", sd.cpu()), ("to cpu", sd.to("cpu")), ("cuda", semi(s_cpu).cuda()),
                            ("to cuda", semi(s_cpu).to("cuda"))]:
                COUNT[0] += 1
                if t.device.type != ("cpu" if "cpu" in what else "cuda") or not np.array_equal(
                        as_np(t.to_dense()), as_np(s_cpu)) or t.values().device != t.device:
                    FAIL.append(f"{dt} {what}: {t!r}")
    # errors: the CPU's
    for dt in DEVICE_DTYPES:
        s_cpu = pattern(dt, 4, 32, 99)
        cases = [("shape", lambda s, x: tl.mm(s, x), dense(dt, (16, 3), 1)),
                 ("dtype", lambda s, x: tl.mm(s, x), dense("float32" if dt != "float32" else "float16", (32, 3), 1)),
                 ("1-D", lambda s, x: tl.mm(s, x), dense(dt, (32,), 1)),
                 ("two semi", lambda s, x: tl.mm(s, s.t()), dense(dt, (32, 3), 1))]
        for name, f, x in cases:
            ec = outcome(lambda: f(semi(s_cpu), x))[1]
            eg = outcome(lambda: f(semi(s_cpu.cuda()), x.cuda()))[1]
            COUNT[0] += 1
            if ec is None or type(ec) is not type(eg) or str(ec) != str(eg):
                FAIL.append(f"{dt} error {name}: CPU {ec!r} vs device {eg!r}")
        # a device matrix with a CPU operand: torch's device error
        eg = outcome(lambda: tl.mm(semi(s_cpu.cuda()), dense(dt, (32, 3), 1)))[1]
        COUNT[0] += 1
        if not isinstance(eg, RuntimeError) or "Expected all tensors to be on the same device" not in str(eg):
            FAIL.append(f"{dt} error device mix: {eg!r}")
    if not REAL:
        fallback()
    report(FAIL, COUNT[0])


def fallback():
    """An entry refusing with NotImplementedError (the CUDA module without libcusparseLt, or a GPU
    it does not support) leaves the products to the host round trip: the CPU's results."""
    import ctypes as C

    class Api(C.Structure):
        _fields_ = [("abi_version", C.c_uint32), ("size", C.c_uint32), ("register_backend", C.c_void_p),
                    ("set_error", C.CFUNCTYPE(None, C.c_int, C.c_char_p))]

    get = C.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = C.c_void_p, [C.py_object, C.c_char_p]
    api = Api.from_address(get(tl._C._backend_api, b"tensorlib._C._backend_api.v5"))
    refused = []

    def refuse(p):
        refused.append(_fake_cuda.SemiCall.from_address(p).mode)
        api.set_error(6, b"tensorlib: 2:4 semi-structured products of CUDA tensors need cuSPARSELt")  # TL_ERR_NOTIMPL
        return -1

    for mode in (SIZE, MM):
        entry = _fake_cuda.EW(lambda p, mode=mode: refuse(p) if _fake_cuda.SemiCall.from_address(p).mode == mode
                              else _fake_cuda._semi(p))
        saved, _fake_cuda.BACKEND.semi = _fake_cuda.BACKEND.semi, entry
        try:
            for dt in DEVICE_DTYPES:
                s_cpu, b, a = pattern(dt, 4, 32, 5), dense(dt, (32, 3), 6), dense(dt, (2, 4), 7)
                del refused[:]
                sd = semi(s_cpu.cuda())
                same(f"{dt} fallback {mode} S@B", tl.mm(sd, b.cuda()), tl.mm(semi(s_cpu), b))
                same(f"{dt} fallback {mode} A@S", tl.mm(a.cuda(), sd), tl.mm(a, semi(s_cpu)))
                COUNT[0] += 1
                if refused != [mode]:  # refused once, then never asked again
                    FAIL.append(f"{dt} fallback {mode}: the entry was asked {refused}")
        finally:
            _fake_cuda.BACKEND.semi = saved


main()
