"""One public surface: the same argument names on every class (docs/vocabulary.md).

Walks ``libtext.__all__``: every public class or entry point that is configured (not a
data model, not an exception) accepts the documented vocabulary, refuses an unknown
keyword with a TypeError naming the closest valid one, and defaults to the offline
provider; old spellings still work for one release, with a DeprecationWarning.
"""

from __future__ import annotations

import inspect
import warnings
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from pydantic import BaseModel

import libtext
from libtext import (
    FunctionProvider,
    LibraryClient,
    LibraryError,
    LiteLLMProvider,
    Outliner,
    RetryPolicy,
    TextStore,
    Translator,
    process_document,
)
from libtext.outline import text_document
from libtext.providers.base import ProviderRequest

KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY")

# The vocabulary each configured public name takes (docs/vocabulary.md). A new public
# class must be added here: that is the moment to decide its argument names.
VOCABULARY: dict[str, set[str]] = {
    "Outliner": {"provider", "providers", "options", "retry", "timeout", "concurrency"},
    "Translator": {"provider", "options", "retry", "timeout", "concurrency"},
    "LibraryClient": {"retry", "timeout", "concurrency"},
    "TextStore": set(),
    "LiteLLMProvider": {"options", "timeout"},
    "FunctionProvider": set(),
    "OfflineProvider": set(),
    "RetryPolicy": set(),
    "ProviderCache": set(),
    "PdfGuard": {"timeout", "concurrency"},
    "PdfLimits": set(),
    "process_document": {"concurrency"},
    "aprocess_document": {"concurrency"},
}

# Positional arguments a constructor cannot do without.
REQUIRED: dict[str, tuple[Any, ...]] = {
    "LiteLLMProvider": ("openai/gpt-4o-mini",),
    "FunctionProvider": (lambda request: {},),
    "process_document": ("unused.pdf",),
    "aprocess_document": ("unused.pdf",),
}


# Records a function returns, not objects a user configures.
RECORDS = {"Citation", "Ref"}


def _configured() -> list[str]:
    """Public classes and entry points with a constructor worth checking."""
    names = []
    for name in libtext.__all__:
        obj = getattr(libtext, name)
        if name in RECORDS:
            continue
        if inspect.isclass(obj):
            if issubclass(obj, BaseException | BaseModel) or getattr(obj, "_is_protocol", False):
                continue
            names.append(name)
        elif callable(obj) and name in VOCABULARY:
            names.append(name)
    return names


def _keywords(obj: Any) -> set[str]:
    target = obj.__init__ if inspect.isclass(obj) else obj
    params = inspect.signature(inspect.unwrap(target)).parameters.values()
    return {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in KEY_VARS:
        monkeypatch.delenv(var, raising=False)


def test_every_configured_public_name_is_in_the_vocabulary_table() -> None:
    assert set(_configured()) == {n for n in VOCABULARY if hasattr(libtext, n)}


@pytest.mark.parametrize("name", sorted(VOCABULARY))
def test_accepts_the_documented_vocabulary(name: str) -> None:
    missing = VOCABULARY[name] - _keywords(getattr(libtext, name))
    assert not missing, f"{name} lacks {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(VOCABULARY))
def test_unknown_keyword_is_a_type_error_naming_the_closest(name: str) -> None:
    obj = getattr(libtext, name)
    valid = sorted(_keywords(obj) - {"self"})
    # A one-letter slip of a real argument name, or a name nothing resembles.
    typo = valid[0][:-1] + "x" + valid[0][-1] if valid else "temprature"
    with pytest.raises(TypeError) as info:
        if inspect.iscoroutinefunction(obj):  # raised when awaited, as for any coroutine
            anyio.run(lambda: obj(*REQUIRED.get(name, ()), **{typo: 1}))
        else:
            obj(*REQUIRED.get(name, ()), **{typo: 1})
    if valid:
        assert repr(valid[0]) in str(info.value), str(info.value)


def test_a_typo_in_a_model_option_is_refused_not_swallowed() -> None:
    with pytest.raises(TypeError, match="'timeout'"):
        Outliner(timout=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="temprature"):
        Outliner(provider="openai/gpt-4o-mini", api_key="sk-x", temprature=0)  # type: ignore[call-arg]


def test_outliner_provider_is_the_one_named_not_offline() -> None:
    outliner = Outliner(provider="openai/gpt-4o-mini", api_key="sk-test")
    assert outliner.provider_names == ["openai/gpt-4o-mini"]
    with pytest.raises(TypeError, match="providers="):
        Outliner(provider="offline", providers=["offline"])


def test_every_entry_point_defaults_to_offline(tmp_path: Path) -> None:
    assert Outliner().provider_names == ["offline"]
    assert Translator().name == "offline"
    for fn in (process_document, libtext.aprocess_document):
        params = inspect.signature(inspect.unwrap(fn)).parameters
        assert params["outliner"].default is None and params["translator"].default is None
    # No key set: the pipeline runs on the offline provider, keeping the Translator's notes.
    text = "פרק א\n" + "ויאמר אלהים יהי אור ויהי אור. " * 20
    doc = process_document(text_document(text), cache=False)
    assert doc.sections and all(s.error is None for s in doc.sections)
    translated = [s for s in doc.sections if s.translation_data]
    assert translated and all(not s.complete and s.notes for s in translated)


def test_old_spellings_warn_and_still_work() -> None:
    fast = RetryPolicy(max_attempts=1)
    with pytest.warns(DeprecationWarning, match=r"Outliner\(policy=\.\.\.\).*retry="):
        assert Outliner(policy=fast).retry is fast  # type: ignore[call-arg]
    with pytest.warns(DeprecationWarning, match=r"options=\{'temperature'"):
        outliner = Outliner(provider="openai/gpt-4o-mini", api_key="k", temperature=0)  # type: ignore[call-arg]
    assert outliner.options == {"temperature": 0}
    assert isinstance(outliner.providers[0], LiteLLMProvider)
    assert outliner.providers[0].options == {"temperature": 0}
    with pytest.warns(DeprecationWarning, match=r"Translator\(policy="):
        assert Translator(policy=fast).retry is fast  # type: ignore[call-arg]
    with pytest.warns(DeprecationWarning, match=r"LiteLLMProvider\(temperature="):
        provider = LiteLLMProvider("openai/gpt-4o-mini", api_key="k", temperature=0)  # type: ignore[call-arg]
    assert provider.options == {"temperature": 0}
    with pytest.warns(DeprecationWarning, match=r"LibraryClient\(retries="):
        client = LibraryClient(retries=1, backoff=0.25, max_wait=5.0)  # type: ignore[call-arg]
    assert client.retry.max_attempts == 2
    assert (client.retry.base_delay, client.retry.max_delay) == (0.25, 5.0)
    with pytest.raises(TypeError, match="both"):
        Translator(retry=fast, policy=fast)  # type: ignore[call-arg]
    with pytest.warns(DeprecationWarning, match=r"PdfGuard\(workers=\.\.\.\).*concurrency="):
        guard = libtext.PdfGuard(workers=2, isolate=False)  # type: ignore[call-arg]
    assert guard.concurrency == 2 and guard.workers == 2
    with pytest.raises(TypeError, match="both"), pytest.warns(DeprecationWarning):
        libtext.PdfGuard(concurrency=2, workers=2, isolate=False)  # type: ignore[call-arg]


def test_the_warning_points_at_the_caller() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Translator(policy=RetryPolicy())  # type: ignore[call-arg]
    assert caught and caught[0].filename == __file__


def test_timeout_is_the_per_call_timeout() -> None:
    assert Translator(timeout=7).retry == RetryPolicy(call_timeout=7)
    base = RetryPolicy(max_attempts=2)
    assert Outliner(retry=base, timeout=3).retry == RetryPolicy(max_attempts=2, call_timeout=3)


def test_translator_concurrency_bounds_calls_across_atranslate_calls() -> None:
    live = peak = 0

    async def answer(request: ProviderRequest) -> Any:
        nonlocal live, peak
        live += 1
        peak = max(peak, live)
        await anyio.sleep(0.01)
        live -= 1
        return {"phrases": [{"hebrew_phrase": request.payload.hebrew, "english_translation": "x"}]}

    translator = Translator(provider=FunctionProvider(answer, name="f/m"), concurrency=2)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(6):
                tg.start_soon(translator.atranslate, "ויאמר אלהים יהי אור")

    anyio.run(main)
    assert peak == 2


def _library_answer(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"id": 1, "title": "x", "children": []})


def test_ping_is_the_health_call_and_test_is_a_deprecated_alias() -> None:
    client = LibraryClient(rate_limit=None, transport=httpx.MockTransport(_library_answer))
    with client:
        assert client.ping().base_url == client.base_url
        with pytest.warns(DeprecationWarning, match=r"LibraryClient.test\(\).*ping\(\)"):
            client.test()
    with TextStore("sqlite://") as store:
        assert store.ping() is True


def test_closed_objects_refuse_work_alike(tmp_path: Path) -> None:
    """close() is final on every class holding connections, as in httpx."""
    client = LibraryClient(rate_limit=None, transport=httpx.MockTransport(_library_answer))
    client.ping()
    client.close()
    with pytest.raises(LibraryError, match="closed"):
        client.get_node("3400000000")
    unused = LibraryClient(rate_limit=None, transport=httpx.MockTransport(_library_answer))
    unused.close()  # never opened: closed all the same
    with pytest.raises(LibraryError, match="closed"):
        unused.get_node("3400000000")
    store = TextStore(f"sqlite:///{tmp_path / 't.db'}")
    store.close()
    with pytest.raises(libtext.StoreError, match="closed"):
        store.list()


DOC = Path(__file__).resolve().parent.parent / "docs" / "vocabulary.md"


def test_the_docs_table_is_what_the_classes_take() -> None:
    """Each documented argument's row names exactly the classes that take it."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[0].endswith("=`"):
            rows[cells[0].strip("`").rstrip("=")] = cells[2]
    for name, args in VOCABULARY.items():
        for arg in args:
            assert arg in rows, f"docs/vocabulary.md has no row for {arg}="
            taken_by = rows[arg].replace("`", "").replace(",", " ").split()
            assert name in taken_by or name == "aprocess_document", (arg, name)


def test_the_docs_example_prints_what_it_says() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    expected = block.split("# ", 1)[1].split("\n", 1)[0]
    printed: list[str] = []
    exec(
        compile(block, str(DOC), "exec"),
        {"print": lambda *a: printed.append(" ".join(map(str, a)))},
    )
    assert printed == [expected]
