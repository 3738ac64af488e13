"""Real Hebrew PDFs: share of gold lines exact for libtext, poppler and pdfplumber + bidi.

For each PDF of the development set (``../shared/realdata/pdfs``: InDesign, Word,
Quartz, Print to PDF, LaTeX, Typst, OCR layers, each with a hand-written
``<name>.gold.json``) it prints, measured in the same run:

* libtext: ``extract_pdf`` (fast mode) on the whole file, timed (pages/s);
* poppler: ``pdftotext`` (Debian ``poppler-utils``; the column is skipped when absent);
* pdfplumber + bidi: ``extract_text()`` per page, each line put in logical order by
  python-bidi's ``get_display`` (the usual recipe for Hebrew).

A gold line counts when its text equals one of the page's lines after the scorer's
normalisation (NFC, invisible characters dropped, soft hyphen read as ``-``,
whitespace collapsed). A second table sums the files by producer kind (the first
word of the gold file's ``producer``: InDesign, Word, LuaLaTeX, ...) and says
whether libtext is ahead of both others there. Line kinds are not compared (the other tools have none), so
libtext's figure here can be above the scorer's. The baselines read only pages with
gold lines.

A third table reads whole pages (``<name>.pages.json``: every printed line of a page
by role, in reading order): the main text's character and word error rates and the
running headers, page numbers, margin notes and footnote lines leaked into it, for
each engine by producer kind, as ``realpdf_pages_score.py`` measures them. libtext's
pages/s is CPU time of the extraction in this process.

    python benchmarks/realpdfs.py [--data ../shared/realdata/pdfs]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import time
import unicodedata
from pathlib import Path
from typing import Any

from libtext import extract_pdf
from libtext.models import ExtractedDocument

ROOT = Path(__file__).resolve().parents[1]
_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u034f\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff",
    ),
    None,
)


def norm(text: str) -> str:
    text = unicodedata.normalize("NFC", text.translate(_INVISIBLE)).replace("\u00ad", "-")
    return " ".join(text.split())


def libtext_lines(pdf: Path) -> tuple[dict[int, set[str]], int, float, ExtractedDocument]:
    """Every page's lines, the page count and the CPU seconds of the extraction (read
    in this process, so that the CPU time is the extraction's own)."""
    start = time.process_time()
    doc = extract_pdf(pdf, max_pages=None, max_bytes=None, guard=False)
    seconds = time.process_time() - start
    pages = {p.number: {norm(ln.text) for ln in p.lines} for p in doc.pages}
    return pages, doc.page_count, seconds, doc


def poppler_lines(pdf: Path, numbers: set[int]) -> dict[int, set[str]]:
    out = {}
    for n in sorted(numbers):
        run = subprocess.run(
            ["pdftotext", "-f", str(n), "-l", str(n), "-enc", "UTF-8", str(pdf), "-"],
            capture_output=True,
            check=False,
        )
        text = run.stdout.decode("utf-8", "replace")
        out[n] = {norm(line) for line in text.splitlines()}
    return out


def plumber_lines(pdf: Path, numbers: set[int]) -> dict[int, set[str]]:
    import pdfplumber
    from bidi import get_display

    out: dict[int, set[str]] = {}
    with pdfplumber.open(pdf) as doc:
        for n in sorted(numbers):
            if n > len(doc.pages):
                continue
            text = doc.pages[n - 1].extract_text() or ""
            out[n] = {norm(str(get_display(line))) for line in text.splitlines()}
    return out


def poppler_text(pdf: Path, page: int) -> list[str]:
    run = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        check=False,
    )
    return run.stdout.decode("utf-8", "replace").splitlines()


def plumber_text(pdf: Path, page: int) -> list[str]:
    import pdfplumber
    from bidi import get_display

    with pdfplumber.open(pdf) as doc:
        if page > len(doc.pages):
            return []
        text = doc.pages[page - 1].extract_text() or ""
    return [str(get_display(line)) for line in text.splitlines()]


def page_errors(gold: dict[str, Any], body: list[str]) -> tuple[int, int, int, int, int, int]:
    """Character edits, gold characters, word edits, gold words, leaked fields and
    fields of one page: the page scorer's measures (``realpdf_pages_score.py``)."""
    from rapidfuzz.distance import Levenshtein

    want = norm(" ".join(line for block in gold.get("body", []) for line in block))
    got = norm(" ".join(body))
    fields = [*gold.get("header", []), *gold.get("footer", []), *gold.get("margin", [])]
    fields += gold.get("footnotes", [])
    if gold.get("page_number"):
        fields.append(gold["page_number"])
    leaks = sum(1 for f in fields if _count(f, got) > _count(f, want))
    return (
        int(Levenshtein.distance(got, want)),
        len(want),
        int(Levenshtein.distance(got.split(), want.split())),
        len(want.split()),
        leaks,
        len(fields),
    )


def _count(phrase: str, text: str) -> int:
    words = norm(phrase).split()
    if not words:
        return 0
    pattern = r"\s?".join(map(re.escape, words))
    return len(re.findall(r"(?<!\w)" + pattern + r"(?!\w)", text))


def share(gold: list[dict[str, object]], pages: dict[int, set[str]]) -> int:
    return sum(norm(str(g["text"])) in pages.get(int(str(g["page"])), set()) for g in gold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "realdata" / "pdfs")
    args = parser.parse_args()
    golds = sorted(args.data.glob("*.gold.json"))
    if not golds:
        raise SystemExit(f"no *.gold.json in {args.data}")
    poppler = shutil.which("pdftotext") is not None
    head = "| file | lines | libtext | pages/s |" + (" pdftotext |" if poppler else "")
    print(head + " pdfplumber+bidi |")
    print("|---" * (head.count("|") - 1 + 1) + "|")
    totals = {"gold": 0, "libtext": 0, "poppler": 0, "plumber": 0}
    kinds: dict[str, dict[str, int]] = {}
    all_pages = all_seconds = 0.0
    docs: dict[str, tuple[ExtractedDocument, str]] = {}
    for path in golds:
        gold = json.loads(path.read_text("utf-8"))
        pdf = args.data / gold["file"]
        lines = gold["lines"]
        numbers = {int(g["page"]) for g in lines}
        mine, count, seconds, doc = libtext_lines(pdf)
        docs[gold["file"]] = (doc, str(gold.get("producer") or "?").split()[0])
        all_pages += count
        all_seconds += seconds
        row = {"libtext": share(lines, mine), "plumber": share(lines, plumber_lines(pdf, numbers))}
        if poppler:
            row["poppler"] = share(lines, poppler_lines(pdf, numbers))
        totals["gold"] += len(lines)
        kind = kinds.setdefault(str(gold.get("producer") or "?").split()[0], {"files": 0})
        kind["files"] += 1
        kind["gold"] = kind.get("gold", 0) + len(lines)
        for key, value in row.items():
            totals[key] += value
            kind[key] = kind.get(key, 0) + value

        def pct(key: str, n: int = len(lines), row: dict[str, int] = row) -> str:
            return f"{100 * row[key] / n:.0f}%"

        cells = [gold["file"], str(len(lines)), pct("libtext"), f"{count / seconds:.0f}"]
        if poppler:
            cells.append(pct("poppler"))
        cells.append(pct("plumber"))
        print("| " + " | ".join(cells) + " |", flush=True)
    n = totals["gold"]
    cells = [
        "**total**",
        str(n),
        f"{100 * totals['libtext'] / n:.1f}%",
        f"{all_pages / all_seconds:.0f}",
    ]
    if poppler:
        cells.append(f"{100 * totals['poppler'] / n:.1f}%")
    cells.append(f"{100 * totals['plumber'] / n:.1f}%")
    print("| " + " | ".join(cells) + " |")
    print()
    others = ["poppler", "plumber"] if poppler else ["plumber"]
    print(
        "| producer | files | lines | libtext |"
        + (" pdftotext |" if poppler else "")
        + " pdfplumber+bidi | libtext ahead |"
    )
    print("|---" * (6 + poppler) + "|")
    for name, kind in sorted(kinds.items()):
        g = kind["gold"]
        best_other = max(kind[k] for k in others)
        verdict = (
            "yes"
            if kind["libtext"] > best_other
            else "tie"
            if kind["libtext"] == best_other
            else "NO"
        )
        cells = [name, str(kind["files"]), str(g)] + [
            f"{100 * kind[k] / g:.0f}%" for k in ["libtext", *others]
        ]
        print("| " + " | ".join([*cells, verdict]) + " |")
    if not poppler:
        print("(pdftotext not found: install poppler-utils for its column)")
    print()
    print(
        f"libtext: {all_pages:.0f} pages in {all_seconds:.1f} s CPU, {all_pages / all_seconds:.0f} pages/s"
    )
    print()
    whole_pages(args.data, docs, poppler)


_ENGINES = ("libtext", "poppler", "plumber")


def whole_pages(data: Path, docs: dict[str, tuple[ExtractedDocument, str]], poppler: bool) -> None:
    """The whole-page table: main text CER / WER and leaked fields per engine, by
    producer kind (``<name>.pages.json`` gold; libtext's main text is its body and
    heading lines, the others' their whole page text)."""
    engines = [e for e in _ENGINES if poppler or e != "poppler"]
    sums: dict[str, dict[str, list[int]]] = {}
    for path in sorted(data.glob("*.pages.json")):
        gold = json.loads(path.read_text("utf-8"))
        pdf = data / gold["file"]
        if gold["file"] not in docs:
            continue
        doc, kind = docs[gold["file"]]
        for gpage in gold["pages"]:
            n = int(gpage["page"])
            page = next((p for p in doc.pages if p.number == n), None)
            bodies = {
                "libtext": [ln.text for ln in page.lines if ln.kind in ("body", "heading")]
                if page
                else [],
                "plumber": plumber_text(pdf, n),
            }
            if poppler:
                bodies["poppler"] = poppler_text(pdf, n)
            for key in (kind, "**total**"):
                row = sums.setdefault(key, {})
                for engine in engines:
                    got = page_errors(gpage, bodies[engine])
                    acc = row.setdefault(engine, [0] * 7)
                    for k, v in enumerate((*got, 1)):
                        acc[k] += v
    names = {"libtext": "libtext", "poppler": "pdftotext", "plumber": "pdfplumber+bidi"}
    print(
        "| producer | pages | "
        + " | ".join(f"{names[e]} CER / WER / leaks" for e in engines)
        + " |"
    )
    print("|---" * (2 + len(engines)) + "|")
    for key in [*sorted(k for k in sums if k != "**total**"), "**total**"]:
        row = sums[key]
        cells = [key, str(row["libtext"][6])]
        for engine in engines:
            ce, c, we, w, leaks, fields, _ = row[engine]
            cells.append(
                f"{100 * ce / max(c, 1):.1f}% / {100 * we / max(w, 1):.1f}% / {leaks}/{fields}"
            )
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
