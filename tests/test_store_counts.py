# ruff: noqa: F811  (the store fixtures are imported from test_store.py)
"""The list total and the data version when something else writes the tables.

Rows inserted and deleted with plain SQL on a connection of their own (not
libtext's engine: another program's view), on a real SQLite file and on PostgreSQL
when LIBTEXT_TEST_POSTGRES_URL is set (the ``store_url`` fixture of test_store.py).
The total is checked through the library and through HTTP, whose read cache must
not serve an answer older than the write.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("sqlmodel")

from tests.test_store import make_doc, store, store_url  # noqa: E402, F401

from libtext.store import TextStore  # noqa: E402
from libtext.store._tables import SCHEMA_VERSION  # noqa: E402


def raw_engine(url: str) -> Any:
    """A plain SQLAlchemy engine on the store's database: no libtext code involved."""
    return sa.create_engine(url)


def insert_texts(url: str, names: list[str]) -> None:
    """Texts as another program would write them: rows and bodies, in one transaction."""
    now = datetime.now(UTC)
    body = make_doc().model_dump_json()
    engine = raw_engine(url)
    try:
        with engine.begin() as conn:
            for name in names:
                text_id = conn.execute(
                    sa.text(
                        "INSERT INTO libtext_texts (slug, publication_title, work_title, "
                        "author_name, page_count, created_at, updated_at, revision) VALUES "
                        "(:slug, :title, '', '', 1, :now, :now, 1) RETURNING id"
                    ),
                    {"slug": name, "title": name, "now": now},
                ).scalar_one()
                conn.execute(
                    sa.text("INSERT INTO libtext_text_bodies (text_id, body) VALUES (:id, :b)"),
                    {"id": text_id, "b": body},
                )
    finally:
        engine.dispose()


def execute(url: str, statement: str) -> None:
    engine = raw_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(statement)
    finally:
        engine.dispose()


def true_count(url: str) -> int:
    engine = raw_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.exec_driver_sql("SELECT count(*) FROM libtext_texts").scalar_one())
    finally:
        engine.dispose()


async def test_total_is_right_after_raw_sql_writes_through_library_and_http(
    store: TextStore, store_url: str
) -> None:
    pytest.importorskip("fastapi")
    import httpx

    from libtext.asgi import Settings, create_app

    store.save(make_doc(title="ספר"))
    app = create_app(store=store, settings=Settings())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:

        async def http_total() -> int:
            for _ in range(2):  # the second answer may come from the read cache
                body = (await client.get("/api/texts", params={"pageSize": 2})).json()
            total: int = body["pagination"]["total"]
            assert body["pagination"]["totalPages"] == (total + 1) // 2
            return total

        assert store.list().pagination.total == await http_total() == 1

        insert_texts(store_url, [f"raw-{i}" for i in range(5)])
        assert true_count(store_url) == 6
        assert store.list().pagination.total == await http_total() == 6
        listed = (await client.get("/api/texts", params={"pageSize": 2})).json()
        assert listed["texts"][0]["slug"].startswith("raw-")  # the page is new, too

        execute(store_url, "DELETE FROM libtext_texts WHERE slug IN ('raw-0', 'raw-1')")
        assert store.list().pagination.total == await http_total() == 4

        store.save(make_doc(title="עוד"))  # libtext's own writes still count once
        assert store.list().pagination.total == await http_total() == 5

        execute(store_url, "DELETE FROM libtext_texts")
        assert store.list().pagination.total == await http_total() == 0
        assert store.list().texts == []


def test_truncate_resets_the_total(store: TextStore, store_url: str) -> None:
    if not store_url.startswith("postgresql"):
        pytest.skip("TRUNCATE is PostgreSQL's (SQLite has DELETE without WHERE, tested above)")
    store.save(make_doc())
    version = store.data_version()
    execute(store_url, "TRUNCATE libtext_texts CASCADE")
    assert store.list().pagination.total == 0
    assert store.data_version() != version


def test_data_version_changes_with_every_write_from_anywhere(
    store: TextStore, store_url: str
) -> None:
    first = store.data_version()
    assert store.data_version() == first  # reading changes nothing
    slug = store.save(make_doc()).slug
    seen = [first, store.data_version()]
    store.list(), store.get(slug)
    assert store.data_version() == seen[-1]
    with TextStore(store_url) as other:  # another store: another process's engine
        other.update(slug, make_doc(marker="ב"))
    seen.append(store.data_version())
    execute(store_url, "UPDATE libtext_text_bodies SET body = body")  # SQL by hand
    seen.append(store.data_version())
    execute(store_url, "UPDATE libtext_text_revisions SET author = 'x'")
    seen.append(store.data_version())
    store.delete(slug)
    seen.append(store.data_version())
    assert len(set(seen)) == len(seen), seen


def test_data_version_without_waiting(store_url: str) -> None:
    with TextStore(store_url) as st:
        assert st.data_version(wait=False) is None  # not used yet: no file to ask
        st.prepare()
        local = st.data_version(wait=False)
        if store_url.startswith("postgresql"):
            assert local is None  # a query would be network I/O
        else:
            assert local is not None and local == st.data_version()
            st.save(make_doc())
            assert st.data_version(wait=False) != local
    assert st.data_version(wait=False) is None  # closed


async def test_async_data_version(store: TextStore) -> None:
    assert await store.adata_version() == store.data_version()
    with TextStore("sqlite://") as memory:
        before = await memory.adata_version()
        memory.save(make_doc())
        assert await memory.adata_version() != before


def test_schema_3_database_gets_its_triggers_and_a_true_count(store_url: str) -> None:
    """A database of libtext 0.1 with schema 3: a hand-kept count, here gone wrong."""
    with TextStore(store_url) as st:
        st.save(make_doc())
        st.save(make_doc())
    triggers = {
        "sqlite": "SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'",
        "postgresql": "SELECT tgname, relname FROM pg_trigger JOIN pg_class c ON "
        "c.oid = tgrelid WHERE NOT tgisinternal AND c.relnamespace = "
        "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())",
    }
    engine = raw_engine(store_url)
    kind = engine.dialect.name
    try:
        with engine.begin() as conn:
            found = list(conn.exec_driver_sql(triggers[kind]))
            assert found and all(name.startswith("libtext_") for name, _ in found)
            for name, table in found:
                on = f" ON {table}" if kind == "postgresql" else ""
                conn.exec_driver_sql(f"DROP TRIGGER {name}{on}")
            conn.exec_driver_sql("UPDATE libtext_meta SET value = 7 WHERE key = 'text_count'")
            conn.exec_driver_sql("UPDATE libtext_meta SET value = 3 WHERE key = 'schema_version'")
    finally:
        engine.dispose()
    insert_texts(store_url, ["raw-before"])  # no trigger yet: the old count drifts on
    with TextStore(store_url) as st:
        assert st.list().pagination.total == 3 == true_count(store_url)
        insert_texts(store_url, ["raw-after"])
        assert st.list().pagination.total == 4
        with st.engine.connect() as conn:
            version = conn.exec_driver_sql(
                "SELECT value FROM libtext_meta WHERE key = 'schema_version'"
            ).scalar_one()
        assert version == SCHEMA_VERSION
