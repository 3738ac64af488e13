"""Provider specs to providers: ``"offline"``, ``"openai/gpt-4o-mini"`` or an instance.

Nothing heavy is imported here: the offline provider and litellm load only when
a spec names them.
"""

from __future__ import annotations

import re
from typing import Any

from libtext._keywords import LEGACY_MODEL_OPTIONS, legacy_options, strict_keywords
from libtext.errors import ConfigurationError
from libtext.providers.base import Provider

__all__ = ["resolve_provider"]

_SPEC = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*/\S+$")


@strict_keywords(deprecated=LEGACY_MODEL_OPTIONS)
def resolve_provider(
    spec: str | Provider,
    *,
    api_key: str | None = None,
    api_base: str | None = None,
    timeout: float | None = None,
    options: dict[str, Any] | None = None,
    **deprecated: Any,
) -> Provider:
    """The provider a spec names.

    Args:
        spec: A :class:`~libtext.providers.base.Provider` (returned as it is),
            ``"offline"``, or a litellm ``provider/model`` string such as
            ``"openai/gpt-4o-mini"`` or ``"ollama/llama3"``.
        api_key: For litellm specs: the key, instead of its environment variable.
        api_base: For litellm specs: a custom endpoint.
        timeout: For litellm specs: seconds litellm waits for one HTTP answer.
        options: For litellm specs: model options (``{"temperature": 0}``).

    Raises:
        ConfigurationError: The spec is neither ``"offline"`` nor ``provider/model``.
        MissingAPIKeyError: The model needs a key that is not set.
    """
    options = legacy_options("resolve_provider", options, deprecated)
    if not isinstance(spec, str):
        if isinstance(spec, Provider):
            return spec
        raise ConfigurationError(
            f"A provider must be a name like 'openai/gpt-4o-mini' or 'offline', or an object "
            f"with a name and an async complete(); got {type(spec).__name__}."
        )
    name = spec.strip()
    if name.lower() == "offline":
        from libtext.providers.offline import OfflineProvider

        return OfflineProvider()
    if not _SPEC.match(name):
        shown = repr(name[:60]) if name else "an empty name"
        raise ConfigurationError(
            f"Unknown provider {shown}: use 'offline' or a litellm 'provider/model' name, "
            "e.g. 'openai/gpt-4o-mini', 'anthropic/claude-3-5-haiku-latest' or 'ollama/llama3'.",
            details={"provider": name[:60]},
        )
    from libtext.providers.llm import LiteLLMProvider

    return LiteLLMProvider(
        name, api_key=api_key, api_base=api_base, timeout=timeout, options=options
    )
