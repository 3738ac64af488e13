"""Markdown: CommonMark with ``[^n]`` footnotes, links inline, Hebrew kept right-to-left.

Each Hebrew paragraph is wrapped in ``<div dir="rtl" lang="he">`` with blank lines
inside, so CommonMark still parses the Markdown in it (an HTML block ends at the blank
line) and every renderer that keeps HTML attributes (GitHub, GitLab, mkdocs, pandoc,
markdown-it) lays it out right-to-left. Markdown has no two-column layout of its own:
phrases are always interleaved, Hebrew then English.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from libtext.export._view import Note, Phrase, all_notes, link_label, meta, sections

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from libtext.models import ProcessedDocument

__all__ = ["markdown_chunks"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>&|~$])")
_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


def escape(text: str) -> str:
    """Text that CommonMark shows as it is: no emphasis, link, HTML or list from it."""
    text = _SPECIAL.sub(r"\\\1", text)
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _url(url: str) -> str:
    return "<" + url.replace("<", "%3C").replace(">", "%3E").replace(" ", "%20") + ">"


def _refs(notes: tuple[Note, ...] | list[Note]) -> str:
    return "".join(f"[^{n.number}]" for n in notes)


def _rtl(text: str) -> str:
    return f'<div dir="rtl" lang="he">\n\n{text}\n\n</div>\n\n'


def _phrase(p: Phrase) -> str:
    out = _rtl(escape(p.hebrew) + _refs(p.notes))
    english = escape(p.english) if p.english else "*(not translated)*"
    if p.link:
        label = escape(link_label(p.link)) + (" (coarse link)" if p.coarse else "")
        english += f" ([{label}]({_url(p.link)}))"
    return out + english + "\n\n"


def markdown_chunks(
    document: ProcessedDocument, *, revision: int | None, exported_at: datetime | None
) -> Iterator[str]:
    """The Markdown text, a section at a time."""
    m = meta(document, revision=revision, exported_at=exported_at)
    yield f"# {escape(m.heading)}\n\n"
    facts = [("Author", m.author), ("Publication", m.title), ("Work", m.work), ("Pages", m.pages)]
    for name, value in facts:
        if value:
            yield f"- {name}: {escape(value)}\n"
    yield f"- Sections: {m.sections}\n- {escape(m.revision_text)}\n\n"
    for view in sections(document):
        page = f" (p. {escape(view.page_ref)})" if view.page_ref else ""
        yield f"## {escape(view.heading)}{page}\n\n"
        if view.error:
            yield f"*Translation failed: {escape(view.error)}*\n\n"
        if view.phrases:
            yield "".join(_phrase(p) for p in view.phrases)
            if view.notes:
                yield _rtl(_refs(view.notes))
        else:
            yield _rtl(escape(" ".join(view.hebrew.split())) + _refs(view.notes))
        notes = all_notes(view)
        for n in notes:
            text = f'<span dir="rtl" lang="he">{escape(n.hebrew)}</span>'
            if n.english:
                text += " — " + escape(n.english)
            yield f"[^{n.number}]: {text}\n"
        if notes:
            yield "\n"
