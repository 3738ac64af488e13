"""Concurrency gain and caching of process_document on book.pdf, with a slow fake provider.

A fake provider answers every call after ``--delay`` seconds (200 ms by default): the
outline call with the rule-based outline of the pages it is given, translate calls with
the block's words in phrases of six. ``book.pdf`` (58 pages, 20 chapters) is extracted
once (timed apart), then processed twice with a fresh provider cache in a temporary
folder. The script prints, for the first run: wall time against the sum of the provider
delays and against the ideal ``calls x delay / concurrency`` (goal: at most 1.2x), the
provider calls of both runs (goal: 0 on the second), and peak memory (Python heap by
tracemalloc, and the process's max RSS).

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

from libtext._cache import ProviderCache
from libtext.headings import offline_outline
from libtext.outline import Outliner
from libtext.pdf import extract_pdf
from libtext.process import aprocess_document
from libtext.providers.base import ProviderRequest
from libtext.providers.function import FunctionProvider
from libtext.translate import TranslatePayload, Translator

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared")) / "fixtures"


class SlowModel:
    """Answers after ``delay`` seconds; counts calls and their total delay."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.calls = 0
        self.provider = FunctionProvider(self.answer, name="fake/slow-model")

    async def answer(self, req: ProviderRequest) -> Any:
        self.calls += 1
        await anyio.sleep(self.delay)
        if req.task == "outline":
            return offline_outline(req.payload)
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
    model = SlowModel(delay)
    outliner = Outliner(providers=[model.provider])
    translator = Translator(provider=model.provider)
    with tempfile.TemporaryDirectory() as tmp:
        cache = ProviderCache(Path(tmp) / "cache.sqlite")
        tracemalloc.start()
        t0 = time.perf_counter()
        first = await aprocess_document(
            doc, outliner=outliner, translator=translator, cache=cache, concurrency=concurrency
        )
        wall = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        calls_first = model.calls
        t0 = time.perf_counter()
        second = await aprocess_document(
            doc, outliner=outliner, translator=translator, cache=cache, concurrency=concurrency
        )
        wall_second = time.perf_counter() - t0
        calls_second = model.calls - calls_first
        cache.close()
    assert second == first, "the cached run must give the same document"
    serial = calls_first * delay
    ideal = serial / concurrency
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    phrases = sum(len(s.translation_data) for s in first.sections)
    print(f"document: {pdf.name}, {doc.page_count} pages, {len(doc.text):,} chars")
    print(f"extraction (once, not in the runs below): {extract_s:.2f} s")
    print(
        f"sections: {len(first.sections)}, phrases: {phrases}, failed: "
        f"{sum(1 for s in first.sections if s.error)}"
    )
    print(f"provider delay: {delay * 1000:.0f} ms per call, concurrency {concurrency}")
    print(f"first run:  {calls_first} provider calls, wall {wall:.2f} s")
    print(f"  sum of provider delays: {serial:.2f} s -> concurrency gain {serial / wall:.2f}x")
    print(
        f"  ideal calls x delay / concurrency: {ideal:.2f} s -> wall / ideal = "
        f"{wall / ideal:.2f} (goal <= 1.20)"
    )
    print(f"second run: {calls_second} provider calls (goal 0), wall {wall_second:.2f} s")
    print(f"peak memory: {peak / 2**20:.1f} MiB Python heap (first run), {rss_mb:.0f} MiB max RSS")


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
