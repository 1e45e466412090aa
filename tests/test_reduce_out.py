"""out= of reductions and scans against torch 2.13: which out dtypes are accepted (out's
dtype as the accumulation dtype for sum-like ops, casts for mean-like ops, exact dtypes for
(values, indices) results, amax/amin/argmax/all/logsumexp rules), the resize warning,
names (seed 003's out semantics) and that a refused out= is left untouched."""
import warnings

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")


def base(L):
    return L.arange(6.0).reshape(2, 3) / 4


CASES = {
    "sum_int_out": lambda L, x: L.sum(x, 1, out=L.empty(2, dtype=L.int64)),
    "sum_f64_out": lambda L, x: L.sum(x, 1, out=L.empty(2, dtype=L.float64)),
    "sum_int_input_float_out": lambda L, x: L.sum((x * 4).long(), 1, out=L.empty(2)),
    "sum_dtype_and_out_differ": lambda L, x: L.sum(x, 1, dtype=L.float64, out=L.empty(2)),
    "sum_dtype_and_out_agree": lambda L, x: L.sum(x, 1, dtype=L.float64, out=L.empty(2, dtype=L.float64)),
    "prod_int_out": lambda L, x: L.prod(x + 1, 1, out=L.empty(2, dtype=L.int64)),
    "cumsum_int_out": lambda L, x: L.cumsum(x, 1, out=L.empty(2, 3, dtype=L.int64)),
    "cumprod_f64_out": lambda L, x: L.cumprod(x, 0, out=L.empty(2, 3, dtype=L.float64)),
    "mean_int_out": lambda L, x: L.mean(x, 1, out=L.empty(2, dtype=L.int64)),
    "mean_f64_out": lambda L, x: L.mean(x, 1, out=L.empty(2, dtype=L.float64)),
    "std_f64_out": lambda L, x: L.std(x, 1, out=L.empty(2, dtype=L.float64)),
    "var_int_out": lambda L, x: L.var(x, 1, out=L.empty(2, dtype=L.int64)),
    "amax_f64_out": lambda L, x: L.amax(x, 1, out=L.empty(2, dtype=L.float64)),
    "amin_same_out": lambda L, x: L.amin(x, 1, out=L.empty(2)),
    "argmax_int32_out": lambda L, x: L.argmax(x, 1, out=L.empty(2, dtype=L.int32)),
    "argmin_long_out": lambda L, x: L.argmin(x, 0, out=L.empty(3, dtype=L.int64)),
    "max_all_f64_out": lambda L, x: L.max(x, out=L.empty((), dtype=L.float64)),
    "max_dim_out": lambda L, x: L.max(x, 1, out=(L.empty(2), L.empty(2, dtype=L.int64))),
    "max_dim_int32_indices": lambda L, x: L.max(x, 1, out=(L.empty(2), L.empty(2, dtype=L.int32))),
    "max_dim_f64_values": lambda L, x: L.max(x, 1, out=(L.empty(2, dtype=L.float64), L.empty(2, dtype=L.int64))),
    "aminmax_f64": lambda L, x: L.aminmax(x, dim=1, out=(L.empty(2), L.empty(2, dtype=L.float64))),
    "topk_f64_values": lambda L, x: L.topk(x, 1, out=(L.empty(2, 1, dtype=L.float64), L.empty(2, 1, dtype=L.int64))),
    "all_float_out": lambda L, x: L.all(x, 1, out=L.empty(2)),
    "all_uint8_in_uint8_out": lambda L, x: L.all((x * 4).to(L.uint8), 1, out=L.empty(2, dtype=L.uint8)),
    "any_uint8_input_bool_out": lambda L, x: L.any((x * 4).to(L.uint8), 1, out=L.empty(2, dtype=L.bool)),
    "logsumexp_int_out": lambda L, x: L.logsumexp(x, 1, out=L.empty(2, dtype=L.int64)),
    "logsumexp_f64_out": lambda L, x: L.logsumexp(x, 1, out=L.empty(2, dtype=L.float64)),
    "norm_int_out": lambda L, x: L.norm(x, dim=1, out=L.empty(2, dtype=L.int64)),
    "sort_out": lambda L, x: L.sort(x, 1, out=(L.empty(2, 3), L.empty(2, 3, dtype=L.int64))),
    "median_all_out": lambda L, x: L.median(x, out=L.empty((), dtype=L.float64)),
    "nanmedian_all_out": lambda L, x: L.nanmedian(x, out=L.empty(())),
}


def _outcome(f, L):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f(L, base(L))
        except Exception as e:  # noqa: BLE001 - the exception type is what is compared
            return "raise", type(e), None, len(w)
    vals = [t.double().numpy() if t.dtype != getattr(L, "bool") else t.numpy() for t in
            (r if isinstance(r, tuple) else (r,))]
    dts = [str(t.dtype).split(".")[-1] for t in (r if isinstance(r, tuple) else (r,))]
    return "ok", dts, vals, len(w)


@pytest.mark.parametrize("case", list(CASES))
def test_out_rules_match_torch(case):
    kt, a, b, wt = _outcome(CASES[case], torch)
    kx, c, d, wx = _outcome(CASES[case], tl)
    assert kx == kt, (kx, c, kt, a)
    assert wx == wt
    if kt == "raise":
        assert issubclass(c, a) or issubclass(a, c), (c, a)
        return
    assert c == a
    for u, v in zip(d, b):
        np.testing.assert_allclose(u, v, rtol=1e-6)


@pytest.mark.parametrize("shape", [(5,), (0,), (2,), (1, 2)])
def test_resize_and_warning(shape):
    x, t = base(tl), base(torch)
    o, p = tl.empty(shape), torch.empty(shape)
    with warnings.catch_warnings(record=True) as wx:
        warnings.simplefilter("always")
        r = tl.sum(x, 1, out=o)
    with warnings.catch_warnings(record=True) as wt:
        warnings.simplefilter("always")
        torch.sum(t, 1, out=p)
    assert r is o and tuple(o.shape) == tuple(p.shape)
    assert [str(w.message) for w in wx] == [str(w.message).split(" (Triggered")[0] for w in wt]
    np.testing.assert_allclose(o.numpy(), p.numpy())


def test_refused_out_is_untouched():
    o = tl.full((2,), 7, dtype=tl.int64)
    with pytest.raises(RuntimeError, match="can't be cast"):
        tl.mean(base(tl), 1, out=o)
    assert o.tolist() == [7, 7]


def test_out_names():
    x = tl.ones(2, 3, names=("N", "C"))
    o = tl.empty(3)
    tl.sum(x, "N", out=o)
    assert o.names == ("C",)
    bad = tl.empty(3, names=("D",))
    with pytest.raises(RuntimeError, match="Name mismatch"):
        tl.sum(x, "N", out=bad)


PAIR_OPS = {"median": (1,), "nanmedian": (1,), "kthvalue": (1, 1), "cummax": (1,), "cummin": (1,), "mode": (1,),
            "sort": (1,), "topk": (1, 1), "max": (1,), "min": (1,)}


@pytest.mark.parametrize("op", list(PAIR_OPS))
@pytest.mark.parametrize("dts", [("int32", "int64"), ("float32", "int32"), ("float16", "int16"),
                                 ("float64", "int64"), ("float32", "int64")])
def test_pair_out_dtype_messages(op, dts):
    """(values, indices) out= dtype errors in each torch kernel's words (legacy type names with
    tensorlib. for torch.), checked before either output is written or resized."""
    msgs, outs = [], []
    for L in (torch, tl):
        o = (L.full((2,), 7.0, dtype=getattr(L, dts[0])), L.full((2,), 7, dtype=getattr(L, dts[1])))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(L, op)(base(L), *PAIR_OPS[op], out=o)
            msgs.append(None)
        except RuntimeError as e:
            msgs.append(str(e).replace("torch.", "tensorlib."))
        outs.append(o)
    assert msgs[1] == msgs[0]
    if msgs[1] is not None:
        assert [t.tolist() for t in outs[1]] == [[7, 7], [7, 7]]  # untouched


def test_legacy_type_strings():
    for name in ("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32", "int64", "bool",
                 "complex64", "complex128", "uint16", "uint32", "uint64", "float8_e5m2", "float8_e4m3fn"):
        want = torch.empty(1, dtype=getattr(torch, name)).type().replace("torch.", "tensorlib.")
        x = tl.empty(1, dtype=getattr(tl, name))
        assert x.type() == want
        assert x.type(want).dtype == x.dtype


@pytest.mark.parametrize("dt", ["int32", "float32", "float16", "int8", "bool"])
@pytest.mark.parametrize("op", ["cumsum_", "cumprod_"])
def test_inplace_scans(op, dt):
    """cumsum_/cumprod_ accumulate in self's dtype (torch's out= rule for self) and keep names."""
    vals = [[1, 2, 3], [0, 1, 2]]
    results = []
    for L in (torch, tl):
        x = L.tensor(vals, dtype=getattr(L, dt))
        try:
            r = getattr(x, op)(1)
            results.append((r is x, str(x.dtype).split(".")[-1], x.to(L.float64).tolist()))
        except (RuntimeError, NotImplementedError) as e:
            results.append((type(e).__name__, str(e)))
    assert results[0] == results[1]
    x = tl.ones(2, 3, names=("N", "C"))
    assert getattr(x, op)("C").names == ("N", "C")
    with pytest.raises(RuntimeError, match="Bad in-place call"):
        getattr(tl.ones(2), op)(0, dtype=tl.float64)


@pytest.mark.parametrize("case", ["sum_dtype_bool", "prod_dtype_bool", "prod_bool_in_bool_out", "sum_int_in_bool_out",
                                  "sum_bool_in_bool_out", "sum_bool_in_uint8_out"])
def test_scan_bool_accumulation(case):
    """torch refuses to accumulate scans in bool (dtype=bool or a bool out), whatever the input."""
    f = {"sum_dtype_bool": lambda L: L.cumsum(L.tensor([1, 2]), 0, dtype=L.bool),
         "prod_dtype_bool": lambda L: L.cumprod(L.tensor([True]), 0, dtype=L.bool),
         "prod_bool_in_bool_out": lambda L: L.cumprod(L.tensor([True]), 0, out=L.empty(1, dtype=L.bool)),
         "sum_int_in_bool_out": lambda L: L.cumsum(L.tensor([1, 2]), 0, out=L.empty(2, dtype=L.bool)),
         "sum_bool_in_bool_out": lambda L: L.cumsum(L.tensor([[True, False, True], [False, False, True]]), 1,
                                                    out=L.empty(2, 3, dtype=L.bool)),
         "sum_bool_in_uint8_out": lambda L: L.cumsum(L.tensor([True, True]), 0, out=L.empty(2, dtype=L.uint8))}[case]
    got = []
    for L in (torch, tl):
        try:
            got.append(f(L).tolist())
        except NotImplementedError as e:
            got.append(str(e))
    assert got[0] == got[1]


def test_adjoint():
    z = [[1 + 2j, 3], [4j, 5]]
    for shape in [(2, 3), (4, 2, 3)]:
        x = tl.ones(*shape)
        assert tuple(tl.adjoint(x).shape) == tuple(torch.adjoint(torch.ones(*shape)).shape)
    assert tl.tensor(z).adjoint().tolist() == torch.tensor(z).adjoint().tolist()
    for f in (lambda L: L.ones(3).adjoint(), lambda L: L.ones(3).mH):
        with pytest.raises(RuntimeError) as a:
            f(tl)
        with pytest.raises(RuntimeError) as b:
            f(torch)
        assert str(a.value) == str(b.value)
