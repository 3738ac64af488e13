"""The online library's page HTML and note text -> plain Hebrew, headings and footnotes.

Pure functions, no I/O, shared by every path of :class:`~libtext.library.LibraryClient`.

The library writes its own markup as ASCII tokens in square brackets inside the HTML
(as recorded from the live site and read by public clients):

* ``[ftnref_G_N]`` a footnote's marker (``G`` the note's running id in the work, ``N``
  the printed label) and ``[ftn_G_N]`` where that note begins, in the page's
  ``haoros`` (or at the end of the text); endnotes alike: ``[ednref_G_N]``,
  ``[ednrefm_G_N]`` and ``[edn_G_N]``;
* ``[hagoho]…[/hagoho]`` (a gloss), ``[kitzur]…[/kitzur]`` and
  ``[kitzur_begin]…[kitzur_end]`` (a summary), ``[new_section]``: paragraphs of
  their own;
* ``[quotation]…[/quotation]``: quotation marks;
* ``[mafteach_gopage … gopage="240"]``, ``[mafteach_goterm … goterm="…"]`` and
  ``[mrzlg_X]``: index references whose page number or words are part of the text;
* ``[oldpage_לח]``: a page of the printed edition starts here (kept as a marker,
  :class:`~libtext.models.PrintedPage`, not as text);
* ``[cup]``, ``[dibur_maschil]``, ``[mudgash]``, ``[small_begin]``,
  ``[headingintext_begin]``, ``[zman_begin]`` … around emphasized words: dropped.

Any other ASCII token is dropped too, its words kept, and counted by name in
``unknown_tokens``, so a token the site starts sending shows up instead of
vanishing. Hebrew in square brackets (``[אבות פ"ב]``) is the author's own text.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

from libtext.models import Footnote, PrintedPage

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

# A library token: an ASCII name, an optional `_suffix` (ids, labels, Hebrew words)
# and optional attributes. Hebrew in brackets does not start with an ASCII letter.
_TOKEN_RE = re.compile(r"\[(/?)([A-Za-z][A-Za-z0-9]*)((?:_[^\[\]\s]*)?)(\s[^\[\]]*)?\]")
# Names and values stop at "[": a long run of "[ftn_x" without "]" is read once, not from
# each "[" to its end; an attribute name is tried where a word starts, for the same reason.
_REF_RE = re.compile(r"\[(ftnref|ednrefm?)_([^\[\]_\s]+)_([^\[\]\s]+)\]")
_NOTE_RE = re.compile(r"\[(ftn|edn)_([^\[\]_\s]+)_([^\[\]\s]+)\][ \t\u00a0]*[).]?")
_ATTR_RE = re.compile(r"""(?<![A-Za-z_])([A-Za-z_]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
_HEBREW_RE = re.compile(r"[\u05d0-\u05ea]")
_DIGITS_RE = re.compile(r"[0-9]+")
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]+")
_SPACES_RE = re.compile(r"[ \t\u00a0\u200f\u200e\f\v]+")
_NOTE_START_RE = re.compile(r"^\s*\(?([0-9]{1,3}\*?|[א-ת]{1,3}['׳]?|\*+)[).]\s*")

# Tokens whose words are text and whose brackets only format them.
_FORMAT = frozenset(
    {
        "cup", "dibur_maschil", "mudgash", "bold", "big", "center", "small", "italic",
        "small_begin", "small_end", "smallitalic_begin", "smallitalic_end",
        "headingintext_begin", "headingintext_end", "zman_begin", "zman_end",
    }
)  # fmt: skip
# Tokens that set their words apart as a paragraph.
_BREAK = frozenset({"hagoho", "kitzur", "kitzur_begin", "kitzur_end", "new_section"})
_REFS = frozenset({"ftnref", "ednref", "ednrefm"})
_NOTES = frozenset({"ftn", "edn"})
_QUOTE = '"'

_HEADING_OPEN = "\x02"
_HEADING_CLOSE = "\x03"
_PAGE_MARK = "\x04"

NoteKey = tuple[str, str, str]
"""``(kind, G, N)``: ``kind`` is ``ftn`` or ``edn``, ``G`` the note's id, ``N`` its label."""


@dataclass(slots=True)
class ParsedPage:
    """A page after cleanup: text, headings, footnotes, printed pages and unknown tokens."""

    text: str
    headings: list[str] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    printed_pages: list[PrintedPage] = field(default_factory=list)
    unknown_tokens: dict[str, int] = field(default_factory=dict)


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


def _attrs(text: str) -> dict[str, str]:
    return {
        m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or ""
        for m in _ATTR_RE.finditer(text)
    }


def _token_name(closing: str, name: str, suffix: str) -> str:
    """An unknown token's name for counting: numbers as ``N``, other words as ``…``."""
    suffix = _NON_ASCII_RE.sub("…", _DIGITS_RE.sub("N", suffix))
    return f"[{closing}{name}{suffix}]"[:40]


def _unknown_words(suffix: str, attrs: str) -> str:
    """The Hebrew an unknown token carries (in attribute values or its suffix): kept."""
    values = [v for v in _attrs(attrs).values() if _HEBREW_RE.search(v)]
    if not values:
        values = [p for p in suffix.split("_") if _HEBREW_RE.search(p)]
    return " ".join(values)


@dataclass(slots=True)
class _Tokens:
    """Renders library tokens in extracted text; remembers what it met."""

    names: dict[NoteKey, str] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)
    breaks: str = "\n"

    def __call__(self, m: re.Match[str]) -> str:
        closing, name, suffix, attrs = m.group(1), m.group(2).lower(), m.group(3), m.group(4) or ""
        full = name + suffix.lower()
        if full in _FORMAT or name in _NOTES:
            return ""  # a note start left in running text: its words follow it
        if full in _BREAK:
            return self.breaks
        if full == "quotation":
            return _QUOTE
        if name in _REFS and not closing:
            parts = suffix[1:].split("_", 1)  # as _REF_RE reads it: G has no "_"
            if len(parts) == 2:
                kind = "ftn" if name == "ftnref" else "edn"
                return f"[{self.names.get((kind, parts[0], parts[1]), parts[1])}]"
        if name == "oldpage" and suffix and not closing:
            self.pages.append(suffix[1:])
            return _PAGE_MARK
        if name == "mrzlg" and not closing:
            return " ".join(suffix[1:].split("_"))
        if full == "mafteach_gopage":
            page = _attrs(attrs).get("gopage", "")
            return f"עמ' {page}" if page else ""
        if full == "mafteach_goterm":
            return _attrs(attrs).get("goterm", "")
        self.unknown[_token_name(closing, name, suffix)] += 1
        return _unknown_words(suffix, attrs)

    def render(self, text: str) -> str:
        return _TOKEN_RE.sub(self, text)


def _printed_pages(text: str, labels: list[str]) -> tuple[str, list[PrintedPage]]:
    """Text without page sentinels, and each printed page's start offset in it."""
    marks: list[PrintedPage] = []
    parts = text.split(_PAGE_MARK)
    out = parts[0]
    for k, part in enumerate(parts[1:]):
        if k < len(labels):
            marks.append(PrintedPage(label=labels[k], offset=len(out)))
        out += part
    return out, marks


def plain(html: str) -> str:
    """Markup-free one-line text (headings of the table of contents, search snippets)."""
    tokens = _Tokens(breaks=" ")
    text = _extract(html).replace(_HEADING_OPEN, " ").replace(_HEADING_CLOSE, " ")
    text = _REF_RE.sub("", text)
    return " ".join(tokens.render(text).replace(_PAGE_MARK, " ").split())


def _marker_names(refs: list[NoteKey]) -> dict[NoteKey, str]:
    """``N`` for each note; ``G.N`` where two notes on the page share a label."""
    keys_of: dict[str, set[NoteKey]] = {}
    for key in refs:
        keys_of.setdefault(key[2], set()).add(key)
    return {key: key[2] if len(keys_of[key[2]]) == 1 else f"{key[1]}.{key[2]}" for key in refs}


def html_to_text(html: str, names: dict[NoteKey, str] | None = None) -> ParsedPage:
    """Page HTML -> text with headings on their own lines and note markers as ``[N]``.

    Args:
        html: The page's ``text`` as the library sends it.
        names: Display names of note markers by ``(kind, G, N)``; by default ``N``.
    """
    tokens = _Tokens(names=names or {})
    text = _tidy(tokens.render(_extract(html)))
    headings: list[str] = []
    lines: list[str] = []
    for line in text.split("\n"):
        if _HEADING_OPEN in line or _HEADING_CLOSE in line:
            line = " ".join(line.replace(_HEADING_OPEN, " ").replace(_HEADING_CLOSE, " ").split())
            if not line.replace(_PAGE_MARK, ""):
                continue
            headings.append(line.replace(_PAGE_MARK, ""))
        lines.append(line)
    body, marks = _printed_pages("\n".join(lines), tokens.pages)
    return ParsedPage(
        text=body, headings=headings, printed_pages=marks, unknown_tokens=dict(tokens.unknown)
    )


def _notes(notes: str, names: dict[NoteKey, str], unknown: Counter[str]) -> list[Footnote]:
    if not notes or not notes.strip():
        return []
    starts = list(_NOTE_RE.finditer(notes))
    footnotes: list[Footnote] = []
    tokens = _Tokens(breaks=" ")

    def content(raw: str) -> str:
        text = _extract(raw).replace(_HEADING_OPEN, " ").replace(_HEADING_CLOSE, " ")
        return " ".join(tokens.render(text).replace(_PAGE_MARK, " ").split())

    if starts:
        lead = content(notes[: starts[0].start()])
        if lead:  # words before the first note: kept as a note of their own
            footnotes.append(Footnote(marker="*", content=lead))
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(notes)
            marker = names.get((m.group(1), m.group(2), m.group(3)), m.group(3))
            footnotes.append(Footnote(marker=marker, content=content(notes[m.end() : end])))
    else:
        blocks = re.split(r"\r?\n\s*\r?\n|<br\s*/?>\s*<br\s*/?>", notes)
        for k, block in enumerate(b for b in blocks if content(b)):
            text = content(block)
            lead_m = _NOTE_START_RE.match(text)
            if lead_m:
                footnotes.append(
                    Footnote(marker=lead_m.group(1), content=text[lead_m.end() :].strip())
                )
            else:
                footnotes.append(Footnote(marker=str(k + 1), content=text))
    unknown.update(tokens.unknown)
    return footnotes


def parse_notes(notes: str, names: dict[NoteKey, str] | None = None) -> list[Footnote]:
    """The page's ``haoros`` -> footnotes in order, markers as shown in the text.

    Notes start with ``[ftn_G_N]`` or ``[edn_G_N]`` (optionally followed by ``)`` or
    ``.``). Without such tokens, notes are the blank-line separated paragraphs, each
    marked by a leading ``N)`` or ``(N)`` when it has one, else by its position.
    """
    return _notes(notes, names or {}, Counter())


def parse_page(html: str, notes: str = "") -> ParsedPage:
    """A page's HTML and ``haoros`` -> text, headings, footnotes and printed pages.

    Notes written at the end of the text itself (from the first ``[ftn_…]`` or
    ``[edn_…]`` on) are read as notes, before any in ``haoros``.
    """
    html = html or ""
    inline = _NOTE_RE.search(html)
    inline_notes = ""
    if inline is not None:
        html, inline_notes = html[: inline.start()], html[inline.start() :]
    refs: list[NoteKey] = []
    for m in _REF_RE.finditer(html):
        refs.append(("ftn" if m.group(1) == "ftnref" else "edn", m.group(2), m.group(3)))
    for m in _NOTE_RE.finditer(inline_notes + "\n" + (notes or "")):
        refs.append((m.group(1), m.group(2), m.group(3)))
    names = _marker_names(list(dict.fromkeys(refs)))
    page = html_to_text(html, names)
    unknown = Counter(page.unknown_tokens)
    page.footnotes = _notes(inline_notes, names, unknown) + _notes(notes or "", names, unknown)
    page.unknown_tokens = dict(unknown)
    return page
