"""The reference covers every public name, and every model field says what it is.

The API reference (docs/*.md, ``::: name`` blocks read by mkdocstrings) lists each name
of ``libtext.__all__``, ``libtext.jobs.__all__`` and ``libtext.asgi.__all__``; the
OpenAPI document gives every model property and every parameter a description (the
field's docstring, the same text the reference shows).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIRECTIVE = re.compile(r"^::: ([\w.]+)", flags=re.M)


def documented() -> set[str]:
    """Every object a ``:::`` block of the docs renders, a module's public names included."""
    found: set[str] = set()
    for page in (ROOT / "docs").rglob("*.md"):
        for target in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            found.add(target)
            try:
                module = importlib.import_module(target)
            except ImportError:
                continue
            found.update(f"{target}.{name}" for name in getattr(module, "__all__", ()))
    return found


@pytest.mark.parametrize("package", ["libtext", "libtext.jobs", "libtext.asgi"])
def test_the_reference_lists_every_public_name(package: str) -> None:
    module = importlib.import_module(package)
    shown = documented()
    names = {target.rsplit(".", 1)[-1] for target in shown}
    missing = [
        name
        for name in module.__all__
        if not name.startswith("__") and name not in names and f"{package}.{name}" not in shown
    ]
    assert missing == [], f"{package}: not in the reference: {missing}"


BLOCK = re.compile(r"^::: ([\w.]+)((?:\n    .*)*)", flags=re.M)


def test_a_class_shown_with_its_mixins_methods() -> None:
    """mkdocstrings leaves inherited members out unless told: TextStore's review methods
    (``update``, ``diff``, ``revert``...) and ``JobQueue.submit_tree`` come from mixins, and
    the reference showed neither."""
    hidden = []
    for page in (ROOT / "docs").rglob("*.md"):
        for target, options in BLOCK.findall(page.read_text(encoding="utf-8")):
            module, _, name = target.rpartition(".")
            try:
                obj = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError):
                continue
            if not isinstance(obj, type) or "inherited_members: true" in options:
                continue
            inherited = {
                member
                for base in obj.__mro__[1:]
                if base.__module__.startswith("libtext.")
                for member in vars(base)
                if not member.startswith("_") and member not in vars(obj)
            }
            if inherited:
                hidden.append(f"{page.name}: {target} {sorted(inherited)}")
    assert hidden == []


def test_every_schema_property_and_parameter_has_a_description() -> None:
    pytest.importorskip("fastapi")
    from libtext.asgi import Settings, create_app

    schema: dict[str, Any] = create_app(settings=Settings()).openapi()
    empty = [
        f"{name}.{field}"
        for name, model in schema["components"]["schemas"].items()
        for field, prop in model.get("properties", {}).items()
        if not str(prop.get("description", "")).strip()
    ]
    empty += [
        f"{method.upper()} {path} {param['name']}"
        for path, item in schema["paths"].items()
        for method, op in item.items()
        for param in op.get("parameters", [])
        if not str(param.get("description", "")).strip()
    ]
    assert empty == []


def test_model_field_docstrings_are_their_descriptions() -> None:
    from libtext.models import Section

    assert Section.model_fields["chapter_title"].description == "The chapter's title."
