"""The online library's page HTML and note text -> plain Hebrew, headings and footnotes.

Pure functions, no I/O, shared by every path of :class:`~libtext.library.LibraryClient`.

The library writes its own markup in square brackets inside the HTML text:

* ``[ftnref_G_N]`` a footnote's marker in the body (``G`` a note group, ``N`` the
  marker as printed) and ``[ftn_G_N]`` where that note begins, in the page's
  ``haoros`` (or, on some pages, at the end of the text itself);
* ``[cup]``, ``[dibur_maschil]``, ``[mudgash]`` (and their ``[/…]`` closers) around
  bold opening words, ``[small_begin]``/``[small_end]`` around small print,
  ``[oldpage_…]`` where a page of the printed edition begins, and similar
  ``[name_…]`` marks.

Markup tokens are lowercase ASCII; Hebrew in square brackets (``[אות א]``) is part of
the text and is kept. Unknown ``[word]`` tokens without an underscore are kept too:
removing words is worse than leaving a stray mark.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from libtext.models import Footnote

__all__ = ["ParsedPage", "html_to_text", "parse_notes", "parse_page", "plain"]

_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "figcaption", "figure", "footer", "header", "hr", "li", "main", "nav", "ol",
        "p", "pre", "section", "table", "tbody", "td", "th", "thead", "tr", "ul",
    }
)  # fmt: skip
_SKIP_TAGS = frozenset({"script", "style", "template", "noscript", "head", "title"})
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "col", "area"})

# Bracket tokens the library uses as markup (besides any [name_...] token).
_NAMED_MARKS = ("cup", "dibur_maschil", "mudgash", "small", "bold", "big", "center")
_FTNREF_RE = re.compile(r"\[ftnref_([^\]_\s]+)_([^\]\s]+)\]")
_FTN_RE = re.compile(r"\[ftn_([^\]_\s]+)_([^\]\s]+)\]\s*\)?")
_MARK_RE = re.compile(
    r"\[/?(?:[a-z][a-z0-9]*_[^\[\]\n]*|" + "|".join(_NAMED_MARKS) + r")\]", re.IGNORECASE
)
_SPACES_RE = re.compile(r"[ \t\u00a0\u200f\u200e\f\v]+")
_NOTE_START_RE = re.compile(r"^\s*\(?([0-9]{1,3}\*?|[א-ת]{1,3}['׳]?|\*+)[).]\s*")

_HEADING_OPEN = "\x02"
_HEADING_CLOSE = "\x03"


@dataclass(slots=True)
class ParsedPage:
    """A page after cleanup: text, the headings found in it and its footnotes."""

    text: str
    headings: list[str] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)


class _TextExtractor(HTMLParser):
    """Collects text; block tags become line breaks, headings are fenced by sentinels."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self._skip += 1
        elif tag in _HEADING_TAGS:
            self.parts.append("\n" + _HEADING_OPEN)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag in _HEADING_TAGS:
            self.parts.append(_HEADING_CLOSE + "\n")
        elif tag in _BLOCK_TAGS and tag not in _VOID_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _extract(html: str) -> str:
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def _tidy(text: str) -> str:
    """One space between words, no empty lines, no blanks at line ends."""
    lines = (_SPACES_RE.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _strip_marks(text: str) -> str:
    return _MARK_RE.sub("", text)


def plain(html: str) -> str:
    """Markup-free one-line text (headings of the table of contents, search snippets)."""
    text = _extract(html).replace(_HEADING_OPEN, " ").replace(_HEADING_CLOSE, " ")
    text = _FTNREF_RE.sub("", text)
    return " ".join(_strip_marks(text).split())


def _marker_names(refs: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """``N`` for each ``(G, N)``; ``G.N`` where two groups on the page share an ``N``."""
    groups_of: dict[str, set[str]] = {}
    for group, name in refs:
        groups_of.setdefault(name, set()).add(group)
    return {
        (group, name): name if len(groups_of[name]) == 1 else f"{group}.{name}"
        for group, name in refs
    }


def html_to_text(html: str, names: dict[tuple[str, str], str] | None = None) -> ParsedPage:
    """Page HTML -> text with headings on their own lines and markers as ``[N]``.

    Args:
        html: The page's ``text`` as the library sends it.
        names: Display names of footnote markers by ``(group, number)``; by default
            the printed number.
    """
    raw = _extract(html)
    names = names or {}

    def ref(m: re.Match[str]) -> str:
        return "[" + names.get((m.group(1), m.group(2)), m.group(2)) + "]"

    text = _tidy(_strip_marks(_FTNREF_RE.sub(ref, raw)))
    headings: list[str] = []
    lines: list[str] = []
    for line in text.split("\n"):
        if _HEADING_OPEN in line or _HEADING_CLOSE in line:
            line = " ".join(line.replace(_HEADING_OPEN, " ").replace(_HEADING_CLOSE, " ").split())
            if not line:
                continue
            headings.append(line)
        lines.append(line)
    return ParsedPage(text="\n".join(lines), headings=headings)


def parse_notes(notes: str, names: dict[tuple[str, str], str] | None = None) -> list[Footnote]:
    """The page's ``haoros`` -> footnotes in order, markers as shown in the text.

    Notes start with ``[ftn_G_N]`` (optionally followed by ``)``). Without such
    tokens, notes are the blank-line separated paragraphs, each marked by a leading
    ``N)`` or ``(N)`` when it has one, else by its position.
    """
    if not notes or not notes.strip():
        return []
    names = names or {}
    starts = list(_FTN_RE.finditer(notes))
    footnotes: list[Footnote] = []
    if starts:
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(notes)
            content = plain(notes[m.end() : end])
            marker = names.get((m.group(1), m.group(2)), m.group(2))
            footnotes.append(Footnote(marker=marker, content=content))
        return footnotes
    blocks = re.split(r"\r?\n\s*\r?\n|<br\s*/?>\s*<br\s*/?>", notes)
    for k, block in enumerate(b for b in blocks if plain(b)):
        content = plain(block)
        lead = _NOTE_START_RE.match(content)
        if lead:
            footnotes.append(Footnote(marker=lead.group(1), content=content[lead.end() :].strip()))
        else:
            footnotes.append(Footnote(marker=str(k + 1), content=content))
    return footnotes


def parse_page(html: str, notes: str = "") -> ParsedPage:
    """A page's HTML and ``haoros`` -> text, headings and footnotes.

    Notes written at the end of the text itself (from the first ``[ftn_…]`` on) are
    read as notes, before any in ``haoros``.
    """
    html = html or ""
    inline = _FTN_RE.search(html)
    inline_notes = ""
    if inline is not None:
        html, inline_notes = html[: inline.start()], html[inline.start() :]
    refs = [(m.group(1), m.group(2)) for m in _FTNREF_RE.finditer(html)]
    refs += [(m.group(1), m.group(2)) for m in _FTN_RE.finditer(inline_notes + "\n" + notes)]
    names = _marker_names(refs)
    page = html_to_text(html, names)
    page.footnotes = parse_notes(inline_notes, names) + parse_notes(notes or "", names)
    return page
