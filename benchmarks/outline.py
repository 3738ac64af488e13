"""Outline cost on big.pdf against its extraction, measured in the same run.

Prints, best of ``--repeat``: the time to extract big.pdf (the baseline), the time of
the offline outline of the extracted document, of grounding a model-like outline
(every phrase without nikud and with gershayim, so each one goes through the
normalized search) and of the windowed language-model path with an instant function
provider (windows, prompts, merge, grounding), each as a ratio of the extraction
time; and the characters sent to the model as a ratio of the document's.

Then, when the real 322-page InDesign book of the development set is there
(``../shared/realdata/pdfs/mda_als2022_indesign.pdf``), the offline Outliner on it from
its path (extraction included) against its extraction alone, in pages per second: the
goal is an Outliner at 50% of extraction speed or better.

    python benchmarks/outline.py [--fixtures ../shared/fixtures] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from libtext import FunctionProvider, Outliner, extract_pdf
from libtext.grounding import GroundingIndex, ground_outline
from libtext.headings import offline_outline
from libtext.hebrew import strip_nikud
from libtext.models import DocumentOutline, ExtractedDocument
from libtext.providers.base import ProviderRequest

ROOT = Path(__file__).resolve().parents[1]


def best_of(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=ROOT.parent / "shared" / "fixtures")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--book",
        type=Path,
        default=ROOT.parent / "shared" / "realdata" / "pdfs" / "mda_als2022_indesign.pdf",
    )
    args = parser.parse_args()

    t_extract, doc = best_of(args.repeat, lambda: extract_pdf(args.fixtures / "big.pdf"))
    assert isinstance(doc, ExtractedDocument)
    offline = Outliner()
    t_offline, outline = best_of(args.repeat, lambda: offline.outline(doc))

    sloppy = offline_outline(doc)
    for seg in sloppy.outline_segments:
        seg.start_phrase_hebrew = strip_nikud(seg.start_phrase_hebrew).replace('"', "״")
        seg.end_phrase_hebrew = strip_nikud(seg.end_phrase_hebrew).replace('"', "״")
    t_ground, (_grounded, report) = best_of(
        args.repeat, lambda: ground_outline(sloppy, GroundingIndex.of(doc))
    )

    sent: list[int] = []

    def model(request: ProviderRequest) -> DocumentOutline:
        sent.append(sum(len(m["content"]) for m in request.messages))
        window: ExtractedDocument = request.payload
        return offline_outline(window)

    windowed = Outliner(providers=[FunctionProvider(model, name="instant")])
    t_llm, llm_outline = best_of(args.repeat, lambda: windowed.outline(doc))
    windows = len(sent) // args.repeat
    chars = sum(sent[-windows:])

    print(f"big.pdf: {doc.page_count} pages, {len(doc.text):,} characters")
    print(f"extract_pdf (baseline):              {t_extract:7.3f}s  1.00x")
    print(
        f"offline outline ({len(outline.outline_segments)} segments):       "
        f"{t_offline:7.3f}s  {t_offline / t_extract:.2f}x"
    )
    print(
        f"grounding, all phrases repaired:     {t_ground:7.3f}s  {t_ground / t_extract:.2f}x"
        f"  ({report.repaired} repaired, {report.exact} exact, {report.dropped} dropped)"
    )
    print(
        f"LLM path, instant model, {windows} windows: {t_llm:7.3f}s  {t_llm / t_extract:.2f}x"
        f"  ({len(llm_outline.outline_segments)} segments)"
    )
    print(f"characters sent / document characters: {chars / len(doc.text):.3f}")
    real_book(args.book, args.repeat)


def real_book(book: Path, repeat: int) -> None:
    """The Outliner on a real book against its extraction, both from the PDF's path."""
    if not book.is_file():
        print(f"{book.name}: not found, real-book figures skipped")
        return
    # In turns, so that a machine busy with other work slows both alike.
    t_extract = t_outline = float("inf")
    for _ in range(repeat):
        t, doc = best_of(1, lambda: extract_pdf(book, max_pages=None))
        t_extract = min(t_extract, t)
        t, outline = best_of(1, lambda: Outliner().outline(book))
        t_outline = min(t_outline, t)
    pages = doc.page_count
    print(f"{book.name}: {pages} pages, {len(outline.outline_segments)} segments")
    print(f"extract_pdf:                         {pages / t_extract:7.1f} pages/s  (baseline)")
    print(
        f"Outliner().outline(path):            {pages / t_outline:7.1f} pages/s  "
        f"{t_extract / t_outline:.0%} of extraction speed (goal: 50% or more)"
    )


if __name__ == "__main__":
    main()
