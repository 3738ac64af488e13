"""TextStore against a real SQLite file, and PostgreSQL when LIBTEXT_TEST_POSTGRES_URL is set.

Every test that takes ``store`` or ``store_url`` runs on both databases. The
PostgreSQL variant works in a schema of its own (``search_path`` in the URL),
dropped at teardown, so reruns and parallel runs never see each other's tables.
"""

from __future__ import annotations

import json
import os
import re
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("sqlmodel")

from click.testing import CliRunner  # noqa: E402

from libtext import errors  # noqa: E402
from libtext.cli import cli  # noqa: E402
from libtext.models import (  # noqa: E402
    Footnote,
    ProcessedDocument,
    Section,
    SourceMetadata,
    TextListItem,
    TranslationData,
)
from libtext.store import TextStore  # noqa: E402
from libtext.store._tables import SCHEMA_VERSION  # noqa: E402

PG_ENV = "LIBTEXT_TEST_POSTGRES_URL"
SLUG_RE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

# --- databases ------------------------------------------------------------------------

_pg_state: dict[str, str] = {}


def _postgres_url() -> str:
    """The admin URL of the test server, or skip saying why."""
    if "skip" in _pg_state:
        pytest.skip(_pg_state["skip"])
    if "url" in _pg_state:
        return _pg_state["url"]
    url = os.environ.get(PG_ENV)
    if not url:
        _pg_state["skip"] = f"{PG_ENV} is not set: PostgreSQL store tests skipped"
        pytest.skip(_pg_state["skip"])
    engine = sa.create_engine(url, connect_args={"connect_timeout": 3})
    try:
        with engine.connect():
            pass
    except sa.exc.OperationalError as exc:
        _pg_state["skip"] = (
            f"PostgreSQL at {PG_ENV} does not answer ({type(exc).__name__}): skipped"
        )
        pytest.skip(_pg_state["skip"])
    finally:
        engine.dispose()
    _pg_state["url"] = url
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'texts.db'}"
        return
    admin_url = _postgres_url()
    schema = f"libtext_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(admin_url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    url = sa.engine.make_url(admin_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


@pytest.fixture
def store(store_url: str) -> Iterator[TextStore]:
    with TextStore(store_url) as st:
        yield st


# --- documents ------------------------------------------------------------------------


def make_doc(
    title: str = "ספר התניא",
    work: str = "ליקוטי אמרים",
    marker: str = "א",
    sections: int = 1,
    work_id: str | None = "work-1",
) -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata=SourceMetadata(
            publication_title=title, work_title=work, author_name="רבי שניאור זלמן"
        ),
        sections=[
            Section(
                sequence_id=i + 1,
                chapter_title=f"פרק {marker} {i}",
                original_hebrew_block=f"טקסט {marker} {i}",
            )
            for i in range(sections)
        ],
        work_id=work_id,
        page_count=sections,
        first_page_id="p-1" if work_id else None,
        last_page_id=f"p-{sections}" if work_id else None,
    )


def large_doc() -> ProcessedDocument:
    """Hebrew with nikud and cantillation, emoji (astral, ZWJ, flags), RTL marks, odd characters."""
    hebrew = "בְּרֵאשִׁ֖ית בָּרָ֣א אֱלֹהִ֑ים ״רמב״ם״ ג׳ — שָׁל֑וֹם\u200f 🕎👨‍👩‍👧🇮🇱 \\ \" ' \x00\t\n"
    sections = [
        Section(
            sequence_id=i,
            chapter_number=f"{i}",
            chapter_title=f"פֶּרֶק {i} ✡️",
            segment_title="כּוֹתֶרֶת",
            summary="A summary with emoji 📜 and Hebrew שלום",
            page_ref=f"{i}-{i + 1}",
            start_phrase_hebrew="בְּרֵאשִׁ֖ית",
            end_phrase_hebrew="שָׁל֑וֹם",
            original_hebrew_block=hebrew * 20,
            translation_data=[
                TranslationData(
                    hebrew_phrase_expanded=f"ביטוי מורחב {k} ְ",
                    english_translation=f"phrase {k} — “quoted” 🙂",
                    sefaria_link=f"https://www.sefaria.org/Genesis.1.{k}" if k % 2 else "",
                    hebrew_phrase=f"ביטוי {k}",
                )
                for k in range(8)
            ],
            footnotes=[
                Footnote(marker=f"{k}", content=f"הערה {k} {hebrew}", translation=f"note {k}")
                for k in range(3)
            ],
            error="translation failed: rate limited" if i == 7 else None,
        )
        for i in range(1, 121)
    ]
    return ProcessedDocument(
        source_metadata=SourceMetadata(
            publication_title="לִקּוּטֵי שִׂיחוֹת 📚", work_title="חֵלֶק א׳", author_name="הרבי"
        ),
        sections=sections,
        work_id="98765",
        page_count=240,
        first_page_id="1001",
        last_page_id="1240",
    )


def fail_on(store: TextStore, table: str) -> Any:
    """Make every statement that writes ``table`` fail as a database error would."""

    def boom(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if re.match(rf"\s*(INSERT INTO|UPDATE) {table}\b", statement):
            raise sa.exc.OperationalError(
                statement, params, RuntimeError("disk I/O error (injected)")
            )

    sa.event.listen(store.engine, "before_cursor_execute", boom)
    return boom


def count_rows(store: TextStore, table: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar_one())


# --- round trip -----------------------------------------------------------------------


def test_large_document_round_trips_exactly(store: TextStore) -> None:
    doc = large_doc()
    item = store.save(doc)
    assert SLUG_RE.fullmatch(item.slug)
    assert store.get(item.slug, include_source_ids=True) == doc
    public = store.get(item.slug)
    assert public == doc.model_copy(
        update={"work_id": None, "first_page_id": None, "last_page_id": None}
    )
    assert public.sections[6].error == "translation failed: rate limited"
    assert item.publication_title == "לִקּוּטֵי שִׂיחוֹת 📚" and item.page_count == 240


def test_public_get_hides_source_ids(store: TextStore) -> None:
    slug = store.save(make_doc(work_id="secret-work")).slug
    dumped = store.get(slug).model_dump_json()
    assert "secret-work" not in dumped and "p-1" not in dumped
    full = store.get(slug, include_source_ids=True)
    assert (full.work_id, full.first_page_id, full.last_page_id) == ("secret-work", "p-1", "p-1")


def test_texts_survive_reopening(store_url: str) -> None:
    with TextStore(store_url) as first:
        slug = first.save(make_doc(sections=3)).slug
    with TextStore(store_url) as second:
        assert second.get(slug, include_source_ids=True) == make_doc(sections=3)
        assert second.list().pagination.total == 1


def test_list_item_times_are_stored_to_the_microsecond(store: TextStore) -> None:
    saved = store.save(make_doc())
    listed = store.list().texts[0]
    assert listed == saved
    assert (
        listed.created_at.tzinfo is not None and listed.created_at.utcoffset().total_seconds() == 0
    )
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", listed.model_dump(mode="json")["created_at"]
    )


def test_save_rejects_what_is_not_a_document(store: TextStore) -> None:
    with pytest.raises(errors.InvalidInputError, match="ProcessedDocument"):
        store.save({"sections": []})  # type: ignore[arg-type]


# --- ordering and pagination -----------------------------------------------------------


def test_list_is_newest_first(store: TextStore) -> None:
    slugs = [store.save(make_doc(title=f"ספר {i}", marker=str(i))).slug for i in range(4)]
    listed = store.list().texts
    assert [t.slug for t in listed] == slugs[::-1]
    assert [t.created_at for t in listed] == sorted((t.created_at for t in listed), reverse=True)


def test_equal_times_list_last_saved_first(
    store: TextStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    monkeypatch.setattr("libtext.store._now", lambda: frozen)
    slugs = [store.save(make_doc(title=f"ספר {i}")).slug for i in range(5)]
    listed = store.list().texts
    assert {t.created_at for t in listed} == {frozen}
    assert [t.slug for t in listed] == slugs[::-1]
    # Page boundaries agree with the single-page order (both scan directions).
    paged = [t.slug for p in (1, 2, 3) for t in store.list(page=p, page_size=2).texts]
    assert paged == slugs[::-1]


def test_every_page_size_walks_the_same_order(store: TextStore) -> None:
    for i in range(7):
        store.save(make_doc(title=f"ספר {i}"))
    everything = [t.slug for t in store.list(page=1, page_size=100).texts]
    assert len(everything) == len(set(everything)) == 7
    for size in range(1, 9):
        pages = -(-7 // size)
        walked: list[str] = []
        for page in range(1, pages + 1):
            result = store.list(page=page, page_size=size)
            assert result.pagination.model_dump(by_alias=True) == {
                "page": page,
                "pageSize": size,
                "total": 7,
                "totalPages": pages,
            }
            expected_len = size if page < pages else 7 - size * (pages - 1)
            assert len(result.texts) == expected_len
            walked += [t.slug for t in result.texts]
        assert walked == everything, size


def test_page_past_the_end_is_empty_with_totals(store: TextStore) -> None:
    empty = store.list()
    assert empty.texts == [] and empty.pagination.total == 0 and empty.pagination.total_pages == 0
    for i in range(3):
        store.save(make_doc(title=f"ספר {i}"))
    for page in (2, 3, 10**12):
        result = store.list(page=page, page_size=3)
        assert result.texts == []
        assert (result.pagination.total, result.pagination.total_pages) == (3, 1)


@pytest.mark.parametrize(
    ("page", "page_size"),
    [(0, 20), (-1, 20), (1, 0), (1, 101), (1, -5), ("1", 20), (1, 2.0), (True, 20), (1, None)],
)
def test_bad_page_parameters_are_rejected(page: Any, page_size: Any) -> None:
    # No database at all: the bounds are checked first.
    st = TextStore("sqlite:////nonexistent-dir/libtext/texts.db")
    with pytest.raises(errors.InvalidInputError) as info:
        st.list(page=page, page_size=page_size)
    assert not isinstance(info.value, errors.StoreError)
    assert "page" in info.value.message and (
        "1 to 100" in info.value.message or "1 or more" in info.value.message
    )


def test_page_bounds_are_inclusive(store: TextStore) -> None:
    store.save(make_doc())
    assert store.list(page=1, page_size=100).pagination.page_size == 100
    assert len(store.list(page=1, page_size=1).texts) == 1


# --- slugs ------------------------------------------------------------------------------


def test_same_titles_get_numbered_slugs_and_keep_their_own_text(store: TextStore) -> None:
    items = [store.save(make_doc(marker=m)) for m in ("א", "ב", "ג")]
    base = items[0].slug
    assert [i.slug for i in items] == [base, f"{base}-2", f"{base}-3"]
    for item, marker in zip(items, ("א", "ב", "ג"), strict=True):
        assert store.get(item.slug).sections[0].original_hebrew_block == f"טקסט {marker} 0"


def test_slugs_are_readable_ascii_and_ignore_nikud(store: TextStore) -> None:
    plain = store.save(make_doc(title="שלחן ערוך", work="אורח חיים")).slug
    pointed = store.save(make_doc(title="שֻׁלְחָן עָרוּךְ", work="אוֹרַח חַיִּים")).slug
    assert SLUG_RE.fullmatch(plain)
    assert pointed == f"{plain}-2"
    latin = store.save(make_doc(title="Likkutei Sichos", work="Vol. 1")).slug
    assert latin == "likkutei-sichos-vol-1"


def test_long_and_empty_titles_give_bounded_valid_slugs(store: TextStore) -> None:
    long_title = "מאמר " * 50
    slugs = [store.save(make_doc(title=long_title, work="חלק " * 30)).slug for _ in range(3)]
    assert all(SLUG_RE.fullmatch(s) and len(s) <= 80 for s in slugs)
    assert len(set(slugs)) == 3
    emoji = [store.save(make_doc(title="📚", work="")).slug for _ in range(2)]
    assert all(SLUG_RE.fullmatch(s) for s in emoji) and emoji[1] == f"{emoji[0]}-2"


def test_deleted_slug_in_the_middle_is_not_handed_out_again(store: TextStore) -> None:
    slugs = [store.save(make_doc(marker=str(i))).slug for i in range(3)]
    store.delete(slugs[1])
    again = store.save(make_doc(marker="new")).slug
    assert again not in slugs
    assert store.get(again).sections[0].original_hebrew_block == "טקסט new 0"


def test_twenty_threads_saving_the_same_titles(store: TextStore) -> None:
    barrier = threading.Barrier(20)

    def save(i: int) -> TextListItem:
        barrier.wait()
        return store.save(make_doc(marker=f"thread{i}"))

    with ThreadPoolExecutor(20) as pool:
        items = list(pool.map(save, range(20)))
    slugs = [i.slug for i in items]
    assert len(set(slugs)) == 20
    base = min(slugs, key=len)
    assert set(slugs) == {base, *(f"{base}-{n}" for n in range(2, 21))}
    for i, item in enumerate(items):
        assert store.get(item.slug).sections[0].original_hebrew_block == f"טקסט thread{i} 0"
    assert store.list(page_size=100).pagination.total == 20


@pytest.mark.parametrize(
    "slug",
    [
        "",
        "Not A Slug!",
        "UPPER",
        "a--b",
        "-a",
        "a-",
        "a_b",
        "a/b",
        "../etc",
        "שלום",
        "é",
        "a" * 81,
        " a",
        "a\n",
    ],
)
def test_bad_slugs_are_rejected_before_the_database(slug: str) -> None:
    st = TextStore("sqlite:////nonexistent-dir/libtext/texts.db")
    for call in (st.get, st.delete, lambda s: st.update(s, make_doc())):
        with pytest.raises(errors.InvalidSlugError) as info:
            call(slug)
        assert info.value.code == "invalid_slug" and "80" in info.value.message


def test_non_string_slug_is_invalid(store: TextStore) -> None:
    with pytest.raises(errors.InvalidSlugError):
        store.get(123)  # type: ignore[arg-type]


def test_longest_valid_slug_is_looked_up(store: TextStore) -> None:
    with pytest.raises(errors.NotFoundError) as info:
        store.get("a" * 80)
    assert info.value.details == {"slug": "a" * 80}


# --- update and delete --------------------------------------------------------------------


def test_update_replaces_in_place_and_keeps_slug_and_created_at(store: TextStore) -> None:
    first = store.save(make_doc(sections=2))
    other = store.save(make_doc(title="ספר אחר"))
    changed = make_doc(title="שם חדש", work="חלק חדש", marker="ב", sections=4, work_id="w2")
    updated = store.update(first.slug, changed)
    assert updated.slug == first.slug
    assert updated.created_at == first.created_at
    assert updated.updated_at > first.updated_at
    assert (
        updated.model_dump(mode="json")["updated_at"] != first.model_dump(mode="json")["updated_at"]
    )
    assert (updated.publication_title, updated.work_title, updated.page_count) == (
        "שם חדש",
        "חלק חדש",
        4,
    )
    assert store.get(first.slug, include_source_ids=True) == changed
    listed = {t.slug: t for t in store.list().texts}
    assert listed[first.slug] == updated and listed[other.slug] == other
    assert store.list().pagination.total == 2
    again = store.update(first.slug, changed)
    assert again.updated_at > updated.updated_at and again.created_at == first.created_at


def test_delete_removes_text_and_body(store: TextStore) -> None:
    keep = store.save(make_doc(title="נשאר")).slug
    gone = store.save(make_doc(title="נמחק")).slug
    store.delete(gone)
    with pytest.raises(errors.NotFoundError):
        store.get(gone)
    with pytest.raises(errors.NotFoundError):
        store.delete(gone)
    assert [t.slug for t in store.list().texts] == [keep]
    assert store.list().pagination.total == 1
    assert count_rows(store, "libtext_text_bodies") == 1


def test_unknown_slug_is_not_found(store: TextStore) -> None:
    for call in (store.get, store.delete, lambda s: store.update(s, make_doc())):
        with pytest.raises(errors.NotFoundError) as info:
            call("no-such-text")
        assert info.value.code == "not_found" and "no-such-text" in info.value.message


# --- atomicity --------------------------------------------------------------------------


def test_failure_midway_through_save_leaves_nothing(store: TextStore) -> None:
    store.list()  # make the tables first, outside the failure
    boom = fail_on(store, "libtext_text_bodies")
    with pytest.raises(errors.StoreError, match="injected"):
        store.save(make_doc())
    sa.event.remove(store.engine, "before_cursor_execute", boom)
    assert store.list().pagination.total == 0
    assert count_rows(store, "libtext_texts") == 0
    assert count_rows(store, "libtext_text_bodies") == 0
    slug = store.save(make_doc()).slug
    assert store.list().pagination.total == 1
    assert store.get(slug, include_source_ids=True) == make_doc()


def test_failure_midway_through_update_keeps_the_old_text(store: TextStore) -> None:
    saved = store.save(make_doc())
    boom = fail_on(store, "libtext_text_bodies")
    with pytest.raises(errors.StoreError):
        store.update(saved.slug, make_doc(title="אחר", marker="ב"))
    sa.event.remove(store.engine, "before_cursor_execute", boom)
    assert store.list().texts == [saved]
    assert store.get(saved.slug, include_source_ids=True) == make_doc()


# --- configuration and failures -------------------------------------------------------------


def test_unreachable_database_is_a_store_error_without_password() -> None:
    st = TextStore("postgresql+psycopg://reader:hunter2secret@127.0.0.1:1/texts")
    assert "hunter2secret" not in repr(st) and "***" in st.url
    assert st.ping() is False
    with pytest.raises(errors.StoreError) as info:
        st.list()
    exc = info.value
    assert exc.code == "store_error"
    assert "hunter2secret" not in exc.message and "hunter2secret" not in json.dumps(exc.details)
    assert "127.0.0.1" in exc.message and "LIBTEXT_DATABASE_URL" in exc.message
    st.close()


def test_sqlite_file_in_missing_folder_is_a_store_error() -> None:
    st = TextStore("sqlite:////nonexistent-dir/libtext/texts.db")
    with pytest.raises(errors.StoreError, match="Check that"):
        st.save(make_doc())


def test_malformed_url_is_a_configuration_error() -> None:
    with pytest.raises(errors.ConfigurationError, match="database URL"):
        TextStore("not a url at all")
    with pytest.raises(errors.ConfigurationError, match="dialect"):
        TextStore("nosuchdb://host/db")


def test_default_url_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LIBTEXT_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    with TextStore() as st:
        st.save(make_doc())
        assert st.url.endswith("env.db")
    assert (tmp_path / "env.db").exists()


def test_default_url_is_in_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import platformdirs

    monkeypatch.delenv("LIBTEXT_DATABASE_URL", raising=False)
    seen: list[str] = []

    def fake_dir(appname: str, **kwargs: Any) -> str:
        seen.append(appname)
        return str(tmp_path / "data")

    monkeypatch.setattr(platformdirs, "user_data_dir", fake_dir)
    with TextStore() as st:
        st.save(make_doc())
    assert seen == ["libtext"]
    assert (tmp_path / "data" / "texts.db").exists()


def test_schema_version_is_recorded_and_newer_ones_refused(store_url: str) -> None:
    with TextStore(store_url) as st:
        st.list()
        with st.engine.begin() as conn:
            version = conn.exec_driver_sql(
                "SELECT value FROM libtext_meta WHERE key = 'schema_version'"
            ).scalar_one()
            assert version == SCHEMA_VERSION
            conn.exec_driver_sql(
                f"UPDATE libtext_meta SET value = {SCHEMA_VERSION + 1} WHERE key = 'schema_version'"
            )
    with TextStore(store_url) as newer, pytest.raises(errors.StoreError, match="upgrade libtext"):
        newer.list()


def test_closed_store_refuses_work(store_url: str) -> None:
    st = TextStore(store_url)
    st.list()
    st.close()
    with pytest.raises(errors.StoreError, match="closed"):
        st.list()


def test_in_memory_store_works_across_threads() -> None:
    with TextStore("sqlite://") as st:
        with ThreadPoolExecutor(4) as pool:
            slugs = list(pool.map(lambda i: st.save(make_doc(marker=str(i))).slug, range(8)))
        assert len(set(slugs)) == 8
        assert st.list().pagination.total == 8


# --- async twins --------------------------------------------------------------------------


async def test_async_twins_match_sync(store_url: str) -> None:
    async with TextStore(store_url) as st:
        assert await st.aping() is True
        item = await st.asave(make_doc())
        assert st.get(item.slug) == await st.aget(item.slug)
        assert await st.aget(item.slug, include_source_ids=True) == make_doc()
        assert (await st.alist(page=1, page_size=5)) == st.list(page=1, page_size=5)
        updated = await st.aupdate(item.slug, make_doc(marker="ב"))
        assert updated.slug == item.slug
        await st.adelete(item.slug)
        with pytest.raises(errors.NotFoundError):
            await st.aget(item.slug)
        with pytest.raises(errors.InvalidSlugError):
            await st.aget("Bad Slug")
        with pytest.raises(errors.InvalidInputError):
            await st.alist(page=0)


def test_every_method_has_an_async_twin() -> None:
    names = ("save", "update", "get", "delete", "list", "ping", "prepare", "close")
    for name in (*names, "data_version"):
        assert callable(getattr(TextStore, f"a{name}")), name


# --- command line ---------------------------------------------------------------------------


def test_cli_list_show_delete(store_url: str) -> None:
    with TextStore(store_url) as st:
        slug = st.save(make_doc(sections=2)).slug
        st.save(make_doc(title="ספר שני"))
    runner = CliRunner()
    listed = runner.invoke(cli, ["texts", "list", "--store", store_url, "--format", "json"])
    assert listed.exit_code == 0, listed.output
    body = json.loads(listed.stdout)
    assert body["pagination"]["total"] == 2 and body["texts"][1]["slug"] == slug
    plain = runner.invoke(
        cli, ["texts", "list", "--store", store_url, "--page-size", "1", "--page", "2"]
    )
    assert plain.exit_code == 0 and plain.stdout.startswith(slug)

    shown = runner.invoke(cli, ["texts", "show", slug, "--store", store_url])
    assert shown.exit_code == 0
    assert ProcessedDocument.model_validate_json(shown.stdout) == make_doc(sections=2).public()
    text = runner.invoke(cli, ["texts", "show", slug, "--store", store_url, "--format", "text"])
    assert "טקסט א 1" in text.stdout and "ספר התניא / ליקוטי אמרים" in text.stdout

    deleted = runner.invoke(cli, ["texts", "delete", slug, "--store", store_url])
    assert deleted.exit_code == 0 and slug in deleted.stdout
    missing = runner.invoke(cli, ["texts", "show", slug, "--store", store_url])
    assert (
        missing.exit_code == 2 and "error:" in missing.stderr and "Traceback" not in missing.output
    )


def test_cli_bad_input_is_one_line_error(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'texts.db'}"
    runner = CliRunner()
    bad_page = runner.invoke(cli, ["texts", "list", "--store", url, "--page-size", "500"])
    assert bad_page.exit_code == 2 and "page_size" in bad_page.stderr
    bad_slug = runner.invoke(cli, ["texts", "show", "Not A Slug", "--store", url])
    assert bad_slug.exit_code == 2 and "slug" in bad_slug.stderr


# --- documentation ------------------------------------------------------------------------


def test_docs_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "store.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "docs/store.md", "exec"), {})
    assert "spr-htnya-lyqvty-amrym" in capsys.readouterr().out


# --- found by walking the public paths as a user ------------------------------------------


def test_a_bare_file_path_gets_the_url_that_names_it(tmp_path: Path) -> None:
    path = tmp_path / "texts.db"
    with pytest.raises(errors.ConfigurationError) as caught:
        TextStore(str(path))
    hinted = re.search(r"'(sqlite:///[^']+)'", caught.value.message)
    assert hinted is not None and hinted.group(1) == f"sqlite:///{path}"
    with TextStore(hinted.group(1)) as st:  # the suggested URL works, for that very file
        st.save(make_doc())
    assert path.is_file()


async def test_prepare_opens_the_database_now_or_says_why_not(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    with TextStore(f"sqlite:///{path}") as st:
        st.prepare()
        assert path.is_file() and st.list().pagination.total == 0
    async with TextStore(f"sqlite:///{tmp_path / 'twin.db'}") as st:
        await st.aprepare()
    assert (tmp_path / "twin.db").is_file()
    missing = TextStore(f"sqlite:///{tmp_path / 'missing' / 'texts.db'}")
    with missing, pytest.raises(errors.StoreError) as caught:
        missing.prepare()
    assert "open the database" in caught.value.message


def test_cli_show_text_names_a_whole_chapter_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'texts.db'}"
    doc = make_doc().model_copy(
        update={
            "sections": [
                Section(
                    sequence_id=1,
                    chapter_number="1",
                    chapter_title="פרק א",
                    segment_title="פרק א",
                    page_ref="2",
                    original_hebrew_block="טקסט",
                )
            ]
        }
    )
    with TextStore(url) as st:
        slug = st.save(doc).slug
    shown = CliRunner().invoke(cli, ["texts", "show", slug, "--store", url, "--format", "text"])
    assert shown.exit_code == 0, shown.output
    headings = [line for line in shown.stdout.splitlines() if line.startswith("## ")]
    # The chapter number is said by its title already ("## 1. 1 - פרק א" read as noise).
    assert headings == ["## 1. פרק א (p. 2)"]


# --- migrations ------------------------------------------------------------------------


def test_schema_1_database_is_migrated_with_a_revision(store_url: str) -> None:
    with TextStore(store_url) as st:
        slug = st.save(make_doc()).slug
        with st.engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM libtext_meta WHERE key = 'revision'")
            conn.exec_driver_sql("UPDATE libtext_meta SET value = 1 WHERE key = 'schema_version'")
    with TextStore(store_url) as st, TextStore(store_url) as other:
        assert st.get(slug) == make_doc().public()
        version = st.data_version()
        with st.engine.connect() as conn:
            meta = dict(conn.exec_driver_sql("SELECT key, value FROM libtext_meta").all())
        assert meta["schema_version"] == SCHEMA_VERSION and "revision" in meta
        other.update(slug, make_doc(marker="ב"))
        assert st.data_version() != version
        assert st.get(slug) == make_doc(marker="ב").public()
        with st.engine.connect() as conn:
            bumped = conn.exec_driver_sql(
                "SELECT value FROM libtext_meta WHERE key = 'revision'"
            ).scalar_one()
        assert bumped > meta["revision"]
