"""The provider protocol shared by the Outliner and the Translator.

A request carries both the chat messages (for language models) and the structured
input they were built from (for the offline provider, which reads the document
itself instead of a prompt). A response carries the answer as JSON text (or an
already-built pydantic model) plus token usage, so one validation path serves all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel

__all__ = ["Provider", "ProviderRequest", "ProviderResponse", "Task", "Usage"]

Task = Literal["outline", "translate"]


@dataclass(frozen=True)
class Usage:
    """Tokens and cost of one call; ``None`` where the provider does not say."""

    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None


@dataclass
class ProviderRequest:
    """What a provider is asked.

    Attributes:
        task: ``"outline"`` or ``"translate"``.
        messages: Chat messages (``{"role": ..., "content": ...}``) built from the
            versioned prompt files.
        response_model: The pydantic model the answer must validate as.
        payload: The structured input the messages were built from (e.g. the
            extracted pages of a window, or the segment to translate).
        prompt_version: Version of the prompt that built ``messages``.
        options: Extra provider options (temperature, max_tokens, ...).
        check: What makes a valid answer unusable beyond its schema (``None``: nothing),
            e.g. an outline none of whose phrases is in the text; an unusable answer is
            re-asked once with the reason, like one that does not match the schema.
    """

    task: Task
    messages: list[dict[str, str]]
    response_model: type[BaseModel]
    payload: Any = None
    prompt_version: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    check: Callable[[Any], str | None] | None = None


@dataclass
class ProviderResponse:
    """A provider's answer: JSON text or a model instance, plus usage.

    ``finish_reason`` is why the model stopped, where it says (``"stop"``; ``"length"``
    means the answer was cut off at its output limit and is not used).
    """

    content: str | BaseModel | dict[str, Any]
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    finish_reason: str | None = None


@runtime_checkable
class Provider(Protocol):
    """Anything with a ``name`` and an async ``complete`` is a provider."""

    name: str

    async def complete(self, request: ProviderRequest) -> ProviderResponse:
        """Answer one request."""
        ...
