"""CPU-bound rules on untrusted input run where a timeout can kill them (issue 27).

Inside :func:`libtext._offload.offloading` (what the HTTP adapter and the job runner
set) the offline outline runs in the PDF guard's worker processes: past the guard's
timeout the worker is killed and the caller gets a clean error, and the caller's
event loop keeps running meanwhile. Before, the rules ran in a thread of the server
process that nothing could stop (a hostile line held it, and the GIL, for minutes).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import anyio
import pytest

from libtext import Outliner, errors
from libtext._offload import offloading
from libtext.outline import text_document
from libtext.pdf import PdfGuard


@pytest.fixture(scope="module")
def guard() -> Iterator[PdfGuard]:
    g = PdfGuard(concurrency=1, memory_mb=1024, timeout=1.0)
    g.warm()
    yield g
    g.close()


def _heavy_text(pages: int) -> str:
    """Many short chapters: the offline rules need seconds of CPU on them."""
    letters = "אבגדהוזחט"
    return "\f".join(
        f"פרק {letters[i % 9]}\nשלום עולם ומלואו זה טקסט ארוך מאוד.\nועוד שורה 12"
        for i in range(pages)
    )


async def test_outline_past_the_timeout_is_stopped_and_the_loop_keeps_running(
    guard: PdfGuard,
) -> None:
    doc = text_document(_heavy_text(20_000))
    ticks: list[float] = []

    async def tick() -> None:
        while True:
            ticks.append(time.monotonic())
            await anyio.sleep(0.02)

    caught: errors.ExtractionTimeoutError | None = None
    t0 = time.monotonic()
    async with anyio.create_task_group() as tg:
        tg.start_soon(tick)
        try:
            with offloading(guard):
                await Outliner().aoutline(doc)
        except errors.ExtractionTimeoutError as exc:
            caught = exc
        finally:
            tg.cancel_scope.cancel()
    assert caught is not None, "the outline ran to its end: nothing stopped it"
    assert time.monotonic() - t0 < 10  # the guard's 1 s, plus pickling the document
    assert "outline" in caught.message and caught.details["timeout_s"] == 1.0
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    # Building the grounding index and pickling 20,000 pages cost the loop some time;
    # the rules themselves (seconds of CPU) never run on it.
    assert gaps and max(gaps) < 2.0


async def test_small_outline_in_a_worker_is_the_same(guard: PdfGuard) -> None:
    doc = text_document(_heavy_text(30))
    here = await Outliner().aoutline(doc)
    with offloading(guard):
        there = await Outliner().aoutline(doc)
    assert there == here and len(there.outline_segments) == 30
