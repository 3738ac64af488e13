"""libtext against a real OpenAI-compatible server and a real (tiny) model.

These check libtext's behaviour, not the model's quality: SmolLM2-135M answers badly,
and libtext must say so. Tiny inputs, ``max_tokens`` <= 128, temperature 0, one call
at a time, so the suite takes seconds of the server's CPU.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from libtext import Outliner, RetryPolicy, Translator, errors
from libtext.outline import text_document
from libtext.process import aprocess_document
from libtext.providers.base import ProviderRequest
from libtext.providers.llm import LiteLLMProvider
from libtext.providers.structured import run_structured
from libtext.store import TextStore

MODEL = "openai/smollm2"
"""The model as a user names one litellm does not know, at a server of their own."""
# A call that timed out would go on running on the one-slot server and slow the next
# test: the timeout is generous, the answers short.
ONE = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=900.0, deadline=1800.0)
TINY = {"temperature": 0, "max_tokens": 48}

TEXT = (
    "פרק א\nויאמר אלהים יהי אור ויהי אור וירא אלהים את האור כי טוב\f"
    "פרק ב\nויקרא אלהים לאור יום ולחשך קרא לילה ויהי ערב ויהי בקר יום אחד"
)
CITED = "ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור."


class Title(BaseModel):
    title: str


def _ask(text: str, max_tokens: int = 24) -> ProviderRequest:
    return ProviderRequest(
        task="outline",
        messages=[{"role": "user", "content": text}],
        response_model=Title,
        options={"temperature": 0, "max_tokens": max_tokens},
    )


async def test_the_documented_local_example_reaches_the_server(llm_url: str) -> None:
    # As docs/providers.md writes it: a model name, api_base, no key anywhere.
    outliner = Outliner(provider=MODEL, api_base=llm_url, options=TINY, concurrency=1, retry=ONE)
    try:
        outline = await outliner.aoutline_text(TEXT)
    except errors.ProviderOutputError as exc:  # a tiny model: an unusable answer, said so
        assert exc.details["reason"] in ("invalid", "unusable", "length")
    else:  # or a usable one: grounded in the text
        assert outline.outline_segments
        assert all(s.start_phrase_hebrew in TEXT for s in outline.outline_segments)


async def test_usage_comes_back(llm_url: str) -> None:
    provider = LiteLLMProvider(MODEL, api_base=llm_url)
    response = await provider.complete(_ask("Answer with a JSON object with a title.", 8))
    assert response.usage.tokens_in and response.usage.tokens_out
    assert response.finish_reason in ("stop", "length")


async def test_the_servers_grammar_holds_the_answer_to_the_schema(llm_url: str) -> None:
    # A model litellm does not know: JSON mode with the schema, which llama.cpp turns
    # into a grammar, so even this model answers a valid Title.
    provider = LiteLLMProvider(MODEL, api_base=llm_url)
    result = await run_structured(provider, _ask("Give this book a title."), policy=ONE)
    assert isinstance(result.value, Title)


async def test_a_refused_json_schema_falls_back_to_a_form_the_server_takes(llm_url: str) -> None:
    # A model litellm knows to take json_schema, served by llama-cpp-python, which
    # refuses it (500): the next form, JSON mode, is sent, and kept for the next calls.
    provider = LiteLLMProvider("openai/gpt-4o-mini", api_base=llm_url, api_key="sk-local")
    try:
        await provider.complete(_ask('Answer {"title": "Light"}.', 12))
    except errors.ProviderError as exc:  # pragma: no cover - only if JSON mode fails too
        pytest.fail(f"no fallback reached the server: {exc.message}")
    assert provider._formats[Title][0] == {"type": "json_object"}


async def test_too_long_an_input_fails_fast_and_says_so(llm_url: str) -> None:
    provider = LiteLLMProvider(MODEL, api_base=llm_url)
    request = _ask("ויאמר אלהים יהי אור " * 3000)  # ~18k tokens for an 8k context
    with pytest.raises(errors.ProviderError) as info:
        await run_structured(provider, request, policy=ONE)
    assert info.value.details.get("reason") == "context_window"
    assert "too long" in info.value.message and not info.value.retryable
    # llama-cpp-python's server does not report n_ctx; its refusal names it.
    assert provider.max_input_tokens == 8192


async def test_a_cut_off_answer_is_never_ok(llm_url: str) -> None:
    outliner = Outliner(
        providers=[MODEL],
        api_base=llm_url,
        options={"temperature": 0, "max_tokens": 8},
        concurrency=1,
        retry=ONE,
    )
    comparison = await outliner.acompare(text_document(TEXT))
    (outcome,) = comparison.results
    assert not outcome.ok and outcome.error is not None
    assert outcome.error.code == "provider_output"


async def test_the_translator_keeps_the_offline_part(llm_url: str) -> None:
    translator = Translator(
        provider=MODEL,
        api_base=llm_url,
        options={"temperature": 0, "max_tokens": 8},  # cut off: unusable
        concurrency=1,
        retry=ONE,
    )
    seg = await translator.atranslate(CITED)
    assert not seg.complete and seg.error
    assert any("Genesis.1.3" in d.sefaria_link for d in seg.translation_data)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_dead_server_stores_nothing_and_is_named(tmp_path: Path) -> None:
    # A killed server: nothing listens on the port any more (needs no running server).
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    store = TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    policy: Any = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=10.0)
    with pytest.raises(errors.ProviderError) as info:
        await aprocess_document(
            text_document(TEXT),
            translator=Translator(provider=MODEL, api_base=dead, retry=policy),
            store=store,
            cache=False,
        )
    assert dead.split("/v1")[0] in info.value.message
    assert store.list().pagination.total == 0


async def test_the_translator_sizes_its_requests_from_the_window_the_server_names(
    llm_url: str,
) -> None:
    # llama-cpp-python's server reports no n_ctx: the Translator sends the default size
    # until the server names its window in refusing a request (a refusal: no tokens
    # generated); then its requests and their answers fit the window.
    from libtext._tokens import estimate_tokens
    from libtext.translate._size import ANSWER_TOKENS_PER_CHAR

    provider = LiteLLMProvider(MODEL, api_base=llm_url)
    translator = Translator(provider=provider, retry=ONE)
    await provider.warm_up()
    before = translator.chunk_chars()
    with pytest.raises(errors.ProviderError):
        await run_structured(provider, _ask("ויאמר אלהים יהי אור " * 3000), policy=ONE)
    after = translator.chunk_chars()
    assert provider.max_input_tokens == 8192
    assert after < before == 3000
    request = translator._request("א" * after, [], [], "")
    sent = estimate_tokens("".join(m["content"] for m in request.messages))
    assert sent + ANSWER_TOKENS_PER_CHAR * after <= 8192
