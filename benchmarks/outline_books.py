"""Real books as documents: do the offline outline's sections start where the book does?

For every PDF of the open set (``../shared/realdata/pdfs``), the offline outline
(``offline_outline``) and the sections ``process_document`` cuts from it
(``cut_sections`` of ``chapter_sections``: the same cut, without translating) are
compared with the hand-written gold (``<name>.gold.json``, ``<name>.pages.json``):

* ``gold``: chapter-level headings the gold lists (``headings``); ``opened``: those
  that open a section (a section whose title, or first text line, reads as the
  heading, on its page or the next);
* ``hlines``: the gold's sampled heading lines after page 1 (``lines`` of kind
  ``heading``; for files with no heading list, the only structure gold there is);
  ``hopen``: those that open a section or are its title's lines;
* ``segs``: the outline's segments; ``secs``: the chapter sections (front matter
  left out); ``stray``: sections that open at no gold heading (files with a heading
  list only);
* ``empty``: sections left with no text (their start could not be placed, or fell
  where another section starts);
* ``front``: ``F`` when a leading front-matter section holds what comes before the
  first chapter, ``-`` when there is none;
* ``first``: whether the first chapter is the book's first gold heading (files with
  a heading list only);
* ``pgend``: sections whose end phrase is a page number (or has no letter);
* ``leaks``: contents rows, bare page numbers and running-header fields of the page
  gold found in the sections' text.

Nothing is compared with libtext's own line kinds: only with the gold.

    python benchmarks/outline_books.py [--data ../shared/realdata/pdfs] [--only NAME] [--json] [--cache DIR]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from libtext.headings import chapter_sections, offline_outline
from libtext.models import EnrichedSegment, ExtractedDocument
from libtext.pdf import extract_pdf
from libtext.process import FRONT_MATTER, cut_sections

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "realdata" / "pdfs"
_NUMBER = re.compile(r"^[\[(\-–—]?\s*\d{1,4}\s*[\])\-–—.]?$")
_ENTRY = re.compile(r"^(?P<title>.*?\S)\s*(?:\.{2,}|…+|(?:\s?\.){3,})?\s*(?P<page>\d{1,4})$")
_NEAR = 3
_ALIKE = 0.8


def norm(text: str) -> str:
    """Letters and digits only, without points, a leading section number or case."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"^\s*\d+(?:\.\d+)*\.?\s+", "", text)
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text).split()).casefold()


def similar(a: str, b: str) -> float:
    na, nb = norm(a), norm(b)
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    return difflib.SequenceMatcher(None, na, nb, autojunk=False).ratio()


def _head_lines(sec: EnrichedSegment, n: int = 3) -> list[str]:
    lines = [ln for ln in sec.original_hebrew_block.splitlines() if ln.strip()]
    return [" ".join(ln.split()) for ln in lines[:n]]


def _opens(sec: EnrichedSegment, title: str, page: int) -> bool:
    """Whether ``sec`` opens at the heading ``title`` printed on ``page``."""
    try:
        at = int(sec.page_ref)
    except ValueError:
        at = page
    if not page - 1 <= at <= page + 1:
        return False
    names = [sec.chapter_title, sec.segment_title, sec.segment_title.split(" — ")[-1]]
    heads = _head_lines(sec)
    if any(similar(t, title) >= _ALIKE for t in names if t):
        return True
    # A title over two lines: the section's first lines joined.
    return any(similar(" ".join(heads[: k + 1]), title) >= _ALIKE for k in range(len(heads)))


def _extract(pdf: Path, cache: Path | None) -> ExtractedDocument:
    """The extraction, kept in ``cache`` (when given) to measure outline changes fast."""
    if cache is None:
        return extract_pdf(pdf, max_pages=None, max_bytes=None)
    kept = cache / f"{pdf.stem}.json"
    if kept.is_file():
        return ExtractedDocument.model_validate_json(kept.read_text("utf-8"))
    doc = extract_pdf(pdf, max_pages=None, max_bytes=None)
    cache.mkdir(parents=True, exist_ok=True)
    kept.write_text(doc.model_dump_json(), "utf-8")
    return doc


def measure(pdf: Path, cache: Path | None = None) -> dict[str, Any]:
    gold: dict[str, Any] = json.loads(pdf.with_suffix("").with_suffix(".gold.json").read_text())
    pages_path = pdf.parent / f"{pdf.stem}.pages.json"
    page_gold: dict[str, Any] = (
        json.loads(pages_path.read_text("utf-8")) if pages_path.is_file() else {"pages": []}
    )
    doc = _extract(pdf, cache)
    outline = offline_outline(doc)
    sections = cut_sections(doc, chapter_sections(doc, outline))
    chapters = [s for s in sections if s.sequence_id != 0 and s.original_hebrew_block.strip()]
    front = any(s.segment_title == FRONT_MATTER for s in sections)
    heads = gold.get("headings", [])
    opened = [
        h
        for h in heads
        if any(
            _opens(s, t, h["page"])
            for s in chapters
            for t in [h["title"], *h.get("alt_titles", [])]
        )
    ]
    stray = [
        s.segment_title
        for s in chapters
        if heads
        and not any(
            _opens(s, t, h["page"]) for h in heads for t in [h["title"], *h.get("alt_titles", [])]
        )
    ]
    hlines = [ln for ln in gold["lines"] if ln["kind"] == "heading" and ln["page"] > 1]
    hopen = [ln for ln in hlines if any(_opens(s, ln["text"], ln["page"]) for s in chapters)]
    first = None
    if heads and chapters:
        want = [heads[0]["title"], *heads[0].get("alt_titles", [])]
        first = any(_opens(chapters[0], t, heads[0]["page"]) for t in want)
    ends = [s.end_phrase_hebrew for s in sections if s.end_phrase_hebrew.strip()]
    pgend = [e for e in ends if _NUMBER.match(e) or not any(ch.isalpha() for ch in e)]
    return {
        "file": pdf.stem,
        "pages": len(doc.pages),
        "gold": len(heads),
        "opened": len(opened),
        "hlines": len(hlines),
        "hopen": len(hopen),
        "segs": len(outline.outline_segments),
        "secs": len(chapters),
        "stray": len(stray),
        "empty": sum(1 for s in sections if not s.original_hebrew_block.strip()),
        "stray_titles": stray[:8],
        "missed": [h["title"] for h in heads if h not in opened][:8],
        "missed_lines": [ln["text"] for ln in hlines if ln not in hopen][:8],
        "front": front,
        "first": first,
        "pgend": len(pgend),
        "leaks": _leaks(sections, gold, page_gold),
    }


def _leaks(sections: list[EnrichedSegment], gold: dict[str, Any], pages: dict[str, Any]) -> int:
    """Contents rows, bare page numbers and running fields of the page gold in the text."""
    titles = [t for h in gold.get("headings", []) for t in [h["title"], *h.get("alt_titles", [])]]
    lines = [
        " ".join(ln.split())
        for s in sections
        for ln in s.original_hebrew_block.splitlines()
        if ln.strip()
    ]
    body = {norm(ln) for p in pages["pages"] for block in p["body"] for ln in block}
    count = 0
    for k, line in enumerate(lines):
        if titles and any(similar(line, t) >= _ALIKE for t in titles):
            count += k + 1 < len(lines) and lines[k + 1].isdigit()
            continue
        m = _ENTRY.match(line)
        row = bool(m and titles and any(similar(m["title"], t) >= _ALIKE for t in titles))
        count += row or bool(_NUMBER.match(line) and norm(line) not in body)
    normed = [norm(ln) for ln in lines]
    for page in pages["pages"]:
        text = [norm(ln) for block in page["body"] for ln in block]
        at = [k for k, ln in enumerate(normed) if ln and text and ln in (text[0], text[-1])]
        if not at:
            continue
        fields = {
            norm(f)
            for f in [*page.get("header", []), *page.get("footer", []), page.get("page_number", "")]
            if f
        } - set(text)
        fields.discard("")
        near = normed[max(min(at) - _NEAR, 0) : max(at) + _NEAR + 1]
        count += sum(1 for f in fields if f in near and not _NUMBER.match(f))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--cache", type=Path, help="keep extractions here (outline work: extraction unchanged)"
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args()
    pdfs = sorted(
        p for p in args.data.glob("*.pdf") if (p.parent / f"{p.stem}.gold.json").is_file()
    )
    if args.only:
        pdfs = [p for p in pdfs if any(o in p.stem for o in args.only)]
    rows = [measure(p, args.cache) for p in pdfs]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    cols = ["pages", "gold", "opened", "hlines", "hopen", "segs", "secs", "stray", "empty"]
    cols += ["pgend", "leaks"]
    print(f"{'file':42} " + " ".join(f"{c:>6}" for c in cols) + "  front first")
    for r in rows:
        first = "-" if r["first"] is None else ("yes" if r["first"] else "NO")
        print(
            f"{r['file'][:42]:42} "
            + " ".join(f"{r[c]:>6}" for c in cols)
            + f"  {'F' if r['front'] else '-':>5} {first:>5}"
        )
        if args.verbose:
            for key in ("missed", "stray_titles", "missed_lines"):
                if r[key]:
                    print(f"    {key}: {r[key]}")
    total = {c: sum(r[c] for r in rows) for c in cols}
    firsts = [r["first"] for r in rows if r["first"] is not None]
    print(
        f"{'TOTAL':42} "
        + " ".join(f"{total[c]:>6}" for c in cols)
        + f"  {sum(r['front'] for r in rows):>5} {sum(firsts):>2}/{len(firsts)}"
    )
    print(
        f"gold headings opening a section {total['opened']}/{total['gold']}, "
        f"sampled heading lines {total['hopen']}/{total['hlines']}, "
        f"sections at no gold heading {total['stray']}, empty sections {total['empty']}, "
        f"page-number ends {total['pgend']}, leaks {total['leaks']}"
    )


if __name__ == "__main__":
    main()
