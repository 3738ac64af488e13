"""LibraryClient against pages recorded from the live chabadlibrary.org (December 2025).

The two recorded works (``../shared/realdata/chabadlibrary/``, see
``tests/library_replay.py``) are served as the site serves them, and read through
the real client, the command line and ``POST /api/process``. What is checked comes
from the recorded answers themselves (their ids, headings, tokens and Hebrew words),
never from libtext's output.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.library_replay import (
    BOOK_2800,
    TANYA,
    WORKS,
    RecordedPage,
    ReplayLibrary,
    available,
    hebrew_words,
)

from libtext import RetryPolicy
from libtext.library import LibraryClient
from libtext.models import LibraryPage, ProcessedDocument, WorkByIdResponse

BASE = "https://replay.test/books"
_TOKEN = re.compile(r"\[/?[A-Za-z][^\[\]]*\]")
_NOTE_START = re.compile(r"\[ftn_(\d+)_(\d+)\]")
_HAGOHO = re.compile(r"\[hagoho\](.*?)\[/hagoho\]", re.S)


@pytest.fixture(scope="module")
def recorded() -> ReplayLibrary:
    if not available():
        pytest.skip(
            "recorded chabadlibrary.org pages not found in ../shared/realdata (set LIBTEXT_SHARED)"
        )
    return ReplayLibrary.load()


@pytest.fixture
def replay(recorded: ReplayLibrary) -> ReplayLibrary:
    return ReplayLibrary(works=recorded.works)


def client_for(replay: ReplayLibrary, **kwargs: Any) -> LibraryClient:
    return LibraryClient(
        base_url=BASE,
        rate_limit=None,
        retry=RetryPolicy(max_attempts=1),
        transport=replay.transport(),
        **kwargs,
    )


@pytest.fixture(scope="module")
def works(recorded: ReplayLibrary) -> dict[str, WorkByIdResponse]:
    replay = ReplayLibrary(works=recorded.works)
    with client_for(replay) as client:
        return {root: client.get_work(root) for root in WORKS.values()}


def _plain_words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]*>", " ", html).replace("\xa0", " ").split())


def _out(page: LibraryPage) -> str:
    return page.text + "\n" + "\n".join(f.content for f in page.footnotes)


# --- the walk ------------------------------------------------------------------------


@pytest.mark.parametrize("root", list(WORKS.values()))
def test_every_page_is_walked_in_recorded_order(
    recorded: ReplayLibrary, works: dict[str, WorkByIdResponse], root: str
) -> None:
    work = works[root]
    pages = recorded.work(root).pages
    assert [p.id for p in work.pages] == [p.id for p in pages]
    assert [p.heading_path for p in work.pages] == [p.path for p in pages]
    assert work.page_count == len(pages) and not work.truncated
    assert work.unknown_tokens == {}


def test_nodes_are_asked_as_slash_id(replay: ReplayLibrary) -> None:
    with client_for(replay) as client:
        client.get_work(TANYA, max_pages=3)
    assert replay.paths and all(re.fullmatch(r"/\d+", p) for p in replay.paths)


@pytest.mark.parametrize("root", list(WORKS.values()))
def test_no_markup_token_is_left_and_no_hebrew_word_is_lost(
    recorded: ReplayLibrary, works: dict[str, WorkByIdResponse], root: str
) -> None:
    by_id = {p.id: p for p in recorded.work(root).pages}
    left: list[str] = []
    lost: Counter[str] = Counter()
    for page in works[root].pages:
        left += _TOKEN.findall(_out(page))
        rec = by_id[page.id]
        lost += Counter(hebrew_words(rec.text + "\n" + rec.haoros)) - Counter(
            hebrew_words(_out(page))
        )
    assert left == []
    assert sum(lost.values()) == 0, lost.most_common(5)


def test_every_note_is_attached_with_its_printed_label(
    recorded: ReplayLibrary, works: dict[str, WorkByIdResponse]
) -> None:
    by_id = {p.id: p for p in recorded.work(BOOK_2800).pages}
    total = 0
    for page in works[BOOK_2800].pages:
        rec: RecordedPage = by_id[page.id]
        labels = [n for _, n in _NOTE_START.findall(rec.haoros)]
        total += len(labels)
        assert len(page.footnotes) == len(labels)
        for note, label in zip(page.footnotes, labels, strict=True):
            # The printed label, qualified by its note id only where two share it.
            assert note.marker == label or note.marker.endswith(f".{label}")
            assert f"[{note.marker}]" in page.text
            assert note.content
    assert total == 3671  # the README's count of the recorded notes


def test_every_hagoho_is_a_paragraph_of_its_own(
    recorded: ReplayLibrary, works: dict[str, WorkByIdResponse]
) -> None:
    by_id = {p.id: p for p in recorded.work(TANYA).pages}
    blocks = 0
    for page in works[TANYA].pages:
        lines = page.text.split("\n")
        for block in _HAGOHO.findall(by_id[page.id].text):
            blocks += 1
            assert _plain_words(block) in lines
    assert blocks == 49  # the README's count


def test_tanya_chapters_are_numbered(works: dict[str, WorkByIdResponse]) -> None:
    from libtext.hebrew import parse_numeral

    doc = LibraryClient(base_url=BASE).to_document(works[TANYA])
    assert len(doc.sections) == 119
    for section, page in zip(doc.sections, works[TANYA].pages, strict=True):
        heading = page.heading_path[-1]
        expected = parse_numeral(heading.removeprefix("פרק ").strip(), spelled=False)
        if expected is None:  # "חנוך לנער": a title, not a chapter
            assert section.chapter_number == "", heading
        else:
            assert section.chapter_number == str(expected), heading
    assert sum(bool(s.chapter_number) for s in doc.sections) == 118


@pytest.mark.parametrize("mode", ["header", "bare"])
def test_brotli_answers_with_or_without_content_encoding(
    recorded: ReplayLibrary, works: dict[str, WorkByIdResponse], mode: str
) -> None:
    pytest.importorskip("brotli")
    replay = ReplayLibrary(works=recorded.works, brotli=mode)
    with client_for(replay) as client:
        work = client.get_work(TANYA, max_pages=10)
    assert work.pages == works[TANYA].pages[:10]


# --- search and statistics on the recorded pages ---------------------------------------


def test_search_pages_through_hits_with_a_zero_based_offset(replay: ReplayLibrary) -> None:
    word = "אלא"  # on well over 25 recorded pages
    expected = [p.id for _, _, p in replay._hits(word)]
    assert len(expected) > 50
    seen: list[str] = []
    offsets: list[str] = []

    def spy(request: httpx.Request) -> httpx.Response:
        offsets.append(request.url.params["offset"])
        return replay.handle(request)

    client = LibraryClient(base_url=BASE, rate_limit=None, transport=httpx.MockTransport(spy))
    with client:
        page = 1
        while True:
            found = client.search(word, page=page)
            assert found.pagination.total == len(expected)
            seen += [r.id for r in found.results]
            if page >= found.pagination.total_pages:
                break
            page += 1
    assert seen == expected
    assert offsets == [str(k) for k in range(-(-len(expected) // 25))]


def test_search_sends_what_the_site_sends(replay: ReplayLibrary) -> None:
    sent: list[httpx.Request] = []

    def spy(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return replay.handle(request)

    client = LibraryClient(base_url=BASE, rate_limit=None, transport=httpx.MockTransport(spy))
    with client:
        found = client.search("מַשְׁבִּיעִים  אוֹתוֹ", page=2)
        in_tanya = client.search("משביעים אותו", section_id=TANYA)
    params = [dict(r.url.params) for r in sent]
    assert params[0] == {"phrase": "משביעים אותו", "section_id": "0", "offset": "1"}
    assert params[1]["section_id"] == TANYA and params[1]["offset"] == "0"
    assert found.query == "משביעים אותו" and found.results == []
    hit = in_tanya.results[0]
    assert hit.id == "3401310006" and hit.link == f"{BASE}/3401310006"
    assert hit.heading == "תניא / ליקוטי אמרים / פרק א"
    assert "משביעים אותו" in hit.snippet and len(hit.snippet) <= 110


def test_snippets_are_cut_around_the_phrase_in_the_page(replay: ReplayLibrary) -> None:
    phrase = "ירע לבבו"
    with client_for(replay) as client:
        found = client.search(phrase)
    assert found.results
    for hit in found.results:
        assert phrase in hit.snippet and len(hit.snippet) <= 110
        assert not _TOKEN.findall(hit.snippet)


def test_search_counts_per_work(replay: ReplayLibrary) -> None:
    word = "אלא"
    with client_for(replay) as client:
        counts = client.search_counts(word)
        total = client.search(word).pagination.total
    by_work = Counter(w.root_id for w, _, _ in replay._hits(word))
    assert {c.section_id: c.count for c in counts.counts} == dict(by_work)
    assert counts.total == total and counts.query == word
    assert [c.count for c in counts.counts] == sorted(by_work.values(), reverse=True)
    tanya = next(c for c in counts.counts if c.section_id == TANYA)
    assert tanya.title == "תניא" and tanya.link == f"{BASE}/{TANYA}"


async def test_search_counts_async_twin(replay: ReplayLibrary) -> None:
    async with client_for(replay) as client:
        counts = await client.asearch_counts("ירע לבבו")
    assert counts.total == len(replay._hits("ירע לבבו")) > 0


# --- the command line and the HTTP adapter -----------------------------------------------


@pytest.fixture
def cli_replay(replay: ReplayLibrary, monkeypatch: pytest.MonkeyPatch) -> Iterator[ReplayLibrary]:
    respx = pytest.importorskip("respx")
    monkeypatch.setenv("LIBTEXT_LIBRARY_URL", BASE)
    with respx.mock(assert_all_called=False) as router:
        router.get(url__startswith=f"{BASE}/api/").mock(side_effect=replay.handle)
        yield replay


def _check_document(doc: ProcessedDocument, recorded: ReplayLibrary, root: str) -> None:
    pages = recorded.work(root).pages
    assert len(doc.sections) == len(pages)
    text = "\n".join(
        s.original_hebrew_block + "\n" + "\n".join(f.content for f in s.footnotes)
        for s in doc.sections
    )
    want = Counter(w for p in pages for w in hebrew_words(p.text + "\n" + p.haoros))
    assert sum((want - Counter(hebrew_words(text))).values()) == 0
    assert not _TOKEN.findall(text)
    notes = sum(p.haoros.count("[ftn_") for p in pages)
    assert sum(len(s.footnotes) for s in doc.sections) == notes


def test_cli_fetch_stores_the_work_and_reads_it_back(
    cli_replay: ReplayLibrary, recorded: ReplayLibrary, tmp_path: Path
) -> None:
    store_module = pytest.importorskip("libtext.store")
    from click.testing import CliRunner

    from libtext.cli import cli

    url = f"sqlite:///{tmp_path / 'texts.db'}"
    runner = CliRunner()
    for root in WORKS.values():
        result = runner.invoke(cli, ["library", "--rate-limit", "0", "fetch", root, "--store", url])
        assert result.exit_code == 0, result.output
        slug = result.stdout.split()[1]
        with store_module.TextStore(url) as store:
            stored = store.get(slug, include_source_ids=True)
        assert stored.work_id == root
        _check_document(stored, recorded, root)
    out = tmp_path / "tanya.json"
    result = runner.invoke(cli, ["library", "--rate-limit", "0", "fetch", TANYA, "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = ProcessedDocument.model_validate(json.loads(out.read_text("utf-8")))
    assert [s.chapter_number for s in doc.sections][:3] == ["1", "2", "3"]


def test_cli_counts(cli_replay: ReplayLibrary) -> None:
    from click.testing import CliRunner

    from libtext.cli import cli

    result = CliRunner().invoke(cli, ["library", "--rate-limit", "0", "counts", "ירע לבבו"])
    assert result.exit_code == 0, result.output
    assert f"{TANYA}  תניא" in result.output


@pytest.fixture
async def app_client(
    replay: ReplayLibrary, tmp_path: Path
) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    store_module = pytest.importorskip("libtext.store")
    pytest.importorskip("fastapi")
    from libtext.asgi import Settings, create_app

    store = store_module.TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    library = client_for(replay)
    app = create_app(store=store, library=library, settings=Settings())
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c, store
    await library.aclose()
    store.close()


@pytest.mark.parametrize("root", list(WORKS.values()))
async def test_process_by_work_id_over_http_is_stored_and_read_back(
    app_client: tuple[httpx.AsyncClient, Any], recorded: ReplayLibrary, root: str
) -> None:
    client, store = app_client
    r = await client.post("/api/process", json={"work_id": root})
    assert r.status_code == 200, r.text[:500]
    body = r.json()
    stored = store.get(body["slug"], include_source_ids=True)
    assert stored.work_id == root
    _check_document(stored, recorded, root)
    fetched = await client.get(f"/api/texts/{body['slug']}")
    assert fetched.status_code == 200 and fetched.json() == body["document"]
    if root == TANYA:
        assert [s.chapter_number for s in stored.sections][:3] == ["1", "2", "3"]
