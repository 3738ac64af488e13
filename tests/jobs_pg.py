"""A fresh PostgreSQL schema per test, or a clean skip when no server is configured."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

__all__ = ["fresh_schema"]


@contextlib.contextmanager
def fresh_schema(env_var: str) -> Iterator[str]:
    """The URL of a new schema on the server ``env_var`` names, dropped afterwards."""
    import sqlalchemy as sa

    admin_url = os.environ.get(env_var)
    if not admin_url:
        pytest.skip(f"{env_var} is not set: PostgreSQL job tests skipped")
    admin = sa.create_engine(admin_url, connect_args={"connect_timeout": 3})
    schema = f"libtext_jobs_{uuid.uuid4().hex[:12]}"
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    except sa.exc.OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at {env_var} does not answer ({type(exc).__name__})")
    url = sa.engine.make_url(admin_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()
