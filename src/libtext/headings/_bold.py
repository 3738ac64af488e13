"""Section titles printed at body size, told only by weight and the space above them.

Word's and Google Docs' plain section titles are often the body font in bold: no
larger size for the layout rules to see, and no bookmarks. :func:`bold_titles` finds
them as a reader does: a short bold line, alone (the next line is not bold, or is a
bold lead-in ending in a colon), that is
neither a list item nor a lead-in (no final stop, comma or colon), with more space
above it than between the lines of a paragraph. Run-in bold phrases inside paragraphs
have none of that space, so they are never taken.
"""

from __future__ import annotations

import re
from itertools import pairwise
from statistics import median

from libtext.models import ExtractedDocument, ExtractedLine

__all__ = ["bold_titles"]

_MAX_WORDS = 10
_GAP = 1.6  # space above a title, in the page's usual line steps
_SIZE = 0.12  # a body-size title is within this share of the body size
_LIST = re.compile(r"^\s*(?:[•·▪◦o\-–*]|\(?[א-ת\d]{1,2}[.)]\s)")
_LEAD_IN = (".", ",", ":", ";", "!", "?")


def _steps(lines: list[ExtractedLine]) -> float:
    gaps = [b.y - a.y for a, b in pairwise(lines) if b.y - a.y > 0]
    return median(gaps) if gaps else 0.0


def bold_titles(doc: ExtractedDocument) -> dict[int, set[int]]:
    """Body-size bold titles at section starts: page number -> line indices."""
    body = doc.body_size
    if not body or any(h.source == "bookmark" for h in doc.headings):
        return {}
    out: dict[int, set[int]] = {}
    for page in doc.pages:
        idx = [
            i
            for i, ln in enumerate(page.lines)
            if ln.kind in ("body", "heading") and ln.text.strip()
        ]
        lines = [page.lines[i] for i in idx]
        step = _steps([ln for ln in lines if ln.kind == "body"])
        if not step:
            continue
        for n, (i, ln) in enumerate(zip(idx, lines, strict=True)):
            text = " ".join(ln.text.split())
            if (
                not ln.bold
                or abs(ln.size - body) > _SIZE * body
                or len(text.split()) > _MAX_WORDS
                or _LIST.match(text)
                or text.rstrip(")]\"'״”’").endswith(_LEAD_IN)
            ):
                continue
            after = lines[n + 1] if n + 1 < len(lines) else None
            # Alone: the next line is not bold, or is a bold lead-in to a list under it.
            if after is None or (after.bold and not after.text.rstrip().endswith(":")):
                continue
            above = ln.y - lines[n - 1].y if n else float("inf")
            if above >= _GAP * step:
                out.setdefault(page.number, set()).add(i)
    return out
