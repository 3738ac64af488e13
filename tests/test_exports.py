"""The public surface: everything in __all__ imports, and importing libtext is light."""

from __future__ import annotations

import subprocess
import sys

import libtext


def test_all_is_sorted_and_unique() -> None:
    assert libtext.__all__ == sorted(set(libtext.__all__))


def test_import_does_not_load_heavy_modules() -> None:
    code = (
        "import sys, libtext\n"
        "heavy = [m for m in ('litellm', 'sqlmodel', 'fastapi', 'pdfplumber', 'pypdfium2')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
