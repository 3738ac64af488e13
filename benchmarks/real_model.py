"""A real model through libtext: are its answers usable, grounded, and what do they cost?

For the first page(s) of two real Hebrew PDFs of the open set, the Outliner and the
Translator are run with one provider, one call at a time, and every call is recorded:

- answers: usable at once, usable after a re-ask, or failed (and why);
- grounding of the outline's phrases: exact, repaired, dropped; titles not in the text;
- tokens in and out as the server counted them, against libtext's own estimate of the
  tokens sent (``estimate_tokens``: it must not be below the server's count);
- seconds per call (wall time: the server's own work, as a user waits for it).

Any model works the same way: ``--provider openai/smollm2 --api-base http://127.0.0.1:8080/v1``
for a local llama.cpp server (``python -m llama_cpp.server --model <gguf> --n_ctx 8192``),
``--provider ollama/llama3.1 --api-base http://localhost:11434``, ``--provider
openai/gpt-4o-mini`` with ``OPENAI_API_KEY``. ``--tokens`` also prints the server's token
count of each PDF's text (llama.cpp's ``/extras/tokenize`` or ``/tokenize``) per character.

Usage: python benchmarks/real_model.py --provider MODEL [--api-base URL] [--pages 1]
       [--max-tokens 512] [--chars 400] [--pdf NAME ...] [--tokens]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# benchmarks/http.py would shadow the standard library's http (httpx and litellm use it).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

import anyio  # noqa: E402
import httpx  # noqa: E402

from libtext import Outliner, RetryPolicy, Translator, extract_pdf  # noqa: E402
from libtext._outline_windows import estimate_tokens  # noqa: E402
from libtext.errors import LibtextError  # noqa: E402
from libtext.providers.base import ProviderRequest, ProviderResponse  # noqa: E402
from libtext.providers.registry import resolve_provider  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared"))
PDFS = SHARED / "realdata" / "pdfs"
DEFAULT_PDFS = ["hebrewbooks_5804_ocrlayer", "opensiddur_bereshit_lualatex"]


@dataclass
class Call:
    seconds: float
    tokens_in: int | None
    tokens_out: int | None
    estimate: int
    finish: str | None
    failed: str = ""


@dataclass
class Recorder:
    """A provider that records each call of the one it wraps."""

    inner: Any
    calls: list[Call] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def __getattr__(self, attr: str) -> Any:  # warm_up, max_input_tokens, max_concurrency
        return getattr(self.inner, attr)

    async def complete(self, request: ProviderRequest) -> ProviderResponse:
        estimate = estimate_tokens("".join(m["content"] for m in request.messages))
        started = time.perf_counter()
        try:
            response: ProviderResponse = await self.inner.complete(request)
        except LibtextError as exc:
            self.calls.append(
                Call(time.perf_counter() - started, None, None, estimate, None, exc.code)
            )
            raise
        self.calls.append(
            Call(
                time.perf_counter() - started,
                response.usage.tokens_in,
                response.usage.tokens_out,
                estimate,
                response.finish_reason,
            )
        )
        return response


@dataclass
class Row:
    pdf: str
    task: str
    outcome: str
    calls: list[Call]
    grounding: str = "-"


async def run_one(name: str, args: argparse.Namespace) -> list[Row]:
    doc = extract_pdf(PDFS / f"{name}.pdf", pages=range(args.pages))
    if args.page_chars:  # each page's first lines only: a short run on a slow CPU
        doc = doc.model_copy(update={"pages": [_cap(p, args.page_chars) for p in doc.pages]})
    options = {"temperature": 0, "max_tokens": args.max_tokens}
    policy = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=args.timeout, deadline=None)
    connection: dict[str, Any] = {"api_base": args.api_base} if args.api_base else {}
    rows: list[Row] = []

    recorder = Recorder(resolve_provider(args.provider, **connection))
    outliner = Outliner(provider=recorder, options=options, concurrency=1, retry=policy)
    comparison = await outliner.acompare(doc)
    (outcome,) = comparison.results
    if outcome.ok and outcome.grounding is not None:
        g = outcome.grounding
        grounding = f"{g.exact}/{g.repaired}/{g.dropped}"
        if g.unsupported_metadata:
            grounding += f" (-{len(g.unsupported_metadata)} meta)"
        state = "usable" if len(recorder.calls) == 1 else "usable, re-asked"
    else:
        grounding = "-"
        reason = (outcome.error.details or {}).get("reason") if outcome.error else None
        state = f"failed: {outcome.error.code if outcome.error else '?'}"
        state += f" ({reason})" if reason else ""
    rows.append(Row(name, "outline", state, recorder.calls, grounding))

    recorder = Recorder(resolve_provider(args.provider, **connection))
    translator = Translator(provider=recorder, options=options, concurrency=1, retry=policy)
    text = doc.text[: args.chars]
    try:
        seg = await translator.atranslate(text)
    except LibtextError as exc:
        state = f"failed: {exc.code}"
    else:
        if seg.error:
            state = f"kept offline part ({seg.error.split(':', 1)[0]})"
        else:
            english = sum(1 for d in seg.translation_data if d.english_translation)
            state = f"usable{', re-asked' if len(recorder.calls) > 1 else ''}"
            state += f", {english}/{len(seg.translation_data)} phrases in English"
    rows.append(Row(name, "translate", state, recorder.calls))
    return rows


def _cap(page: Any, chars: int) -> Any:
    kept, size = [], 0
    for line in page.lines:
        if size >= chars:
            break
        kept.append(line)
        size += len(line.text) + 1
    return page.model_copy(update={"lines": kept})


def server_tokens(api_base: str, text: str) -> int | None:
    """The server's own token count of ``text`` (llama.cpp), or ``None``."""
    root = api_base.rstrip("/").removesuffix("/v1")
    for path, body in (("/extras/tokenize", {"input": text}), ("/tokenize", {"content": text})):
        try:
            answer = httpx.post(f"{root}{path}", json=body, timeout=30.0, trust_env=False)
            tokens = answer.json().get("tokens")
        except (httpx.HTTPError, ValueError, AttributeError):
            continue
        if isinstance(tokens, list):
            return len(tokens)
    return None


def total(values: list[int | None]) -> str:
    known = [v for v in values if v is not None]
    return str(sum(known)) if known else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--provider", default="openai/smollm2")
    parser.add_argument("--api-base", default=os.environ.get("LIBTEXT_TEST_LLM_URL"))
    parser.add_argument("--pdf", action="append", help="an open-set PDF's name (twice: two)")
    parser.add_argument("--pages", type=int, default=1)
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--chars", type=int, default=400, help="characters translated")
    parser.add_argument("--page-chars", type=int, default=0, help="cap each page (0: whole)")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--tokens", action="store_true", help="the server's tokens per char")
    args = parser.parse_args()
    names = args.pdf or DEFAULT_PDFS

    rows: list[Row] = []
    for name in names:
        rows.extend(anyio.run(run_one, name, args))

    print(
        f"provider {args.provider} at {args.api_base or '(its cloud API)'}; first "
        f"{args.pages} page(s); max_tokens {args.max_tokens}; one call at a time\n"
    )
    print(
        "| PDF | task | answer | calls | grounding exact/repaired/dropped | tokens in (server) "
        "| estimate | tokens out | finish | s/call |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        calls = row.calls
        seconds = sum(c.seconds for c in calls) / len(calls) if calls else 0.0
        finishes = ",".join(sorted({c.finish or c.failed or "?" for c in calls})) or "-"
        print(
            f"| {row.pdf} | {row.task} | {row.outcome} | {len(calls)} | {row.grounding} "
            f"| {total([c.tokens_in for c in calls])} | {sum(c.estimate for c in calls)} "
            f"| {total([c.tokens_out for c in calls])} | {finishes} | {seconds:.1f} |"
        )
    if args.tokens and args.api_base:
        print("\n| PDF | characters | server tokens | tokens/char | libtext estimate |")
        print("|---|---|---|---|---|")
        for name in names:
            text = extract_pdf(PDFS / f"{name}.pdf", pages=range(args.pages)).text
            counted = server_tokens(args.api_base, text)
            ratio = f"{counted / len(text):.2f}" if counted else "?"
            print(
                f"| {name} | {len(text)} | {counted or '?'} | {ratio} | {estimate_tokens(text)} |"
            )


if __name__ == "__main__":
    main()
