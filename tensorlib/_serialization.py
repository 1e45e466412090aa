"""tl.save / tl.load: a file format that stores tensors without pickle.

A file is a zip archive (entries stored uncompressed) holding:

- ``tensorlib.json``: ``{"format": "tensorlib.save", "version": 1, "byteorder": "little",
  "storages": {key: {"nbytes": n}}, "root": <value>}``;
- ``storages/<key>``: the raw bytes of each storage, once however many tensors view it.

``<value>`` encodes the saved object in JSON: null, booleans, integers, strings and lists as
themselves; every other kind as a one-key object whose key starts with ``$``:
``{"$float": "nan" | "inf" | "-inf"}`` (finite floats are plain numbers), ``{"$complex":
[re, im]}``, ``{"$bytes": base64}``, ``{"$tuple": [...]}``, ``{"$dict": [[key, value], ...]}``
(``"$odict"`` for an OrderedDict), ``{"$dtype": "float32"}``, ``{"$device": "cpu"}``,
``{"$size": [...]}``, ``{"$tensor": {"storage": key, "dtype": name, "offset": elements,
"size": [...], "stride": [...], "names": [...] | null}}`` and, for a sparse tensor,
``{"$sparse": {"layout": "sparse_coo" | "sparse_csr" | ..., "size": [...], "coalesced": bool,
"components": [<$tensor>, ...]}}`` (COO: indices and values; the compressed layouts:
compressed indices, plain indices and values), validated with the layout's invariants when
loaded.

Views are stored as views: tensors sharing a storage share it again after loading (also
across dtypes, e.g. ``x`` and ``x.view(tl.int32)``). Loading interprets data only: there is
no code in a file, so ``tl.load`` of an untrusted file cannot run anything (torch's pickle
files can; tensorlib refuses to read them). Every geometry read from a file is validated
against its storage, so a corrupt file raises instead of reading out of bounds.
"""
import base64
import collections
import io
import json
import math
import os
import sys
import zipfile

from . import _C

__all__ = ["save", "load"]

_FORMAT, _VERSION, _HEADER = "tensorlib.save", 1, "tensorlib.json"


def _dtype_by_name(name):
    d = getattr(_C, name, None)
    if not isinstance(d, _C.dtype):
        raise RuntimeError(f"tl.load: unknown dtype {name!r} in the file")
    return d


class _Writer:
    def __init__(self):
        self.storages = {}  # (ptr, nbytes) -> (key, uint8 tensor over the storage)

    def storage_key(self, t):
        ident = (t._storage_ptr(), t._storage_nbytes())
        if ident not in self.storages:
            self.storages[ident] = (str(len(self.storages)), t.untyped_storage())
        return self.storages[ident][0]

    def encode(self, o, depth=0):
        if depth > 200:
            raise ValueError("tl.save: the object is nested too deeply (or contains itself)")
        if o is None or isinstance(o, (bool, str)):
            return o
        if isinstance(o, int):
            return int(o)
        if isinstance(o, float):
            return float(o) if math.isfinite(o) else {"$float": repr(float(o))}
        if isinstance(o, complex):
            return {"$complex": [self.encode(o.real), self.encode(o.imag)]}
        if isinstance(o, (bytes, bytearray)):
            return {"$bytes": base64.b64encode(bytes(o)).decode("ascii")}
        if isinstance(o, _C.TensorBase):
            return self.tensor(o)
        if isinstance(o, _C.dtype):
            return {"$dtype": str(o).split(".")[-1]}
        if isinstance(o, _C.device):
            return {"$device": str(o)}
        if isinstance(o, _C.Size):
            return {"$size": list(o)}
        if isinstance(o, list):
            return [self.encode(x, depth + 1) for x in o]
        if isinstance(o, tuple):
            return {"$tuple": [self.encode(x, depth + 1) for x in o]}
        if isinstance(o, dict):
            tag = "$odict" if isinstance(o, collections.OrderedDict) else "$dict"
            return {tag: [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in o.items()]}
        raise TypeError(f"tl.save cannot store an object of type {type(o).__name__}: it stores tensors, "
                        "numbers, strings, bytes, None, lists, tuples, dicts, dtypes, devices and Sizes, "
                        "and never pickles")

    def tensor(self, t):
        if t.device.type != "cpu":
            t = t.cpu()
        if t.layout != _C.strided:
            from ._tensor import _sparse_components
            return {"$sparse": {"layout": str(t.layout).split(".")[-1], "size": list(t.shape),
                                "coalesced": t.layout != _C.sparse_coo or t.is_coalesced(),
                                "components": [self.tensor(c) for c in _sparse_components(t)]}}
        return {"$tensor": {"storage": self.storage_key(t), "dtype": str(t.dtype).split(".")[-1],
                            "offset": t.storage_offset(), "size": list(t.shape), "stride": list(t.stride()),
                            "names": list(t.names) if t.has_names() else None}}


def save(obj, f, pickle_module=None, pickle_protocol=None, _use_new_zipfile_serialization=True):
    """Saves ``obj`` (tensors and plain Python containers of them) to the path or binary file ``f``.

    The format (module docstring of tensorlib/_serialization.py and docs/interop.md) is a zip
    archive with a JSON description and raw storage bytes; views keep sharing their storage
    after ``load``, names and every dtype round-trip. Nothing is pickled: saving an object of
    another type raises TypeError. ``pickle_module``/``pickle_protocol`` are accepted for
    torch's signature and must be left at their defaults.

    Example:
        >>> import io, tensorlib as tl
        >>> buf = io.BytesIO(); tl.save({"w": tl.ones(2)}, buf); _ = buf.seek(0)
        >>> tl.load(buf)["w"]
        tensor([1., 1.])
    """
    if pickle_module is not None or pickle_protocol is not None:
        raise ValueError("tl.save never pickles: pickle_module and pickle_protocol cannot be set")
    w = _Writer()
    root = w.encode(obj)
    header = {"format": _FORMAT, "version": _VERSION, "byteorder": sys.byteorder,
              "storages": {key: {"nbytes": st.numel()} for key, st in w.storages.values()}, "root": root}
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "wb") if own else f
    try:
        with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr(_HEADER, json.dumps(header, allow_nan=False))
            for key, st in w.storages.values():
                with z.open(f"storages/{key}", "w", force_zip64=True) as out:
                    out.write(memoryview(st.contiguous()) if st.numel() else b"")
    finally:
        if own:
            fh.close()


class _Reader:
    def __init__(self, z, header):
        self.z = z
        self.meta = header.get("storages")
        if not isinstance(self.meta, dict):
            raise RuntimeError("tl.load: corrupt file (no storage table)")
        self.bases = {}

    def storage(self, key):
        if key not in self.bases:
            if not isinstance(key, str) or key not in self.meta:
                raise RuntimeError(f"tl.load: corrupt file (unknown storage {key!r})")
            try:
                data = bytearray(self.z.read(f"storages/{key}"))
            except KeyError:
                raise RuntimeError(f"tl.load: corrupt file (storage {key!r} is missing)") from None
            if len(data) != self.meta[key].get("nbytes"):
                raise RuntimeError(f"tl.load: corrupt file (storage {key!r} has {len(data)} bytes, "
                                   f"the table says {self.meta[key].get('nbytes')})")
            self.bases[key] = _C.frombuffer(data, dtype=_C.uint8) if data else _C.empty(0, dtype=_C.uint8)
        return self.bases[key]

    def decode(self, v, depth=0):
        if depth > 200:
            raise RuntimeError("tl.load: corrupt file (nested too deeply)")
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, list):
            return [self.decode(x, depth + 1) for x in v]
        if not isinstance(v, dict) or len(v) != 1:
            raise RuntimeError("tl.load: corrupt file (unexpected value)")
        (tag, body), = v.items()
        if tag == "$float" and body in ("nan", "inf", "-inf"):
            return float(body)
        if tag == "$complex" and isinstance(body, list) and len(body) == 2:
            return complex(self.decode(body[0]), self.decode(body[1]))
        if tag == "$bytes" and isinstance(body, str):
            return base64.b64decode(body.encode("ascii"), validate=True)
        if tag == "$tuple" and isinstance(body, list):
            return tuple(self.decode(x, depth + 1) for x in body)
        if tag in ("$dict", "$odict") and isinstance(body, list):
            d = collections.OrderedDict() if tag == "$odict" else {}
            for item in body:
                if not isinstance(item, list) or len(item) != 2:
                    raise RuntimeError("tl.load: corrupt file (bad dict item)")
                d[self.decode(item[0], depth + 1)] = self.decode(item[1], depth + 1)
            return d
        if tag == "$dtype" and isinstance(body, str):
            return _dtype_by_name(body)
        if tag == "$device" and isinstance(body, str):
            return _C.device(body)
        if tag == "$size" and isinstance(body, list):
            return _C.Size(body)
        if tag == "$tensor" and isinstance(body, dict):
            return self.tensor(body)
        if tag == "$sparse" and isinstance(body, dict):
            return self.sparse(body)
        raise RuntimeError(f"tl.load: corrupt file (unknown tag {tag!r})")

    def tensor(self, b):
        try:
            dtype = _dtype_by_name(b["dtype"])
            size, stride, offset, names = b["size"], b["stride"], b["offset"], b.get("names")
            base = self.storage(b["storage"])
        except (KeyError, TypeError):
            raise RuntimeError("tl.load: corrupt file (bad tensor record)") from None
        if not (isinstance(size, list) and isinstance(stride, list) and len(size) == len(stride)
                and all(type(x) is int for x in size + stride) and type(offset) is int):
            raise RuntimeError("tl.load: corrupt file (bad tensor geometry)")
        isz = dtype.itemsize
        typed = base[: base.numel() - base.numel() % isz].view(dtype)
        try:  # validated against the storage: never out of bounds
            t = typed.as_strided(size, stride, offset)
        except RuntimeError as e:
            raise RuntimeError(f"tl.load: corrupt file ({e})") from None
        if names is not None:
            try:
                t = t.refine_names(*names)
            except (RuntimeError, TypeError, ValueError) as e:
                raise RuntimeError(f"tl.load: corrupt file (names: {e})") from None
        return t


    def sparse(self, b):
        """A sparse tensor from its components, checked with the layout's invariants (a corrupt
        or hostile file raises, never builds a tensor whose kernels would read out of bounds)."""
        layouts = {"sparse_coo": 2, "sparse_csr": 3, "sparse_csc": 3, "sparse_bsr": 3, "sparse_bsc": 3}
        try:
            name, size, coalesced, parts = b["layout"], b["size"], b["coalesced"], b["components"]
            if name not in layouts or not isinstance(parts, list) or len(parts) != layouts[name]:
                raise TypeError
            if not (isinstance(size, list) and all(type(x) is int for x in size) and type(coalesced) is bool):
                raise TypeError
            parts = [self.tensor(p["$tensor"]) for p in parts]
        except (KeyError, TypeError):
            raise RuntimeError("tl.load: corrupt file (bad sparse record)") from None
        from ._sparse import sparse_coo_tensor
        from ._sparse_compressed import sparse_compressed_tensor
        try:
            if name == "sparse_coo":
                return sparse_coo_tensor(*parts, tuple(size), is_coalesced=coalesced or None, check_invariants=True)
            return sparse_compressed_tensor(*parts, tuple(size), layout=getattr(_C, name), check_invariants=True)
        except (RuntimeError, TypeError, ValueError) as e:
            raise RuntimeError(f"tl.load: corrupt file (sparse tensor: {e})") from None


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """Loads an object saved by ``tl.save`` from the path or binary file ``f``.

    Only tensorlib's format is read: the file is interpreted as data, never executed, so
    loading an untrusted file is safe (``weights_only`` is accepted and always true in
    effect). Files written by ``torch.save`` are pickles and are refused with a
    RuntimeError. ``map_location`` may be None or 'cpu'.
    """
    if map_location not in (None, "cpu") and not (isinstance(map_location, _C.device) and map_location.type == "cpu"):
        raise RuntimeError(f"tl.load: map_location={map_location!r} is not supported (tensors load to the CPU)")
    if pickle_module is not None or pickle_load_args:
        raise ValueError("tl.load never unpickles: pickle_module and pickle arguments cannot be set")
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "rb") if own else f
    try:
        if not own and not (hasattr(fh, "seekable") and fh.seekable()):
            fh = io.BytesIO(fh.read())
        try:
            z = zipfile.ZipFile(fh, "r")
        except zipfile.BadZipFile:
            raise RuntimeError("tl.load: not a tensorlib file (not a zip archive; files written by pickle "
                               "or by torch's legacy format cannot be read)") from None
        with z:
            names = z.namelist()
            if _HEADER not in names:
                if any(n.endswith("data.pkl") for n in names):
                    raise RuntimeError("tl.load: this is a torch.save file, which is a pickle; tensorlib "
                                       "never unpickles. Convert it with torch: load it there and save the "
                                       "tensors through NumPy (tl.from_numpy) or DLPack.")
                raise RuntimeError("tl.load: not a tensorlib file (no tensorlib.json entry)")
            try:
                header = json.loads(z.read(_HEADER))
            except ValueError:
                raise RuntimeError("tl.load: corrupt file (tensorlib.json is not JSON)") from None
            if not isinstance(header, dict) or header.get("format") != _FORMAT:
                raise RuntimeError("tl.load: not a tensorlib file (wrong format tag)")
            if header.get("version") != _VERSION:
                raise RuntimeError(f"tl.load: file format version {header.get('version')!r} is not supported "
                                   f"(this tensorlib reads version {_VERSION})")
            if header.get("byteorder") != sys.byteorder:
                raise RuntimeError(f"tl.load: the file was written on a {header.get('byteorder')}-endian machine")
            return _Reader(z, header).decode(header.get("root"))
    finally:
        if own:
            fh.close()
