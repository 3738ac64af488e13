"""No import cycle in src/libtext: a static graph of every import, and each module alone.

The static graph counts function-local imports, ``importlib.import_module("libtext...")``
and ``if TYPE_CHECKING:`` imports too: a cycle hidden in a function or in the types is
still two modules that each need the other, so the layers are not one above the other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "libtext"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imported(name: str, path: Path, *, typing: bool = True) -> set[str]:
    """The libtext modules ``name`` imports, anywhere in its code (``typing=False``: but
    its TYPE_CHECKING blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(sub) for sub in ast.walk(node))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join([*base, node.module]) if node.level else (node.module or "")
            if node.level and not node.module:
                module = ".".join(base)
            targets.add(module)
            targets.update(f"{module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets.add(node.args[0].value)
    modules = set()
    for target in targets:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        # The package root re-exports lazily (a name -> module table), never at import.
        if target and target not in (name, "libtext"):
            modules.add(target)
    return modules


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_hidden_imports() -> None:
    """The check can fail: a function-local import and an import_module string count."""
    offline = _imported("libtext.providers.offline", MODULES["libtext.providers.offline"])
    assert "libtext.translate._offline" in offline and "libtext.headings" in offline
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_static_import_graph_has_no_cycle() -> None:
    graph = {name: _imported(name, path) for name, path in MODULES.items()}
    assert _cycles(graph) == []


def test_no_two_modules_import_each_other() -> None:
    """Lazily, for typing or at the top: models <-> _html <-> sefaria, the asgi backend,
    cache and routes, pdf._lines <-> pdf._read and jobs <-> jobs._tree did."""
    graph = {name: _imported(name, path) for name, path in MODULES.items()}
    pairs = sorted(
        (a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ())
    )
    assert pairs == []


def test_type_checking_imports_count() -> None:
    """The check can fail: an import only for typing is an edge of the graph."""
    path = MODULES["libtext.asgi._fastpath"]
    assert "libtext.asgi._cache" in _imported("libtext.asgi._fastpath", path)
    assert "libtext.asgi._cache" not in _imported("libtext.asgi._fastpath", path, typing=False)


def test_every_module_imports_alone() -> None:
    """Each module first in a fresh interpreter: a cycle that needs a lucky order fails."""
    code = (
        "import importlib, subprocess, sys\n"
        "failed = []\n"
        "for name in sys.argv[1:]:\n"
        "    r = subprocess.run([sys.executable, '-c', f'import {name}'],\n"
        "                       capture_output=True, text=True)\n"
        "    if r.returncode:\n"
        "        failed.append(f'{name}: {r.stderr.strip().splitlines()[-1]}')\n"
        "print('\\n'.join(failed))\n"
    )
    names = [n for n in MODULES if n != "libtext.__main__"]
    if len(names) < 20:
        pytest.fail(f"only {len(names)} modules found under {PACKAGE}")
    out = subprocess.run(
        [sys.executable, "-c", code, *names], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_families_have_folders() -> None:
    """The root stays a small core: a family of modules lives in its own folder."""
    root = sorted(p.stem for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert len(root) <= 15, root
    prefixes = {name.lstrip("_").split("_")[0] for name in root}
    for family in ("pdf", "library", "store", "sefaria", "asgi", "translate", "headings"):
        assert (PACKAGE / family / "__init__.py").is_file(), family
        assert family not in prefixes, f"a root module still named for {family}: {root}"
