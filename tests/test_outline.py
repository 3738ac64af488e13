"""The Outliner: offline outlines against the truth files, the LLM path (windows,
grounding, merging) with function providers and litellm's mock_response, compare."""

from __future__ import annotations

import io
import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from libtext import FunctionProvider, Outliner
from libtext._outline_windows import estimate_tokens
from libtext.errors import ConfigurationError, EmptyDocumentError, MissingAPIKeyError
from libtext.headings import offline_outline
from libtext.hebrew import strip_nikud
from libtext.models import DocumentOutline, ExtractedDocument, OutlineSegment
from libtext.pdf import extract_pdf
from libtext.prompts import load_prompt
from libtext.providers.base import ProviderRequest
from libtext.providers.structured import RetryPolicy

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FAST = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=30.0, deadline=60.0)
TEXT_MARK = "Text (each page starts with a [page N] marker):\n"


def truth(fixtures_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures_dir / f"{name}.truth.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def small(fixtures_dir: Path) -> ExtractedDocument:
    return extract_pdf(fixtures_dir / "small.pdf")


@pytest.fixture(scope="module")
def book(fixtures_dir: Path) -> ExtractedDocument:
    return extract_pdf(fixtures_dir / "book.pdf")


def check_chapters(outline: DocumentOutline, doc: ExtractedDocument, data: dict[str, Any]) -> None:
    segments = outline.outline_segments
    chapters = data["chapters"]
    assert [s.chapter_title for s in segments] == [c["heading"] for c in chapters]
    assert [s.page_ref for s in segments] == [str(c["page"]) for c in chapters]
    assert [s.sequence_id for s in segments] == list(range(1, len(chapters) + 1))
    for seg, chapter in zip(segments, chapters, strict=True):
        assert seg.start_phrase_hebrew and seg.start_phrase_hebrew in doc.text
        assert seg.end_phrase_hebrew and seg.end_phrase_hebrew in doc.text
        first = strip_nikud(chapter["first_words"]).split()[0].strip('"')
        assert strip_nikud(seg.start_phrase_hebrew).split()[0].strip('"') == first
        assert seg.end_phrase_hebrew.split()[-1] == chapter["last_words"].split()[-1]


# --- offline ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["small", "book"])
def test_offline_outline_matches_truth(fixtures_dir: Path, name: str) -> None:
    outline = Outliner().outline(fixtures_dir / f"{name}.pdf")
    data = truth(fixtures_dir, name)
    check_chapters(outline, extract_pdf(fixtures_dir / f"{name}.pdf"), data)
    assert outline.source_metadata.work_title == data["title"]
    assert outline.source_metadata.author_name == data["author"]


def test_sample_pdf_outlines_into_three_chapters() -> None:
    outline = Outliner().outline(str(EXAMPLES / "sample.pdf"))
    assert [s.chapter_title for s in outline.outline_segments] == ["פרק א", "פרק ב", "פרק ג"]
    assert [s.page_ref for s in outline.outline_segments] == ["2", "3", "4"]


async def test_sync_outline_inside_a_running_event_loop(fixtures_dir: Path) -> None:
    # The Jupyter case: the sync twin called where a loop is already running.
    outline = Outliner().outline(fixtures_dir / "small.pdf")
    assert len(outline.outline_segments) == 3
    assert await Outliner().aoutline(fixtures_dir / "small.pdf") == outline


def test_every_source_kind_gives_the_same_outline(
    fixtures_dir: Path, small: ExtractedDocument
) -> None:
    path = fixtures_dir / "small.pdf"
    outliner = Outliner()
    expected = outliner.outline(path)
    assert outliner.outline(str(path)) == expected
    assert outliner.outline(path.read_bytes()) == expected
    with path.open("rb") as fh:
        assert outliner.outline(fh) == expected
    assert outliner.outline(io.BytesIO(path.read_bytes())) == expected
    assert outliner.outline(small) == expected


def test_max_pages_outlines_only_the_first_pages(
    fixtures_dir: Path, book: ExtractedDocument
) -> None:
    outline = Outliner(max_pages=9).outline(fixtures_dir / "book.pdf")
    chapters = [c for c in truth(fixtures_dir, "book")["chapters"] if c["page"] <= 9]
    assert [s.chapter_title for s in outline.outline_segments] == [c["heading"] for c in chapters]
    assert Outliner(max_pages=9).outline(book) == outline


def test_outline_text_splits_pages_on_form_feeds() -> None:
    text = (
        "פרק א\nאמר רבי שמעון כל העולם כולו נברא בשביל התורה.\nוכך אמרו חכמים.\f"
        "עוד דברים בפרק הראשון.\f"
        "פרק ב\nועוד אמרו אל תהי כעבדים המשמשין את הרב.\n"
    )
    outline = Outliner().outline_text(text)
    segs = outline.outline_segments
    assert [(s.chapter_title, s.page_ref) for s in segs] == [("פרק א", "1"), ("פרק ב", "3")]
    assert segs[0].start_phrase_hebrew.startswith("אמר רבי שמעון")
    assert segs[0].end_phrase_hebrew.endswith("בפרק הראשון.")
    with pytest.raises(EmptyDocumentError):
        Outliner().outline_text("  \f \n")


# --- a stand-in language model ---------------------------------------------------------


def _perturb(seg: OutlineSegment, k: int) -> OutlineSegment:
    """What models do to copied phrases, a different slip per segment."""
    start, end, page_ref = seg.start_phrase_hebrew, seg.end_phrase_hebrew, seg.page_ref
    if k % 4 == 3:
        start = strip_nikud(start).replace('"', "״")  # nikud dropped, gershayim
    elif k % 4 == 1:
        start = "  ".join(start.split())  # spacing changed
        page_ref = str(int(page_ref) + 1)  # off by one page
    elif k % 4 == 2:
        end = "וזהו סוף הפרק כפי שהמודל המציא אותו"  # invented end
    return seg.model_copy(
        update={"start_phrase_hebrew": start, "end_phrase_hebrew": end, "page_ref": page_ref}
    )


class FakeModel:
    """Outlines the window it is sent, as a model would, with slips in the phrases."""

    def __init__(self, *, invent: bool = False, keep: set[int] | None = None) -> None:
        self.requests: list[ProviderRequest] = []
        self.invent = invent
        self.keep = keep

    def __call__(self, request: ProviderRequest) -> dict[str, Any]:
        self.requests.append(request)
        window: ExtractedDocument = request.payload
        answer = offline_outline(window)
        segments = [
            _perturb(s, int(s.chapter_number or 0))
            for s in answer.outline_segments
            if self.keep is None or int(s.chapter_number or 0) in self.keep
        ]
        if self.invent:
            segments.append(
                OutlineSegment(
                    sequence_id=99,
                    chapter_title="פרק מומצא",
                    page_ref=str(window.pages[0].number),
                    start_phrase_hebrew="משפט שהמודל המציא ואינו מופיע בספר כלל",
                    end_phrase_hebrew="וגם זה אינו בספר",
                )
            )
        out = answer.model_copy(update={"outline_segments": segments})
        return out.model_dump(mode="json")


def test_llm_path_repairs_phrases_and_corrects_pages(
    fixtures_dir: Path, small: ExtractedDocument
) -> None:
    fake = FakeModel(invent=True)
    outliner = Outliner(providers=[FunctionProvider(fake, name="fake")], retry=FAST)
    comparison = outliner.compare(small)
    (outcome,) = comparison.results
    assert outcome.ok and outcome.outline is not None
    check_chapters(outcome.outline, small, truth(fixtures_dir, "small"))
    report = outcome.grounding
    assert report is not None
    assert report.dropped == 1  # the invented segment
    # ch.1 start spacing, ch.2 invented end, ch.3 start without nikud; the rest exact
    assert (report.repaired, report.exact, report.segments) == (3, 3, 4)
    assert report.page_mismatches == 1  # chapter 1's page was off by one
    assert outcome.prompt_version == load_prompt("outline").version
    # One window for a short document, with the page markers and the schema.
    (request,) = fake.requests
    user = request.messages[-1]["content"]
    for page in small.pages:
        assert f"[page {page.number}]\n{page.text}" in user
    assert '"outline_segments"' in user
    assert request.prompt_version == outcome.prompt_version


def test_long_document_is_split_into_bounded_overlapping_windows(
    fixtures_dir: Path, book: ExtractedDocument
) -> None:
    fake = FakeModel()
    window_tokens = 6000
    outliner = Outliner(
        providers=[FunctionProvider(fake, name="fake")], retry=FAST, window_tokens=window_tokens
    )
    outline = outliner.outline(book)
    check_chapters(outline, book, truth(fixtures_dir, "book"))

    windows = [[p.number for p in r.payload.pages] for r in fake.requests]
    assert len(windows) >= 4
    windows.sort()
    covered = sorted({n for w in windows for n in w})
    assert covered == [p.number for p in book.pages]
    for prev, nxt in pairwise(windows):
        assert nxt[0] <= prev[-1] + 1  # no gap
        assert len(set(prev) & set(nxt)) <= 1  # overlap_pages=1
    sent = []
    for r in fake.requests:
        user = r.messages[-1]["content"]
        text = user[user.index(TEXT_MARK) + len(TEXT_MARK) :]
        assert estimate_tokens(text) <= window_tokens  # fits the window, as estimated
        sent.append(len(text))
    document = len(book.text) + sum(len(f"[page {p.number}]\n") for p in book.pages)
    # Overlap pages are at most a quarter of a window; windows are measured in
    # pessimistic Hebrew tokens (1.25 a character), so each holds fewer pages.
    assert document <= sum(sent) <= document * 1.3


async def test_async_and_sync_give_the_same_windowed_outline(book: ExtractedDocument) -> None:
    def make() -> Outliner:
        return Outliner(providers=[FunctionProvider(FakeModel())], window_tokens=5000)

    assert await make().aoutline(book) == make().outline(book)


def test_options_ride_on_every_outline_request_to_a_provider_object(
    book: ExtractedDocument,
) -> None:
    """``options=`` means what it means on the Translator: sent with each request, so a
    provider object gets them as a named one does."""
    model = FakeModel()
    seen: list[dict[str, Any]] = []

    def answer(request: ProviderRequest) -> Any:
        seen.append(dict(request.options))
        return model(request)

    outliner = Outliner(
        provider=FunctionProvider(answer), options={"temperature": 0}, window_tokens=5000
    )
    outliner.outline(book)
    assert len(seen) > 1  # several windows, each with the options
    assert all(options == {"temperature": 0} for options in seen)


def test_small_window_budget_is_refused(small: ExtractedDocument) -> None:
    outliner = Outliner(providers=[FunctionProvider(FakeModel())], window_tokens=10)
    with pytest.raises(ConfigurationError):
        outliner.outline(small)


# --- compare -----------------------------------------------------------------------------


def test_compare_three_providers_one_failing(
    fixtures_dir: Path, small: ExtractedDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    import libtext.pdf

    calls = []
    real = libtext.pdf.aextract_pdf

    async def counting(*args: Any, **kwargs: Any) -> ExtractedDocument:
        calls.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(libtext.pdf, "aextract_pdf", counting)

    def broken(request: ProviderRequest) -> str:
        raise RuntimeError("model crashed")

    outliner = Outliner(
        providers=[
            "offline",
            FunctionProvider(FakeModel(), name="fake"),
            FunctionProvider(broken, name="broken"),
            FunctionProvider(FakeModel(keep={1, 3}), name="coarse"),
        ],
        retry=FAST,
    )
    comparison = outliner.compare(fixtures_dir / "small.pdf")
    assert len(calls) == 1  # extracted once for all providers
    by_name = {o.provider: o for o in comparison.results}
    assert list(by_name) == ["offline", "fake", "broken", "coarse"]
    assert by_name["offline"].ok and by_name["fake"].ok and by_name["coarse"].ok
    failed = by_name["broken"]
    assert not failed.ok and failed.outline is None and failed.error is not None
    assert failed.error.code == "provider_error"
    assert "broken" in failed.error.message
    assert "model crashed" not in failed.error.message  # not the raw exception text
    assert by_name["offline"].tokens_in == 0 and by_name["offline"].prompt_version is None
    grounding = by_name["offline"].grounding
    assert grounding is not None and grounding.exact == 2 * 3 and grounding.repaired == 0
    assert comparison.source_metadata.work_title == truth(fixtures_dir, "small")["title"]

    pairs = {(p.a, p.b): p for p in comparison.agreement}
    assert set(pairs) == {("offline", "fake"), ("offline", "coarse"), ("fake", "coarse")}
    full = pairs[("offline", "fake")]
    assert (full.matched, full.segments_a, full.segments_b, full.score) == (3, 3, 3, 1.0)
    # chapters on pages 2, 3, 4 against 2, 4: 2-2 and 3-4 pair up within one page
    part = pairs[("offline", "coarse")]
    assert (part.matched, part.segments_a, part.segments_b) == (2, 3, 2)
    assert part.score == pytest.approx(2 / 3, abs=1e-3)


def test_outline_with_several_providers_asks_for_compare(small: ExtractedDocument) -> None:
    outliner = Outliner(providers=["offline", FunctionProvider(FakeModel())])
    with pytest.raises(ConfigurationError, match="compare"):
        outliner.outline(small)


def test_duplicate_provider_names_get_distinct_labels(small: ExtractedDocument) -> None:
    comparison = Outliner(providers=["offline", "offline"]).compare(small)
    assert [o.provider for o in comparison.results] == ["offline", "offline#2"]
    assert comparison.agreement[0].score == 1.0


def test_missing_key_fails_at_construction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "")
    with pytest.raises(MissingAPIKeyError) as info:
        Outliner(providers=["offline", "openai/gpt-4o-mini"])
    assert "OPENAI_API_KEY" in info.value.message


def test_bad_provider_specs() -> None:
    with pytest.raises(ConfigurationError):
        Outliner(providers=[])
    with pytest.raises(ConfigurationError):
        Outliner(providers=["no-such-provider"])
    with pytest.raises(ConfigurationError):
        Outliner(max_pages=0)


def test_litellm_mock_response_through_the_outliner(
    fixtures_dir: Path, small: ExtractedDocument
) -> None:
    data = truth(fixtures_dir, "small")
    # What a model typically answers: phrases without nikud, ASCII quotes, a wrong page.
    answer = {
        "source_metadata": {
            "publication_title": data["publication_title"],
            "work_title": data["title"],
            "author_name": data["author"],
        },
        "outline_segments": [
            {
                "sequence_id": i + 1,
                "chapter_number": str(i + 1),
                "chapter_title": c["heading"],
                "segment_title": c["heading"],
                "summary": "…",
                "page_ref": str(c["page"] + (1 if i == 0 else 0)),
                "start_phrase_hebrew": strip_nikud(c["first_words"]),
                "end_phrase_hebrew": strip_nikud(c["last_words"]),
            }
            for i, c in enumerate(data["chapters"])
        ],
    }
    outliner = Outliner(
        providers=["openai/gpt-4o-mini"],
        api_key="sk-test-not-real",
        options={"mock_response": json.dumps(answer, ensure_ascii=False)},
        retry=FAST,
    )
    comparison = outliner.compare(small)
    (outcome,) = comparison.results
    assert outcome.ok and outcome.outline is not None, outcome.error
    check_chapters(outcome.outline, small, data)
    assert outcome.tokens_in and outcome.tokens_out
    assert outcome.grounding is not None and outcome.grounding.page_mismatches == 1
    # chapter 3 is vocalized: its phrases were repaired back to the nikud text
    ch3 = outcome.outline.outline_segments[2]
    assert ch3.start_phrase_hebrew != strip_nikud(ch3.start_phrase_hebrew)
    assert re.search("[\u0591-\u05c7]", ch3.end_phrase_hebrew)


async def test_cold_compare_keeps_the_event_loop_running(
    monkeypatch: pytest.MonkeyPatch, small: ExtractedDocument
) -> None:
    # A cold start imports litellm (seconds). Here the import only ends once a ticker
    # task on the event loop has ticked meanwhile: were it run on the loop's own
    # thread, the ticker could not tick, and the import would give up after 5 s.
    import threading

    import anyio

    from libtext.providers import llm

    real = llm._load_litellm()
    monkeypatch.setattr(llm, "_litellm", None)
    importing, ticked = threading.Event(), threading.Event()
    cold_threads: list[int] = []

    def cold_load() -> Any:
        if llm._litellm is None:
            cold_threads.append(threading.get_ident())
            importing.set()
            ticked.wait(timeout=5)
            llm._litellm = real  # restored by monkeypatch
        return real

    monkeypatch.setattr(llm, "_load_litellm", cold_load)
    segment = {
        "sequence_id": 1,
        "chapter_title": 'ליקוטי מוהר"ן',
        "page_ref": "1",
        "start_phrase_hebrew": "מבחר קטעים מחלק ראשון",
        "end_phrase_hebrew": "",
    }
    answer = {"source_metadata": {"work_title": "t"}, "outline_segments": [segment]}
    outliner = Outliner(
        providers=["openai/gpt-4o-mini", "openai/gpt-4.1-mini"],
        api_key="sk-test-not-real",
        options={"mock_response": json.dumps(answer)},
        retry=FAST,
    )
    done = False

    async def ticker() -> None:
        while not done:
            if importing.is_set():
                ticked.set()
            await anyio.sleep(0.005)

    async with anyio.create_task_group() as tg:
        tg.start_soon(ticker)
        comparison = await outliner.acompare(small)
        done = True
    assert all(r.ok for r in comparison.results), [r.error for r in comparison.results]
    assert cold_threads and threading.get_ident() not in cold_threads
    assert ticked.is_set()


def test_quickstart_python_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = EXAMPLES.parent
    text = (root / "docs" / "quickstart.md").read_text("utf-8")
    example = re.findall(r"```python\n(.*?)```", text, flags=re.S)[0]
    monkeypatch.chdir(root)
    exec(compile(example, "quickstart.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "פרקי אבות"
    assert [line.split()[:3] for line in out[1:]] == [
        ["2", "פרק", "א"],
        ["3", "פרק", "ב"],
        ["4", "פרק", "ג"],
    ]


def test_outline_raises_the_provider_error(small: ExtractedDocument) -> None:
    from libtext.errors import ProviderError

    def broken(request: ProviderRequest) -> str:
        raise RuntimeError("model crashed")

    outliner = Outliner(providers=[FunctionProvider(broken, name="broken")], retry=FAST)
    with pytest.raises(ProviderError) as info:
        outliner.outline(small)
    assert info.value.provider == "broken"
