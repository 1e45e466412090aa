"""tl.device (seed 002): the string, type+index and ordinal forms, equality, hashing,
repr/str, the context manager and set_default_device, bad device strings raising like
torch, and a clear RuntimeError for CUDA tensors when no CUDA backend is loaded."""
import copy
import pickle

import pytest

import tensorlib as tl
from conftest import assert_same_outcome

torch = pytest.importorskip("torch")

GOOD = [("cpu",), ("cuda",), ("cuda:0",), ("cuda:1",), ("cuda", 0), ("cuda", 3), ("cpu", 0), ("meta",),
        ("mps",), ("mps", 0), ("xpu:2",), ("cuda:12",), ("hip",), ("privateuseone",), ("cpu:1",), ("cpu", 1)]
BAD_STRINGS = ["cuda:", "cuda:-1", "foo", "cpu:0:1", "cuda:01", " cpu", "CPU", "cuda: 1", "", "cuda:1a",
               "cuda:0 ", "gpu", "cuda::0", ":0", "cuda:+1", "cuda:1.0"]


def _dev_eq(a, b):
    assert repr(a) == repr(b)
    assert str(a) == str(b)
    assert a.type == b.type
    assert a.index == b.index


@pytest.mark.parametrize("args", GOOD, ids=str)
def test_device_forms(args):
    assert_same_outcome(lambda: tl.device(*args), lambda: torch.device(*args), compare=_dev_eq)


@pytest.mark.parametrize("args", [{"type": "cuda", "index": 2}, {"type": "cpu"}, {"type": "cuda:1"}], ids=str)
def test_device_keywords(args):
    assert_same_outcome(lambda: tl.device(**args), lambda: torch.device(**args), compare=_dev_eq)


@pytest.mark.parametrize("bad", BAD_STRINGS)
def test_bad_device_strings_raise_like_torch(bad):
    assert_same_outcome(lambda: tl.device(bad), lambda: torch.device(bad))


@pytest.mark.parametrize("bad", ["", "cuda:01", "cpu:0:1", "cuda:-1", "cuda:"])
def test_bad_device_string_messages(bad):
    assert_same_outcome(lambda: tl.device(bad), lambda: torch.device(bad), message=True)


@pytest.mark.parametrize("args", [("cuda", -1), ("cuda", -2), ("cuda:0", 1), (1.5,), (None,), ("cpu", "x"),
                                  ("cuda", True), (), ("cuda", 0, 1), ([0],)], ids=str)
def test_bad_device_arguments(args):
    assert_same_outcome(lambda: tl.device(*args), lambda: torch.device(*args))


def test_ordinal_without_accelerator():
    if torch.accelerator.is_available():  # pragma: no cover
        pytest.skip("an accelerator is present")
    for i in (0, 1):
        assert_same_outcome(lambda: tl.device(i), lambda: torch.device(i), message=True)
    assert_same_outcome(lambda: tl.device(-1), lambda: torch.device(-1))


def test_device_from_device():
    d = tl.device("cuda:3")
    _dev_eq(tl.device(d), torch.device(torch.device("cuda:3")))
    assert tl.device(d) == d


def test_equality_and_hash():
    pairs = [("cpu", "cpu"), ("cuda", "cuda:0"), ("cuda:0", "cuda:0"), ("cuda:0", "cuda:1"), ("cpu", "cpu:0"),
             ("cuda", "cpu"), ("meta", "meta")]
    for a, b in pairs:
        assert (tl.device(a) == tl.device(b)) == (torch.device(a) == torch.device(b)), (a, b)
        assert (tl.device(a) != tl.device(b)) == (torch.device(a) != torch.device(b)), (a, b)
        if tl.device(a) == tl.device(b):
            assert hash(tl.device(a)) == hash(tl.device(b))
    assert (tl.device("cpu") == "cpu") == (torch.device("cpu") == "cpu")
    s = {tl.device("cpu"), tl.device("cpu"), tl.device("cuda", 0), tl.device("cuda:0")}
    assert len(s) == 2


def test_device_pickle_copy():
    for s in ("cpu", "cuda:1", "meta"):
        d = tl.device(s)
        assert pickle.loads(pickle.dumps(d)) == d
        assert copy.deepcopy(d) == d


def test_device_attributes_readonly():
    d = tl.device("cuda:0")
    with pytest.raises(AttributeError):
        d.index = 3
    with pytest.raises(AttributeError):
        d.type = "cpu"


def test_tensor_device_and_strings_accepted():
    for dev in ("cpu", tl.device("cpu"), "cpu:0", tl.device("cpu", 0)):
        x = tl.zeros(2, device=dev)
        t = torch.zeros(2, device=dev if isinstance(dev, str) else str(dev))
        _dev_eq(x.device, t.device)
        assert x.device == tl.device("cpu")
        assert x.to(dev).device == x.device
    x = tl.tensor([1.0], device="cpu")
    assert x.device.type == "cpu" and x.device.index is None


def _raises_cuda_unusable():
    """torch's error for using CUDA where it cannot be used: a CUDA build without a driver or
    device raises RuntimeError, a CPU-only build AssertionError."""
    if tl.cuda.is_built():
        return pytest.raises(RuntimeError, match="Found no NVIDIA driver|No CUDA GPUs are available")
    return pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled")


@pytest.mark.parametrize("make", [
    lambda dev: tl.zeros(2, device=dev),
    lambda dev: tl.empty(2, device=dev),
    lambda dev: tl.ones(2, device=dev),
    lambda dev: tl.full((2,), 1.0, device=dev),
    lambda dev: tl.tensor([1.0], device=dev),
    lambda dev: tl.arange(3, device=dev),
    lambda dev: tl.zeros(2).to(dev),
])
def test_cuda_tensor_creation_raises_clearly(make):
    if tl.cuda.is_available():  # pragma: no cover - exercised where a GPU is present
        pytest.skip("CUDA backend available")
    for dev in ("cuda", "cuda:0", tl.device("cuda", 1)):
        with _raises_cuda_unusable():
            make(dev)


def test_cuda_method_raises_clearly():
    try:
        import tensorlib.cuda as tlcuda  # noqa: F401
        if tlcuda.is_available():  # pragma: no cover
            pytest.skip("CUDA backend available")
    except ImportError:
        pass
    with _raises_cuda_unusable():
        tl.zeros(2).cuda()


def test_device_context_manager_sets_default():
    # A context manager on 'cpu' must restore the default afterwards and leave explicit devices alone.
    with tl.device("cpu"):
        assert tl.zeros(2).device == tl.device("cpu")
        assert tl.get_default_device() == tl.device("cpu")
    assert tl.get_default_device() == tl.device("cpu")
    d = tl.device("cuda:1")
    with d:
        assert tl.get_default_device() == tl.device("cuda:1")
        with _raises_cuda_unusable():
            tl.zeros(2)
        # an explicit device wins over the context
        assert tl.zeros(2, device="cpu").device == tl.device("cpu")
    assert tl.get_default_device() == tl.device("cpu")
    assert tl.zeros(2).device == tl.device("cpu")


def test_device_context_manager_restores_on_error():
    with pytest.raises(ZeroDivisionError):
        with tl.device("cuda:0"):
            1 / 0
    assert tl.get_default_device() == tl.device("cpu")
    assert tl.zeros(1).device.type == "cpu"


def test_device_context_nested():
    with tl.device("meta"):
        with tl.device("cuda:2"):
            assert tl.get_default_device() == tl.device("cuda:2")
        assert tl.get_default_device() == tl.device("meta")
    assert tl.get_default_device() == tl.device("cpu")


def test_set_default_device():
    try:
        tl.set_default_device("cuda:1")
        assert tl.get_default_device() == tl.device("cuda:1")
        with _raises_cuda_unusable():
            tl.ones(3)
        assert tl.ones(3, device="cpu").device.type == "cpu"
        tl.set_default_device(tl.device("cpu"))
        assert tl.ones(3).device.type == "cpu"
        tl.set_default_device(None)
        assert tl.get_default_device() == tl.device("cpu")
    finally:
        tl.set_default_device(None)
    assert tl.zeros(1).device.type == "cpu"


def test_set_default_device_bad_string():
    assert_same_outcome(lambda: tl.set_default_device("nope"), lambda: torch.set_default_device("nope"))
    assert tl.get_default_device() == tl.device("cpu")
