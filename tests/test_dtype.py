"""The 22 dtypes of seed 002: singletons, torch's aliases and repr, the attribute
predicates (equal to torch's), get/set_default_dtype and their effect on factories and
on tl.tensor's inference."""
import copy
import pickle

import pytest

import tensorlib as tl
from conftest import ALL_DTYPE_NAMES, SHELL_DTYPE_NAMES, assert_same_outcome, tl_dtype, torch_dtype

torch = pytest.importorskip("torch")

ALIASES = {"float": "float32", "double": "float64", "half": "float16", "cfloat": "complex64",
           "cdouble": "complex128", "chalf": "complex32", "short": "int16", "int": "int32", "long": "int64"}


def test_there_are_22_dtypes():
    assert len(ALL_DTYPE_NAMES) == 22
    objs = {id(tl_dtype(n)) for n in ALL_DTYPE_NAMES}
    assert len(objs) == 22
    for n in ALL_DTYPE_NAMES:
        assert isinstance(tl_dtype(n), tl.dtype)


@pytest.mark.parametrize("alias,name", sorted(ALIASES.items()))
def test_aliases_are_the_same_object(alias, name):
    assert getattr(tl, alias) is getattr(tl, name)
    assert getattr(torch, alias) is getattr(torch, name)


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_repr_str(name):
    d, t = tl_dtype(name), torch_dtype(name)
    assert repr(d) == repr(t).replace("torch.", "tensorlib.")
    assert str(d) == str(t).replace("torch.", "tensorlib.")


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_predicates_match_torch(name):
    d, t = tl_dtype(name), torch_dtype(name)
    assert d.is_floating_point == t.is_floating_point
    assert d.is_complex == t.is_complex
    assert d.is_signed == t.is_signed
    assert d.itemsize == t.itemsize


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_to_complex_to_real(name):
    d, t = tl_dtype(name), torch_dtype(name)
    for f in ("to_complex", "to_real"):
        assert_same_outcome(lambda: str(getattr(d, f)()).split(".")[-1],
                            lambda: str(getattr(t, f)()).split(".")[-1])


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_tensor_predicates_match_torch(name):
    x = tl.empty(2, dtype=tl_dtype(name))
    t = torch.empty(2, dtype=torch_dtype(name))
    assert x.is_floating_point() == t.is_floating_point()
    assert x.is_complex() == t.is_complex()
    assert x.is_signed() == t.is_signed()
    assert tl.is_floating_point(x) == torch.is_floating_point(t)
    assert tl.is_complex(x) == torch.is_complex(t)


def test_shell_dtypes_flagged():
    for n in ALL_DTYPE_NAMES:
        assert tl_dtype(n)._is_shell == (n in SHELL_DTYPE_NAMES), n


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_dtype_hash_eq_pickle_copy(name):
    d = tl_dtype(name)
    assert d == d and hash(d) == hash(d)
    assert {d: 1}[getattr(tl, name)] == 1
    assert pickle.loads(pickle.dumps(d)) is d
    assert copy.copy(d) is d and copy.deepcopy(d) is d
    others = [tl_dtype(n) for n in ALL_DTYPE_NAMES if n != name]
    assert all(d != o for o in others)


def test_dtype_not_constructible():
    with pytest.raises(TypeError):
        tl.dtype()


def test_dtype_compare_with_other_types():
    assert tl.float32 != "float32"
    assert tl.float32 != torch.float32
    assert (tl.float32 == 1) is False


@pytest.mark.parametrize("name", ["float32", "float64"])
def test_set_default_dtype_effects(name):
    old = tl.get_default_dtype()
    assert old == tl.float32 == tl_dtype(str(torch.get_default_dtype()).split(".")[-1])
    tl.set_default_dtype(tl_dtype(name))
    torch_old = torch.get_default_dtype()
    torch.set_default_dtype(torch_dtype(name))
    try:
        assert tl.get_default_dtype() is tl_dtype(name)
        pairs = [
            (tl.zeros(2), torch.zeros(2)),
            (tl.ones(2), torch.ones(2)),
            (tl.empty(2), torch.empty(2)),
            (tl.full((2,), 1.5), torch.full((2,), 1.5)),
            (tl.full((2,), 1), torch.full((2,), 1)),
            (tl.tensor(1.5), torch.tensor(1.5)),
            (tl.tensor([1, 2.5]), torch.tensor([1, 2.5])),
            (tl.tensor([1, 2]), torch.tensor([1, 2])),
            (tl.tensor(1j), torch.tensor(1j)),
            (tl.tensor([1, 2j]), torch.tensor([1, 2j])),
            (tl.tensor([True, 1.0]), torch.tensor([True, 1.0])),
            (tl.arange(3), torch.arange(3)),
            (tl.arange(3.0), torch.arange(3.0)),
            (tl.linspace(0, 1, 3), torch.linspace(0, 1, 3)),
            (tl.eye(2), torch.eye(2)),
            (tl.scalar_tensor(1), torch.scalar_tensor(1)),
        ]
        for i, (a, b) in enumerate(pairs):
            assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1], i
    finally:
        tl.set_default_dtype(old)
        torch.set_default_dtype(torch_old)
    assert tl.get_default_dtype() is tl.float32


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_set_default_dtype_rejects_like_torch(name):
    torch_old = torch.get_default_dtype()
    try:
        assert_same_outcome(lambda: tl.set_default_dtype(tl_dtype(name)),
                            lambda: torch.set_default_dtype(torch_dtype(name)))
    finally:
        tl.set_default_dtype(tl.float32)
        torch.set_default_dtype(torch_old)


def test_set_default_dtype_wrong_type():
    for bad in ("float64", 3, None, float):
        assert_same_outcome(lambda: tl.set_default_dtype(bad), lambda: torch.set_default_dtype(bad))
    assert tl.get_default_dtype() is tl.float32


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_factories_accept_every_dtype(name):
    d = tl_dtype(name)
    for x in (tl.empty(2, 3, dtype=d), tl.zeros(2, 3, dtype=d), tl.empty_strided((2, 3), (1, 2), dtype=d)):
        assert x.dtype is d
        assert x.shape == (2, 3)
    z = tl.zeros(4, dtype=d)
    raw = z.view(tl.uint8)
    assert raw.tolist() == [0] * raw.numel()
