"""Attaches the docstrings composed into _docgen.py (scripts/gen_docs.py) to the live objects.

tensorlib/__init__.py calls ``attach`` for what ``import tensorlib`` loads; tensorlib.cuda and
tensorlib.array_api, which load on first use, call it for themselves at their import (their
docstrings are in _docgen_lazy.py, which ``import tensorlib`` does not read)."""
import sys

from . import _C

_function = type(lambda: None)


def attach(path, owner):
    """Gives each object of DOC[path] (a function, class, Tensor method or property of ``owner``) its
    docstring: ``__doc__`` for what Python defines (a function, its argument-check wrapper and what
    that wraps, a property, a class), _C._add_docstr for what C defines (a function or method, a
    property, an operator slot, a class)."""
    from ._docgen import DOC
    if path not in DOC:  # tensorlib.cuda's and tensorlib.array_api's, read at their import
        from ._docgen_lazy import DOC
    for name, doc in DOC.get(path, {}).items():
        obj = getattr(owner, name)
        stored = vars(owner).get(name) if isinstance(owner, type) else None
        if isinstance(stored, (staticmethod, classmethod)):  # it copied the function's __doc__ when made
            stored.__doc__ = doc
        if type(obj) is property or type(obj).__name__ == "_tuplegetter":  # a named tuple's field
            obj.__doc__ = doc
            continue
        if isinstance(obj, type):
            if obj.__flags__ & (1 << 9):  # Py_TPFLAGS_HEAPTYPE: a Python class
                obj.__doc__ = doc
            else:
                _C._add_docstr(obj, doc)
            continue
        while type(obj) is _function:  # the argument-check wrapper and what it wraps (which
            obj.__doc__ = doc           # help() and inspect show through __wrapped__)
            obj = getattr(obj, "__wrapped__", None)
        if obj is not None:
            _C._add_docstr(obj, doc)


def _owner(package, path):
    """The module or class a DOC path names ("", "linalg", "Tensor", "Generator", "cuda",
    "array_api.fft", "sparse.check_sparse_tensor_invariants"): a loaded module by its name (a
    module being imported is not yet an attribute of its package), else an attribute."""
    obj, modname = sys.modules[package], package
    for part in path.split(".") if path else ():
        modname += "." + part
        obj = sys.modules[modname] if modname in sys.modules else getattr(obj, part)
    return obj


def attach_loaded(package, prefix=None):
    """attach() for every owner of _docgen.py (prefix None: what ``import tensorlib`` loads), or for
    ``prefix`` and the owners under it (``"cuda"``: tensorlib.cuda and its classes, at its import)."""
    if prefix is None:
        from ._docgen import DOC
        paths = list(DOC)
    else:
        from ._docgen_lazy import DOC
        paths = [p for p in DOC if p == prefix or p.startswith(prefix + ".")]
    for path in paths:
        attach(path, _owner(package, path))
