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
        if type(obj) is property:
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


def attach_loaded(package):
    """attach() for every owner whose module is loaded (the others attach at their import)."""
    from ._docgen import DOC
    for path in DOC:
        if path in ("Tensor", "return_types"):
            owner = getattr(sys.modules[package], path)
        else:
            owner = sys.modules.get(package + "." + path if path else package)
        if owner is not None:
            attach(path, owner)
