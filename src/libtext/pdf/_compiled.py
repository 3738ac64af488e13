"""Which of the per-character modules run compiled, and the switch back to Python.

The modules in :data:`MODULES` have a compiled twin (mypyc, built by
``scripts/build_compiled.py`` or the wheel's build hook) that Python imports before
the ``.py`` source when it sits beside it. The source stays the reference: the twin
must give byte-identical output (a test hashes every PDF of the sets both ways), and
it is what runs without a compiler. ``LIBTEXT_PURE_PYTHON=1`` makes it run even where
the twin is built: :func:`prefer_source` installs an import finder that loads these
modules from their ``.py`` files. It must run before any of them is imported, so
:mod:`libtext.pdf` calls it first.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = [
    "CYTHON",
    "MODULES",
    "compiled_modules",
    "cython_module",
    "describe",
    "prefer_source",
    "pure_python",
]

MODULES = (
    "_pdfium",
    "_text",
    "_bidi",
    "_visual",
    "_columns",
    "_lines",
    "_reader",
    "_repairs",
    "_read",
    "_blocks",
    "_layout",
    "_rows",
    "_spaces",
    "_spreads",
    "_extracted",
    "_letters",
)
"""The per-character path's modules (``libtext.pdf.<name>``) that have a compiled twin."""

CYTHON = ("_charcalls",)
"""Cython modules (``libtext.pdf.<name>``, from ``<name>.pyx``): C twins of a class of
the modules above (``_charcalls.CharCalls`` of ``_pdfium.CharCalls``), used in its
place where built (see :func:`libtext.pdf._pdfium.char_calls`)."""

_PACKAGE = "libtext.pdf"
_HERE = Path(__file__).resolve().parent


def pure_python() -> bool:
    """Whether ``LIBTEXT_PURE_PYTHON`` asks for the pure-Python modules."""
    return os.environ.get("LIBTEXT_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the :data:`MODULES` as their ``.py`` files, passing over a compiled twin."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != _PACKAGE or name not in MODULES:
            return None
        source = _HERE / f"{name}.py"
        if not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def prefer_source() -> None:
    """Load the :data:`MODULES` from source if ``LIBTEXT_PURE_PYTHON`` says so (once)."""
    if pure_python() and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())


def compiled_modules() -> list[str]:
    """The :data:`MODULES` imported from a compiled twin in this process, then the
    :data:`CYTHON` modules that load here (none under ``LIBTEXT_PURE_PYTHON``, where
    their pure-Python classes run)."""
    out = []
    for name in MODULES:
        module = sys.modules.get(f"{_PACKAGE}.{name}")
        origin = getattr(module, "__file__", "") or ""
        if module is not None and not origin.endswith(".py"):
            out.append(name)
    out.extend(name for name in CYTHON if cython_module(name) is not None)
    return out


def cython_module(name: str) -> ModuleType | None:
    """The built Cython module ``libtext.pdf.<name>`` (one of :data:`CYTHON`), or None
    where it is not built or ``LIBTEXT_PURE_PYTHON`` asks for the pure-Python classes.

    Such a module imports nothing of libtext: it is loaded here, by name, so that the
    pure-Python module it twins needs no import of it.
    """
    if name not in CYTHON or pure_python():
        return None
    try:
        return importlib.import_module(f"{_PACKAGE}.{name}")
    except ImportError:
        return None


def describe() -> str:
    """One line for a benchmark or a bug report: compiled or pure Python, and why.

    The modules are imported by :mod:`libtext.pdf`, which runs before this module.
    """
    done = compiled_modules()
    if len(done) == len(MODULES) + len(CYTHON):
        return "compiled (mypyc, Cython)"
    if pure_python():
        return "pure Python (LIBTEXT_PURE_PYTHON=1)"
    if done:
        return f"partly compiled ({', '.join(done)})"
    return "pure Python (no compiled twin built)"
