"""Every sync/async twin takes the same parameters, so neither can drift from the other.

libtext writes both twins of a call out, each with its full signature (``help()``, an
IDE and the rendered reference read it), and folds only the docstring
(``libtext._sync.complete_twin_docs``). The cost is that a parameter added to one may
be forgotten in the other: ``JobQueue.submit_tree`` had lost ``on_found``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import libtext

# Pairs that differ on purpose, with why.
DIFFER = {
    # The async twin answers only when no query is needed, on the event loop.
    ("TextStore", "data_version"),
}


def _owners() -> Iterator[Any]:
    for info in pkgutil.walk_packages(libtext.__path__, "libtext."):
        if info.name.endswith("__main__") or ".cli" in info.name:
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed
            continue
        yield module
        yield from (
            obj
            for obj in vars(module).values()
            if inspect.isclass(obj) and obj.__module__ == module.__name__
        )


def _twins() -> list[tuple[str, str, Any, Any]]:
    found, seen = [], set()
    for owner in _owners():
        for name in dir(owner):
            if name.startswith("_") or not name.startswith("a"):
                continue
            try:
                async_twin = inspect.getattr_static(owner, name)
                sync_twin = inspect.getattr_static(owner, name[1:])
            except AttributeError:
                continue
            async_twin = getattr(async_twin, "__func__", async_twin)
            sync_twin = getattr(sync_twin, "__func__", sync_twin)
            if (id(sync_twin), id(async_twin)) in seen:  # a mixin's, seen from its class
                continue
            if callable(sync_twin) and (
                inspect.iscoroutinefunction(async_twin) or inspect.isasyncgenfunction(async_twin)
            ):
                seen.add((id(sync_twin), id(async_twin)))
                found.append((owner.__name__.rpartition(".")[2], name[1:], sync_twin, async_twin))
    return found


def _parameters(fn: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


def test_the_twins_take_the_same_parameters() -> None:
    twins = _twins()
    assert len(twins) >= 30, "the walk found too few twins to check"
    names = {(owner, name) for owner, name, _, _ in twins}
    assert {("TextStore", "save"), ("Translator", "translate")} <= names
    drifted = [
        f"{owner}.{name}{inspect.signature(sync)} vs a{name}{inspect.signature(async_)}"
        for owner, name, sync, async_ in twins
        if (owner, name) not in DIFFER and _parameters(sync) != _parameters(async_)
    ]
    assert drifted == []
    assert names >= DIFFER  # an exception for a pair that is gone goes too
