"""Host memory and interop of the CUDA backend: pinned host memory (pin_memory, is_pinned, the
factories' pin_memory=), non_blocking copies, Tensor.record_stream and DLPack of CUDA tensors:
torch's answers where no device is usable (this machine), and the core's side of them on the
host-memory stand-in backend of tests/_fake_cuda.py."""
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

import tensorlib as tl

try:
    import torch
except ImportError:  # the oracle is optional
    torch = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
no_gpu = pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here")
NO_ALLOCATOR = ("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator "
                "is available on this system.")
NO_ACCELERATOR = "Cannot access accelerator device when none is available."

# (name, call) for every factory taking pin_memory=; lib is tensorlib or torch
FACTORIES = [
    ("empty", lambda m, **k: m.empty(2, 3, **k)),
    ("zeros", lambda m, **k: m.zeros(2, 3, **k)),
    ("ones", lambda m, **k: m.ones(4, **k)),
    ("full", lambda m, **k: m.full((2,), 7, **k)),
    ("empty_strided", lambda m, **k: m.empty_strided((2, 3), (1, 2), **k)),
    ("tensor", lambda m, **k: m.tensor([[1.5, 2.0]], **k)),
    ("scalar_tensor", lambda m, **k: m.scalar_tensor(3.0, **k)),
    ("arange", lambda m, **k: m.arange(5, **k)),
    ("linspace", lambda m, **k: m.linspace(0, 1, 5, **k)),
    ("logspace", lambda m, **k: m.logspace(0, 2, 3, **k)),
    ("eye", lambda m, **k: m.eye(3, **k)),
    ("rand", lambda m, **k: m.rand(3, **k)),
    ("randn", lambda m, **k: m.randn(3, **k)),
    ("randint", lambda m, **k: m.randint(0, 5, (3,), **k)),
    ("randperm", lambda m, **k: m.randperm(4, **k)),
    ("normal", lambda m, **k: m.normal(0.0, 1.0, (3,), **k)),
    ("empty_like", lambda m, **k: m.empty_like(m.ones(2, 2), **k)),
    ("zeros_like", lambda m, **k: m.zeros_like(m.ones(2, 2), **k)),
    ("ones_like", lambda m, **k: m.ones_like(m.ones(2, 2), **k)),
    ("full_like", lambda m, **k: m.full_like(m.ones(2, 2), 5, **k)),
    ("sparse_coo_tensor", lambda m, **k: m.sparse_coo_tensor(m.tensor([[0, 1]]), m.tensor([1.0, 2.0]), (3,), **k)),
    ("sparse_csr_tensor", lambda m, **k: m.sparse_csr_tensor(m.tensor([0, 1, 2]), m.tensor([1, 0]),
                                                             m.tensor([3.0, 4.0]), **k)),
]


def _raises(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e), str(e)
    return None


@no_gpu
@pytest.mark.parametrize("name,make", FACTORIES, ids=[f[0] for f in FACTORIES])
def test_factory_pin_memory_without_allocator(name, make):
    got = _raises(lambda: make(tl, pin_memory=True))
    # torch's sparse constructors pin their components with pin_memory()
    assert got == (RuntimeError, NO_ACCELERATOR if name.startswith("sparse") else NO_ALLOCATOR)
    if torch is not None:
        assert _raises(lambda: make(torch, pin_memory=True)) == got
    r = make(tl, pin_memory=False)
    assert not r.is_pinned()


@no_gpu
def test_pin_memory_method_without_allocator():
    x = tl.arange(6.).reshape(2, 3)
    assert x.is_pinned() is False
    assert _raises(x.pin_memory) == (RuntimeError, NO_ACCELERATOR)
    s = x.to_sparse()
    assert s.is_pinned() is False and _raises(s.pin_memory) == (RuntimeError, NO_ACCELERATOR)
    with pytest.warns(DeprecationWarning, match=r"The argument 'device' of Tensor.is_pinned\(\) is deprecated"):
        assert x.is_pinned("cuda") is False
    with pytest.warns(DeprecationWarning, match=r"The argument 'device' of Tensor.pin_memory\(\) is deprecated"):
        with pytest.raises(RuntimeError, match="^CPU device type not an accelerator.$"):
            x.pin_memory("cpu")
    # meta: the factories ignore pin_memory=True, the method refuses, as torch's
    m = tl.empty(3, device="meta", pin_memory=True)
    assert m.device.type == "meta" and not m.is_pinned()
    with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
        m.pin_memory()
    if torch is not None:
        assert _raises(torch.ones(2, 3).pin_memory) == (RuntimeError, NO_ACCELERATOR)
        assert torch.empty(3, device="meta", pin_memory=True).device.type == "meta"
        assert "only dense CPU tensors can be pinned" in _raises(torch.empty(3, device="meta").pin_memory)[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            assert _raises(lambda: torch.ones(1).pin_memory("cpu"))[1] == "CPU device type not an accelerator."


def test_record_stream_argument_and_cpu_tensor():
    x = tl.ones(2)
    with pytest.raises(TypeError, match="argument 'stream' must be Stream, not int"):
        x.record_stream(1)
    s = tl.cuda.Stream._wrap(0, 5)
    with pytest.raises(NotImplementedError, match="Could not run 'aten::record_stream' with arguments from the 'CPU'"):
        x.record_stream(s)


def test_to_positional_non_blocking_then_copy():
    # to(dtype, non_blocking, copy) and to(device, dtype, non_blocking, copy): the first
    # positional bool is non_blocking, the second copy
    x = tl.arange(4.)
    assert x.to(x.dtype, True) is x
    assert x.to(x.dtype, False, True) is not x
    assert x.to("cpu", x.dtype, True) is x
    y = x.to("cpu", x.dtype, True, True)
    assert y is not x and tl.equal(y, x)
    assert x.to(x, True) is x and x.to(x, False, True) is not x
    assert x.cuda is not None  # cuda(non_blocking=) is passed through (needs a device to run)
    if torch is not None:
        t = torch.arange(4.)
        assert t.to(t.dtype, True) is t and t.to(t.dtype, False, True) is not t
        assert t.to("cpu", t.dtype, True) is t and t.to("cpu", t.dtype, True, True) is not t


STAND_IN = r"""
import gc, sys, warnings
sys.path.insert(0, 'tests')
import _fake_cuda
_fake_cuda.install()
import tensorlib as tl
L, PINNED = _fake_cuda.LOG, _fake_cuda.PINNED

# pin_memory keeps values, dense strides and names; a pinned tensor pins to itself
x = tl.arange(24.).reshape(2, 3, 4).rename('N', 'C', 'W')
p = x.pin_memory()
assert p.is_pinned() and not x.is_pinned() and p.pin_memory() is p
assert tl.equal(p, x) and p.stride() == x.stride() and p.names == x.names
assert p[1:].is_pinned() and p.t().is_pinned() if p.dim() == 2 else p[1:].is_pinned()
t = tl.arange(12.).reshape(3, 4).t()
pt = t.pin_memory()
assert pt.stride() == t.stride() and tl.equal(pt, t)
nd = tl.arange(20.).reshape(4, 5)[:, ::2]
pn = nd.pin_memory()
assert pn.is_contiguous() and tl.equal(pn, nd) and pn.is_pinned()
for dt in (tl.bool, tl.int8, tl.float16, tl.bfloat16, tl.complex128, tl.float8_e4m3fn):
    v = tl.ones(5, dtype=dt)
    pv = v.pin_memory()
    assert pv.dtype == dt and pv.is_pinned() and tl.equal(pv.float() if dt == tl.float8_e4m3fn else pv,
                                                          v.float() if dt == tl.float8_e4m3fn else v)
e = tl.empty(0).pin_memory()
assert e.is_pinned() and e.numel() == 0

# the factories' pin_memory=True: the same values, in pinned memory
def pair(f):
    tl.manual_seed(3); a = f(False)
    tl.manual_seed(3); b = f(True)
    assert b.is_pinned() and not a.is_pinned() and a.dtype == b.dtype and a.shape == b.shape, f
    if a.layout == tl.strided:
        assert b.stride() == a.stride()
        if f is not EMPTY:
            assert tl.equal(a, b), (a, b)
    else:
        assert tl.equal(a.to_dense(), b.to_dense())
EMPTY = lambda pm: tl.empty(2, 3, pin_memory=pm)
for f in (EMPTY, lambda pm: tl.zeros(2, 3, pin_memory=pm), lambda pm: tl.ones(4, dtype=tl.int32, pin_memory=pm),
          lambda pm: tl.full((2,), 7, pin_memory=pm), lambda pm: tl.tensor([[1.5, 2.0]], pin_memory=pm),
          lambda pm: tl.tensor([[1.5, 2.0]], names=('a', 'b'), pin_memory=pm),
          lambda pm: tl.zeros(2, 3, 4, 5, memory_format=tl.channels_last, pin_memory=pm),
          lambda pm: tl.scalar_tensor(3.0, pin_memory=pm), lambda pm: tl.arange(5, pin_memory=pm),
          lambda pm: tl.linspace(0, 1, 5, pin_memory=pm), lambda pm: tl.logspace(0, 2, 3, pin_memory=pm),
          lambda pm: tl.eye(3, pin_memory=pm), lambda pm: tl.rand(3, pin_memory=pm),
          lambda pm: tl.randn(3, pin_memory=pm), lambda pm: tl.randint(0, 5, (3,), pin_memory=pm),
          lambda pm: tl.randperm(4, pin_memory=pm), lambda pm: tl.normal(0.0, 1.0, (3,), pin_memory=pm),
          lambda pm: tl.zeros_like(x, pin_memory=pm), lambda pm: tl.full_like(t, 5, pin_memory=pm),
          lambda pm: tl.sparse_coo_tensor(tl.tensor([[0, 1]]), tl.tensor([1.0, 2.0]), (3,), pin_memory=pm),
          lambda pm: tl.sparse_csr_tensor(tl.tensor([0, 1, 2]), tl.tensor([1, 0]), tl.tensor([3., 4.]), pin_memory=pm)):
    pair(f)
assert tl.zeros(2, 3, pin_memory=True, names=('a', 'b')).names == ('a', 'b')
try: tl.zeros(2, device='cuda', pin_memory=True)
except RuntimeError as err: print(err)
s = tl.tensor([[0., 2.], [3., 0.]]).to_sparse()
ps = s.pin_memory()
assert ps.is_pinned() and not s.is_pinned() and tl.equal(ps.to_dense(), s.to_dense())
assert ps._indices().is_pinned() and ps._values().is_pinned()
c = s.to_sparse_csr().pin_memory()
assert c.is_pinned() and tl.equal(c.to_dense(), s.to_dense())

# the bytes go back through host_free once nothing uses them
del p, pt, pn, pv, e, ps, c
gc.collect()
assert len(PINNED) == 0, PINNED

# non_blocking: pinned -> device is queued, pageable is copied; device -> host lands pinned
h = tl.arange(6.).pin_memory()
n = len(L); g = h.to('cuda', non_blocking=True)
assert [e[0] for e in L[n:] if e[0].startswith('copy')] == ['copy_async'] and g.is_cuda
n = len(L); g2 = tl.arange(6.).cuda(non_blocking=True)
assert [e[0] for e in L[n:] if e[0].startswith('copy')] == ['copy']
n = len(L); g3 = h.cuda()
assert [e[0] for e in L[n:] if e[0].startswith('copy')] == ['copy']
n = len(L); back = g.to('cpu', non_blocking=True)
assert [e[0] for e in L[n:] if e[0].startswith('copy')] == ['copy_async'] and back.is_pinned()
assert tl.equal(back, tl.arange(6.)) and not g.cpu().is_pinned()
gt = tl.arange(12.).reshape(3, 4).t().cuda()
bt = gt.to('cpu', non_blocking=True)
assert bt.is_pinned() and bt.stride() == gt.stride() and tl.equal(bt, tl.arange(12.).reshape(3, 4).t())
try: g.pin_memory()
except RuntimeError as err: print(err)

# resize_ keeps a pinned storage pinned; share_memory_ moves it to shared memory
r = tl.arange(4.).pin_memory()
r.resize_(10)
assert r.is_pinned() and r[:4].tolist() == [0., 1., 2., 3.]
q = tl.ones(3).pin_memory()
n = len(L); q.share_memory_()
assert q.is_shared() and not q.is_pinned() and q.tolist() == [1., 1., 1.] and ('host_free',) in L[n:]

# record_stream hands the block and the stream to the backend
S = tl.cuda.Stream._wrap(0, 77)
g.record_stream(S)
assert L[-1][0] == 'record_stream' and L[-1][2] == 77
print('ok')
"""


@no_gpu
def test_pinned_memory_on_a_stand_in_backend():
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(STAND_IN)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().split("\n") == [
        "Only dense CPU tensors can be pinned",
        "cannot pin 'tensorlib.cuda.FloatTensor' only dense CPU tensors can be pinned",
        "ok"]


def test_dlpack_stream_argument_and_meta_like_torch():
    x, m = tl.ones(2), tl.empty(2, device="meta")
    cases = [lambda lib, a: a.__dlpack__(stream=1.5), lambda lib, a: a.__dlpack__(stream=True),
             lambda lib, a: a.__dlpack__(stream=1), lambda lib, a: a.__dlpack__(stream=-1) is not None,
             lambda lib, a: a.__dlpack__(stream=None) is not None]
    want = [(TypeError, "stream must be ``int`` or ``none``"), (TypeError, "stream must be ``int`` or ``none``"),
            (AssertionError, "stream should be None on cpu."), None, None]
    assert [_raises(lambda: f(tl, x)) for f in cases] == want
    assert _raises(m.__dlpack_device__) == (ValueError, "Unknown device type meta for Dlpack")
    assert _raises(m.__dlpack__) == (BufferError, "Cannot pack tensors on meta")
    assert _raises(lambda: tl.from_dlpack(m)) == (ValueError, "Unknown device type meta for Dlpack")
    if torch is not None:
        t, tm = torch.ones(2), torch.empty(2, device="meta")
        assert [_raises(lambda: f(torch, t)) for f in cases] == want
        assert _raises(tm.__dlpack_device__) == _raises(m.__dlpack_device__)
        assert _raises(tm.__dlpack__) == _raises(m.__dlpack__)
        assert _raises(lambda: torch.from_dlpack(tm)) == _raises(lambda: tl.from_dlpack(m))


DLPACK_STAND_IN = r"""
import sys
sys.path.insert(0, 'tests')
import _fake_cuda
_fake_cuda.install()
import tensorlib as tl
L, Streams = _fake_cuda.LOG, _fake_cuda.Streams
sync = lambda n: [e for e in L[n:] if e[0].startswith(('event', 'stream'))]

g = tl.arange(12.).reshape(3, 4).t().cuda()
assert g.__dlpack_device__() == (2, 0)
# a capsule of device memory comes back as a CUDA tensor over the same memory, strides kept
h = tl.from_dlpack(g.__dlpack__(stream=-1))
assert h.is_cuda and h.data_ptr() == g.data_ptr() and h.stride() == g.stride() and tl.equal(h.cpu(), g.cpu())
v = tl.from_dlpack(g.__dlpack__(stream=-1, max_version=(1, 0)))
assert v.is_cuda and tl.equal(v.cpu(), g.cpu())
del h, v

class Producer:  # records the stream a consumer names
    def __init__(self, t): self.t, self.seen = t, []
    def __dlpack_device__(self): return self.t.__dlpack_device__()
    def __dlpack__(self, stream=None, max_version=None):
        self.seen.append(stream)
        return self.t.__dlpack__(stream=-1, max_version=max_version)
p = Producer(g)
tl.from_dlpack(p)                     # the legacy default stream is named 1
Streams.CURRENT = 55
tl.from_dlpack(p)                     # another current stream: its handle
assert p.seen == [1, 55], p.seen
c = Producer(tl.ones(2))
tl.from_dlpack(c)                     # a CPU producer is asked without a stream
assert c.seen == [None], c.seen

# the producer makes the consumer's stream wait for its current one, unless they are the same
n = len(L); g.__dlpack__(stream=77)
assert sync(n) == [('event_create', 0), ('event_record', 1001, 55), ('stream_wait_event', 77, 1001),
                   ('event_destroy', 1001)], sync(n)
n = len(L); g.__dlpack__(stream=55); g.__dlpack__(); g.__dlpack__(stream=-1)
assert sync(n) == []
Streams.CURRENT = 0
n = len(L); g.__dlpack__(stream=1)    # 1 is the legacy default stream, the current one here
assert sync(n) == []
print('ok')
"""


@no_gpu
def test_dlpack_of_cuda_tensors_on_a_stand_in_backend():
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(DLPACK_STAND_IN)], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


@pytest.mark.skipif(not tl.cuda.is_available(), reason="needs a CUDA device")
def test_pinned_memory_on_a_device():
    """The same route on a real device (scripts/gpu_check.sh runs it where a GPU is lent)."""
    x = tl.arange(1 << 20, dtype=tl.float32).reshape(1024, 1024)
    p = x.pin_memory()
    assert p.is_pinned() and tl.equal(p, x) and p.pin_memory() is p
    assert tl.zeros(8, pin_memory=True).is_pinned()
    s = tl.cuda.Stream()
    with tl.cuda.stream(s):
        g = p.to("cuda", non_blocking=True)
        back = g.to("cpu", non_blocking=True)
        g.record_stream(s)
    s.synchronize()
    assert back.is_pinned() and tl.equal(back, x)
    before = tl.cuda.memory_allocated()
    del g
    tl.cuda.synchronize()
    assert tl.cuda.memory_allocated() < before
    assert tl.equal(tl.ones(3, device="cuda").cpu(), tl.ones(3))
    # DLPack round trip of device memory on a side stream
    with tl.cuda.stream(s):
        d = tl.arange(10., device="cuda")
        e = tl.from_dlpack(d)
    assert e.is_cuda and e.data_ptr() == d.data_ptr() and tl.equal(e.cpu(), tl.arange(10.))
