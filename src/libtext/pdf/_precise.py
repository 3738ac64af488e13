"""The precise engine: pdfplumber's glyphs in visual order, put in logical order by bidi.

About thirty times slower than pdfium, but independent of pdfium's own reordering:
glyphs are grouped into lines by baseline, sorted left to right, spaces restored from
the gaps, each nikud mark placed just before its letter (so that reversing a
right-to-left run leaves it after the letter), and python-bidi's ``get_display``
with ``base_dir='R'`` turns the visual line into logical order, mirroring brackets.
"""

from __future__ import annotations

import io
import itertools
import unicodedata
from collections.abc import Callable
from typing import Any

from libtext.errors import EncryptedPDFError, InvalidPDFError, LibtextError
from libtext.pdf._read import RawLine, RawPage, reading_order
from libtext.pdf._text import is_mark, line_direction

__all__ = ["read_precise"]

_BOLD_WORDS = ("bold", "black", "heavy", "semibold", "demi")


def read_precise(
    data: bytes, *, name: str, password: str | None, check: Callable[[int], list[int]]
) -> tuple[list[RawPage], dict[str, str]]:
    """Read ``data`` with pdfplumber; ``check(page_count)`` picks (and limits) pages."""
    import pdfplumber

    try:
        pdf = pdfplumber.open(io.BytesIO(data), password=password or "")
    except Exception as exc:  # pdfminer raises many unrelated types, some with no message
        if "password" in repr(exc).lower() or "encrypt" in repr(exc).lower():
            raise EncryptedPDFError(
                f"{name or 'The PDF'} is encrypted: pass the right password='...'.",
                details={"source": name},
            ) from None
        raise InvalidPDFError(
            f"{name or 'The input'} cannot be read as a PDF (damaged or truncated).",
            details={"source": name},
        ) from None
    try:
        chosen = check(len(pdf.pages))
        pages = []
        for i in chosen:
            page = pdf.pages[i]
            chars = page.chars
            has_images = bool(page.images) if not chars else False
            pages.append(
                RawPage(
                    number=i + 1,
                    width=float(page.width),
                    height=float(page.height),
                    lines=reading_order(_lines(chars)),
                    chars=len(chars),
                    has_images=has_images,
                )
            )
            page.close()
        meta = {str(k): str(v) for k, v in (pdf.metadata or {}).items() if isinstance(v, str)}
    except LibtextError:
        raise
    except Exception:
        raise InvalidPDFError(
            f"{name or 'The input'} is damaged: a page could not be read.",
            details={"source": name},
        ) from None
    finally:
        pdf.close()
    return pages, meta


def _lines(chars: list[dict[str, Any]]) -> list[RawLine]:
    rows: list[list[dict[str, Any]]] = []
    for ch in sorted(chars, key=lambda c: (round(float(c["bottom"]), 1), float(c["x0"]))):
        if rows and abs(float(rows[-1][0]["bottom"]) - float(ch["bottom"])) <= 0.3 * float(
            ch["size"]
        ):
            rows[-1].append(ch)
        else:
            rows.append([ch])
    out: list[RawLine] = []
    for row in rows:
        row.sort(key=lambda c: float(c["x0"]))
        for item in _split(row):
            line = _visual_to_logical(item)
            if line is not None:
                out.append(line)
    return out


def _split(row: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    solid = [c for c in row if c["text"].strip()]
    if not solid:
        return []
    size = max(float(c["size"]) for c in solid)
    parts = [[solid[0]]]
    for prev, ch in itertools.pairwise(solid):
        if float(ch["x0"]) - float(prev["x1"]) > 2.0 * size:
            parts.append([])
        parts[-1].append(ch)
    return parts


def _distance(ch: dict[str, Any], x: float) -> float:
    lo, hi = float(ch["x0"]), float(ch["x1"])
    return 0.0 if lo <= x <= hi else min(abs(x - lo), abs(x - hi))


def _visual_to_logical(row: list[dict[str, Any]]) -> RawLine | None:
    from bidi import get_display

    bases = [c for c in row if not is_mark(c["text"])]
    if not bases:
        return None
    marks: dict[int, list[str]] = {}
    for c in row:
        if is_mark(c["text"]):
            center = (float(c["x0"]) + float(c["x1"])) / 2
            # The letter whose advance holds the mark; on a tie the narrower one.
            owner = min(
                range(len(bases)),
                key=lambda k: (
                    _distance(bases[k], center),
                    float(bases[k]["x1"]) - float(bases[k]["x0"]),
                ),
            )
            marks.setdefault(owner, []).append(c["text"])
    size = max(float(c["size"]) for c in bases)
    visual: list[str] = []
    for k, c in enumerate(bases):
        if k and float(c["x0"]) - float(bases[k - 1]["x1"]) > 0.2 * size:
            visual.append(" ")
        # A right-to-left cluster is written reversed, so that the bidi reversal
        # restores letter-then-marks (pdfplumber may give "נּ" as one character).
        if any("\u0590" <= ch <= "\u05ff" for ch in c["text"]):
            visual.extend(reversed(marks.get(k, [])))
            visual.append(c["text"][::-1])
        else:
            visual.append(c["text"])
            visual.extend(marks.get(k, ()))
    text = " ".join("".join(visual).split())
    base_dir = "R" if line_direction(text) == "R" else "L"
    logical = unicodedata.normalize("NFC", get_display(text, base_dir=base_dir))
    sizes = [round(float(c["size"]), 1) for c in bases]
    common = max(set(sizes), key=sizes.count)
    bold_chars = sum(
        1 for c in bases if any(w in str(c.get("fontname", "")).lower() for w in _BOLD_WORDS)
    )
    return RawLine(
        text=logical,
        size=common,
        bold=bold_chars * 2 > len(bases),
        y=round(max(float(c["bottom"]) for c in bases), 2),
        x0=min(float(c["x0"]) for c in row),
        x1=max(float(c["x1"]) for c in row),
    )
