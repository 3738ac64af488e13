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

    python benchmarks/realpdfs.py [--data ../shared/realdata/pdfs]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time
import unicodedata
from pathlib import Path

from libtext import extract_pdf

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


def libtext_lines(pdf: Path) -> tuple[dict[int, set[str]], int, float]:
    start = time.perf_counter()
    doc = extract_pdf(pdf, max_pages=None, max_bytes=None)
    seconds = time.perf_counter() - start
    pages = {p.number: {norm(ln.text) for ln in p.lines} for p in doc.pages}
    return pages, doc.page_count, seconds


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
    for path in golds:
        gold = json.loads(path.read_text("utf-8"))
        pdf = args.data / gold["file"]
        lines = gold["lines"]
        numbers = {int(g["page"]) for g in lines}
        mine, count, seconds = libtext_lines(pdf)
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


if __name__ == "__main__":
    main()
