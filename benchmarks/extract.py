"""Extraction speed on big.pdf: libtext (fast mode) vs plain pdfplumber, same run.

Prints pages per second for ``libtext.extract_pdf`` (logical-order Hebrew, font size
and weight per line, layout roles) and for ``pdfplumber``'s ``extract_text()`` (visual
order, no roles), their ratio, and the share of ``big.lines.json`` body lines that
libtext reproduces exactly. pdfplumber is timed on a sample of pages (``--sample``,
default 40, spread over the book) to keep the run short; libtext reads every page.
Best of ``--repeat`` runs each, taken in turns (a busy machine slows both alike).

    python benchmarks/extract.py [--fixtures ../shared/fixtures] [--sample 40] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pdfplumber

from libtext import extract_pdf

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=ROOT.parent / "shared" / "fixtures")
    parser.add_argument("--sample", type=int, default=40, help="pages timed with pdfplumber")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pdf_path = args.fixtures / "big.pdf"

    with pdfplumber.open(pdf_path) as pdf:
        total = len(pdf.pages)
    step = max(1, total // args.sample)
    indices = list(range(0, total, step))[: args.sample]

    # The two are timed in turns, so that a busy machine slows both alike.
    best = best_plumber = float("inf")
    doc = None
    for _ in range(args.repeat):
        start = time.perf_counter()
        doc = extract_pdf(pdf_path)
        best = min(best, time.perf_counter() - start)
        with pdfplumber.open(pdf_path) as pdf:
            start = time.perf_counter()
            for i in indices:
                pdf.pages[i].extract_text()
            best_plumber = min(best_plumber, time.perf_counter() - start)
    assert doc is not None
    libtext_pps = doc.page_count / best
    plumber_pps = len(indices) / best_plumber

    truth = json.loads((args.fixtures / "big.lines.json").read_text("utf-8"))
    body = matched = 0
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        texts = {ln.text for ln in page.lines}
        for tline in tpage["lines"]:
            if tline["kind"] == "body":
                body += 1
                matched += tline["text"] in texts

    print(f"big.pdf: {doc.page_count} pages")
    print(f"libtext extract_pdf (fast, sizes+roles): {libtext_pps:8.1f} pages/s (all pages)")
    print(
        f"pdfplumber extract_text():               {plumber_pps:8.1f} pages/s "
        f"({len(indices)} sampled pages)"
    )
    print(f"ratio: {libtext_pps / plumber_pps:.1f}x")
    print(f"body lines matched exactly: {matched}/{body} = {100 * matched / body:.2f}%")


if __name__ == "__main__":
    main()
