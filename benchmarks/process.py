"""Concurrency gain and caching of process_document on book.pdf, with a slow fake provider.

A fake provider answers every call after ``--delay`` seconds (200 ms by default): the
outline call with the rule-based outline of the pages it is given, translate calls with
the block's words in phrases of six. ``book.pdf`` (58 pages, 20 chapters) is extracted
once (timed apart), then processed twice with a fresh provider cache in a temporary
folder. The script prints, for the first run: wall time against the sum of the provider
delays and against the ideal ``calls x delay / concurrency`` (goal: at most 1.2x), the
provider calls of both runs (goal: 0 on the second), and peak memory (Python heap by
tracemalloc in a third, untimed run, and the process's max RSS). The Sefaria linker's
one-time regex compilation is done before the timed runs, like the extraction.
It also prints how long after the outline answer the first translate calls started
(sectioning and the first sections' phrase cutting in between). The outline call cannot
overlap the translations, so the floor on book.pdf is (1 + 28/4) x delay = 1.10x ideal.

Usage: python benchmarks/process.py [--pdf PATH] [--delay 0.2] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import anyio

from libtext.headings import offline_outline
from libtext.models import ExtractedDocument
from libtext.outline import Outliner
from libtext.pdf import extract_pdf
from libtext.process import aprocess_document
from libtext.providers._cache import ProviderCache
from libtext.providers.base import ProviderRequest
from libtext.providers.function import FunctionProvider
from libtext.sefaria import find_citations
from libtext.translate import TranslatePayload, Translator

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared")) / "fixtures"


class SlowModel:
    """Answers after ``delay`` seconds; counts calls.

    Its own work is kept out of the measured time: outline answers are computed before
    the runs (the rule-based outline of each window), so a call costs just the delay.
    """

    def __init__(self, delay: float, doc: ExtractedDocument) -> None:
        self.delay = delay
        self.calls = 0
        self.starts: list[tuple[str, float]] = []  # (task, perf_counter) of every call
        self.provider = FunctionProvider(self.answer, name="fake/slow-model")
        self._outlines = {self._pages(doc): offline_outline(doc)}

    @staticmethod
    def _pages(doc: ExtractedDocument) -> tuple[int, ...]:
        return tuple(p.number for p in doc.pages)

    async def answer(self, req: ProviderRequest) -> Any:
        self.calls += 1
        self.starts.append((req.task, time.perf_counter()))
        await anyio.sleep(self.delay)
        if req.task == "outline":
            window = req.payload
            known = self._outlines.get(self._pages(window))
            return known if known is not None else offline_outline(window)
        payload = req.payload
        assert isinstance(payload, TranslatePayload)
        words = payload.hebrew.split()
        return {
            "phrases": [
                {"hebrew_phrase": " ".join(words[i : i + 6]), "english_translation": f"w{i}"}
                for i in range(0, len(words), 6)
            ],
            "footnotes": [{"marker": f.marker, "translation": "note"} for f in payload.footnotes],
        }


async def run(pdf: Path, delay: float, concurrency: int) -> None:
    t0 = time.perf_counter()
    doc = extract_pdf(pdf)
    extract_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    find_citations("בראשית א, א")  # compiles the linker's title regex once per process
    warm_s = time.perf_counter() - t0
    model = SlowModel(delay, doc)
    outliner = Outliner(providers=[model.provider])
    translator = Translator(provider=model.provider)
    with tempfile.TemporaryDirectory() as tmp:
        cache = ProviderCache(Path(tmp) / "cache.sqlite")
        t0, c0 = time.perf_counter(), time.process_time()
        first = await aprocess_document(
            doc, outliner=outliner, translator=translator, cache=cache, concurrency=concurrency
        )
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        calls_first = model.calls
        starts = list(model.starts)
        t0 = time.perf_counter()
        second = await aprocess_document(
            doc, outliner=outliner, translator=translator, cache=cache, concurrency=concurrency
        )
        wall_second = time.perf_counter() - t0
        calls_second = model.calls - calls_first
        cache.close()
    assert second == first, "the cached run must give the same document"
    # Memory in a third, untimed run (tracemalloc slows Python down several times).
    tracemalloc.start()
    await aprocess_document(
        doc, outliner=outliner, translator=translator, cache=False, concurrency=concurrency
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    serial = calls_first * delay
    ideal = serial / concurrency
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    phrases = sum(len(s.translation_data) for s in first.sections)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"document: {pdf.name}, {doc.page_count} pages, {len(doc.text):,} chars")
    print(
        f"not in the timed runs: extraction {extract_s:.2f} s (done once), "
        f"linker regex warm-up {warm_s:.2f} s"
    )
    print(
        f"sections: {len(first.sections)}, phrases: {phrases}, failed: "
        f"{sum(1 for s in first.sections if s.error)}"
    )
    print(f"provider delay: {delay * 1000:.0f} ms per call, concurrency {concurrency}")
    print(f"first run:  {calls_first} provider calls, wall {wall:.2f} s, CPU {cpu:.2f} s")
    print(f"  sum of provider delays: {serial:.2f} s -> concurrency gain {serial / wall:.2f}x")
    print(
        f"  ideal calls x delay / concurrency: {ideal:.2f} s -> wall / ideal = "
        f"{wall / ideal:.2f} (goal <= 1.20)"
    )
    outlined = max(t for task, t in starts if task == "outline") + delay
    firsts = sorted(t for task, t in starts if task == "translate")[:concurrency]
    print(
        f"  outline answer -> translate calls 1..{len(firsts)} started after: "
        + ", ".join(f"{(t - outlined) * 1000:.0f}" for t in firsts)
        + " ms"
    )
    print(f"second run: {calls_second} provider calls (goal 0), wall {wall_second:.2f} s")
    print(
        f"peak memory: {peak / 2**20:.1f} MiB Python heap during a run (tracemalloc), "
        f"{rss_mb:.0f} MiB max RSS of the process"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pdf", type=Path, default=FIXTURES / "book.pdf")
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    if not args.pdf.exists():
        raise SystemExit(f"{args.pdf} not found: set LIBTEXT_SHARED or pass --pdf")
    anyio.run(run, args.pdf, args.delay, args.concurrency)


if __name__ == "__main__":
    main()
