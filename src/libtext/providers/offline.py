"""The offline provider: deterministic, no key, no network. The default.

It does not read prompts: it reads the structured payload of the request (the
extracted document to outline, the segment to translate) and answers with rules.
So an outline from it is exactly :func:`libtext.headings.offline_outline`.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from libtext.errors import ConfigurationError, InvalidInputError
from libtext.models import ExtractedDocument
from libtext.providers.base import ProviderRequest, ProviderResponse, Usage

__all__ = ["OfflineProvider"]


class OfflineProvider:
    """Outline (and translate) with rules instead of a model.

    ``reads_payload`` tells the Outliner to send the whole document in one request
    instead of windows of prompt text; ``max_input_tokens`` is ``None`` (no limit).
    """

    name = "offline"
    reads_payload = True
    max_input_tokens: int | None = None

    def __repr__(self) -> str:
        return "OfflineProvider()"

    async def complete(self, request: ProviderRequest) -> ProviderResponse:
        """Answer an ``"outline"`` or ``"translate"`` request from its payload."""
        if request.task == "outline":
            doc = request.payload
            if not isinstance(doc, ExtractedDocument):
                raise InvalidInputError(
                    "The offline provider outlines an ExtractedDocument payload; got "
                    f"{type(doc).__name__}. Use Outliner, which builds the request."
                )
            from libtext._offload import run_guarded
            from libtext.headings import offline_outline

            # Heading rules on a long book take a moment: off the event loop, in a
            # worker process a timeout can kill where the caller set one (the server).
            outline = await run_guarded("outline", offline_outline, doc=doc)
            return ProviderResponse(content=outline, usage=_FREE, model=self.name)
        if request.task == "translate":
            try:
                module = importlib.import_module("libtext.translate._offline")
            except ModuleNotFoundError as exc:
                if exc.name != "libtext.translate._offline":
                    raise
                raise ConfigurationError(
                    "Offline translation is not available in this libtext install; "
                    "use a language-model provider (e.g. 'openai/gpt-4o-mini')."
                ) from None
            result: Any = module.translate_request(request)
            if inspect.isawaitable(result):
                result = await result
            if isinstance(result, ProviderResponse):
                return result
            return ProviderResponse(content=result, usage=_FREE, model=self.name)
        raise ConfigurationError(f"The offline provider cannot do task {request.task!r}.")


_FREE = Usage(tokens_in=0, tokens_out=0, cost_usd=0.0)
