"""Build the compiled twin of libtext's per-character PDF path in place, with mypyc and Cython.

    python scripts/build_compiled.py [--clean]

Compiles the modules listed in ``libtext.pdf._compiled.MODULES`` to C extensions
beside their sources (``src/libtext/pdf/_visual.cpython-*.so``, ...), where Python
imports them before the ``.py`` files, and the Cython modules of
``libtext.pdf._compiled.CYTHON`` (``_charcalls.pyx``: pdfium's per-character calls
made from C, the twin of ``_pdfium.CharCalls``). The ``.py`` files stay the reference
and the fallback: without a build, or with ``LIBTEXT_PURE_PYTHON=1``, they are what
runs. ``--clean`` removes the extensions again. Needs ``mypy`` (mypyc ships with it),
``cython``, ``setuptools`` and a C compiler (all but the compiler in the ``dev``
extra); the wheel build does the same through the build backend's hook (see
docs/speed.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _modules() -> tuple[list[str], list[str]]:
    sys.path.insert(0, str(SRC))
    from libtext.pdf._compiled import CYTHON, MODULES

    return list(MODULES), list(CYTHON)


def built() -> list[Path]:
    """The compiled files in the source tree (the modules' and mypyc's shared runtime)."""
    pdf = SRC / "libtext" / "pdf"
    return sorted([*pdf.glob("*.so"), *pdf.glob("*.pyd"), *SRC.glob("*__mypyc*")])


def clean() -> None:
    for path in built():
        path.unlink()


def _cython_extensions(names: list[str], build_dir: str) -> list[object]:
    """The Cython modules as extensions (their C sources written under ``build_dir``);
    none without Cython (their pure-Python classes run: a half twin, which
    ``LIBTEXT_REQUIRE_COMPILED=1`` turns into a test failure)."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        print(f"no Cython (pip install cython): {', '.join(names)} not built")
        return []
    from setuptools import Extension

    sources = [Extension(f"libtext.pdf.{name}", [f"src/libtext/pdf/{name}.pyx"]) for name in names]
    return list(cythonize(sources, build_dir=build_dir, quiet=True))


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    modules, cython = _modules()
    paths = [f"src/libtext/pdf/{name}.py" for name in modules]
    clean()
    start = time.monotonic()
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        # mypyc writes its C sources under ./build; keep the tree clean.
        os.environ.setdefault("MYPYC_OPT_LEVEL", "3")
        # Only the listed modules are analysed: what they import from elsewhere
        # (pydantic through libtext.models) is typed Any, a generic Python call as in
        # the source, and the build does not type-check half of site-packages.
        extensions = mypycify(
            ["--config-file", str(ROOT / "pyproject.toml"), "--follow-imports=skip", *paths],
            group_name="libtext_pdf",
            target_dir=os.path.join(tmp, "c"),
        )
        extensions += _cython_extensions(cython, os.path.join(tmp, "cython"))
        dist = Distribution({"ext_modules": extensions, "package_dir": {"": "src"}})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = True
        cmd.build_temp = os.path.join(tmp, "obj")
        cmd.build_lib = os.path.join(tmp, "lib")
        dist.run_command("build_ext")
    for path in built():
        print(f"  {path.relative_to(ROOT)}")
    cpu = os.times()
    level = os.environ["MYPYC_OPT_LEVEL"]
    print(
        f"compiled twin: {len(modules)} modules (mypyc) and {len(cython)} (Cython) in "
        f"{time.monotonic() - start:.0f} s wall, "
        f"{cpu.user + cpu.children_user:.0f} s CPU (mypyc, opt level {level})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled files")
    args = parser.parse_args()
    if args.clean:
        clean()
        return
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        sys.exit("no C compiler: the pure-Python modules stay in use")
    build()


if __name__ == "__main__":
    main()
