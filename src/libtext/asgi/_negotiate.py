"""Content negotiation of ``GET /api/texts/{slug}``: JSON, or a published file.

``?format=`` wins over ``Accept``; without either the answer is JSON. ``Accept`` is read
as RFC 9110 says: the highest ``q`` wins, ``q=0`` refuses a type, ties go to the order
written; ``*/*`` and ``application/*`` mean JSON. Anything else is a 406.
"""

from __future__ import annotations

from libtext.asgi._errors import NotAcceptableError
from libtext.errors import InvalidInputError
from libtext.export import FORMATS, MEDIA_TYPES, format_for

__all__ = ["ACCEPTED", "negotiate", "wants_json"]

ACCEPTED: dict[str, str] = {
    "application/json": "json",
    "*/*": "json",
    "application/*": "json",
    **{media.split(";")[0]: fmt for fmt, media in MEDIA_TYPES.items()},
}
"""Media type -> ``"json"`` or the export format served for it."""


def _choices(accept: str) -> list[tuple[float, int, str]]:
    out = []
    for i, part in enumerate(accept.split(",")):
        media, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if media:
            out.append((q, i, media.lower()))
    return out


def negotiate(accept: str | None, format: str | None = None) -> str:
    """``"json"`` or the export format (``"docx"``...) a request asks for.

    Raises:
        NotAcceptableError: Nothing asked for can be served (406), with the types that can.
    """
    offered = sorted(ACCEPTED)
    if format is not None:
        if format.strip().lower() == "json":
            return "json"
        try:
            return format_for(format)
        except InvalidInputError:
            raise NotAcceptableError(
                f"Unknown format {format!r}: use json or one of {', '.join(FORMATS)}.",
                details={"format": format, "formats": ["json", *FORMATS]},
            ) from None
    if accept is None or not accept.strip():
        return "json"
    ranked = sorted(_choices(accept), key=lambda c: (-c[0], c[1]))
    for q, _, media in ranked:
        if q > 0 and media in ACCEPTED:
            return ACCEPTED[media]
    raise NotAcceptableError(
        "None of the media types in Accept can be served; ask for one of "
        f"{', '.join(offered)} (or use ?format=).",
        details={"accept": accept[:200], "available": offered},
    )


def wants_json(accept: str | None) -> bool:
    """Whether a request with this ``Accept`` (and no ``format``) gets JSON."""
    try:
        return negotiate(accept) == "json"
    except NotAcceptableError:
        return False
