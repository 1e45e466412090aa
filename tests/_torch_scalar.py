"""torch's scalar CPU path as an oracle for special values.

torch picks vectorized kernels by the CPU it runs on (ATEN_CPU_CAPABILITY: default, avx2,
avx512), and those kernels disagree on special values: on AVX-512 machines
`gelu(inf)` is NaN, on AVX2 and in the scalar path it is inf. A test that compared
tensorlib with the in-process torch on inf/NaN/signed-zero inputs would pass or fail by
machine. Tests therefore send special-valued inputs here: one torch worker process,
started once per test session with ATEN_CPU_CAPABILITY=default, evaluates the same call on
its scalar path (std:: math, the same on every x86-64 CPU) and sends back NumPy arrays.
Regular finite values keep being compared with the in-process torch, with tolerances.

    scalar_call("lambda torch, x: torch.nn.functional.gelu(x)", x)   # x: a tensorlib tensor

Arguments are tensorlib tensors (sent as NumPy arrays; bfloat16 and complex32 travel as
float32/complex64 arrays holding exactly representable values and are cast back in the
worker) or plain Python values. The result is (ndarray, dtype name), with bfloat16 returned as float32 and
complex32 as complex64 (both exact), or ("raise", exception class name).
"""
import atexit
import os
import pickle
import struct
import subprocess
import sys

import numpy as np

_WORKER = r'''
import os, pickle, struct, sys
import numpy as np
import torch
assert torch.backends.cpu.get_cpu_capability() == "DEFAULT", torch.backends.cpu.get_cpu_capability()
WIDE = {"bfloat16": "float32", "complex32": "complex64"}
def arg(a):
    if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], np.ndarray):
        arr, name = a
        return torch.from_numpy(arr.copy()).to(getattr(torch, name))
    return a
def back(t):
    name = str(t.dtype).split(".")[-1]
    if name in WIDE:
        t = t.to(getattr(torch, WIDE[name]))
    return t.numpy().copy(), name
rd, wr = sys.stdin.buffer, sys.stdout.buffer
while True:
    head = rd.read(8)
    if len(head) < 8:
        break
    src, args = pickle.loads(rd.read(struct.unpack("<Q", head)[0]))
    try:
        r = eval(src)(torch, *[arg(a) for a in args])
        out = tuple(back(x) for x in r) if isinstance(r, tuple) else back(r)
    except Exception as e:  # noqa: BLE001 - the class name is the answer
        out = ("raise", type(e).__name__)
    data = pickle.dumps(out)
    wr.write(struct.pack("<Q", len(data)) + data)
    wr.flush()
'''

_proc = None


def _worker():
    global _proc
    if _proc is None or _proc.poll() is not None:
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        _proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 env=env)
        atexit.register(_proc.kill)
    return _proc


_WIDE = {"bfloat16": "float32", "complex32": "complex64"}


def _arg(a):
    """A tensorlib tensor travels as (ndarray, dtype name), bfloat16/complex32 widened exactly."""
    if hasattr(a, "dtype") and hasattr(a, "to") and not isinstance(a, np.ndarray):
        import tensorlib as tl
        name = str(a.dtype).split(".")[-1]
        wide = getattr(tl, _WIDE.get(name, name))
        return (np.asarray(a.to(wide)).copy(), name)
    return a


def scalar_call(src, *args):
    """Evaluates `src` (a lambda source taking torch and the args) in torch's scalar path."""
    p = _worker()
    data = pickle.dumps((src, [_arg(a) for a in args]))
    p.stdin.write(struct.pack("<Q", len(data)) + data)
    p.stdin.flush()
    head = p.stdout.read(8)
    if len(head) < 8:
        raise RuntimeError("torch scalar-path worker died")
    return pickle.loads(p.stdout.read(struct.unpack("<Q", head)[0]))


def assert_special_equal(got, want, tol=0.0):
    """got equals want where it matters for special values: NaN in the same places, infinities
    and zeros with the same sign, other finite values within tol (relative and absolute).
    A NaN's sign is not compared (torch's own paths disagree on it, e.g. bfloat16)."""
    g = np.asarray(got)
    w = np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    parts = ((g.real, w.real), (g.imag, w.imag)) if np.iscomplexobj(w) or np.iscomplexobj(g) else ((g, w),)
    for gp, wp in parts:
        gp = gp.astype(np.float64)
        wp = wp.astype(np.float64)
        gn, wn = np.isnan(gp), np.isnan(wp)
        assert (gn == wn).all(), ("NaN positions", gp, wp)
        inf = np.isinf(wp)
        assert (gp[inf] == wp[inf]).all() and (np.isinf(gp) == inf).all(), ("infinities", gp, wp)
        z = (wp == 0) & (gp == 0)
        assert (np.signbit(gp[z]) == np.signbit(wp[z])).all(), ("signed zeros", gp, wp)
        fin = ~wn & ~inf
        np.testing.assert_allclose(gp[fin], wp[fin], rtol=tol, atol=tol)
