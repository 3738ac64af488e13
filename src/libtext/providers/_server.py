"""What an OpenAI-compatible server says of itself: its context window and its slots.

Asked once per provider, briefly, in the worker thread that warms the provider up; a
server that does not say (or does not answer) is "not said", never an error.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

__all__ = ["ServerLimits", "server_limits"]

logger = logging.getLogger("libtext.providers")


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """What an OpenAI-compatible server says of itself (``None``: it does not say)."""

    context: int | None = None
    slots: int | None = None


def server_limits(api_base: str, api_key: str | None, model: str) -> ServerLimits:
    """The context window and slots a local server reports, asked once, briefly.

    vLLM lists ``max_model_len`` per model in ``/v1/models``; llama.cpp's server reports
    ``n_ctx`` (per slot) and ``total_slots`` in ``/props``; some servers put
    ``context_length`` or ``meta.n_ctx`` in the model list. Anything else (no answer,
    another shape) is "not said": this never fails a call.
    """
    import httpx

    base = api_base.rstrip("/")
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    name = model.split("/", 1)[1] if "/" in model else model
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    context: int | None = None
    slots: int | None = None
    try:
        with httpx.Client(timeout=3.0, headers=headers, trust_env=False) as client:
            try:
                listed = client.get(f"{root}/v1/models").json().get("data") or []
            except (httpx.HTTPError, ValueError, AttributeError):
                listed = []
            entries = [m for m in listed if isinstance(m, dict)]
            mine = [m for m in entries if m.get("id") == name] or entries[:1]
            for entry in mine:
                raw_meta = entry.get("meta")
                meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
                for raw in (
                    entry.get("max_model_len"),
                    entry.get("context_length"),
                    entry.get("context_window"),
                    meta.get("n_ctx"),
                ):
                    context = context or _positive(raw)
            try:
                props = client.get(f"{root}/props").json()
            except (httpx.HTTPError, ValueError):
                props = {}
            if isinstance(props, dict):
                settings = props.get("default_generation_settings")
                if isinstance(settings, dict):
                    context = context or _positive(settings.get("n_ctx"))
                context = context or _positive(props.get("n_ctx"))
                slots = _positive(props.get("total_slots"))
    except Exception:  # a server's self-report must never break anything
        logger.info("provider=%s: the server did not report its limits", model)
    return ServerLimits(context=context, slots=slots)


def _positive(raw: Any) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw < 1:
        return None
    return int(raw)
