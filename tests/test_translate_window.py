"""The Translator sizes its requests from the model's context window (issue 25, failure 4).

Before, every chunk was up to 3000 characters of Hebrew whatever the model: on an 8k
local model (SmolLM2 takes 1.2 tokens per Hebrew character) a chunk, the prompt and the
answer overflowed. Now the window comes from ``context_tokens=``, else the server
(llama.cpp ``/props``, vLLM ``/v1/models``), else litellm, as for the Outliner; an
explicit ``max_chars=`` still wins. A fake OpenAI-compatible server on 127.0.0.1 records
what is sent.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from tests.fake_llm import FakeLLMServer, FakeReply, error_body, ok

from libtext import RetryPolicy, Translator, errors
from libtext._tokens import estimate_tokens
from libtext.models import EnrichedSegment, Footnote
from libtext.translate._size import ANSWER_TOKENS_PER_CHAR, MIN_CHUNK_CHARS, chunk_chars

FAST = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=30.0, deadline=60.0)
LINE = "ויאמר אלהים יהי אור ויהי אור וירא אלהים את האור כי טוב, "
TEXT = LINE * 120  # about 6,800 characters: more than one request anywhere
LLAMA_8K = {"/props": {"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}}
VLLM_128K = {"/v1/models": {"data": [{"id": "smollm2", "max_model_len": 131072}]}}


@pytest.fixture(autouse=True)
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def hebrew_sent(body: dict[str, Any]) -> str:
    """The Hebrew block of a translation request."""
    text = body["messages"][-1]["content"]
    return text.rsplit("Hebrew block:\n", 1)[1]


def echo(body: dict[str, Any]) -> FakeReply:
    """A usable answer: the block as one phrase, in English."""
    phrases = [{"hebrew_phrase": hebrew_sent(body).strip(), "english_translation": "And..."}]
    return ok(json.dumps({"phrases": phrases, "footnotes": []}, ensure_ascii=False))


def sent_tokens(body: dict[str, Any]) -> int:
    return estimate_tokens("".join(m["content"] for m in body["messages"]))


async def translate_on(info: dict[str, Any], **kwargs: Any) -> list[dict[str, Any]]:
    with FakeLLMServer(echo, info=info) as fake:
        translator = Translator(provider="openai/smollm2", api_base=fake.url, retry=FAST, **kwargs)
        seg = await translator.atranslate(TEXT)
    assert seg.complete, seg.notes
    return [r.body for r in fake.requests]


async def test_a_small_window_gets_smaller_requests_than_a_large_one() -> None:
    small = await translate_on(LLAMA_8K)
    large = await translate_on(VLLM_128K)
    biggest_small = max(len(hebrew_sent(b)) for b in small)
    biggest_large = max(len(hebrew_sent(b)) for b in large)
    assert len(small) > len(large)
    assert biggest_small < biggest_large <= 3000
    # Both cover the whole text.
    for bodies in (small, large):
        assert sum(len(hebrew_sent(b).strip()) for b in bodies) >= len(TEXT.strip()) - 2 * len(
            bodies
        )


async def test_no_request_and_its_answer_exceed_the_window_by_the_estimate() -> None:
    for context in (4096, 8192):
        info = {"/props": {"default_generation_settings": {"n_ctx": context}}}
        for body in await translate_on(info):
            answer = ANSWER_TOKENS_PER_CHAR * len(hebrew_sent(body))
            assert sent_tokens(body) + answer <= context, (context, sent_tokens(body))


async def test_with_max_tokens_the_request_leaves_room_for_it() -> None:
    for body in await translate_on(LLAMA_8K, options={"max_tokens": 2048}):
        assert sent_tokens(body) + 2048 <= 8192
        assert body["max_tokens"] == 2048


async def test_context_tokens_and_max_chars_win() -> None:
    told = await translate_on(VLLM_128K, context_tokens=4096)
    assert max(len(hebrew_sent(b)) for b in told) < 1000
    explicit = await translate_on(LLAMA_8K, max_chars=3000)
    assert max(len(hebrew_sent(b)) for b in explicit) > 2000  # the caller's size, not 8k's


async def test_footnotes_count_toward_a_chunk() -> None:
    notes = [Footnote(marker=f"({k})", content=LINE * 4) for k in "אבגדה"]
    block = "".join(f"{LINE * 4}({k}) " for k in "אבגדה")
    seg = EnrichedSegment(sequence_id=1, original_hebrew_block=block, footnotes=notes)

    def answer(body: dict[str, Any]) -> FakeReply:
        text = body["messages"][-1]["content"]
        markers = re.findall(r"^(\([א-ה]\)):", text, re.M)
        phrases = [{"hebrew_phrase": hebrew_sent(body).strip(), "english_translation": "E"}]
        footnotes = [{"marker": m, "translation": "N"} for m in markers]
        return ok(json.dumps({"phrases": phrases, "footnotes": footnotes}, ensure_ascii=False))

    with FakeLLMServer(answer, info=LLAMA_8K) as fake:
        translator = Translator(provider="openai/smollm2", api_base=fake.url, retry=FAST)
        await translator.atranslate(seg)
        limit = translator.chunk_chars()
    for r in fake.requests:
        text = r.body["messages"][-1]["content"]
        notes_sent = text.split("Footnotes to translate (marker: content):\n", 1)[1]
        notes_sent = notes_sent.split("\n\nHebrew block:", 1)[0]
        hebrew = len(hebrew_sent(r.body)) + len(notes_sent)
        assert hebrew <= limit + 10 * len(notes), (hebrew, limit)
        assert sent_tokens(r.body) + ANSWER_TOKENS_PER_CHAR * hebrew <= 8192 * 1.05


async def test_a_chunk_the_server_refuses_as_too_long_is_split_and_retried() -> None:
    limit = 1500  # characters of Hebrew this fake "context" takes

    def answer(body: dict[str, Any]) -> FakeReply:
        if len(hebrew_sent(body)) > limit:
            return FakeReply(
                status=400,
                body=error_body(
                    "This model's maximum context length is 100000 tokens",
                    code="context_length_exceeded",
                ),
            )
        return echo(body)

    with FakeLLMServer(answer) as fake:
        translator = Translator(
            provider="openai/smollm2", api_base=fake.url, retry=FAST, max_chars=3000
        )
        seg = await translator.atranslate(LINE * 50)
    assert seg.complete and not seg.error, seg.notes
    sizes = [len(hebrew_sent(r.body)) for r in fake.requests]
    assert sizes[0] > limit  # sent whole once, then only in halves
    assert sorted(sizes).count(sizes[0]) == 1
    assert "".join(d.hebrew_phrase for d in seg.translation_data).replace(" ", "") == (
        (LINE * 50).replace(" ", "")
    )


def test_a_window_too_small_for_the_prompt_says_so() -> None:
    with pytest.raises(errors.ConfigurationError) as info:
        chunk_chars(context_tokens=2048, prompt_tokens=2000, max_tokens=None, cap=3000)
    assert "context_tokens=" in info.value.message
    assert chunk_chars(context_tokens=10**6, prompt_tokens=2000, max_tokens=None, cap=3000) == 3000
    assert chunk_chars(context_tokens=8192, prompt_tokens=2000, max_tokens=None, cap=3000) >= (
        MIN_CHUNK_CHARS
    )


def test_offline_and_unknown_windows_keep_the_default_size() -> None:
    assert Translator().chunk_chars() == 3000
    assert Translator(max_chars=500).chunk_chars() == 500
    with pytest.raises(errors.InvalidInputError):
        Translator(context_tokens=0)


async def test_the_offline_part_splits_as_the_model_call_would() -> None:
    """A failed section's offline part is planned with the window's chunk size, as the
    model call was: before, it took ``max_chars or 3000`` whatever the window."""
    seg = EnrichedSegment(sequence_id=1, chapter_title="א", original_hebrew_block=TEXT)
    with FakeLLMServer(echo) as fake:
        translator = Translator(
            provider="openai/smollm2", api_base=fake.url, retry=FAST, context_tokens=4096
        )
        await translator.atranslate(seg)
    asked = len(fake.requests)
    assert asked > len(TEXT) // 3000 + 1  # the small window split finer than the default
    failure = errors.ProviderError("the server went away", provider="openai/smollm2")
    part = translator.offline_part(seg, failure)
    assert not part.complete
    assert f"{asked} of {asked} parts of the segment" in part.notes[0]


def test_the_offline_part_outlives_a_window_too_small_for_any_chunk() -> None:
    """The call fails with ConfigurationError before any chunk; what needs no model stays."""
    seg = EnrichedSegment(sequence_id=1, original_hebrew_block=TEXT)
    translator = Translator(context_tokens=100)
    with pytest.raises(errors.ConfigurationError) as info:
        translator.chunk_chars()
    part = translator.offline_part(seg, info.value)
    assert not part.complete and part.error is not None
    assert part.error.startswith("configuration_error")
    assert " ".join(p.hebrew_phrase for p in part.translation_data).split() == TEXT.split()
