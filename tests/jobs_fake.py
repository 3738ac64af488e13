"""A fake model for job tests and benchmarks, served by :class:`tests.fake_llm.FakeLLMServer`.

It answers the two prompts libtext sends as a model would, from the prompt's own
text: an outline with one segment per chapter heading (a line ``פרק <letters>``; its
start phrase is the next line's first words), and a translation that splits the
Hebrew block into phrases of six words. Each job's requests carry its model options
(``{"seed": n}``), so two jobs of one PDF never share an answer in the provider cache.

``slow`` picks requests that take ``slow_delay`` seconds instead of ``delay``, so a
test can catch a job with some sections finished and others still in flight.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tests.fake_llm import FakeReply

__all__ = ["fake_model", "kind_of", "user_text"]

_HEADING = re.compile(r"^\s*(פרק [\u05d0-\u05ea]+)\s*$")


def user_text(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    return "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "user")


def kind_of(body: dict[str, Any]) -> str:
    """``"outline"`` or ``"translate"``: which prompt the request was built from."""
    return "outline" if "Outline this document." in user_text(body) else "translate"


def _outline(text: str) -> dict[str, Any]:
    body = text.split("Text (each page starts with a [page N] marker):", 1)[-1]
    lines = [line for line in body.splitlines() if line.strip()]
    segments = []
    for k, line in enumerate(lines):
        m = _HEADING.match(line)
        if m and k + 1 < len(lines):
            words = lines[k + 1].split()[:6]
            segments.append(
                {
                    "sequence_id": len(segments) + 1,
                    "chapter_title": m.group(1),
                    "segment_title": m.group(1),
                    "start_phrase_hebrew": " ".join(words),
                }
            )
    return {"source_metadata": {"work_title": "Avot"}, "outline_segments": segments}


def _translate(text: str) -> dict[str, Any]:
    hebrew = text.split("Hebrew block:", 1)[-1]
    words = hebrew.split()
    phrases = [
        {"hebrew_phrase": " ".join(words[i : i + 6]), "english_translation": f"E{i}"}
        for i in range(0, len(words), 6)
    ]
    return {"phrases": phrases, "footnotes": []}


def fake_model(
    *,
    delay: float = 0.0,
    slow: Callable[[dict[str, Any]], bool] | None = None,
    slow_delay: float = 0.0,
) -> Callable[[dict[str, Any]], FakeReply]:
    """A responder for ``FakeLLMServer(responder=...)``."""

    def respond(body: dict[str, Any]) -> FakeReply:
        text = user_text(body)
        answer = _outline(text) if kind_of(body) == "outline" else _translate(text)
        wait = slow_delay if slow is not None and slow(body) else delay
        return FakeReply(content=json.dumps(answer, ensure_ascii=False), delay=wait)

    return respond
