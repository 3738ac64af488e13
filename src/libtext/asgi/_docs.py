"""Swagger UI at ``/docs`` and ReDoc at ``/redoc``, with their assets served by the app.

FastAPI's own pages load Swagger UI and ReDoc from a CDN, so ``/docs`` is blank on a
machine without internet. The same files ship in the ``fastapi-offline`` package
(part of the ``server`` extra); the app serves them from there under
``/docs/assets/``. Without that package the CDN pages are kept.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

__all__ = ["ASSETS", "assets_folder", "docs_urls", "install_docs"]

ASSETS: dict[str, str] = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "redoc.standalone.js": "text/javascript",
    "favicon.png": "image/png",
}
"""The asset files served, with their media types."""


def assets_folder() -> Traversable | None:
    """The folder of the packaged assets; ``None`` when ``fastapi-offline`` is absent."""
    try:
        folder = resources.files("fastapi_offline") / "static"
    except ModuleNotFoundError:
        return None
    return folder if all((folder / name).is_file() for name in ASSETS) else None


def docs_urls() -> dict[str, Any]:
    """Keywords of ``FastAPI(...)``: no built-in CDN pages when the assets are here."""
    return {"docs_url": None, "redoc_url": None} if assets_folder() is not None else {}


def install_docs(app: FastAPI) -> None:
    """Add ``/docs``, ``/redoc`` and their assets (no-op without the packaged assets)."""
    folder = assets_folder()
    if folder is None:
        return
    cache: dict[str, bytes] = {}

    def base(request: Request) -> str:
        # Mounted under a prefix (app.mount("/texts", ...)), links keep the prefix.
        return str(request.scope.get("root_path", "")).rstrip("/")

    @app.get("/docs", include_in_schema=False)
    async def swagger(request: Request) -> HTMLResponse:
        root = base(request)
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}/docs/assets/swagger-ui-bundle.js",
            swagger_css_url=f"{root}/docs/assets/swagger-ui.css",
            swagger_favicon_url=f"{root}/docs/assets/favicon.png",
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = base(request)
        return get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}/docs/assets/redoc.standalone.js",
            redoc_favicon_url=f"{root}/docs/assets/favicon.png",
            with_google_fonts=False,
        )

    @app.get("/docs/assets/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        media_type = ASSETS.get(name)
        if media_type is None:
            return Response(status_code=404)
        if name not in cache:
            cache[name] = (folder / name).read_bytes()
        return Response(
            cache[name], media_type=media_type, headers={"Cache-Control": "public, max-age=86400"}
        )
