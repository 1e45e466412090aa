"""tl.save / tl.load: every dtype bit for bit, views sharing storage, names, containers;
corrupt and foreign files raise RuntimeError, nothing in a file is executed."""
import collections
import io
import json
import math
import pickle
import zipfile

import numpy as np
import pytest

import tensorlib as tl

DTYPES = sorted({d for d in vars(tl).values() if isinstance(d, tl.dtype)}, key=str)


def _roundtrip(obj):
    buf = io.BytesIO()
    tl.save(obj, buf)
    buf.seek(0)
    return tl.load(buf)


def _bits(t):
    return bytes(memoryview(t.contiguous().view(tl.uint8).reshape(-1))) if t.numel() else b""


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype_bit_for_bit(dtype):
    raw = np.random.default_rng(1).integers(0, 256, 48, dtype=np.uint8)
    src = tl.from_numpy(raw).view(dtype)
    src = src.reshape(2, -1) if src.numel() % 2 == 0 else src
    got = _roundtrip(src)
    assert got.dtype == dtype and got.shape == src.shape and got.stride() == src.stride()
    assert _bits(got) == _bits(src)


def test_views_share_storage_after_load():
    x = tl.arange(24.).reshape(4, 6)
    obj = {"x": x, "t": x.t(), "s": x[1:, ::2], "i": x.view(tl.int32), "d": x.diagonal()}
    r = _roundtrip(obj)
    for k, v in obj.items():
        assert r[k].stride() == v.stride() and r[k].storage_offset() == v.storage_offset()
        assert _bits(r[k]) == _bits(v)
    r["x"][1, 2] = -1.0
    assert r["t"][2, 1].item() == -1.0 and r["s"][0, 1].item() == -1.0
    assert r["i"][1, 2].item() == int(np.float32(-1.0).view(np.int32))
    assert r["x"]._storage_ptr() == r["i"]._storage_ptr()


def test_only_the_viewed_storage_is_written_once():
    x = tl.zeros(1000)
    buf = io.BytesIO()
    tl.save([x, x[10:20], x[::3]], buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        assert [n for n in z.namelist() if n.startswith("storages/")] == ["storages/0"]


def test_names_and_plain_values():
    obj = collections.OrderedDict(
        n=tl.ones(2, 3, names=("N", None)), e=tl.empty(0, 3), s=tl.tensor(3), py=(1, 2.5, math.inf, -0.0, 1j, b"\x00",
                                                                                    None, True, "x", [1, [2]]),
        meta={"dtype": tl.bfloat16, "size": tl.Size([2, 3]), "dev": tl.device("cpu"), 7: "int key"})
    r = _roundtrip(obj)
    assert type(r) is collections.OrderedDict and list(r) == list(obj)
    assert r["n"].names == ("N", None)
    assert r["e"].shape == (0, 3) and r["s"].dim() == 0 and r["s"].item() == 3
    assert r["py"][:3] == (1, 2.5, math.inf) and math.copysign(1, r["py"][3]) == -1
    assert r["py"][4:] == (1j, b"\x00", None, True, "x", [1, [2]])
    assert r["meta"] == {"dtype": tl.bfloat16, "size": tl.Size([2, 3]), "dev": tl.device("cpu"), 7: "int key"}
    nan = _roundtrip(math.nan)
    assert math.isnan(nan)


def test_path_and_file_objects(tmp_path):
    p = tmp_path / "w.tl"
    tl.save({"w": tl.arange(5)}, p)
    assert tl.load(p)["w"].tolist() == [0, 1, 2, 3, 4]
    tl.save(tl.ones(2), str(p))
    with open(p, "rb") as fh:
        assert tl.load(fh).tolist() == [1.0, 1.0]


def test_refuses_objects_it_cannot_store_without_pickle():
    for bad in (lambda: 0, {1, 2}, object(), np.ones(2)):
        with pytest.raises(TypeError, match="never pickles"):
            tl.save(bad, io.BytesIO())
    a = []
    a.append(a)
    with pytest.raises(ValueError, match="nested too deeply"):
        tl.save(a, io.BytesIO())


def _sparse_cases():
    d = tl.tensor([[0., 1, 0, 0], [2, 0, 3, 0], [0, 0, 0, 4], [5, 0, 0, 0]])
    crow, col, val = d.to_sparse_csr().crow_indices(), d.to_sparse_csr().col_indices(), d.to_sparse_csr().values()
    return [
        d.to_sparse(), d.to_sparse(1), d[:0].to_sparse(),
        tl.sparse_coo_tensor(tl.tensor([[1, 0, 1], [0, 1, 0]]), tl.tensor([1., 2., 3.]), (4, 4)),  # uncoalesced
        d.to_sparse_csr(), tl.sparse_csr_tensor(crow.int(), col.int(), val.double(), d.shape),
        d.to_sparse_csc(), d.to_sparse_bsr((2, 2)), d.to_sparse_bsc((2, 1)),
        tl.stack([d, 2 * d]).to_sparse_csr(),  # a batch dim
        d.to(tl.complex64).to_sparse_csr(),
    ]


@pytest.mark.parametrize("case", range(11))
def test_sparse_tensors_round_trip(case):
    """Every sparse layout (batch and dense dims, int32 indices, uncoalesced COO): components,
    their dtypes, the size and the coalesced flag come back exactly."""
    s = _sparse_cases()[case]
    r = _roundtrip({"s": s})["s"]
    assert r.layout == s.layout and r.shape == s.shape and r.dtype == s.dtype
    if s.layout == tl.sparse_coo:
        parts, back = [s._indices(), s._values()], [r._indices(), r._values()]
        assert r.is_coalesced() == s.is_coalesced()
    else:
        parts, back = list(tl._C._compressed_parts(s)), list(tl._C._compressed_parts(r))
    for a, b in zip(parts, back):
        assert a.dtype == b.dtype and a.shape == b.shape and tl.equal(a, b)


def test_corrupt_sparse_records_raise():
    """A sparse record is validated with the layout's invariants: an index out of range, a
    compressed row list that does not end at nse, a wrong component count or layout name, a
    false coalesced claim are refused (never a tensor whose kernels read out of bounds)."""
    def saved(s):
        buf = io.BytesIO()
        tl.save(s, buf)
        z = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
        return json.loads(z.read("tensorlib.json")), {n[9:]: z.read(n) for n in z.namelist() if n.startswith("storages/")}

    def put(comp, pos, value):  # element pos of int64 component comp (its storage and offset from the header)
        def patch(h, st):
            rec = h["root"]["$sparse"]["components"][comp]["$tensor"]
            a = np.frombuffer(st[rec["storage"]], np.int64).copy()
            a[rec["offset"] + pos] = value
            st[rec["storage"]] = a.tobytes()
        return patch

    d = tl.tensor([[0., 1], [2, 0]])  # CSR: crow [0, 1, 2], col [1, 0]; COO indices [[0, 1], [1, 0]]
    for s, patch, why in [
        (d.to_sparse_csr(), put(1, 1, 7), "col_indices"),
        (d.to_sparse_csr(), put(0, 2, 3), "crow_indices"),
        (d.to_sparse(), put(0, 3, 7), "size is inconsistent with indices"),
        (d.to_sparse(), put(0, 0, 1), "cannot set is_coalesced to true"),
        (d.to_sparse(), lambda h, st: h["root"]["$sparse"]["components"].pop(), "bad sparse record"),
        (d.to_sparse(), lambda h, st: h["root"]["$sparse"].__setitem__("layout", "strided"), "bad sparse record"),
        (d.to_sparse(), lambda h, st: h["root"]["$sparse"].__setitem__("size", [2]), "sparse tensor"),
        (d.to_sparse(), lambda h, st: h["root"]["$sparse"].__setitem__("coalesced", "yes"), "bad sparse record"),
    ]:
        h, st = saved(s)
        patch(h, st)
        with pytest.raises(RuntimeError, match="tl.load: corrupt file") as e:
            tl.load(_file(h, st))
        assert why in str(e.value), (why, str(e.value))


def _file(header, storages=None):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tensorlib.json", header if isinstance(header, str) else json.dumps(header))
        for k, v in (storages or {}).items():
            z.writestr(f"storages/{k}", v)
    buf.seek(0)
    return buf


def _hdr(root, nbytes=16, **kw):
    h = {"format": "tensorlib.save", "version": 1, "byteorder": "little", "storages": {"0": {"nbytes": nbytes}},
         "root": root}
    h.update(kw)
    return h


def _t(**kw):
    rec = {"storage": "0", "dtype": "float32", "offset": 0, "size": [4], "stride": [1], "names": None}
    rec.update(kw)
    return {"$tensor": rec}


CORRUPT = [
    _file("not json"),
    _file(_hdr(None, version=2)),
    _file(_hdr(None, format="other")),
    _file(_hdr(None, byteorder="big")),
    _file(_hdr(_t(), nbytes=16), {}),                                    # storage entry missing
    _file(_hdr(_t(), nbytes=32), {"0": b"\x00" * 16}),                   # wrong length
    _file(_hdr(_t(size=[5]), nbytes=16), {"0": b"\x00" * 16}),           # extent past the storage
    _file(_hdr(_t(stride=[2 ** 62]), nbytes=16), {"0": b"\x00" * 16}),   # overflowing extent
    _file(_hdr(_t(offset=-1), nbytes=16), {"0": b"\x00" * 16}),
    _file(_hdr(_t(offset=2 ** 62), nbytes=16), {"0": b"\x00" * 16}),
    _file(_hdr(_t(size=[-1]), nbytes=16), {"0": b"\x00" * 16}),
    _file(_hdr(_t(dtype="os.system"), nbytes=16), {"0": b"\x00" * 16}),
    _file(_hdr(_t(storage="9"), nbytes=16), {"0": b"\x00" * 16}),
    _file(_hdr(_t(size="4"), nbytes=16), {"0": b"\x00" * 16}),
    _file(_hdr({"$eval": "__import__('os')"})),
    _file(_hdr({"$tuple": [1], "$dict": []})),
    _file(_hdr({"$dict": [[1]]})),
]


@pytest.mark.parametrize("case", range(len(CORRUPT)))
def test_corrupt_files_raise(case):
    CORRUPT[case].seek(0)
    with pytest.raises(RuntimeError, match="tl.load"):
        tl.load(CORRUPT[case])


def test_foreign_files_are_refused_without_unpickling(tmp_path):
    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('executed')",))

    p = tmp_path / "evil.pkl"
    p.write_bytes(pickle.dumps(Boom()))
    with pytest.raises(RuntimeError, match="not a zip archive"):
        tl.load(p)
    torch = pytest.importorskip("torch")
    q = tmp_path / "torch.pt"
    torch.save({"w": torch.ones(2)}, q)
    with pytest.raises(RuntimeError, match="torch.save file"):
        tl.load(q)


def test_options():
    with pytest.raises(RuntimeError, match="map_location"):
        tl.load(io.BytesIO(), map_location="cuda")
    with pytest.raises(ValueError):
        tl.save(1, io.BytesIO(), pickle_protocol=4)
    buf = io.BytesIO()
    tl.save(tl.ones(1), buf)
    buf.seek(0)
    assert tl.load(buf, map_location="cpu", weights_only=False).tolist() == [1.0]
