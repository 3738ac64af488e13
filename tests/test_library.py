"""LibraryClient against a small fake library served in-process (no network).

The fake serves the shapes public client code shows: a work whose children are
chapters (pages) and a part (a section with its own pages), page HTML with headings,
footnote markers and library marks, and haoros. Time is virtual: the client gets a
clock and a sleep that advance a counter, so rate limits and backoff are checked by
the timestamps of the requests, without sleeping.
"""

from __future__ import annotations

import inspect
import itertools
import json
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import anyio
import brotli
import httpx
import pytest
import respx

from libtext import RetryPolicy
from libtext.errors import (
    ConfigurationError,
    EmptyDocumentError,
    InvalidInputError,
    LibraryError,
    LibraryTimeoutError,
    NotFoundError,
)
from libtext.library import LibraryClient, LibrarySection
from libtext.models import LibraryPage, LibraryStatus, WorkByIdResponse

BASE = "https://library.test/books"


def children(*entries: tuple[Any, str]) -> dict[str, Any]:
    return {"content": {"type": "children", "data": [{"id": i, "heading": h} for i, h in entries]}}


def page(text: str, haoros: str = "") -> dict[str, Any]:
    return {"content": {"type": "page", "data": {"text": text, "haoros": haoros}}}


# work 100 -> 200 (page), 300 (page), 400 (part: 410, 420 pages), 500 (page)
TREE: dict[str, Any] = {
    "100": children((200, "פרק א"), (300, "פרק ב"), (400, "חלק שני"), (500, "פרק ה")),
    "200": page(
        "<h2>פרק א</h2><p>[cup]והנה[/cup] מודעת זאת[ftnref_1_1] שיש שני יצרים.</p>"
        "<p>ועוד [אות ב] כתוב[ftnref_1_2].</p>",
        "[ftn_1_1]) [dibur_maschil]מודעת זאת[/dibur_maschil] ראה זהר.\r\n\r\n[ftn_1_2]) שם.",
    ),
    "300": page("<h2>פרק ב</h2><p>ונפש השנית[oldpage_12] בישראל.</p>"),
    "400": children((410, "פרק ג"), (420, "פרק ד")),
    "410": page("<h3>פרק ג</h3><p>והנה כל בחינה[ftnref_1_1].</p>", "[ftn_1_1]) עיין שם."),
    "420": page("<p>[small_begin]הגהה[small_end] פרק ד בפנים.</p>"),
    "500": page("<p>סוף דבר.</p>"),
}
ORDER = ["200", "300", "410", "420", "500"]


class VirtualClock:
    """Time that moves only when the client sleeps; records every sleep."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)


class FakeLibrary:
    """The library's API over ``httpx.MockTransport``: tree, search and injected faults."""

    def __init__(self, tree: dict[str, Any] | None = None, clock: VirtualClock | None = None):
        self.tree = dict(TREE if tree is None else tree)
        self.clock = clock or VirtualClock()
        self.requests: list[httpx.Request] = []
        self.times: list[float] = []
        self.faults: dict[str, list[Callable[[], httpx.Response]]] = {}
        self.search_hits: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.yields = 0  # checkpoints inside a request, to let others overlap

    def fail(self, key: str, *responses: Callable[[], httpx.Response]) -> None:
        """Answer the next requests for ``key`` (a node id or "search") with these."""
        self.faults.setdefault(key, []).extend(responses)

    def ids(self) -> list[str]:
        """Node ids asked for, each sent as ``path=/<id>`` as the site's clients do."""
        paths = [r.url.params.get("path", "") for r in self.requests if r.url.path.endswith("main")]
        assert all(p.startswith("/") for p in paths), paths
        return [p[1:] for p in paths]

    async def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.times.append(self.clock())
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            for _ in range(self.yields):
                await anyio.sleep(0)
            return self.answer(request)
        finally:
            self.in_flight -= 1

    def answer(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/api/search"):
            key = "search"
        else:
            key = request.url.params.get("path", "").removeprefix("/")
        if self.faults.get(key):
            return self.faults[key].pop(0)()
        if request.url.path.endswith("/api/statistics"):
            n = len(self.search_hits)
            return httpx.Response(200, json=[{"section_id": 3400000000, "count": n}] if n else [])
        if key == "search":
            offset = int(request.url.params["offset"])
            hits = self.search_hits[offset * 25 : offset * 25 + 25]
            return httpx.Response(200, json={"results": hits, "count": len(self.search_hits)})
        if key not in self.tree:
            return httpx.Response(404, json={"error": "not found"})
        return httpx.Response(200, json=self.tree[key])

    def client(self, **kwargs: Any) -> LibraryClient:
        kwargs.setdefault("rate_limit", None)
        if "retries" in kwargs:  # tries after the first, as the tests below count them
            kwargs["retry"] = RetryPolicy(max_attempts=kwargs.pop("retries") + 1, max_delay=60.0)
        return LibraryClient(
            base_url=BASE,
            transport=httpx.MockTransport(self.handle),
            clock=self.clock,
            sleep=self.clock.sleep,
            **kwargs,
        )


@pytest.fixture
def fake() -> FakeLibrary:
    return FakeLibrary()


# --- walking a work -----------------------------------------------------------------


async def test_work_pages_come_in_reading_order_with_heading_paths(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        work = await client.aget_work("100")
    assert [p.id for p in work.pages] == ORDER
    assert work.page_count == 5 and not work.truncated and work.resume_after == "500"
    by_id = {p.id: p for p in work.pages}
    assert by_id["200"].heading_path == ["פרק א"]
    assert by_id["420"].heading_path == ["חלק שני", "פרק ד"]
    assert by_id["420"].path_ids == ["400", "420"]
    assert by_id["410"].link == f"{BASE}/410"
    # every node read once, the work first
    assert fake.ids()[0] == "100" and sorted(fake.ids()) == sorted(["100", "400", *ORDER])


async def test_page_text_is_clean_hebrew_with_markers_and_notes(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        work = await client.aget_work("100", max_pages=2)
    first, second = work.pages
    assert first.text.split("\n") == [
        "פרק א",
        "והנה מודעת זאת[1] שיש שני יצרים.",
        "ועוד [אות ב] כתוב[2].",
    ]
    assert [(f.marker, f.content) for f in first.footnotes] == [
        ("1", "מודעת זאת ראה זהר."),
        ("2", "שם."),
    ]
    assert second.text == "פרק ב\nונפש השנית בישראל."
    assert second.footnotes == []


async def test_max_pages_stops_the_walk_and_marks_it_truncated(fake: FakeLibrary) -> None:
    async with fake.client(concurrency=4) as client:
        work = await client.aget_work("100", max_pages=3)
    assert [p.id for p in work.pages] == ORDER[:3]
    assert work.truncated and work.resume_after == "410"
    assert "420" not in fake.ids() and "500" not in fake.ids()  # nothing read past the limit


async def test_max_pages_equal_to_the_work_is_not_truncated(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        work = await client.aget_work("100", max_pages=len(ORDER))
    assert len(work.pages) == len(ORDER) and not work.truncated


async def test_resume_by_path_skips_what_was_read_without_fetching_it(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        first = await client.aget_work("100", max_pages=3)
        fake.requests.clear()
        rest = await client.aget_work("100", resume_after=first.pages[-1].path_ids)
    assert [p.id for p in rest.pages] == ["420", "500"]
    assert not rest.truncated
    assert not {"200", "300", "410"} & set(fake.ids())


async def test_resume_by_page_id_alone_gives_the_same_pages(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        first = await client.aget_work("100", max_pages=2)
        rest = await client.aget_work("100", resume_after=first.resume_after)
    assert [p.id for p in first.pages + rest.pages] == ORDER


async def test_iter_pages_streams_and_resumes(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        seen = []
        async for p in client.aiter_pages("100"):
            seen.append(p)
            if len(seen) == 2:
                break
        rest = [p.id async for p in client.aiter_pages("100", resume_after=seen[-1].path_ids)]
    assert [p.id for p in seen] + rest == ORDER


async def test_a_cycle_in_the_tree_is_walked_once() -> None:
    tree = {"1": children((2, "א"), (1, "loop")), "2": page("<p>טקסט</p>")}
    fake = FakeLibrary(tree)
    async with fake.client() as client:
        work = await client.aget_work("1")
    assert [p.id for p in work.pages] == ["2"]


async def test_older_api_shape_is_read_too() -> None:
    tree = {
        "7": {"tree": [{"id": 7, "heading": "ספר"}], "children": [{"id": 8, "heading": "פרק א"}]},
        "8": {"page": {"text": "<p>שלום[ftnref_1_1]</p>", "haoros": "[ftn_1_1]) הערה"}},
    }
    fake = FakeLibrary(tree)
    async with fake.client() as client:
        work = await client.aget_work(7)
    assert work.title == "ספר"
    assert [(p.id, p.text, p.heading_path) for p in work.pages] == [("8", "שלום[1]", ["פרק א"])]
    assert work.pages[0].footnotes[0].content == "הערה"


async def test_older_two_column_lists_walk_the_left_entry_next() -> None:
    tree = {
        "7": {
            "children": [
                {"id": 8, "heading": "א", "left": {"id": 9, "heading": "ב"}},
                {"id": 10, "heading": "ג", "left": None},
            ]
        },
        **{str(k): {"page": {"text": f"<p>עמוד {k}</p>"}} for k in (8, 9, 10)},
    }
    async with FakeLibrary(tree).client() as client:
        work = await client.aget_work(7)
    assert [(p.id, p.heading_path) for p in work.pages] == [
        ("8", ["א"]),
        ("9", ["ב"]),
        ("10", ["ג"]),
    ]


# --- nodes ----------------------------------------------------------------------------


async def test_get_node_returns_a_section_or_a_page(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        section = await client.aget_node("400")
        leaf = await client.aget_node(f"{BASE}/410")  # a page URL works as an id
    assert isinstance(section, LibrarySection)
    assert [(c.id, c.heading) for c in section.children] == [("410", "פרק ג"), ("420", "פרק ד")]
    assert isinstance(leaf, LibraryPage)
    assert leaf.id == "410" and leaf.footnotes[0].content == "עיין שם."


async def test_unknown_node_is_not_found_and_never_retried(fake: FakeLibrary) -> None:
    async with fake.client(retries=3) as client:
        with pytest.raises(NotFoundError) as info:
            await client.aget_node("999")
    assert "path=/999" in info.value.message
    assert fake.ids() == ["999"]


async def test_content_null_is_not_found() -> None:
    fake = FakeLibrary({"5": {"content": None}})
    async with fake.client() as client:
        with pytest.raises(NotFoundError):
            await client.aget_node("5")


@pytest.mark.parametrize("bad_id", ["", "abc def", "12;DROP", "../etc"])
async def test_bad_ids_are_caller_errors(fake: FakeLibrary, bad_id: str) -> None:
    async with fake.client() as client:
        with pytest.raises(InvalidInputError):
            await client.aget_node(bad_id)
    assert fake.requests == []


async def test_page_cache_reads_a_page_once_across_clients(
    fake: FakeLibrary, tmp_path: Any
) -> None:
    async with fake.client(cache_dir=tmp_path) as client:
        await client.aget_node("200")
        await client.aget_node("200")
        await client.aget_node("400")
    async with fake.client(cache_dir=tmp_path) as again:
        cached = await again.aget_node("200")
        await again.aget_node("400")
    assert isinstance(cached, LibraryPage) and cached.footnotes
    assert Counter(fake.ids()) == {"200": 1, "400": 2}  # sections are always asked again


# --- failures -------------------------------------------------------------------------


def status(code: int, **headers: str) -> Callable[[], httpx.Response]:
    return lambda: httpx.Response(code, json={"error": code}, headers=headers)


async def test_429_then_success_honours_retry_after(fake: FakeLibrary) -> None:
    fake.fail("200", status(429, **{"Retry-After": "7"}))
    async with fake.client() as client:
        node = await client.aget_node("200")
    assert isinstance(node, LibraryPage)
    assert fake.ids() == ["200", "200"]
    assert fake.clock.sleeps == [7.0]
    assert fake.times[1] - fake.times[0] == pytest.approx(7.0)


async def test_retry_after_as_http_date_is_understood(fake: FakeLibrary) -> None:
    fake.fail("200", status(429, **{"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}))
    async with fake.client() as client:
        await client.aget_node("200")
    assert fake.clock.sleeps == [0.0]  # a date in the past: retry at once


async def test_5xx_exhausted_becomes_library_error_with_status_and_endpoint(
    fake: FakeLibrary,
) -> None:
    fake.fail("200", *[status(503)] * 3)
    async with fake.client(retries=2) as client:
        with pytest.raises(LibraryError) as info:
            await client.aget_node("200")
    err = info.value
    assert err.status_code == 503 and err.code == "library_error"
    assert err.endpoint.endswith("/api/main?path=/200")
    assert fake.ids() == ["200"] * 3
    assert fake.clock.sleeps == [0.5, 1.0]  # exponential backoff


async def test_other_4xx_is_never_retried(fake: FakeLibrary) -> None:
    fake.fail("200", status(403))
    async with fake.client(retries=3) as client:
        with pytest.raises(LibraryError) as info:
            await client.aget_node("200")
    assert info.value.status_code == 403 and fake.ids() == ["200"]


async def test_connection_error_is_retried_then_succeeds(fake: FakeLibrary) -> None:
    def refuse() -> httpx.Response:
        raise httpx.ConnectError("refused")

    fake.fail("200", refuse)
    async with fake.client() as client:
        assert isinstance(await client.aget_node("200"), LibraryPage)
    assert fake.ids() == ["200", "200"]


async def test_timeout_after_retries_is_library_timeout(fake: FakeLibrary) -> None:
    def slow() -> httpx.Response:
        raise httpx.ReadTimeout("slow")

    fake.fail("200", *[slow] * 3)
    async with fake.client(retries=2, timeout=5) as client:
        with pytest.raises(LibraryTimeoutError) as info:
            await client.aget_node("200")
    assert info.value.endpoint.endswith("path=/200") and fake.ids() == ["200"] * 3


async def test_malformed_json_is_a_library_error(fake: FakeLibrary) -> None:
    fake.fail("200", lambda: httpx.Response(200, text="<html>maintenance</html>"))
    async with fake.client() as client:
        with pytest.raises(LibraryError, match="malformed JSON") as info:
            await client.aget_node("200")
    assert "path=/200" in info.value.endpoint


@pytest.mark.parametrize(
    "body",
    [
        {"content": {"type": "video", "data": {}}},
        {"something": "else"},
        [1, 2, 3],
        {"content": {"type": "children", "data": "not a list"}},
        {"content": {"type": "children", "data": [{"heading": "no id"}]}},
        {"content": "text"},
    ],
)
async def test_unexpected_shapes_are_library_errors_naming_the_endpoint(
    fake: FakeLibrary, body: Any
) -> None:
    fake.fail("200", lambda: httpx.Response(200, json=body))
    async with fake.client() as client:
        with pytest.raises(LibraryError) as info:
            await client.aget_node("200")
    assert "/api/main?path=/200" in info.value.message


async def test_an_error_inside_a_batch_surfaces_as_itself(fake: FakeLibrary) -> None:
    fake.fail("300", status(500), status(500))
    async with fake.client(retries=1, concurrency=4) as client:
        with pytest.raises(LibraryError) as info:
            await client.aget_work("100")
    assert info.value.status_code == 500


async def test_brotli_answers_are_decoded() -> None:
    body = brotli.compress(json.dumps(TREE["300"]).encode())

    def handler(request: httpx.Request) -> httpx.Response:
        assert "br" in request.headers["accept-encoding"]
        return httpx.Response(200, content=body, headers={"content-encoding": "br"})

    client = LibraryClient(base_url=BASE, transport=httpx.MockTransport(handler))
    async with client:
        node = await client.aget_node("300")
    assert isinstance(node, LibraryPage) and "בישראל" in node.text


# --- rate limit and concurrency -------------------------------------------------------


async def test_rate_limit_spaces_every_request(fake: FakeLibrary) -> None:
    async with fake.client(rate_limit=2.0, concurrency=4) as client:
        await client.aget_work("100")
    times = fake.times
    assert len(times) == 7
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= 0.5 - 1e-9  # 2 per second, even with 4 in flight
    assert times[-1] == pytest.approx(3.0)  # and no slower than that


async def test_burst_lets_the_first_requests_go_at_once(fake: FakeLibrary) -> None:
    async with fake.client(rate_limit=1.0, burst=3, concurrency=4) as client:
        for node in ["200", "300", "500", "410", "420"]:
            await client.aget_node(node)
    assert fake.times == pytest.approx([0.0, 0.0, 0.0, 1.0, 2.0])


async def test_concurrency_is_bounded_across_calls(fake: FakeLibrary) -> None:
    fake.yields = 5  # each request takes several turns of the loop
    async with fake.client(concurrency=2) as client, anyio.create_task_group() as tg:
        tg.start_soon(client.aget_work, "100")
        tg.start_soon(client.aget_work, "400")
        tg.start_soon(client.asearch, "יצר")
    assert fake.max_in_flight == 2


async def test_concurrency_is_used_when_allowed(fake: FakeLibrary) -> None:
    fake.yields = 5
    async with fake.client(concurrency=3) as client:
        work = await client.aget_work("100")
    assert fake.max_in_flight == 3
    assert [p.id for p in work.pages] == ORDER  # order kept despite concurrent fetches


# --- search ---------------------------------------------------------------------------


def hits(n: int) -> list[dict[str, Any]]:
    """Hits in the site's shape: ``mafteach_id``, ``tree`` breadcrumb HTML, page HTML."""
    return [
        {
            "mafteach_id": 1000 + k,
            "tree": f'<a href="/books/3400000000">תניא</a> &gt; <a href="/books/{1000 + k}">'
            f"פרק {k}</a>",
            "text": f"<h2>פרק {k}</h2>\r\n[cup]<b>ביטול</b>[/cup] היש {k}",
        }
        for k in range(n)
    ]


async def test_search_pages_through_the_librarys_25_hit_pages(fake: FakeLibrary) -> None:
    fake.search_hits = hits(60)
    async with fake.client() as client:
        first = await client.asearch("  ביטול   היש ")
        third = await client.asearch("ביטול היש", section_id=3400000000, page=3)
    assert first.query == "ביטול היש"
    assert len(first.results) == 25 and len(third.results) == 10
    assert third.results[0].id == "1050"
    assert third.results[0].heading == "תניא / פרק 50"
    assert third.results[0].snippet == "פרק 50 ביטול היש 50"
    assert third.results[0].link == f"{BASE}/1050"
    assert (third.pagination.page, third.pagination.total, third.pagination.total_pages) == (
        3,
        60,
        math.ceil(60 / 25),
    )
    sent = fake.requests[-1].url.params
    assert (sent["phrase"], sent["offset"], sent["section_id"]) == ("ביטול היש", "2", "3400000000")


async def test_search_tolerates_missing_count_and_bad_entries(fake: FakeLibrary) -> None:
    fake.fail(
        "search",
        lambda: httpx.Response(
            200, json={"results": [{"title": "x"}, {"page_id": 5, "title": "t"}]}
        ),
    )
    async with fake.client() as client:
        found = await client.asearch("שלום")
    assert [(r.id, r.heading) for r in found.results] == [("5", "t")]
    assert found.pagination.total == 1


async def test_empty_search_is_a_caller_error(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        with pytest.raises(InvalidInputError):
            await client.asearch("   ")
        with pytest.raises(InvalidInputError):
            await client.asearch("שלום", page=0)
        with pytest.raises(InvalidInputError, match="Hebrew"):
            await client.asearch("tanya 32")


# --- finding by title -----------------------------------------------------------------


def tanya_tree() -> dict[str, Any]:
    return {
        "3400000000": children((3400010000, "לקוטי אמרים"), (3400020000, "שער היחוד והאמונה")),
        "3400010000": children((3400010031, 'פרק ל"א'), (3400010032, 'פרק ל"ב')),
        "3400020000": children((3400020001, "פרק א")),
    }


async def test_nav_search_finds_a_chapter_by_title_and_number() -> None:
    fake = FakeLibrary(tanya_tree())
    async with fake.client() as client:
        by_number = await client.anav_search("tanya 32")
        by_name = await client.anav_search("תניא פרק לב")
    assert [r.id for r in by_number.results] == ["3400010032"]
    assert by_number.results[0].path == ["תניא", "לקוטי אמרים", 'פרק ל"ב']
    assert [r.id for r in by_name.results] == ["3400010032"]
    # the table of contents was read once; the second search used the cache
    assert Counter(fake.ids())["3400010000"] == 1


async def test_nav_search_respects_its_request_budget() -> None:
    fake = FakeLibrary(tanya_tree())
    async with fake.client() as client:
        found = await client.anav_search("פרק א", max_requests=1)
    assert len(fake.requests) == 1
    assert found.results == []  # the chapter is two levels down: out of budget


async def test_nav_search_on_given_roots(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        found = await client.anav_search("פרק ד", roots=["100"])
    assert [(r.id, r.path[-1]) for r in found.results] == [("420", "פרק ד")]


# --- health ---------------------------------------------------------------------------


async def test_health_reports_reachable_with_latency() -> None:
    clock = VirtualClock()

    async def handler(request: httpx.Request) -> httpx.Response:
        clock.now += 0.25
        return httpx.Response(200, json=children((1, "א")))

    client = LibraryClient(
        base_url=BASE, transport=httpx.MockTransport(handler), clock=clock, sleep=clock.sleep
    )
    async with client:
        health = await client.aping()
    assert isinstance(health, LibraryStatus)
    assert health.reachable and health.status_code == 200 and health.error is None
    assert health.latency_ms == pytest.approx(250.0)
    assert health.base_url == BASE


@pytest.mark.parametrize(
    ("respond", "code"),
    [(lambda: httpx.Response(503), 503), (lambda: httpx.Response(200, text="oops"), 200)],
)
async def test_health_reports_an_unhealthy_upstream(
    fake: FakeLibrary, respond: Callable[[], httpx.Response], code: int
) -> None:
    fake.fail("3400000000", respond)
    async with fake.client(retries=3) as client:
        health = await client.aping()
    assert not health.reachable and health.status_code == code and health.error
    assert len(fake.requests) == 1  # a health check is one request


async def test_health_reports_an_unreachable_upstream() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("no route")

    async with LibraryClient(base_url=BASE, transport=httpx.MockTransport(handler)) as client:
        health = await client.aping()
    assert not health.reachable and health.status_code is None and health.latency_ms is None
    assert "ConnectError" in (health.error or "")


# --- to_document ----------------------------------------------------------------------


async def test_to_document_makes_one_section_per_page(fake: FakeLibrary) -> None:
    async with fake.client() as client:
        work = await client.aget_work("100")
    doc = client.to_document(work)
    assert (doc.work_id, doc.first_page_id, doc.last_page_id) == ("100", "200", "500")
    assert doc.page_count == 5 and len(doc.sections) == 5
    assert [s.sequence_id for s in doc.sections] == [1, 2, 3, 4, 5]
    for section, p in zip(doc.sections, work.pages, strict=True):
        assert section.original_hebrew_block == p.text
        assert section.footnotes == p.footnotes
        assert section.start_phrase_hebrew in p.text and section.end_phrase_hebrew in p.text
    third = doc.sections[2]
    assert (third.chapter_title, third.chapter_number, third.page_ref) == ("פרק ג", "3", "3")
    assert third.segment_title == "חלק שני — פרק ג"
    assert third.footnotes[0].content == "עיין שם."
    # the body starts after the heading line
    assert doc.sections[0].start_phrase_hebrew.startswith("והנה")


def test_to_document_fills_metadata_for_a_known_work() -> None:
    work = WorkByIdResponse(
        work_id="3400000000",
        pages=[LibraryPage(id="1", heading_path=["פרק א"], text="פרק א\nשלום")],
        page_count=1,
    )
    doc = LibraryClient().to_document(work)
    meta = doc.source_metadata
    assert meta.work_title == "תניא" and meta.author_name  # known: Tanya and its author


def test_to_document_of_an_empty_work_says_so() -> None:
    with pytest.raises(EmptyDocumentError):
        LibraryClient().to_document(WorkByIdResponse(work_id="1", pages=[]))


def test_page_to_text_accepts_the_api_page_data() -> None:
    result = LibraryClient().page_to_text(
        {"text": "<h2>כותרת</h2><p>גוף[ftnref_1_3]</p>", "haoros": "[ftn_1_3]) הערה"},
        page_id="9",
    )
    assert result.text == "כותרת\nגוף[3]"
    assert [(f.marker, f.content) for f in result.footnotes] == [("3", "הערה")]
    assert result.link.endswith("/9")


# --- configuration, sync twins, respx -------------------------------------------------


def test_base_url_from_the_environment_when_the_client_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LIBTEXT_LIBRARY_URL", "https://mirror.test/books/")
    assert LibraryClient().base_url == "https://mirror.test/books"
    assert LibraryClient(base_url=BASE).base_url == BASE
    monkeypatch.setenv("LIBTEXT_LIBRARY_URL", "ftp://nope")
    with pytest.raises(ConfigurationError, match="LIBTEXT_LIBRARY_URL"):
        LibraryClient()
    with pytest.raises(ConfigurationError, match="rate_limit"):
        LibraryClient(base_url=BASE, rate_limit=-1)


def test_sync_twins_match_the_async_methods() -> None:
    fake = FakeLibrary()
    fake.search_hits = hits(3)
    with fake.client() as client:
        work = client.get_work("100", max_pages=4)
        node = client.get_node("400")
        found = client.search("ביטול")
        counts = client.search_counts("ביטול")
        streamed = [p.id for p in client.iter_pages("100")]
        health = client.ping()
        nav = client.nav_search("פרק ג", roots=["100"])

    async def run_async() -> tuple[Any, ...]:
        other_fake = FakeLibrary()
        other_fake.search_hits = hits(3)
        async with other_fake.client() as other:
            return (
                await other.asearch("ביטול"),
                await other.asearch_counts("ביטול"),
                await other.aget_work("100", max_pages=4),
                await other.aget_node("400"),
                [p.id async for p in other.aiter_pages("100")],
                await other.anav_search("פרק ג", roots=["100"]),
            )

    a_found, a_counts, a_work, a_node, a_streamed, a_nav = anyio.run(run_async)
    assert found == a_found and counts == a_counts and counts.total == 3
    assert work == a_work and node == a_node and streamed == a_streamed == ORDER
    assert nav == a_nav
    assert [r.id for r in found.results] == ["1000", "1001", "1002"]
    assert health.reachable is False  # the fake has no Tanya root: 404


def test_sync_iter_pages_stops_early_without_reading_on() -> None:
    fake = FakeLibrary()
    with fake.client(concurrency=1) as client:
        for p in client.iter_pages("100"):
            assert p.id == "200"
            break
    assert fake.ids() == ["100", "200"]


@respx.mock
async def test_default_transport_sends_a_descriptive_user_agent() -> None:
    route = respx.get(f"{BASE}/api/main").mock(return_value=httpx.Response(200, json=TREE["400"]))
    async with LibraryClient(base_url=BASE, rate_limit=None) as client:
        section = await client.aget_node("400")
    assert isinstance(section, LibrarySection)
    sent = route.calls.last.request
    assert sent.url.params["path"] == "/400"
    assert sent.headers["user-agent"].startswith("libtext/")


# --- the command line -----------------------------------------------------------------


@pytest.fixture
def cli_library(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The fake library behind respx, found through LIBTEXT_LIBRARY_URL."""
    fake = FakeLibrary()
    fake.search_hits = hits(30)

    def serve(request: httpx.Request) -> httpx.Response:
        fake.requests.append(request)
        return fake.answer(request)

    monkeypatch.setenv("LIBTEXT_LIBRARY_URL", BASE)
    with respx.mock(assert_all_called=False) as router:
        router.get(url__startswith=f"{BASE}/api/").mock(side_effect=serve)
        yield fake


def run_cli(*args: str) -> Any:
    from click.testing import CliRunner

    from libtext.cli import cli

    return CliRunner().invoke(cli, ["library", "--rate-limit", "0", *args])


def test_cli_search_lists_hits(cli_library: FakeLibrary) -> None:
    result = run_cli("search", "ביטול היש", "--page", "2")
    assert result.exit_code == 0, result.output
    assert "1025  תניא / פרק 25" in result.output and "ביטול היש 29" in result.output
    assert cli_library.requests[-1].url.params["offset"] == "1"


def test_cli_show_a_section_and_a_page(cli_library: FakeLibrary) -> None:
    section = run_cli("show", "400")
    assert section.exit_code == 0, section.output
    assert "410  פרק ג" in section.output and "420  פרק ד" in section.output
    leaf = run_cli("show", "200")
    assert leaf.exit_code == 0, leaf.output
    assert "מודעת זאת[1]" in leaf.output and "[2] שם." in leaf.output


def test_cli_fetch_prints_the_document_and_how_to_resume(cli_library: FakeLibrary) -> None:
    from libtext.models import ProcessedDocument

    result = run_cli("fetch", "100", "--max-pages", "3")
    assert result.exit_code == 0, result.output
    body = result.stdout
    doc = ProcessedDocument.model_validate_json(body)
    assert (doc.work_id, doc.last_page_id, len(doc.sections)) == ("100", "410", 3)
    assert "--resume-after 400/410" in result.stderr
    rest = run_cli("fetch", "100", "--resume-after", "400/410")
    assert ProcessedDocument.model_validate_json(rest.stdout).first_page_id == "420"


def test_cli_errors_are_one_line(cli_library: FakeLibrary) -> None:
    result = run_cli("show", "999")
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "Traceback" not in result.output


def test_cli_fetch_into_the_store(cli_library: FakeLibrary, tmp_path: Any) -> None:
    store_module = pytest.importorskip("libtext.store", reason="TextStore not written yet")
    url = f"sqlite:///{tmp_path / 'texts.db'}"
    result = run_cli("fetch", "100", "--store", url)
    assert result.exit_code == 0, result.output
    slug = result.stdout.split()[1]
    with store_module.TextStore(url) as store:
        stored = store.get(slug, include_source_ids=True)
    assert stored.work_id == "100" and len(stored.sections) == len(ORDER)
    assert stored.source_metadata.work_title  # an unnamed work still gets a title


# --- the documentation's examples -----------------------------------------------------


def test_docs_examples_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The Python blocks of docs/library.md, against a fake Tanya at the default URL."""
    import re
    from pathlib import Path

    from libtext.library import DEFAULT_BASE_URL

    docs = Path(__file__).resolve().parents[1] / "docs" / "library.md"
    blocks = re.findall(r"```python\n(.*?)```", docs.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 2
    tree = {
        **tanya_tree(),
        "3400010031": TREE["200"],
        "3400010032": TREE["410"],
        "3400020001": TREE["300"],
    }
    fake = FakeLibrary(tree)
    fake.search_hits = hits(30)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("LIBTEXT_LIBRARY_URL", raising=False)
    # the examples use the polite default rate; the test need not wait for it
    monkeypatch.setitem(inspect.unwrap(LibraryClient.__init__).__kwdefaults__, "rate_limit", None)
    with respx.mock(assert_all_called=False) as router:
        router.get(url__startswith=f"{DEFAULT_BASE_URL}/api/").mock(
            side_effect=lambda request: (fake.requests.append(request), fake.answer(request))[1]
        )
        namespace: dict[str, Any] = {}
        for block in blocks:
            exec(compile(block, str(docs), "exec"), namespace)
    assert namespace["chapter"].id == "3400010032"
    assert namespace["document"].work_id == "3400000000"
    assert len(namespace["document"].sections) == 3
    assert (tmp_path / ".cache" / "libtext" / "library").is_dir()
    assert namespace["where"].total == 30 and namespace["where"].counts[0].title == "תניא"
    assert namespace["hits"].query == "ביטול היש" and len(namespace["hits"].results) == 25
    sent = [r.url.params for r in fake.requests if r.url.path.endswith("/api/statistics")]
    assert [p["phrase"] for p in sent] == ["ביטול היש"]  # nikud dropped


# --- found by walking the public paths as a user ------------------------------------------


def test_cli_fetch_checks_where_it_writes_before_reading_the_library(
    cli_library: FakeLibrary, tmp_path: Any
) -> None:
    pytest.importorskip("libtext.store", reason="TextStore not written yet")
    unwritable = [
        ("-o", str(tmp_path / "no-such-folder" / "work.json")),  # was a FileNotFoundError
        ("--store", f"sqlite:///{tmp_path / 'no-such-folder' / 'texts.db'}"),
    ]
    for option, target in unwritable:
        result = run_cli("fetch", "100", option, target)
        assert result.exit_code != 0 and result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert "no-such-folder" in lines[0]
    assert cli_library.requests == []  # nothing fetched only to be thrown away
    written = run_cli("fetch", "100", "-o", str(tmp_path / "work.json"))
    assert written.exit_code == 0, written.output
    assert len(json.loads((tmp_path / "work.json").read_text("utf-8"))["sections"]) == len(ORDER)


def test_cli_not_found_names_the_commands_that_find_ids(cli_library: FakeLibrary) -> None:
    result = run_cli("show", "999")
    assert result.exit_code == 2
    assert "libtext library find" in result.stderr


async def test_page_cache_folder_from_the_environment_like_the_cli(
    fake: FakeLibrary, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LIBTEXT_LIBRARY_CACHE was honoured by 'libtext library' only, not by LibraryClient."""
    monkeypatch.setenv("LIBTEXT_LIBRARY_CACHE", str(tmp_path / "pages"))
    async with fake.client() as client:
        await client.aget_node("200")
    async with fake.client() as again:
        await again.aget_node("200")
    assert fake.ids() == ["200"] and (tmp_path / "pages").is_dir()
    monkeypatch.delenv("LIBTEXT_LIBRARY_CACHE")
    async with fake.client() as uncached:
        await uncached.aget_node("200")
    assert fake.ids() == ["200", "200"]
