"""Every regular expression in ``src/libtext``, and inputs built to make it backtrack.

:func:`collect` finds the patterns three ways: ``re.Pattern`` objects at module level
(also inside module-level tuples, lists, dicts and class attributes), literal patterns
passed to ``re.*`` calls inside functions (read from the source), and the patterns
that cached builder functions make at run time (each such ``re.compile`` site in the
source must be named in :data:`BUILDERS`, so a new one cannot hide). Each pattern is
tested the way the code uses it: ``match`` only where every use in the source is
``.match(``/``.fullmatch(`` (anchored at one position), else ``finditer`` (a search
from every position, the costlier case).

:func:`adversarial` builds inputs of one length from the pattern's own alphabet: runs of
one character, two characters alternating, and near-misses (strings the pattern almost
matches, sampled from its parse tree with long repeats, with the last character dropped
or changed), repeated to the length.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:  # Python 3.11+: the parser's private home moved
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

import libtext

SRC = Path(libtext.__file__).resolve().parent

BUILDERS: dict[str, str] = {
    # module:function -> how it is used ("match" or "search"); each makes its pattern
    # from data at first use (the Sefaria title tries), cached.
    "libtext.sefaria._titles:_bare_title": "match",
    "libtext.sefaria._titles:master": "match",
    "libtext.sefaria._titles:scanner": "search",
}
"""Functions whose body compiles a pattern from non-literal parts, and how it is used.

``libtext.store._slugs.next_slug`` compiles ``re.escape(base) + "-(\\d{1,15})"``: an
escaped literal and a bounded digit run, used with ``fullmatch`` on stored slugs; it is
probed through :func:`slug_suffix` below."""

EXEMPT_SITES = {
    "libtext.store._slugs:next_slug",
    "libtext.providers.llm:redact",
    "libtext.pdf._visual:_plain_class",
}
"""Non-literal ``re.compile`` sites probed by a stand-in (see :data:`BUILDERS`), or
through the module-level patterns they build at import (``_visual._PLAIN_R``/``_L``)."""

_METHODS = (
    "compile",
    "search",
    "match",
    "fullmatch",
    "sub",
    "subn",
    "split",
    "findall",
    "finditer",
)


@dataclass(frozen=True)
class Probe:
    """One pattern, where it was found, and how the code runs it."""

    where: str
    pattern: re.Pattern[Any]
    mode: str  # "match" or "search"

    def run(self, text: Any) -> None:
        if self.mode == "match":
            self.pattern.match(text)
            self.pattern.fullmatch(text)
        else:
            for _ in self.pattern.finditer(text):
                pass


def _modules() -> Iterator[Any]:
    for info in pkgutil.walk_packages([str(SRC)], prefix="libtext."):
        if info.name.endswith("__main__") or ".pdf._worker" in info.name:
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an optional extra not installed
            continue


def _patterns_in(value: Any, depth: int = 0) -> Iterator[tuple[str, re.Pattern[Any]]]:
    if isinstance(value, re.Pattern):
        yield "", value
    elif depth < 2 and isinstance(value, tuple | list | frozenset | set):
        for k, item in enumerate(value):
            for path, p in _patterns_in(item, depth + 1):
                yield f"[{k}]{path}", p
    elif depth < 2 and isinstance(value, dict):
        for k, item in value.items():
            for path, p in _patterns_in(item, depth + 1):
                yield f"[{k!r}]{path}", p


def _sources() -> dict[str, str]:
    return {str(f): f.read_text(encoding="utf-8") for f in sorted(SRC.rglob("*.py"))}


def _anchored_only(name: str, home: str, sources: dict[str, str]) -> bool:
    """Whether every use of ``name`` (defined in the file ``home``, or imported from it) is
    ``name.match(`` or ``name.fullmatch(``; comments and docstrings do not count."""
    use = re.compile(rf"(?<![\w.]){re.escape(name)}\b(?!\s*=[^=])")
    anchored = re.compile(rf"{re.escape(name)}(?:\(\))?\.(?:match|fullmatch)\(")
    imported = re.compile(rf"^\s*from libtext\S* import [^\n]*\b{re.escape(name)}\b", re.M)
    uses = 0
    for path, text in sources.items():
        if path != home and not imported.search(text):
            continue
        for line in text.splitlines():
            if line.lstrip().startswith(("#", "from ", "import ")) or "``" in line:
                continue
            for m in use.finditer(line.split("  #")[0]):
                uses += 1
                if not anchored.match(line, m.start()):
                    return False
    return uses > 0


def _function_calls(sources: dict[str, str]) -> tuple[list[Probe], set[str]]:
    """Literal patterns of ``re.*`` calls inside functions; the non-literal compile sites."""
    probes: list[Probe] = []
    dynamic: set[str] = set()
    for path, text in sources.items():
        module = "libtext." + ".".join(Path(path).relative_to(SRC).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        tree = ast.parse(text)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "re"
                    and node.func.attr in _METHODS
                    and node.args
                ):
                    continue
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str | bytes):
                    flags = 0
                    for kw in node.keywords:
                        if kw.arg == "flags":
                            flags = eval(compile(ast.Expression(kw.value), "", "eval"), {"re": re})
                    mode = "match" if node.func.attr in ("match", "fullmatch") else "search"
                    where = f"{module}:{fn.name} line {node.lineno}"
                    probes.append(Probe(where, re.compile(arg.value, flags), mode))
                elif node.func.attr == "compile":
                    dynamic.add(f"{module}:{fn.name}")
    return probes, dynamic


def slug_suffix() -> re.Pattern[str]:
    """The pattern ``next_slug`` compiles, for a long base."""
    return re.compile(re.escape("a-" * 40) + r"-(\d{1,15})")


def redacted_secret() -> re.Pattern[str]:
    """The pattern ``redact`` compiles for a secret: an escaped key between lookarounds."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape('sk-' + 'a1' * 20)}(?![A-Za-z0-9])")


def collect() -> tuple[list[Probe], set[str]]:
    """Every pattern (see the module docstring), and the unlisted non-literal sites."""
    sources = _sources()
    probes: list[Probe] = []
    seen: set[int] = set()
    for module in _modules():
        for name, value in vars(module).items():
            owners: list[tuple[str, Any]] = [(name, value)]
            if isinstance(value, type) and value.__module__ == module.__name__:
                owners = [(f"{name}.{k}", v) for k, v in vars(value).items()]
            for label, obj in owners:
                for path, pattern in _patterns_in(obj):
                    if id(pattern) in seen:
                        continue
                    seen.add(id(pattern))
                    bare = label.rsplit(".", 1)[-1]
                    found = Path(getattr(module, "__file__", "") or ".").resolve()
                    # A compiled twin (mypyc's .so) is read through its Python source.
                    home = str(found.with_name(found.name.split(".")[0] + ".py"))
                    anchored = not path and _anchored_only(bare, home, sources)
                    mode = "match" if anchored else "search"
                    probes.append(Probe(f"{module.__name__}.{label}{path}", pattern, mode))
    literal, dynamic = _function_calls(sources)
    probes += literal
    for site, mode in BUILDERS.items():
        module_name, fn = site.split(":")
        builder: Callable[[], re.Pattern[Any]] = getattr(importlib.import_module(module_name), fn)
        probes.append(Probe(site + "()", builder(), mode))
    probes.append(Probe("libtext.store._slugs:next_slug", slug_suffix(), "match"))
    probes.append(Probe("libtext.providers.llm:redact", redacted_secret(), "search"))
    unlisted = dynamic - set(BUILDERS) - EXEMPT_SITES
    return probes, unlisted


# --- inputs -----------------------------------------------------------------------------

_COMMON = " .a5א\n,;:)(\"'…-_\t/"
_CATEGORY_CHAR = {
    sre_constants.CATEGORY_DIGIT: "7",
    sre_constants.CATEGORY_NOT_DIGIT: "x",
    sre_constants.CATEGORY_SPACE: " ",
    sre_constants.CATEGORY_NOT_SPACE: "y",
    sre_constants.CATEGORY_WORD: "ב",
    sre_constants.CATEGORY_NOT_WORD: "-",
    sre_constants.CATEGORY_LINEBREAK: "\n",
    sre_constants.CATEGORY_NOT_LINEBREAK: "z",
}


def _alphabet(tree: Any, out: set[str]) -> None:
    for op, av in tree:
        if op is sre_constants.LITERAL:
            out.add(chr(av))
        elif op is sre_constants.NOT_LITERAL:
            out.add(chr(av))
            out.add("x" if av != ord("x") else "y")
        elif op is sre_constants.IN:
            for iop, iav in av:
                if iop is sre_constants.LITERAL:
                    out.add(chr(iav))
                elif iop is sre_constants.RANGE:
                    out.update((chr(iav[0]), chr(iav[1])))
                elif iop is sre_constants.CATEGORY:
                    out.add(_CATEGORY_CHAR.get(iav, "q"))
        elif op is sre_constants.BRANCH:
            for sub in av[1]:
                _alphabet(sub, out)
        elif op is sre_constants.SUBPATTERN:
            _alphabet(av[-1], out)
        elif op in _REPEATS:
            _alphabet(av[2], out)
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            _alphabet(av[1], out)
        elif op is _ATOMIC:
            _alphabet(av, out)


_REPEATS = tuple(
    getattr(sre_constants, n)
    for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
    if hasattr(sre_constants, n)
)
_ATOMIC = getattr(sre_constants, "ATOMIC_GROUP", object())


# A character class's sorted alphabet, by the class's parse node: a class of a thousand
# characters inside a repeat is sampled tens of thousands of times.
_Classes = dict[int, tuple[list[str], bool]]


def _sample(
    tree: Any,
    rng: random.Random,
    pump: int,
    out: list[str],
    budget: list[int],
    classes: _Classes | None = None,
) -> None:
    """Append to ``out`` a string the parse ``tree`` (nearly) matches; repeats run long."""
    if classes is None:
        classes = {}
    for op, av in tree:
        if budget[0] <= 0:
            return
        if op is sre_constants.LITERAL:
            out.append(chr(av))
        elif op is sre_constants.NOT_LITERAL:
            out.append("x" if av != ord("x") else "y")
        elif op is sre_constants.ANY:
            out.append("z")
        elif op is sre_constants.IN:
            known = classes.get(id(av))
            if known is None:
                chars: set[str] = set()
                _alphabet([(op, av)], chars)
                negate = any(iop is sre_constants.NEGATE for iop, _ in av)
                known = classes[id(av)] = (sorted(chars), negate)
            alphabet, negate = known
            out.append("z" if negate or not alphabet else rng.choice(alphabet))
        elif op is sre_constants.BRANCH:
            _sample(rng.choice(av[1]), rng, pump, out, budget, classes)
        elif op is sre_constants.SUBPATTERN:
            _sample(av[-1], rng, pump, out, budget, classes)
        elif op in _REPEATS:
            low, high = av[0], av[1]
            count = max(low, min(high, pump if high > pump else rng.randint(low, high)))
            for _ in range(min(count, 10_000)):
                _sample(av[2], rng, pump, out, budget, classes)
        elif op is _ATOMIC:
            _sample(av, rng, pump, out, budget, classes)
        budget[0] -= 1


def adversarial(pattern: re.Pattern[Any], n: int, *, seed: int = 0) -> list[str]:
    """Inputs of about ``n`` characters meant to make ``pattern`` backtrack."""
    source = pattern.pattern
    text_pattern = source.decode("latin-1") if isinstance(source, bytes) else source
    flags = pattern.flags & ~re.UNICODE if isinstance(source, bytes) else pattern.flags
    try:
        tree = sre_parse.parse(text_pattern, flags)
    except re.error:  # pragma: no cover - compiled already, so parsable
        tree = []
    letters: set[str] = set()
    _alphabet(tree, letters)
    rng = random.Random(seed)
    if len(letters) > 8:
        letters = set(rng.sample(sorted(letters), 8))
    chars = sorted(letters | set(_COMMON))
    inputs = [c * n for c in chars]
    own = sorted(letters) or chars
    for a in own:
        for b in (*own, " "):
            if a < b or (b == " " and a != b):
                inputs.append((a + b) * (n // 2))
        inputs.append((a + " a") * (n // 3))
    for pump in (3, 64, n):
        for k in range(4):
            parts: list[str] = []
            _sample(tree, random.Random(seed * 1000 + pump + k), pump, parts, [50_000])
            s = "".join(parts)[:n]
            if not s:
                continue
            for miss in (s[:-1], s[:-1] + "\x00", s[1:], s[: len(s) // 2]):
                if miss:
                    inputs.append((miss * (n // len(miss) + 1))[:n])
    # No de-duplication: the k-th input of each length is built the same way.
    if isinstance(source, bytes):
        return [t.encode("utf-8", "replace") for t in inputs]  # type: ignore[misc]
    return inputs


def cpu(fn: Callable[[], object], repeat: int = 3) -> float:
    """The least CPU time of ``repeat`` runs of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def reference_unit(n: int) -> float:
    """CPU seconds of ``str.split`` on ``n`` characters of words: the machine's unit."""
    words = ("אבג דה. וזח, 12 " * (n // 16 + 1))[:n]
    return max(cpu(words.split, repeat=5), 1e-6)


LADDER = (256, 1024, 4096)
"""Lengths of the growth check: four times longer must cost at most :data:`GROWTH` times more."""
GROWTH = 10.0
"""Linear is 4, quadratic 16: room for noise on a loaded machine, none for a square."""
FLOOR = 2e-4
"""CPU seconds below which a time is noise, not growth."""


def growth_failure(probe: Probe) -> str | None:
    """Why ``probe`` grows faster than linear on one of its inputs, or ``None``.

    Each input is timed at the lengths of :data:`LADDER`, stopping at the first step
    that grows more than :data:`GROWTH` times (so a cubic pattern costs a second, not
    hours).
    """
    ladders = [adversarial(probe.pattern, n) for n in LADDER]
    for k in range(len(ladders[0])):
        last = None
        for step, inputs in enumerate(ladders):
            if k >= len(inputs):
                break
            text = inputs[k]
            spent = cpu(lambda text=text: probe.run(text))
            if last is not None and _grows(spent, last) and _confirmed(probe, ladders, step, k):
                return (
                    f"{probe.where} ({probe.mode}): {len(text):,} characters of "
                    f"{text[:24]!r}... cost {spent * 1e3:.1f} ms, {spent / max(last, 1e-9):.0f} "
                    f"times the {len(text) // 4:,} before"
                )
            last = spent
    return None


def _grows(spent: float, last: float) -> bool:
    return spent > FLOOR and spent > GROWTH * max(last, FLOOR / 4)


def _confirmed(probe: Probe, ladders: list[list[Any]], step: int, k: int) -> bool:
    """Whether a step that grew too fast grows so on the same input too: input ``k`` of
    a shorter ladder was sampled anew and need not be like this one (the near-misses'
    samples differ in number and order from one length to the next), so the input is
    timed against its own first quarter, both more often."""
    text = ladders[step][k]
    quarter = text[: len(text) // 4]
    return _grows(cpu(lambda: probe.run(text), repeat=7), cpu(lambda: probe.run(quarter), repeat=7))


def slowest(probe: Probe, n: int, keep: int = 3) -> list[tuple[float, Any]]:
    """The ``keep`` inputs of length ``n`` that cost ``probe`` the most CPU, with the cost."""
    small = adversarial(probe.pattern, LADDER[-1])
    costs = sorted(
        ((cpu(lambda t=t: probe.run(t), repeat=1), k) for k, t in enumerate(small)),
        reverse=True,
    )
    large = adversarial(probe.pattern, n)
    return [
        (cpu(lambda t=large[k]: probe.run(t)), large[k]) for _, k in costs[:keep] if k < len(large)
    ]


if __name__ == "__main__":  # a report: python tests/regex_probe.py
    probes, unlisted = collect()
    print(f"{len(probes)} patterns; unlisted dynamic sites: {sorted(unlisted)}", flush=True)
    for probe in probes:
        t0 = time.process_time()
        failure = growth_failure(probe)
        if failure:
            print("FAIL", failure, flush=True)
        elif time.process_time() - t0 > 1:
            print(f"slow check {time.process_time() - t0:.1f}s {probe.where}", flush=True)
