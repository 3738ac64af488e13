"""What a write stores is what a read gets back: every body is checked by a round trip.

A ``ProcessedDocument`` can hold what its types forbid: pydantic does not validate
plain attribute assignment (``doc.sections[0].sequence_id = "x"``), ``model_construct``
skips validation, and a list can be given anything. Serializing such a document
either fails, warns and writes a shape that will not validate, or writes JSON that
reads back as a different document; a lone surrogate cannot be UTF-8 at all. Once
stored, such a text can never be read (``get`` raises ``StoreError``), so each write
serializes the document with warnings as errors and validates the JSON it will store
before anything is written, and refuses it with :class:`InvalidInputError` naming the
first field at fault.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import pydantic
from pydantic_core import PydanticSerializationError

from libtext.errors import InvalidInputError
from libtext.models import ProcessedDocument

__all__ = ["stored_body"]


def stored_body(document: ProcessedDocument) -> str:
    """The JSON to store for ``document``, checked to read back as the same document.

    Raises:
        InvalidInputError: The document cannot be stored as it is; ``details["field"]``
            is the dotted path of the first field at fault.
    """
    try:
        body = document.model_dump_json(warnings="error")
    except (PydanticSerializationError, ValueError, TypeError) as exc:
        path, why = _find_fault(document, ()) or ((), _first_line(exc))
        raise _invalid(path, why) from None
    try:
        ProcessedDocument.model_validate_json(body)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        raise _invalid(tuple(first["loc"]), first["msg"]) from None
    return body


def _invalid(path: tuple[Any, ...], why: str) -> InvalidInputError:
    field = ".".join(str(p) for p in path) or "document"
    return InvalidInputError(
        f"The document cannot be stored: {field}: {why}. Nothing was written; fix the "
        "field (assigning to a model's attributes is not validated: build the document "
        "with ProcessedDocument.model_validate(...) or model_copy(update=...) and check it).",
        details={"field": field},
    )


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _bad_string(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _accepts(annotation: Any, value: Any) -> bool:
    """Whether ``value`` has a type ``annotation`` allows (shallow: lists by their items)."""
    if annotation is Any:
        return True
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(arg, value) for arg in typing.get_args(annotation))
    if origin is typing.Annotated:
        return _accepts(typing.get_args(annotation)[0], value)
    if origin is typing.Literal:
        return value in typing.get_args(annotation)
    if origin is list:
        (item,) = typing.get_args(annotation) or (Any,)
        return isinstance(value, list) and all(_accepts(item, v) for v in value)
    if origin is dict:
        return isinstance(value, dict)
    if annotation is type(None):
        return value is None
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    return True  # a type this check does not know: leave it to the round trip


def _list_item(annotation: Any) -> Any:
    """``X`` of ``list[X]`` (or of ``list[X] | None``), else ``None``."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        lists = [a for a in typing.get_args(annotation) if typing.get_origin(a) is list]
        annotation = lists[0] if len(lists) == 1 else annotation
    if typing.get_origin(annotation) is list:
        return (typing.get_args(annotation) or (Any,))[0]
    return None


def _find_fault(value: Any, path: tuple[Any, ...]) -> tuple[tuple[Any, ...], str] | None:
    """The first field whose value its model's types do not allow, or an unencodable string."""
    if isinstance(value, pydantic.BaseModel):
        for name, info in type(value).model_fields.items():
            if name not in value.__dict__:
                return (*path, name), "missing (the model was built without validation)"
            field_value = value.__dict__[name]
            where = (*path, name)
            if not _accepts(info.annotation, field_value):
                item = _list_item(info.annotation)
                if item is not None and isinstance(field_value, list):
                    # name the item at fault, not the whole list
                    for i, v in enumerate(field_value):
                        if not _accepts(item, v):
                            return (*where, i), f"{type(v).__name__} is not of the field's type"
                return where, f"{type(field_value).__name__} is not of the field's type"
            if found := _find_fault(field_value, where):
                return found
        return None
    if isinstance(value, list):
        for i, item in enumerate(value):
            if found := _find_fault(item, (*path, i)):
                return found
        return None
    if isinstance(value, dict):
        for k, item in value.items():
            if found := _find_fault(item, (*path, k)):
                return found
        return None
    if isinstance(value, str) and _bad_string(value):
        return path, "holds a lone surrogate, which is not valid Unicode text"
    return None
