"""The Translator: phrase split and coverage, Sefaria links, footnotes, glossary, providers.

Providers are functions answering like a model would (verbatim phrases in their own
split, English, expansions) or litellm's ``mock_response``; nothing goes to a network.
"""

from __future__ import annotations

import importlib.util
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from libtext import errors
from libtext.hebrew import strip_nikud
from libtext.models import EnrichedSegment, Footnote, OutlineSegment
from libtext.providers._cache import ProviderCache, cache_key
from libtext.providers.base import ProviderRequest
from libtext.providers.function import FunctionProvider
from libtext.providers.structured import RetryPolicy
from libtext.translate import TranslatePayload, TranslationResponse, Translator
from libtext.translate._phrases import (
    align_phrases,
    covers,
    expand_abbreviations,
    letters_key,
    split_phrases,
)

FAST = RetryPolicy(max_attempts=2, base_delay=0.0, max_delay=0.0)

BLOCK = (
    "פרק א\n"
    'אמר הקב"ה לישראל: ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור.\n'
    "כמ\"ש (תהלים קיט, א) אשרי תמימי דרך, ההולכים בתורת ה' (א).\n"
    "וזהו ענין הביטול, שהוא עיקר העבודה בכל יום ויום ובכל שעה ושעה."
)
NOTES = [
    Footnote(marker="(א)", content="בראשית א, א."),
    Footnote(marker="(ב)", content="ואם אחר כך עשה תשובה נקרא צדיק גמור"),
]


def segment(block: str = BLOCK, notes: list[Footnote] | None = None) -> EnrichedSegment:
    return EnrichedSegment(
        sequence_id=3,
        chapter_title="פרק א",
        segment_title="פרק א",
        original_hebrew_block=block,
        footnotes=list(NOTES if notes is None else notes),
    )


def words_model(
    *,
    size: int = 4,
    skip: set[int] = frozenset(),
    extra: dict[int, str] | None = None,
    mangle: bool = False,
    glossary_word: str = "",
) -> tuple[FunctionProvider, list[ProviderRequest]]:
    """A model that splits the block into runs of ``size`` words and 'translates' them.

    ``skip``: phrase numbers it leaves out; ``extra``: phrases it invents (inserted before
    the given number); ``mangle``: it drops nikud and writes ״ for ". English names the
    phrase's first word so tests can tell which phrase got what.
    """
    seen: list[ProviderRequest] = []

    def fn(req: ProviderRequest) -> dict[str, Any]:
        seen.append(req)
        payload = req.payload
        assert isinstance(payload, TranslatePayload)
        words = payload.hebrew.split()
        phrases = []
        for n, i in enumerate(range(0, len(words), size)):
            if extra and n in extra:
                phrases.append({"hebrew_phrase": extra[n], "english_translation": "invented"})
            if n in skip:
                continue
            text = " ".join(words[i : i + size])
            if mangle:
                text = strip_nikud(text).replace('"', "\u05f4")
            english = f"EN[{strip_nikud(words[i])}]"
            if glossary_word and "הביטול" in text:
                english += f" {glossary_word}"
            phrases.append(
                {
                    "hebrew_phrase": text,
                    "hebrew_phrase_expanded": "",
                    "english_translation": english,
                }
            )
        notes = [
            {"marker": fn.marker, "translation": f"NOTE {fn.marker}"} for fn in payload.footnotes
        ]
        return {"phrases": phrases, "footnotes": notes}

    return FunctionProvider(fn, name="words-model"), seen


def joined_key(phrases: list[str]) -> str:
    return letters_key("".join(phrases))[0]


# --- the phrase split -------------------------------------------------------------


def test_split_covers_block_and_keeps_citations_whole() -> None:
    from libtext.sefaria import find_citations

    cites = find_citations(BLOCK)
    spans = split_phrases(BLOCK, protected=[(c.start, c.end) for c in cites])
    assert "".join(BLOCK[s:e] for s, e in spans) == BLOCK  # touching slices, nothing lost
    phrases = [BLOCK[s:e].strip() for s, e in spans]
    assert "(בראשית א, ג)" in phrases  # a parenthesised citation is its own phrase
    for c in cites:  # never cut inside a citation
        assert any(s <= c.start and c.end <= e for s, e in spans)
    assert all(len(p.split()) <= 14 for p in phrases)
    assert not any(re.fullmatch(r"\([א-ת]\)\.?", p) for p in phrases)  # marker stays attached


def test_split_long_clause_is_cut_evenly() -> None:
    block = " ".join(["מילה"] * 40) + "."
    spans = split_phrases(block, max_words=10)
    sizes = [len(block[s:e].split()) for s, e in spans]
    assert sum(sizes) == 40 and max(sizes) <= 10 and len(spans) == 4


@settings(max_examples=60, deadline=None)
@given(
    keep=st.lists(st.booleans(), min_size=1, max_size=40),
    junk=st.lists(st.sampled_from(["שלום עולם", "xyz", "", "אבגד הוז"]), max_size=3),
)
def test_alignment_always_partitions_the_block(keep: list[bool], junk: list[str]) -> None:
    spans = split_phrases(BLOCK)
    phrases = [BLOCK[s:e].strip() for (s, e), k in zip(spans, keep * 10, strict=False) if k]
    for j, text in enumerate(junk):
        phrases.insert(min(j * 3, len(phrases)), text)
    alignment = align_phrases(BLOCK, phrases)
    pieces = alignment.pieces
    assert "".join(BLOCK[p.start : p.end] for p in pieces) == BLOCK
    assert covers(BLOCK, [p.text(BLOCK) for p in pieces])
    sources = [p.source for p in pieces if p.source is not None]
    assert sources == sorted(sources)  # order kept


def test_alignment_maps_near_misses_and_reports() -> None:
    block = "וַיֹּאמֶר אֱלֹהִים יְהִי אוֹר וַיְהִי אוֹר. וירא אלהים את האור כי טוב."
    phrases = ["ויאמר אלהים יהי אור", "ויהי אור.", "ויבדל אלהים בין האור"]  # nikud dropped
    al = align_phrases(block, phrases)
    texts = [p.text(block) for p in al.pieces]
    assert texts[0] == "וַיֹּאמֶר אֱלֹהִים יְהִי אוֹר"  # the printed form, nikud and all
    assert al.dropped == [] and al.gaps == 1  # invented phrase's English sits in the gap
    assert al.pieces[-1].source is None and al.pieces[-1].orphans == (2,)


def test_expand_abbreviations() -> None:
    assert expand_abbreviations('הקב"ה') == "הקדוש ברוך הוא"
    assert expand_abbreviations("וכמ\u05f4ש") == "וכמו שכתוב"  # prefix + gershayim
    assert expand_abbreviations("וכו'") == "וכולי"
    text = 'ע"ש בפ"ג'
    assert expand_abbreviations(text) == 'עיין שם בפ"ג'  # unknown tokens stay
    assert expand_abbreviations(text, protected=[(0, 4)]) == text


# --- the offline provider -----------------------------------------------------------


async def test_offline_gives_split_links_expansions_and_says_what_is_missing() -> None:
    result = await Translator(provider="offline").atranslate(segment())
    data = result.translation_data
    assert covers(BLOCK, [d.hebrew_phrase for d in data])
    assert all(d.hebrew_phrase in BLOCK for d in data)
    by_phrase = {d.hebrew_phrase: d for d in data}
    genesis = by_phrase["(בראשית א, ג)"]
    assert genesis.sefaria_link == "https://www.sefaria.org/Genesis.1.3"
    assert genesis.english_translation == "(Genesis 1:3)"
    linked = [d for d in data if d.sefaria_link]
    assert {d.sefaria_link for d in linked} == {
        "https://www.sefaria.org/Genesis.1.3",
        "https://www.sefaria.org/Psalms.119.1",
    }
    first = next(d for d in data if 'הקב"ה' in d.hebrew_phrase)
    assert "הקדוש ברוך הוא" in first.hebrew_phrase_expanded
    assert data[0].hebrew_phrase == "פרק א"  # the heading is a phrase of its own
    # Nothing faked: prose has no English, and the result says so.
    prose = [d for d in data if not d.sefaria_link]
    assert prose and all(d.english_translation == "" for d in prose)
    assert result.complete is False and result.provider == "offline"
    assert any("no English" in n for n in result.notes)
    notes = {fn.marker: fn.translation for fn in result.footnotes}
    assert notes == {"(א)": "Genesis 1:1.", "(ב)": ""}


async def test_offline_is_deterministic_and_sync_matches_async() -> None:
    translator = Translator(provider="offline")
    a = await translator.atranslate(segment())
    b = await translator.atranslate(segment())
    c = await Translator(provider="offline").atranslate(BLOCK, footnotes=NOTES)
    assert a == b
    # Without a title the heading joins the first clause; the rest is the same.
    assert c.translation_data[1:] == a.translation_data[2:]
    sync = await _in_thread(lambda: Translator(provider="offline").translate(segment()))
    assert sync == a


async def _in_thread(fn: Any) -> Any:
    import anyio.to_thread

    return await anyio.to_thread.run_sync(fn)


# --- a model ----------------------------------------------------------------------------


async def test_model_phrases_are_aligned_and_linked_by_libtext() -> None:
    provider, seen = words_model(size=5)
    result = await Translator(provider=provider, retry=FAST).atranslate(segment())
    data = result.translation_data
    assert len(seen) == 1
    assert result.complete and result.notes == []
    assert covers(BLOCK, [d.hebrew_phrase for d in data])
    assert all(d.english_translation.startswith("EN[") for d in data)
    # The link comes from the linker, for the phrase holding the citation's numbers (the
    # model's 5-word phrases may cut "(בראשית" from "א, ג)": the link goes with "ג)").
    linked = [d for d in data if d.sefaria_link]
    assert any("ג)" in d.hebrew_phrase for d in linked if "Genesis" in d.sefaria_link)
    assert all("Genesis.1.3" in d.sefaria_link or "Psalms" in d.sefaria_link for d in linked)
    # Expansion filled from the table where the model gave none.
    assert any("הקדוש ברוך הוא" in d.hebrew_phrase_expanded for d in data)
    # Citation-only footnotes never reach the model; the others do.
    payload = seen[0].payload
    assert [fn.marker for fn in payload.footnotes] == ["(ב)"]
    assert "בראשית א, א." not in seen[0].messages[1]["content"]
    assert {fn.marker: fn.translation for fn in result.footnotes} == {
        "(א)": "Genesis 1:1.",
        "(ב)": "NOTE (ב)",
    }


async def test_model_links_are_ignored() -> None:
    def fn(req: ProviderRequest) -> str:
        text = req.payload.hebrew
        return json.dumps(
            {
                "phrases": [
                    {
                        "hebrew_phrase": text,
                        "english_translation": "all",
                        "sefaria_link": "https://evil.example/x",
                    }
                ]
            }
        )

    result = await Translator(provider=FunctionProvider(fn), retry=FAST).atranslate(
        segment(notes=[])
    )
    links = {d.sefaria_link for d in result.translation_data}
    assert "https://evil.example/x" not in links
    assert "https://www.sefaria.org/Genesis.1.3" in links


async def test_skipped_and_invented_phrases_are_repaired_and_reported() -> None:
    provider, _ = words_model(size=4, skip={2}, extra={4: "משהו שאינו בטקסט כלל ועיקר"})
    result = await Translator(provider=provider, retry=FAST).atranslate(segment())
    data = result.translation_data
    assert covers(BLOCK, [d.hebrew_phrase for d in data])
    gap = [d for d in data if not d.english_translation]
    assert len(gap) == 1  # the skipped words, kept in Hebrew, untranslated
    assert result.complete is False
    assert any("left out" in n for n in result.notes)
    assert any("dropped" in n for n in result.notes)
    assert all(d.english_translation != "invented" for d in data)


async def test_mangled_phrases_map_back_to_printed_text() -> None:
    provider, _ = words_model(size=6, mangle=True)
    result = await Translator(provider=provider, retry=FAST).atranslate(segment())
    assert all(d.hebrew_phrase in BLOCK for d in result.translation_data)
    assert any('הקב"ה' in d.hebrew_phrase for d in result.translation_data)


async def test_invalid_output_is_reasked_once() -> None:
    good, _ = words_model()
    answers: list[Any] = ["not json at all", None]

    async def fn(req: ProviderRequest) -> Any:
        answer = answers.pop(0)
        return answer if answer is not None else await good.complete(req)

    result = await Translator(provider=FunctionProvider(fn), retry=FAST).atranslate(segment())
    assert answers == [] and result.complete

    # Unusable even after the re-ask: libtext's own part comes back, marked incomplete.
    provider = FunctionProvider(lambda req: {"phrases": "nope"}, name="broken")
    kept = await Translator(provider=provider, retry=FAST).atranslate(segment())
    assert not kept.complete and kept.error and "provider_output" in kept.error
    assert "provider_output" in kept.notes[0] and kept.translation_data
    assert "".join(d.hebrew_phrase for d in kept.translation_data).replace(" ", "") == (
        segment().original_hebrew_block.replace(" ", "").replace("\n", "")
    )


async def test_provider_errors_propagate_typed() -> None:
    def fn(req: ProviderRequest) -> Any:
        raise errors.RateLimitError("429", provider="p", details={"retry_after": 0})

    with pytest.raises(errors.RateLimitError):
        await Translator(provider=FunctionProvider(fn, name="p"), retry=FAST).atranslate(segment())


async def test_glossary_is_in_the_prompt_and_checked() -> None:
    glossary = {"ביטול": "self-nullification"}
    provider, seen = words_model(size=5)
    result = await Translator(provider=provider, retry=FAST, glossary=glossary).atranslate(
        segment()
    )
    assert "ביטול -> self-nullification" in seen[0].messages[1]["content"]
    assert any("Glossary" in n and "self-nullification" in n for n in result.notes)

    provider, _ = words_model(size=5, glossary_word="self-nullification")
    result = await Translator(provider=provider, retry=FAST, glossary=glossary).atranslate(
        segment()
    )
    assert not any("Glossary" in n for n in result.notes)


async def test_citation_only_footnotes_need_no_call() -> None:
    provider, seen = words_model()
    notes = [
        Footnote(marker="1", content="בראשית א, א."),
        Footnote(marker="2", content="שבת לא, א"),
    ]
    result = await Translator(provider=provider, retry=FAST).atranslate(
        EnrichedSegment(sequence_id=1, original_hebrew_block="", footnotes=notes)
    )
    assert seen == []
    assert [fn.translation for fn in result.footnotes] == ["Genesis 1:1.", "Shabbat 31a"]
    assert result.complete


async def test_long_blocks_go_in_chunks_of_whole_phrases() -> None:
    block = " ".join([BLOCK.replace("\n", " ")] * 6)
    provider, seen = words_model(size=5)
    result = await Translator(provider=provider, retry=FAST, max_chars=400).atranslate(
        segment(block=block, notes=[])
    )
    assert len(seen) > 1
    assert all(len(r.payload.hebrew) <= 400 for r in seen)
    assert covers(block, [d.hebrew_phrase for d in result.translation_data])
    assert result.complete


async def test_litellm_mock_response_path() -> None:
    if importlib.util.find_spec("litellm") is None:
        pytest.skip("litellm is not installed (pip install 'libtext[llm]')")
    from libtext.providers.llm import LiteLLMProvider  # sets litellm's offline cost map

    block = "ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור."
    answer = {
        "phrases": [
            {
                "hebrew_phrase": "ויאמר אלהים יהי אור",
                "english_translation": "God said, let there be light",
            },
            {"hebrew_phrase": "(בראשית א, ג)", "english_translation": "(Genesis 1:3)"},
            {"hebrew_phrase": "ויהי אור.", "english_translation": "and there was light."},
        ]
    }
    provider = LiteLLMProvider("openai/gpt-4o-mini", api_key="sk-test")
    translator = Translator(
        provider=provider, retry=FAST, options={"mock_response": json.dumps(answer)}
    )
    result = await translator.atranslate(block)
    assert [d.english_translation for d in result.translation_data] == [
        p["english_translation"] for p in answer["phrases"]
    ]
    assert result.translation_data[1].sefaria_link.endswith("Genesis.1.3")
    assert result.provider == "openai/gpt-4o-mini" and result.complete


# --- caching -----------------------------------------------------------------------------


async def test_cache_hits_never_cross_models_or_prompt_versions(tmp_path: Any) -> None:
    cache = ProviderCache(tmp_path / "c.sqlite")
    provider, seen = words_model()
    first = await Translator(provider=provider, retry=FAST, cache=cache).atranslate(segment())
    again = await Translator(provider=provider, retry=FAST, cache=cache).atranslate(segment())
    assert len(seen) == 1 and again == first and cache.hits == 1
    other, seen_other = words_model()
    other.name = "another-model"
    await Translator(provider=other, retry=FAST, cache=cache).atranslate(segment())
    assert len(seen_other) == 1  # same text, other model: asked again
    common = dict(task="translate", provider="m", response_model=TranslationResponse, messages=[])
    assert cache_key(prompt_version="translate-1", **common) != cache_key(
        prompt_version="translate-2", **common
    )


async def test_broken_cache_file_does_not_fail(tmp_path: Any) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    provider, seen = words_model()
    result = await Translator(provider=provider, retry=FAST, cache=ProviderCache(path)).atranslate(
        segment()
    )
    assert result.complete and len(seen) == 1


# --- bad input ---------------------------------------------------------------------------


async def test_bad_input_is_typed() -> None:
    with pytest.raises(errors.ConfigurationError):
        Translator(provider="no such provider")
    translator = Translator(provider="offline")
    with pytest.raises(errors.EmptyDocumentError):
        await translator.atranslate("   ")
    with pytest.raises(errors.InvalidInputError):
        await translator.atranslate(42)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidInputError):
        Translator(provider="offline", max_chars=10)
    plain = await translator.atranslate(OutlineSegment(sequence_id=2), footnotes=NOTES[:1])
    assert plain.sequence_id == 2 and plain.footnotes[0].translation == "Genesis 1:1."


def test_cli_translate() -> None:
    from click.testing import CliRunner

    from libtext.cli import cli

    runner = CliRunner()
    result = runner.invoke(
        cli, ["translate", "ויאמר אלהים (בראשית א, ג) ויהי אור.", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert [d["sefaria_link"] for d in body["translation_data"]][1].endswith("Genesis.1.3")
    table = runner.invoke(cli, ["translate", "-"], input='אמר הקב"ה (בראשית א, א)')
    assert table.exit_code == 0 and "Genesis 1:1" in table.stdout and "note:" in table.stdout


# --- found by walking the public paths as a user ------------------------------------------


async def test_api_key_and_api_base_reach_a_self_hosted_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Translator takes api_key/api_base like the Outliner (it used to raise TypeError)."""
    if importlib.util.find_spec("litellm") is None:
        pytest.skip("litellm is not installed (pip install 'libtext[llm]')")
    from tests.fake_llm import FakeLLMServer, ok

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    block = "ויאמר אלהים יהי אור (בראשית א, ג)"
    answer = {
        "phrases": [
            {"hebrew_phrase": "ויאמר אלהים יהי אור", "english_translation": "God said, light"},
            {"hebrew_phrase": "(בראשית א, ג)", "english_translation": "(Genesis 1:3)"},
        ]
    }
    with FakeLLMServer() as server:
        server.queue(ok(json.dumps(answer)))
        translator = Translator(
            provider="openai/fake-model", api_base=server.url, api_key="sk-test-key", retry=FAST
        )
        result = await translator.atranslate(block)
        assert server.count == 1
        auth = {k.lower(): v for k, v in server.requests[0].headers.items()}["authorization"]
    assert auth == "Bearer sk-test-key"
    assert [d.english_translation for d in result.translation_data] == [
        "God said, light",
        "(Genesis 1:3)",
    ]
    assert "sk-test-key" not in repr(translator)


async def test_empty_text_says_to_pass_a_passage() -> None:
    for text in ("", "  \n", "..."):
        with pytest.raises(errors.EmptyDocumentError) as caught:
            await Translator(provider="offline").atranslate(text)
        message = caught.value.message
        assert "Hebrew passage" in message and "original_hebrew_block" not in message


def test_cli_translate_empty_and_stdin() -> None:
    from click.testing import CliRunner

    from libtext.cli import cli

    runner = CliRunner()
    for args, stdin in ((["translate", ""], None), (["translate", "-"], "\n\n")):
        result = runner.invoke(cli, args, input=stdin)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and "'-'" in lines[0]
    piped = runner.invoke(cli, ["translate", "-", "--format", "json"], input="שלום (בראשית א, א)\n")
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.stdout)["original_hebrew_block"] == "שלום (בראשית א, א)"
