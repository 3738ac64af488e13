"""Database triggers that keep ``libtext_meta``'s ``text_count`` and ``revision`` right.

Both rows must hold whoever writes the tables: another libtext process, a bulk load
or a fix by hand in SQL. Kept by the database itself, they do: every insert or
delete of a text moves ``text_count`` by one, and every insert, update or delete in
the texts, bodies or history tables bumps ``revision`` (which tells read caches
their answers are old), in the writer's own transaction. ``TextStore`` itself never
writes either row.

SQLite
    Row triggers (the only kind it has), one ``UPDATE`` of the meta rows each.
    SQLite skips its truncate shortcut for a table with triggers, so even a
    ``DELETE FROM libtext_texts`` without ``WHERE`` is counted.
PostgreSQL
    Statement triggers with transition tables: a bulk insert of 10,000 texts moves
    the count once, by 10,000. ``TRUNCATE`` sets the count to 0. The functions keep
    the ``search_path`` they were made with, so they find ``libtext_meta`` in the
    same schema as the tables whatever the writer's own path.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from libtext.store._tables import (
    META_REVISION,
    META_TEXT_COUNT,
    BodyRow,
    MetaRow,
    RevisionRow,
    TextRow,
)

__all__ = ["install_triggers", "recount"]

_META = MetaRow.__tablename__
_TEXTS = TextRow.__tablename__
_WATCHED = (TextRow.__tablename__, BodyRow.__tablename__, RevisionRow.__tablename__)


def _sqlite(conn: Connection) -> None:
    bump = f"UPDATE {_META} SET value = value + 1 WHERE key = '{META_REVISION}';"
    for table in _WATCHED:
        for event in ("INSERT", "UPDATE", "DELETE"):
            step = bump
            if table == _TEXTS and event != "UPDATE":
                sign = "+" if event == "INSERT" else "-"
                count = (
                    f"UPDATE {_META} SET value = value {sign} 1 WHERE key = '{META_TEXT_COUNT}';"
                )
                step += " " + count
            conn.exec_driver_sql(
                f"CREATE TRIGGER IF NOT EXISTS {table}_{event.lower()}_meta AFTER {event} "
                f"ON {table} FOR EACH ROW BEGIN {step} END"
            )


def _postgresql(conn: Connection) -> None:
    def function(name: str, body: str) -> None:
        conn.exec_driver_sql(
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql "
            f"SET search_path FROM CURRENT AS $$ BEGIN {body} RETURN NULL; END $$"
        )

    def trigger(name: str, table: str, event: str, target: str, referencing: str = "") -> None:
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        conn.exec_driver_sql(
            f"CREATE TRIGGER {name} AFTER {event} ON {table} {referencing} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {target}()"
        )

    bump = f"UPDATE {_META} SET value = value + 1 WHERE key = '{META_REVISION}';"

    def count(sign: str, rows: str) -> str:
        return (
            f" UPDATE {_META} SET value = value {sign} (SELECT count(*) FROM {rows}) "
            f"WHERE key = '{META_TEXT_COUNT}';"
        )

    zero = f" UPDATE {_META} SET value = 0 WHERE key = '{META_TEXT_COUNT}';"
    function("libtext_bump_revision", bump)
    function("libtext_texts_added", bump + count("+", "added"))
    function("libtext_texts_removed", bump + count("-", "removed"))
    function("libtext_texts_truncated", bump + zero)
    added, removed = "REFERENCING NEW TABLE AS added", "REFERENCING OLD TABLE AS removed"
    trigger("libtext_texts_insert_meta", _TEXTS, "INSERT", "libtext_texts_added", added)
    trigger("libtext_texts_delete_meta", _TEXTS, "DELETE", "libtext_texts_removed", removed)
    trigger("libtext_texts_truncate_meta", _TEXTS, "TRUNCATE", "libtext_texts_truncated")
    for table in _WATCHED:
        events = "UPDATE" if table == _TEXTS else "INSERT OR UPDATE OR DELETE OR TRUNCATE"
        trigger(f"{table}_change_meta", table, events, "libtext_bump_revision")


def install_triggers(conn: Connection) -> None:
    """Make the triggers (again: safe to repeat), in the caller's transaction."""
    if conn.dialect.name == "postgresql":
        _postgresql(conn)
    else:
        _sqlite(conn)


def recount(conn: Connection) -> None:
    """Set ``text_count`` to the rows there are (once, when the triggers are installed)."""
    meta, texts = (sa.table(_META, sa.column("key"), sa.column("value")), sa.table(_TEXTS))
    total = sa.select(sa.func.count()).select_from(texts).scalar_subquery()
    conn.execute(meta.update().where(meta.c.key == META_TEXT_COUNT).values(value=total))
