"""Provider fan-out: does ``compare()`` over 4 models cost one model's latency?

Starts the fake OpenAI-compatible server of ``tests/fake_llm.py`` on 127.0.0.1,
answering every chat completion after ``--delay`` seconds (default 1.0) with a
valid outline of the pages it was sent. Then, in the same run:

1. ``Outliner(providers=[4 models]).compare("examples/sample.pdf")``: four
   distinct model names on the same server, so the ideal wall time is one
   answer's delay. Prints the wall time and its ratio to the delay (goal <= 1.10).
   The first (cold) run also pays litellm's import and client set-up (in a worker
   thread: the longest stall of the event loop meanwhile is printed too); the warm
   runs are the figure to quote.
2. Per-call overhead: with no server delay, the median of ``--calls`` calls of
   ``run_structured(LiteLLMProvider)`` next to the medians of as many direct
   ``httpx`` POSTs of the same body to the same server and of bare
   ``litellm.acompletion`` calls (calls interleaved), so the overhead splits into
   litellm's and libtext's own.

The machine's load average is printed at the start and the end: on a shared
machine, other work's CPU time shows up in every figure here.

Usage: python benchmarks/fanout.py [--delay 1.0] [--calls 50] [--runs 3]
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py would shadow the standard library's ``http`` (used by the fake
# server): keep this folder off sys.path, and put the repository root on it.
_here = os.path.dirname(os.path.abspath(__file__))
_root = os.path.dirname(_here)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
sys.path.insert(0, _root)

import argparse  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import anyio  # noqa: E402
import httpx  # noqa: E402
from tests.fake_llm import FakeLLMServer, FakeReply  # noqa: E402

from libtext.models import DocumentOutline, OutlineSegment, SourceMetadata  # noqa: E402
from libtext.providers import (  # noqa: E402
    LiteLLMProvider,
    ProviderRequest,
    RetryPolicy,
    run_structured,
)

SAMPLE = Path(_root) / "examples" / "sample.pdf"
MODELS = ["openai/bench-a", "openai/bench-b", "openai/bench-c", "openai/bench-d"]
KEY = "sk-bench"
_PAGE = re.compile(r"\[page (\d+)\]\n(.*?)(?=\n\n\[page \d+\]\n|\Z)", re.DOTALL)


def outline_for(body: dict[str, Any]) -> FakeReply:
    """A valid outline of the pages in the request: one segment per page."""
    messages = body.get("messages") or []
    text = str(messages[-1].get("content", "")) if messages else ""
    segments = []
    for number, page in _PAGE.findall(text):
        words = page.split()
        if not words:
            continue
        segments.append(
            OutlineSegment(
                sequence_id=len(segments) + 1,
                segment_title=" ".join(words[:3]),
                summary="A page of the sample.",
                page_ref=number,
                start_phrase_hebrew=" ".join(words[:6]),
                end_phrase_hebrew=" ".join(words[-6:]),
            )
        )
    outline = DocumentOutline(
        source_metadata=SourceMetadata(work_title="sample"), outline_segments=segments
    )
    return FakeReply(content=outline.model_dump_json())


async def fanout(server: FakeLLMServer, runs: int, delay: float) -> None:
    from libtext.outline import Outliner

    policy = RetryPolicy(max_attempts=1, call_timeout=30, deadline=60)
    outliner = Outliner(providers=MODELS, retry=policy, api_base=server.url, api_key=KEY)

    async def timed(source: Any, label: str) -> float:
        before = server.count
        started = time.perf_counter()
        comparison = await outliner.acompare(source)
        wall = time.perf_counter() - started
        failed = [r for r in comparison.results if not r.ok]
        if failed:
            raise SystemExit(f"providers failed: {[r.error for r in failed]}")
        segments = sum(len(r.outline.outline_segments) for r in comparison.results if r.outline)
        calls = server.count - before
        print(f"compare() {label:34s} {wall:6.3f} s  ({calls} calls, {segments} segments)")
        return wall

    # The cold run imports litellm (seconds): in a worker thread, so a ticker on the
    # event loop keeps ticking; its longest gap is how long the loop stalled.
    gaps = [0.0]
    cold_done = anyio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not cold_done.is_set():
            await anyio.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    async with anyio.create_task_group() as tg:
        tg.start_soon(ticker)
        await timed(SAMPLE, "cold (litellm import + clients)")
        cold_done.set()
    print(f"event loop's longest stall during the cold run: {max(gaps) * 1000:.0f} ms")
    from libtext.pdf import aextract_pdf

    started = time.perf_counter()
    doc = await aextract_pdf(SAMPLE)
    extract = time.perf_counter() - started
    print(f"extract_pdf(sample.pdf) alone: {extract:.3f} s ({doc.page_count} pages)")
    on_path = [await timed(SAMPLE, f"warm run {k + 1} (PDF path)") for k in range(runs)]
    on_doc = [await timed(doc, f"warm run {k + 1} (extracted doc)") for k in range(runs)]
    for label, walls in (("PDF path", on_path), ("extracted doc", on_doc)):
        median = statistics.median(walls)
        print(
            f"compare() wall, 4 providers, {label}, median of {runs}: {median:.3f} s; "
            f"ratio to one answer ({delay:.1f} s): {median / delay:.3f}  (goal <= 1.10)"
        )


async def overhead(server: FakeLLMServer, calls: int) -> None:
    server.delay = 0.0
    request = ProviderRequest(
        task="outline",
        messages=[
            {"role": "system", "content": "Answer JSON."},
            {"role": "user", "content": "[page 1]\nבראשית ברא אלהים את השמים ואת הארץ"},
        ],
        response_model=DocumentOutline,
    )
    provider = LiteLLMProvider(MODELS[0], api_base=server.url, api_key=KEY)
    policy = RetryPolicy(max_attempts=1)
    body = {
        "model": "bench-a",
        "messages": request.messages,
        "response_format": {"type": "json_object"},
    }

    async def libtext_call() -> None:
        await run_structured(provider, request, policy=policy)

    import litellm  # loaded (and set up) by libtext's first call above

    async def litellm_call() -> None:
        response = await litellm.acompletion(
            model=MODELS[0],
            messages=request.messages,
            response_format={"type": "json_object"},
            api_base=server.url,
            api_key=KEY,
            num_retries=0,
            max_retries=0,
        )
        DocumentOutline.model_validate_json(response.choices[0].message.content)

    async with httpx.AsyncClient(
        base_url=server.url, headers={"Authorization": f"Bearer {KEY}"}
    ) as client:

        async def direct_call() -> None:
            response = await client.post("/chat/completions", json=body)
            response.raise_for_status()
            DocumentOutline.model_validate_json(response.json()["choices"][0]["message"]["content"])

        kinds = {"direct": direct_call, "litellm": litellm_call, "libtext": libtext_call}
        for fn in kinds.values():
            for _ in range(5):  # warm-up: connections, caches
                await fn()
        times: dict[str, list[float]] = {name: [] for name in kinds}
        for k in range(calls):  # interleaved, so a change in the machine's load hits all three
            for name in list(kinds)[k % 3 :] + list(kinds)[: k % 3]:
                started = time.perf_counter()
                await kinds[name]()
                times[name].append(time.perf_counter() - started)
    direct, bare, ours = (statistics.median(times[name]) for name in kinds)
    print(f"direct httpx POST, median of {calls}:        {direct * 1000:7.2f} ms")
    print(f"litellm.acompletion alone, median:         {bare * 1000:7.2f} ms")
    print(f"libtext run_structured(litellm), median:   {ours * 1000:7.2f} ms")
    print(
        f"libtext per-call overhead: {(ours - direct) * 1000:+.2f} ms  "
        f"(ratio {ours / direct:.2f}x the direct POST; litellm alone "
        f"{(bare - direct) * 1000:+.2f} ms, libtext's own {(ours - bare) * 1000:+.2f} ms)"
    )


def loadavg() -> str:
    """The 1/5/15-minute load averages (the machine may be shared), where Linux tells."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


async def main(args: argparse.Namespace) -> None:
    with FakeLLMServer(outline_for, delay=args.delay) as server:
        print(f"fake server {server.url}, answer delay {args.delay:.1f} s, sample {SAMPLE.name}")
        print(f"load average at start: {loadavg()}  ({os.cpu_count()} CPUs)")
        await fanout(server, args.runs, args.delay)
        await overhead(server, args.calls)
        print(f"load average at end:   {loadavg()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    anyio.run(main, parser.parse_args())
