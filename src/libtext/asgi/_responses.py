"""JSON responses of the HTTP adapter's routes, serialized once by pydantic."""

from __future__ import annotations

from pydantic import BaseModel
from starlette.responses import Response

__all__ = ["json_response"]


def json_response(
    model: BaseModel, *, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """The model as a JSON response (by alias: the spec's field names).

    Routes still declare ``response_model`` for the OpenAPI document; returning a
    ``Response`` skips FastAPI's second validation and serialization of a model the
    library already built and typed (the hot path of ``GET /api/texts``).
    """
    return Response(
        model.model_dump_json(by_alias=True),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )
