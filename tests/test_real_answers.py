"""What a real model does that the happy fakes never did (issue 25), on a fake server.

A small model answers ``{}``, echoes the schema, is cut off at ``max_tokens``, invents a
title; a local server has no key, a small context, one slot, refuses ``json_schema``.
Each test scripts one of those and checks libtext says so instead of reporting success.
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from tests.fake_llm import FakeLLMServer, FakeReply, error_body, ok

from libtext import FunctionProvider, Outliner, RetryPolicy, Translator, errors
from libtext._outline_windows import estimate_tokens
from libtext.models import ExtractedDocument
from libtext.process import aprocess_document
from libtext.providers.base import ProviderRequest
from libtext.providers.llm import LOCAL_PREFIXES, LiteLLMProvider, redact
from libtext.providers.structured import _InvalidOutput, parse_structured
from libtext.store import TextStore

FAST = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=30.0, deadline=60.0)

PAGE_1 = "פרק א\nויאמר אלהים יהי אור ויהי אור וירא אלהים את האור כי טוב"
PAGE_2 = "פרק ב\nויקרא אלהים לאור יום ולחשך קרא לילה ויהי ערב ויהי בקר יום אחד"
TEXT = f"{PAGE_1}\f{PAGE_2}"


def segment(k: int, start: str, page: int) -> dict[str, Any]:
    return {
        "sequence_id": k,
        "chapter_title": f"פרק {'אב'[k - 1]}",
        "page_ref": str(page),
        "start_phrase_hebrew": start,
        "end_phrase_hebrew": "",
    }


GOOD = json.dumps(
    {
        "source_metadata": {"work_title": ""},
        "outline_segments": [
            segment(1, "ויאמר אלהים יהי אור", 1),
            segment(2, "ויקרא אלהים לאור יום", 2),
        ],
    },
    ensure_ascii=False,
)


@pytest.fixture(autouse=True)
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # As on a machine with only a local server: no cloud key anywhere.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def local(fake: FakeLLMServer, **kwargs: Any) -> Outliner:
    """An Outliner as the docs write it for a local server: a model name and api_base."""
    return Outliner(provider="openai/smollm2", api_base=fake.url, retry=FAST, **kwargs)


# --- 1. an empty, off-topic or cut-off answer is not an outline ------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "{}",
        '{"small.pdf": {"type": "json", "description": "a PDF"}}',
        '{"source_metadata": {}, "outline_segments": []}',
        json.dumps({"source_metadata": {}, "outline_segments": [segment(1, "שלום עולם", 1)]}),
    ],
    ids=["empty", "off-topic", "no-segments", "invented-phrase"],
)
async def test_an_unusable_answer_is_not_an_outline(answer: str) -> None:
    with FakeLLMServer(lambda body: ok(answer)) as fake:
        with pytest.raises(errors.ProviderOutputError) as info:
            await local(fake).aoutline_text(TEXT)
        assert len(fake.requests) == 2  # re-asked once, with the reason
        assert info.value.details["reason"] in ("invalid", "unusable")
        reask = fake.requests[1].body["messages"][-1]["content"]
        assert "Answer again" in reask


async def test_compare_reports_an_unusable_answer_as_not_ok() -> None:
    with FakeLLMServer(lambda body: ok("{}")) as fake:
        outliner = Outliner(providers=["openai/smollm2", "offline"], api_base=fake.url, retry=FAST)
        comparison = await outliner.acompare(await _doc())
    bad, good = comparison.results
    assert not bad.ok and bad.error is not None and bad.error.code == "provider_output"
    assert "schema" in bad.error.message and bad.outline is None
    assert good.ok


async def _doc() -> ExtractedDocument:
    from libtext.outline import text_document

    return text_document(TEXT)


async def test_the_schema_sent_marks_the_required_fields() -> None:
    with FakeLLMServer(lambda body: ok(GOOD)) as fake:
        await local(fake).aoutline_text(TEXT)
    body = fake.requests[0].body
    # A model litellm does not know, at a server of one's own: JSON mode with the schema.
    schema = body["response_format"]["schema"]
    assert set(schema["required"]) >= {"source_metadata", "outline_segments"}
    item = schema["$defs"][schema["properties"]["outline_segments"]["items"]["$ref"].split("/")[-1]]
    assert {"sequence_id", "chapter_title", "start_phrase_hebrew"} <= set(item["required"])
    prompt = body["messages"][-1]["content"]
    assert '"required": ["source_metadata", "outline_segments"]' in prompt


ECHO = (
    '{"properties": {"outline_segments": {"items": {"sequence_id": 1}, "type": "array"}, '
    '"source_metadata": {"work_title": "ספר'
)


async def test_a_cut_off_answer_is_refused_and_reasked_with_a_higher_limit() -> None:
    cut = FakeLLMServer(lambda body: FakeReply(content=ECHO, finish_reason="length"))
    with cut as fake, pytest.raises(errors.ProviderOutputError) as info:
        await local(fake, options={"max_tokens": 64}).aoutline_text(_book(2, 12))
    assert info.value.details["reason"] == "length"
    assert "max_tokens" in info.value.message
    limits = [r.body["max_tokens"] for r in fake.requests]
    assert limits[:2] == [64, 128]
    # The window was then split and each half asked: never the whole text again.
    whole = fake.requests[0].body["messages"][-1]["content"]
    assert all(r.body["messages"][-1]["content"] != whole for r in fake.requests[2:])
    assert len(fake.requests) > 2


def test_no_inner_object_is_pulled_out_of_an_answer_that_does_not_parse() -> None:
    from libtext._outline_windows import OutlineAnswer
    from libtext.models import DocumentOutline

    with pytest.raises(_InvalidOutput):
        parse_structured(ECHO, DocumentOutline)
    with pytest.raises(_InvalidOutput):
        parse_structured(ECHO + '"}}}', OutlineAnswer)  # parses, but not as an outline
    # Prose around one object is still read.
    value = parse_structured(f"Here is the outline:\n{GOOD}\nHope this helps.", OutlineAnswer)
    assert len(value.outline_segments) == 2


# --- 2. a local server without a key ----------------------------------------------------


async def test_the_documented_local_example_runs_without_a_key() -> None:
    with FakeLLMServer(lambda body: ok(GOOD)) as fake:
        outline = await local(fake).aoutline_text(TEXT)
    assert len(outline.outline_segments) == 2
    assert len(fake.requests) == 1  # reached the server at once, no retries
    assert fake.requests[0].headers["Authorization"].startswith("Bearer ")


@pytest.mark.parametrize("prefix", sorted(LOCAL_PREFIXES - {"ollama", "ollama_chat", "vllm"}))
async def test_every_keyless_openai_compatible_prefix_reaches_the_server(prefix: str) -> None:
    # ollama speaks its own API and vllm/ is the in-process library: the others are
    # OpenAI-compatible servers reached at api_base.
    with FakeLLMServer(lambda body: ok(GOOD)) as fake:
        await Outliner(provider=f"{prefix}/smollm2", api_base=fake.url, retry=FAST).aoutline_text(
            TEXT
        )
    assert fake.requests, f"{prefix}/ never reached the server"


def test_a_short_key_never_garbles_messages() -> None:
    said = "This model's maximum context length is 8192 tokens; x exceeded"
    assert redact(said, "x") == said
    assert redact(said, "context") == said  # too short to be a key
    key = "abcdefgh12345"
    assert redact(f"key {key}.", key) == "key [redacted]."
    assert redact(f"prefix{key}suffix", key) == f"prefix{key}suffix"  # inside a word


async def test_a_dummy_key_keeps_the_servers_message_readable() -> None:
    body = error_body("maximum context length exceeded", code="context_length_exceeded")
    with FakeLLMServer(lambda b: FakeReply(status=400, body=body)) as fake:
        provider = LiteLLMProvider("openai/smollm2", api_base=fake.url, api_key="x")
        with pytest.raises(errors.ProviderError) as info:
            await provider.complete(
                ProviderRequest(task="outline", messages=[], response_model=_Any)
            )
    assert "maximum context length" in str(info.value.details)
    assert "[redacted]" not in str(info.value.details)


class _Any(BaseModel):
    title: str = ""


# --- 3. keep what needs no model ------------------------------------------------------


CITED = "ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור וירא אלהים את האור כי טוב."


async def test_an_unusable_translation_keeps_the_offline_part() -> None:
    with FakeLLMServer(lambda body: ok("I cannot translate this.")) as fake:
        translator = Translator(provider="openai/smollm2", api_base=fake.url, retry=FAST)
        seg = await translator.atranslate(CITED)
    assert not seg.complete and seg.error and "provider_output" in seg.error
    assert "provider_output" in seg.notes[0]
    assert "".join(d.hebrew_phrase for d in seg.translation_data).replace(" ", "") == (
        CITED.replace(" ", "")
    )
    assert any("Genesis.1.3" in d.sefaria_link for d in seg.translation_data)


# --- 5. a failed run is not stored as a text --------------------------------------------


def _failing(fail_on: str | None) -> FunctionProvider:
    async def fn(req: ProviderRequest) -> Any:
        if fail_on is None or fail_on in req.payload.hebrew:
            raise errors.ProviderError(
                "Could not connect to http://127.0.0.1:9/v1: connection refused",
                provider="openai/smollm2",
                retryable=False,
            )
        from libtext.translate._offline import answer

        out = answer(req.payload)
        for p in out.phrases:
            p.english_translation = p.english_translation or "English."
        return out

    return FunctionProvider(fn, name="openai/smollm2")


async def test_a_run_where_every_translation_failed_raises_and_saves_nothing(
    tmp_path: Path,
) -> None:
    store = TextStore(f"sqlite:///{tmp_path / 't.db'}")
    doc = await _doc()
    with pytest.raises(errors.ProviderError) as info:
        await aprocess_document(
            doc,
            translator=Translator(provider=_failing(None), retry=FAST),
            store=store,
            cache=False,
        )
    assert "every section" in info.value.message and "save_partial" in info.value.message
    assert "127.0.0.1:9" in info.value.message  # the endpoint is named
    assert store.list().pagination.total == 0


async def test_a_partial_run_is_saved_only_when_asked(tmp_path: Path) -> None:
    store = TextStore(f"sqlite:///{tmp_path / 't.db'}")
    doc = await _doc()
    translator = Translator(provider=_failing("ויקרא"), retry=FAST)
    with pytest.raises(errors.ProviderError) as info:
        await aprocess_document(doc, translator=translator, store=store, cache=False)
    assert "1 of 2 sections" in info.value.message
    assert store.list().pagination.total == 0
    kept = await aprocess_document(
        doc, translator=translator, store=store, cache=False, save_partial=True
    )
    assert store.list().pagination.total == 1
    failed = [s for s in kept.sections if s.error]
    assert len(failed) == 1 and not failed[0].complete and failed[0].translation_data


# --- 4. the context window from the server; windows that fit it ---------------------


@pytest.mark.parametrize(
    "info",
    [
        {"/props": {"default_generation_settings": {"n_ctx": 2048}, "total_slots": 1}},
        {"/v1/models": {"data": [{"id": "smollm2", "max_model_len": 2048}]}},
    ],
    ids=["llama.cpp", "vLLM"],
)
async def test_the_context_window_comes_from_the_server(info: dict[str, Any]) -> None:
    with FakeLLMServer(lambda body: ok(GOOD), info=info) as fake:
        provider = LiteLLMProvider("openai/smollm2", api_base=fake.url)
        await provider.warm_up()
        told = LiteLLMProvider("openai/smollm2", api_base=fake.url, context_tokens=999)
        await told.warm_up()
    assert provider.max_input_tokens == 2048
    assert provider.max_concurrency == (1 if "/props" in info else None)
    assert told.max_input_tokens == 999  # the caller's word wins


def test_the_hebrew_estimate_is_pessimistic() -> None:
    # SmolLM2's tokenizer takes about 1.2 tokens per character of plain Hebrew.
    text = (PAGE_1 + "\n") * 50
    assert estimate_tokens(text) >= 1.2 * len(text)


async def test_a_book_is_cut_into_windows_that_fit_the_servers_context() -> None:
    props = {"/props": {"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1}}
    with FakeLLMServer(_window_answer, info=props) as fake:
        await local(fake).aoutline_text(_book(10, 40))
    assert len(fake.requests) > 1
    for r in fake.requests:
        sent = "".join(m["content"] for m in r.body["messages"])
        # By the pessimistic estimate (SmolLM2's rate on Hebrew, and more), each request
        # leaves a quarter of the context for the answer.
        assert estimate_tokens(sent) <= 4096 * 3 // 4


_PAGE = re.compile(r"\[page (\d+)\]\n([^\n]*)")


def _first_page(body: dict[str, Any]) -> str:
    """The first ``[page N]`` of the text the request shows."""
    found = _PAGE.search("".join(m["content"] for m in body["messages"]))
    assert found is not None
    return found.group(1)


def _first_words(body: dict[str, Any]) -> str:
    """The first three words of the text the request shows."""
    found = _PAGE.search("".join(m["content"] for m in body["messages"]))
    assert found is not None
    return " ".join(found.group(2).split()[:3])


def _window_answer(body: dict[str, Any]) -> FakeReply:
    """A usable answer for any window: one segment at its first words."""
    start = segment(1, _first_words(body), int(_first_page(body)))
    return ok(json.dumps({"source_metadata": {}, "outline_segments": [start]}, ensure_ascii=False))


def _book(pages: int, lines: int) -> str:
    line = "ויאמר אלהים יהי אור ויהי אור"
    return "\f".join(f"פרק {'אבגדהוזחטי'[k]}\n" + "\n".join([line] * lines) for k in range(pages))


async def test_a_window_that_overflows_is_split_and_retried() -> None:
    from libtext._outline_windows import outline_schema

    # Characters of prompt this fake server's "context" takes: the schema and a page.
    limit = len(outline_schema()) + 1200

    def answer(body: dict[str, Any]) -> FakeReply:
        text = body["messages"][-1]["content"]
        if len(text) > limit:
            return FakeReply(
                status=400,
                body=error_body(
                    "This model's maximum context length is 512 tokens",
                    code="context_length_exceeded",
                ),
            )
        first = _first_page(body)
        start = "ויאמר אלהים יהי אור" if first == "1" else "ויקרא אלהים לאור יום"
        return ok(
            json.dumps(
                {"source_metadata": {}, "outline_segments": [segment(1, start, int(first))]},
                ensure_ascii=False,
            )
        )

    with FakeLLMServer(answer) as fake:
        outliner = local(fake, window_tokens=100_000)
        outline = await outliner.aoutline_text(f"{PAGE_1 * 12}\f{PAGE_2 * 12}")
    assert len(outline.outline_segments) == 2
    # The window the server named in refusing is used from then on.
    assert getattr(outliner.providers[0], "max_input_tokens", None) == 512
    sizes = [len(r.body["messages"][-1]["content"]) for r in fake.requests]
    assert sizes[0] > limit and all(s <= limit for s in sizes[1:])


# --- 5b. one slot: a call's timeout counts only its own time -----------------------------


async def test_a_one_slot_server_is_asked_one_call_at_a_time() -> None:
    busy = threading.Lock()
    overlaps: list[bool] = []

    def answer(body: dict[str, Any]) -> FakeReply:
        overlaps.append(not busy.acquire(blocking=False))
        if not overlaps[-1]:
            time.sleep(0.3)
            busy.release()
        return _window_answer(body)

    props = {"/props": {"default_generation_settings": {"n_ctx": 100_000}, "total_slots": 1}}
    # Three calls of 0.3 s in a row: asked together, the last would wait 0.6 s in the
    # server's queue and pass call_timeout.
    policy = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=0.5, deadline=60.0)
    with FakeLLMServer(answer, info=props) as fake:
        await Outliner(
            provider="openai/smollm2", api_base=fake.url, retry=policy, window_tokens=400
        ).aoutline_text(_book(4, 8))
    assert len(fake.requests) >= 3 and not any(overlaps)


# --- 5c. a server that refuses json_schema -----------------------------------------------


async def test_a_refused_json_schema_falls_back_to_the_servers_form() -> None:
    def answer(body: dict[str, Any]) -> FakeReply:
        if body.get("response_format", {}).get("type") == "json_schema":
            return FakeReply(
                status=500, body=error_body("response_format json_schema not supported")
            )
        return ok(GOOD)

    with FakeLLMServer(answer) as fake:
        outliner = Outliner(
            provider="openai/gpt-4o-mini",
            api_base=fake.url,
            api_key="sk-local-test-key",
            retry=FAST,
        )
        await outliner.aoutline_text(TEXT)
        await outliner.aoutline_text(TEXT)  # remembered: no second refusal
    kinds = [r.body.get("response_format", {}).get("type") for r in fake.requests]
    assert kinds == ["json_schema", "json_object", "json_object"]


async def test_a_server_refusing_json_mode_gets_the_schema_in_the_prompt_only() -> None:
    def answer(body: dict[str, Any]) -> FakeReply:
        if "response_format" in body:
            return FakeReply(status=400, body=error_body("response_format is not supported"))
        return ok(GOOD)

    with FakeLLMServer(answer) as fake:
        await local(fake).aoutline_text(TEXT)
    forms = [r.body.get("response_format") for r in fake.requests]
    assert forms[0]["type"] == "json_object" and "schema" in forms[0]
    assert forms[-1] is None and len(forms) == 3


# --- 6. metadata grounded ---------------------------------------------------------------


async def test_an_invented_title_is_dropped_unless_kept() -> None:
    answer = json.loads(GOOD)
    answer["source_metadata"] = {"work_title": "ספר הזהר", "author_name": "פרק א"}
    with FakeLLMServer(lambda body: ok(json.dumps(answer, ensure_ascii=False))) as fake:
        dropped = await local(fake).aoutline_text(TEXT)
        kept = await local(fake, keep_metadata=True).aoutline_text(TEXT)
        comparison = await Outliner(
            providers=["openai/smollm2"], api_base=fake.url, retry=FAST
        ).acompare(await _doc())
    assert dropped.source_metadata.work_title == ""  # not in the text
    assert dropped.source_metadata.author_name == "פרק א"  # in the first page
    assert kept.source_metadata.work_title == "ספר הזהר"
    report = comparison.results[0].grounding
    # The publication title defaults to the work's: the same invention, dropped too.
    assert report is not None
    assert report.unsupported_metadata == ["publication_title", "work_title"]


# --- 1 (the pipeline). an unusable outline is never stored as a one-section text ---------


async def test_process_document_stores_nothing_from_an_unusable_outline(tmp_path: Path) -> None:
    # Before, the empty outline made the whole book one section titled "Text", saved.
    store = TextStore(f"sqlite:///{tmp_path / 't.db'}")
    try:
        doc = await _doc()
        fake = FakeLLMServer(lambda body: ok("{}"))
        with fake, pytest.raises(errors.ProviderOutputError):
            await aprocess_document(doc, outliner=local(fake), store=store, cache=False)
        assert store.list().pagination.total == 0
    finally:
        store.close()


# --- 7 (the Translator). one slot: one call at a time, timed from the slot -------------------


async def test_the_translator_asks_a_one_slot_server_one_call_at_a_time() -> None:
    busy = threading.Lock()
    overlaps: list[bool] = []

    def answer(body: dict[str, Any]) -> FakeReply:
        overlaps.append(not busy.acquire(blocking=False))
        if not overlaps[-1]:
            time.sleep(0.3)
            busy.release()
        hebrew = body["messages"][-1]["content"].rsplit("Hebrew block:\n", 1)[1]
        phrase = {"hebrew_phrase": hebrew.strip(), "english_translation": "And God said."}
        return ok(json.dumps({"phrases": [phrase]}, ensure_ascii=False))

    props = {"/props": {"default_generation_settings": {"n_ctx": 100_000}, "total_slots": 1}}
    # Three chunks of 0.3 s: asked together (concurrency=4), the last would wait 0.6 s
    # in the server's queue and pass call_timeout.
    policy = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=0.5, deadline=60.0)
    text = "ויאמר אלהים יהי אור ויהי אור וירא אלהים את האור כי טוב. " * 12
    with FakeLLMServer(answer, info=props) as fake:
        translator = Translator(
            provider="openai/smollm2", api_base=fake.url, retry=policy, max_chars=250
        )
        seg = await translator.atranslate(text)
    assert seg.complete, seg.notes
    assert len(fake.requests) >= 3 and not any(overlaps)
