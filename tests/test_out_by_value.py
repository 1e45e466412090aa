"""out= of the joining and indexing ops computed by value (cat/stack/hstack, index_select,
gather, nonzero, tril/triu/diag, masked_select) against torch 2.13: which out dtypes are
accepted (cat casts when torch's can_cast allows, the others need the exact dtype), each
kernel's error words, the resize warning, and names under seed 003's out semantics."""
import warnings

import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

CASES = {
    "cat_int_out": lambda L: L.cat([L.ones(2), L.ones(2)], out=L.empty(4, dtype=L.int64)),
    "cat_f64_out": lambda L: L.cat([L.ones(2), L.ones(2)], out=L.empty(4, dtype=L.float64)),
    "cat_int_in_float_out": lambda L: L.cat([L.ones(2, dtype=L.int64)], out=L.empty(2)),
    "cat_bool_out": lambda L: L.cat([L.ones(2, dtype=L.int64)], out=L.empty(2, dtype=L.bool)),
    "stack_f64": lambda L: L.stack([L.ones(2), L.ones(2)], out=L.empty(2, 2, dtype=L.float64)),
    "stack_int": lambda L: L.stack([L.ones(2), L.ones(2)], out=L.empty(2, 2, dtype=L.int64)),
    "hstack_int": lambda L: L.hstack([L.ones(2), L.ones(2)], out=L.empty(4, dtype=L.int64)),
    "vstack_f64": lambda L: L.vstack([L.ones(2), L.ones(2)], out=L.empty(2, 2, dtype=L.float64)),
    "index_select_f64": lambda L: L.index_select(L.ones(3), 0, L.tensor([0, 1]), out=L.empty(2, dtype=L.float64)),
    "index_select_ok": lambda L: L.index_select(L.ones(3), 0, L.tensor([0, 1]), out=L.empty(2)),
    "gather_f64": lambda L: L.gather(L.ones(3), 0, L.tensor([0, 1]), out=L.empty(2, dtype=L.float64)),
    "nonzero_int32": lambda L: L.nonzero(L.ones(3), out=L.empty(3, 1, dtype=L.int32)),
    "nonzero_ok": lambda L: L.nonzero(L.ones(3), out=L.empty(3, 1, dtype=L.int64)),
    "tril_f64": lambda L: L.tril(L.ones(2, 2), out=L.empty(2, 2, dtype=L.float64)),
    "triu_int": lambda L: L.triu(L.ones(2, 2), out=L.empty(2, 2, dtype=L.int64)),
    "diag_f64": lambda L: L.diag(L.ones(2), out=L.empty(2, 2, dtype=L.float64)),
    "cat_resize": lambda L: L.cat([L.ones(2)], out=L.empty(5)),
    "cat_empty_out": lambda L: L.cat([L.ones(2)], out=L.empty(0)),
    "masked_select_ok": lambda L: L.masked_select(L.ones(2), L.tensor([True, False]), out=L.empty(0)),
    "masked_select_bad": lambda L: L.masked_select(L.ones(2), L.tensor([True, False]), out=L.empty(0, dtype=L.int64)),
    "masked_select_resize": lambda L: L.masked_select(L.ones(2), L.tensor([True, False]), out=L.empty(3)),
}


def _outcome(f, L):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f(L)
        except Exception as e:  # noqa: BLE001 - type and words are compared
            return type(e).__name__, str(e).replace("torch.", "tensorlib."), len(w)
    return "ok", str(r.dtype).split(".")[-1], r.tolist(), len(w)


@pytest.mark.parametrize("case", list(CASES))
def test_out_matches_torch(case):
    assert _outcome(CASES[case], tl) == _outcome(CASES[case], torch)


def test_refused_out_untouched_and_names():
    o = tl.full((4,), 7, dtype=tl.int64)
    with pytest.raises(TypeError):
        tl.cat([tl.ones(2), tl.ones(2)], out=o)
    assert o.tolist() == [7, 7, 7, 7]
    x = tl.ones(2, 3, names=("N", "C"))
    o = tl.empty(4, 3)
    assert tl.cat([x, x], out=o).names == ("N", "C")
    with pytest.raises(RuntimeError, match="Name mismatch"):
        tl.cat([x, x], out=tl.empty(4, 3, names=("A", "C")))
