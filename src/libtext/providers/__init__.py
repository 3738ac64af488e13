"""Providers: what turns a prompt (or a structured request) into an answer.

A provider is a small protocol (:class:`~libtext.providers.base.Provider`): a name and
one async method. Built-ins: ``offline`` (deterministic, no key), any litellm model
(``"openai/gpt-4o-mini"``), and :class:`FunctionProvider` for tests and custom models.
"""

from __future__ import annotations

from libtext.providers.base import (
    Provider,
    ProviderRequest,
    ProviderResponse,
    Task,
    Usage,
)
from libtext.providers.function import FunctionProvider
from libtext.providers.llm import LiteLLMProvider  # light: litellm loads on the first call
from libtext.providers.registry import resolve_provider
from libtext.providers.structured import RetryPolicy, StructuredResult, run_structured

__all__ = [
    "FunctionProvider",
    "LiteLLMProvider",
    "Provider",
    "ProviderRequest",
    "ProviderResponse",
    "RetryPolicy",
    "StructuredResult",
    "Task",
    "Usage",
    "resolve_provider",
    "run_structured",
]
