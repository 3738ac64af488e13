"""Phrases of a Hebrew block: splitting, aligning a model's phrases, expanding abbreviations.

Pure functions shared by the Translator (any provider) and the offline translation.
Everything works on *spans* of the block, so a phrase is always an exact slice of it and
the phrases' concatenation gives the block back, whatever a model answered:

* :func:`split_phrases` cuts a block into sense units (clauses ending in punctuation,
  a citation on its own), never inside a citation.
* :func:`align_phrases` locates a model's phrases in the block by their letters only
  (nikud, punctuation, quote marks and spacing ignored), repairs near misses, and fills
  what the model left out with gap pieces, so coverage is guaranteed and reported.
* :func:`expand_abbreviations` spells out rashei teivot from the bundled table.
"""

from __future__ import annotations

import itertools
import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import cache
from importlib import resources

from libtext.hebrew import normalize_quotes, strip_nikud
from libtext.sefaria import translate_citation

__all__ = [
    "Piece",
    "abbreviations",
    "align_phrases",
    "citation_english",
    "covers",
    "expand_abbreviations",
    "has_letters",
    "letters",
    "letters_key",
    "split_phrases",
]

MAX_WORDS = 14
"""Longest phrase the offline splitter makes; longer clauses are cut evenly."""

FUZZY_MAX = 2000
"""Longest phrase (in letters) matched approximately; SequenceMatcher is quadratic, and
a model's phrase is a clause, not a chapter."""

_FINAL_PAIRS = tuple(zip("ךםןףץ", "כמנפצ", strict=True))
_TOKEN = re.compile(r"\S+")
_CLOSERS = "\"'\u05f3\u05f4\u201d\u2019)]}»"
_BREAK_AFTER = ".:;!?,"
_SPACE = re.compile(r"\s+")
_MARKER = re.compile(r"^[(\[](?:[\u05d0-\u05ea]{1,2}|\d{1,3}|\*)[)\]][.,:;!?\"']*$")


_KEY_CHAR = re.compile(r"[\u05d0-\u05ea0-9A-Za-z]")
_KEY_RUN = re.compile(r"[\u05d0-\u05ea0-9A-Za-z]+")
_NOT_KEY = re.compile(r"[^\u05d0-\u05ea0-9A-Za-z]+")


def _is_key(ch: str) -> bool:
    return _KEY_CHAR.match(ch) is not None


def letters_key(text: str) -> tuple[str, list[int]]:
    """The letters of ``text`` (final forms folded, Latin lowercased) and their offsets.

    Nikud, punctuation, quote marks and whitespace are not part of the key, so two texts
    with the same key are the same "modulo whitespace and punctuation".
    """
    offsets: list[int] = []
    for m in _KEY_RUN.finditer(text):  # runs of letters: one step per word, not per letter
        offsets.extend(range(m.start(), m.end()))
    return letters(text), offsets


def letters(text: str) -> str:
    """The key of :func:`letters_key` without the offsets (fast: no Python loop)."""
    key = _NOT_KEY.sub("", text).lower()
    # Five str.replace passes: str.translate with a dict is ~20x slower on Hebrew text.
    for final, plain in _FINAL_PAIRS:
        if final in key:
            key = key.replace(final, plain)
    return key


def has_letters(text: str) -> bool:
    """Whether ``letters(text)`` is non-empty, without building it (stops at the first)."""
    return _KEY_CHAR.search(text) is not None


def covers(block: str, phrases: Sequence[str]) -> bool:
    """True when the phrases, concatenated, equal the block modulo whitespace and punctuation."""
    return letters("".join(phrases)) == letters(block)


@dataclass(frozen=True)
class Piece:
    """One phrase of a block after alignment.

    Attributes:
        start: Offset of the phrase's slice in the block (slices of consecutive pieces
            touch: together they are the whole block).
        end: Offset just past the slice.
        source: Index of the model's phrase it comes from; ``None`` for a gap the model
            left out.
        orphans: Indices of model phrases that could not be located and whose English
            belongs here (they stood where this gap is).
        repaired: The model's phrase differed from the block and was mapped to it.
    """

    start: int
    end: int
    source: int | None
    orphans: tuple[int, ...] = ()
    repaired: bool = False

    def text(self, block: str) -> str:
        """The phrase as printed (its slice, without surrounding whitespace)."""
        return block[self.start : self.end].strip()


@dataclass
class Alignment:
    """Pieces covering a block, plus what was wrong with the model's phrases."""

    pieces: list[Piece] = field(default_factory=list)
    gaps: int = 0
    repaired: int = 0
    dropped: list[int] = field(default_factory=list)


def _cut(block: str, end: int, limit: int) -> int:
    """Where a phrase ending at ``end`` hands over: after its closing marks and spaces."""
    i = end
    while i < limit and not block[i].isspace() and not _is_key(block[i]) and block[i] not in "([{":
        i += 1
    while i < limit and block[i].isspace():
        i += 1
    return min(i, limit)


def _partition(block: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Turn ordered, disjoint content spans into touching slices covering the whole block."""
    if not spans:
        return [(0, len(block))] if block else []
    cuts = [0]
    for (_, end), (nxt, _) in itertools.pairwise(spans):
        cuts.append(_cut(block, end, nxt))
    cuts.append(len(block))
    return list(itertools.pairwise(cuts))


def _ends_clause(token: str) -> str:
    """The clause-ending mark of a token (``""`` if none), looking past closing quotes."""
    core = token.rstrip(_CLOSERS)
    return core[-1] if core and core[-1] in _BREAK_AFTER else ""


def split_phrases(
    block: str,
    *,
    protected: Sequence[tuple[int, int]] = (),
    breaks: Sequence[int] = (),
    max_words: int = MAX_WORDS,
) -> list[tuple[int, int]]:
    """Cut a block into sense units; return touching ``(start, end)`` slices covering it.

    A phrase ends at a clause mark (``. : ; ! ? ,``) and around a parenthesis; a clause
    longer than ``max_words`` is cut into even parts. ``protected`` spans (citations) are
    never cut and become phrases of their own when in parentheses; a footnote marker such
    as ``(1)`` stays with the words before it. ``breaks`` are offsets where a phrase must
    start (e.g. after a heading line).
    """
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(block)]
    if not tokens:
        return [(0, len(block))] if block else []
    covered = {pos for s, e in protected for pos in range(s + 1, e)}
    pending = sorted(breaks)
    groups: list[list[tuple[int, int]]] = [[]]
    depth = 0
    last = len(tokens) - 1
    for k, (s, e) in enumerate(tokens):
        tok = block[s:e]
        group = groups[-1]
        while pending and pending[0] <= s:
            if group and group[-1][1] <= pending[0] and s not in covered:
                group = []
                groups.append(group)
            pending.pop(0)
        # An opening parenthesis starts a new phrase (a citation or an aside), a footnote
        # marker does not.
        first = tok[0]
        if first in "([" and group and depth == 0 and s not in covered and not _MARKER.match(tok):
            group = []
            groups.append(group)
        group.append((s, e))
        if first in "([" or tok[-1] in ")]" or "(" in tok or ")" in tok:
            depth += tok.count("(") + tok.count("[") - tok.count(")") - tok.count("]")
            depth = max(depth, 0)
        if depth or k == last or tokens[k + 1][0] in covered:
            continue
        end_char = tok[-1]
        if end_char in _BREAK_AFTER or end_char in _CLOSERS:
            core = tok.rstrip(_CLOSERS)
            closes = tok.rstrip(_BREAK_AFTER)[-1:] in (")", "]")
            if (core and core[-1] in _BREAK_AFTER) or closes:
                groups.append([])
    spans: list[tuple[int, int]] = []
    for group in groups:
        if not group:
            continue
        parts = max(1, -(-len(group) // max_words))
        size = -(-len(group) // parts)
        i = 0
        while i < len(group):
            j = min(i + size, len(group))
            while j < len(group) and group[j][0] in covered:
                j += 1  # never inside a citation: its numbers stay with its title
            spans.append((group[i][0], group[j - 1][1]))
            i = j
    spans = _merge_tiny(block, spans, protected)
    return _partition(block, spans)


class _Enclosing:
    """Whether some span of a set encloses ``[start, end)``, in O(log n) per question.

    Spans sorted by start, with the running maximum of their ends: a span starting at
    or before ``start`` reaches ``end`` iff that maximum does. (A scan of every span per
    phrase made long blocks quadratic: 20 s for 300 KB.)
    """

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.reach = list(itertools.accumulate((e for _, e in ordered), max))

    def __call__(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start) - 1
        return i >= 0 and self.reach[i] >= end


def _merge_tiny(
    block: str, spans: list[tuple[int, int]], protected: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Join a one-word phrase with no clause mark to the next one (``דע,`` stays alone), and
    a lone footnote marker to the phrase before it."""
    inside = _Enclosing(protected)
    out: list[tuple[int, int]] = []
    for span in spans:
        if out and _MARKER.match(block[span[0] : span[1]]):
            out[-1] = (out[-1][0], span[1])
            continue
        if out:
            ps, pe = out[-1]
            prev = block[ps:pe]
            if (
                len(prev.split()) == 1
                and not _ends_clause(prev)
                and not prev.startswith(("(", "["))
                and not block[span[0]].startswith(("(", "["))
                and not inside(ps, pe)
            ):
                out[-1] = (ps, span[1])
                continue
        out.append(span)
    return out


def _locate(key: str, pk: str, cursor: int) -> tuple[int, int, bool] | None:
    """Find a phrase's letters near ``cursor``: exactly, else a close approximate match."""
    slack = max(40, 2 * len(pk))
    window_end = min(len(key), cursor + len(pk) + slack)
    pos = key.find(pk, cursor, window_end)
    if pos >= 0:
        return pos, pos + len(pk), False
    if len(pk) >= 12:
        pos = key.find(pk, cursor)
        if pos >= 0:
            return pos, pos + len(pk), False
    window = key[cursor:window_end]
    if not window or len(pk) > FUZZY_MAX:
        return None
    matcher = SequenceMatcher(None, pk, window, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    matched = sum(b.size for b in blocks)
    if not blocks or matched < 0.75 * len(pk) or blocks[0].a > 0.25 * len(pk):
        return None
    return cursor + blocks[0].b, cursor + blocks[-1].b + blocks[-1].size, True


def align_phrases(block: str, phrases: Sequence[str]) -> Alignment:
    """Map a model's phrases onto the block; fill what it skipped; report the rest.

    Phrases are matched in order by their letters. A phrase found after a stretch of
    unmatched text leaves a gap piece for that stretch; a phrase that cannot be found
    near the cursor is dropped, its English handed to the gap where it stood (if any).
    """
    key, offsets = letters_key(block)
    result = Alignment()
    located: list[tuple[int, int, int, bool]] = []  # key start, key end, source, repaired
    cursor = 0
    for i, phrase in enumerate(phrases):
        pk = letters(phrase)
        found = _locate(key, pk, cursor) if pk else None
        if found is None:
            result.dropped.append(i)
            continue
        s, e, repaired = found
        located.append((s, e, i, repaired))
        cursor = e
    # Content spans in block offsets, with gap spans where the model skipped letters.
    spans: list[tuple[int, int, int | None, bool]] = []
    prev = 0
    for s, e, i, repaired in located:
        if s > prev:
            spans.append((offsets[prev], offsets[s - 1] + 1, None, False))
        spans.append((offsets[s], offsets[e - 1] + 1, i, repaired))
        prev = e
    if prev < len(key):
        spans.append((offsets[prev], offsets[-1] + 1, None, False))
    if not spans:
        if block:
            result.pieces.append(Piece(0, len(block), None, tuple(result.dropped)))
            result.dropped = []
        return result
    slices = _partition(block, [(s, e) for s, e, _, _ in spans])
    placed: set[int] = set()
    for k, ((start, end), (_, _, source, repaired)) in enumerate(zip(slices, spans, strict=True)):
        orphans: tuple[int, ...] = ()
        if source is None:
            result.gaps += 1
            before = max((sp[2] for sp in spans[:k] if sp[2] is not None), default=-1)
            after = min((sp[2] for sp in spans[k + 1 :] if sp[2] is not None), default=len(phrases))
            orphans = tuple(d for d in result.dropped if before < d < after)
            placed.update(orphans)
        result.repaired += repaired
        result.pieces.append(Piece(start, end, source, orphans, repaired))
    result.dropped = [d for d in result.dropped if d not in placed]
    return result


# ----------------------------------------------------------------- abbreviations


@cache
def abbreviations() -> dict[str, str]:
    """The bundled abbreviation table (``data/abbreviations.json``), keys in ASCII quotes."""
    raw = resources.files("libtext").joinpath("data/abbreviations.json").read_text("utf-8")
    table: dict[str, str] = json.loads(raw)["abbreviations"]
    return {strip_nikud(normalize_quotes(k)): v for k, v in table.items()}


_PREFIX = "ובהכלמש"
# From where a word starts: tried inside a long word, each try would read to its end.
_ABBR_TOKEN = re.compile(
    r"(?<![\u05d0-\u05ea\u0591-\u05c7])[\u05d0-\u05ea\u0591-\u05c7]+(?:[\"'\u05f3\u05f4][\u05d0-\u05ea]*)+"
)


def _expand_token(token: str) -> str | None:
    core = strip_nikud(normalize_quotes(token))
    table = abbreviations()
    for cut in range(0, min(3, len(core) - 2) + 1):
        prefix, rest = core[:cut], core[cut:]
        if any(ch not in _PREFIX for ch in prefix):
            break
        if rest in table:
            return prefix + table[rest]
    return None


def expand_abbreviations(text: str, *, protected: Sequence[tuple[int, int]] = ()) -> str:
    """Spell out known abbreviations: ``הקב"ה`` -> ``הקדוש ברוך הוא``; ``וכמ"ש`` -> ``וכמו שכתוב``.

    Tokens inside ``protected`` spans (citations, whose ``פ"ג`` are numbers) and tokens
    not in the table are left as printed.
    """

    if not any(q in text for q in "\"'\u05f3\u05f4"):
        return " ".join(text.split())  # no abbreviation without a geresh or gershayim

    def repl(m: re.Match[str]) -> str:
        if any(s <= m.start() < e for s, e in protected):
            return m.group(0)
        return _expand_token(m.group(0)) or m.group(0)

    return _SPACE.sub(" ", _ABBR_TOKEN.sub(repl, text)).strip()


_INLINE_MARKER = re.compile(r"(?<!\s)\s*[(\[](?:[\u05d0-\u05ea]{1,2}|\d{1,3}|\*)[)\]]")


def citation_english(phrase: str) -> str | None:
    """English of a phrase that is only citations, footnote markers kept; else ``None``.

    ``(בראשית א, א) (א).`` -> ``(Genesis 1:1) (א).``: the linker renders the citation and
    the marker stays as printed, so the reader can still find its note.
    """
    english = translate_citation(phrase)
    if english is not None or not _INLINE_MARKER.search(phrase):
        return english
    markers = [m.group(0).strip() for m in _INLINE_MARKER.finditer(phrase)]
    bare = _INLINE_MARKER.sub("", phrase)
    if not letters(bare):
        return None
    english = translate_citation(bare)
    if english is None:
        return None
    tail = len(english) - len(english.rstrip(".,:;"))
    head, punct = (english[:-tail], english[-tail:]) if tail else (english, "")
    return " ".join([head, *markers]) + punct
