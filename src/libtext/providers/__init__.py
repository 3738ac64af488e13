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

__all__ = ["Provider", "ProviderRequest", "ProviderResponse", "Task", "Usage"]
