"""Over HTTP an unknown name is a 400, as an unknown keyword is a TypeError in Python.

Before, ``-F providers=nonexistent`` and ``?provider=nonexistent`` on ``/api/outline``
and ``-F provider=slow`` on ``/api/process`` answered 200 with the offline provider.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from libtext.asgi import Settings, create_app


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


@pytest.fixture
def app(tmp_path: Path) -> Any:
    store_mod = pytest.importorskip("libtext.store")
    store = store_mod.TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    yield create_app(store=store, settings=Settings(jobs_workers=0))
    store.close()


@pytest.fixture
def pdf(fixtures_dir: Path) -> bytes:
    return (fixtures_dir / "small.pdf").read_bytes()


def unknown(r: httpx.Response, name: str) -> dict[str, Any]:
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_input"
    assert repr(name) in error["message"]
    assert error["details"]["unknown"] == name
    return error  # type: ignore[no-any-return]


async def test_misspelt_provider_query_on_outline_is_400(app: Any, pdf: bytes) -> None:
    async with client_for(app) as c:
        r = await c.post(
            "/api/outline?provider=nonexistent", files={"file": ("s.pdf", pdf, "application/pdf")}
        )
    error = unknown(r, "provider")
    assert error["details"]["did_you_mean"] == "providers"
    assert "did you mean 'providers'?" in error["message"]


async def test_provider_as_a_form_field_is_400(app: Any, pdf: bytes) -> None:
    async with client_for(app) as c:
        outline = await c.post(
            "/api/outline",
            files={"file": ("s.pdf", pdf, "application/pdf")},
            data={"providers": "nonexistent"},
        )
        process = await c.post(
            "/api/process",
            files={"file": ("s.pdf", pdf, "application/pdf")},
            data={"provider": "slow"},
        )
    error = unknown(outline, "providers")
    assert "?providers=" in error["message"]  # where it belongs
    error = unknown(process, "provider")
    assert "?provider=" in error["message"]


async def test_one_spelling_per_concept(app: Any, pdf: bytes) -> None:
    """``provider`` names one provider (process, translate); ``providers`` several (outline).

    The old ``?providers=`` of ``/api/process`` is kept, marked deprecated in the schema.
    """
    async with client_for(app) as c:
        bad = await c.post("/api/process?provider=nonexistent", json={"work_id": "1"})
        several = await c.post("/api/process?provider=offline,offline", json={"work_id": "1"})
        both = await c.post(
            "/api/process?provider=offline&providers=offline", json={"work_id": "1"}
        )
        schema = (await c.get("/openapi.json")).json()
    assert bad.status_code == 400 and "nonexistent" in bad.json()["error"]["message"]
    assert several.status_code == 400 and "/api/outline" in several.json()["error"]["message"]
    assert both.status_code == 400
    params = {
        (path, p["name"]): p
        for path, item in schema["paths"].items()
        for op in item.values()
        for p in op.get("parameters", [])
        if p["in"] == "query"
    }
    assert ("/api/process", "provider") in params
    assert ("/api/translate", "provider") in params
    assert ("/api/outline", "providers") in params
    assert ("/api/outline", "provider") not in params
    assert params[("/api/process", "providers")].get("deprecated") is True


def _sample(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: "1" if m.group(1).endswith("_id") else "x", path)


async def test_openapi_walk_every_route_rejects_an_unknown_parameter(app: Any, pdf: bytes) -> None:
    """Every operation of the OpenAPI document, sent ``?zz_unknown=1``, answers 400 naming it."""
    async with client_for(app) as c:
        schema = (await c.get("/openapi.json")).json()
        operations = [
            (path, method, op)
            for path, item in schema["paths"].items()
            for method, op in item.items()
            if method in {"get", "post", "put", "patch", "delete"}
        ]
        assert len(operations) >= 12, [f"{m} {p}" for p, m, _ in operations]
        for path, method, op in operations:
            kwargs: dict[str, Any] = {}
            content = op.get("requestBody", {}).get("content", {})
            if "multipart/form-data" in content:
                kwargs["files"] = {"file": ("s.pdf", pdf, "application/pdf")}
            elif "application/json" in content:
                kwargs["json"] = {}
            r = await c.request(method.upper(), _sample(path), params={"zz_unknown": "1"}, **kwargs)
            assert r.status_code == 400, f"{method.upper()} {path}: {r.status_code} {r.text}"
            assert r.json()["error"]["details"]["unknown"] == "zz_unknown", (path, r.text)


async def test_known_parameters_still_pass(app: Any) -> None:
    async with client_for(app) as c:
        listed = await c.get("/api/texts?page=1&pageSize=5")
        jobs = await c.get("/api/jobs?state=queued")
    assert listed.status_code == 200, listed.text
    assert jobs.status_code == 200, jobs.text
