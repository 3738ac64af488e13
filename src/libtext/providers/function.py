"""A provider backed by a plain function: for tests and bring-your-own-model users.

The function gets the :class:`~libtext.providers.base.ProviderRequest` (messages,
payload, response model) and returns the answer as JSON text, a dict, a model
instance or a full :class:`~libtext.providers.base.ProviderResponse`. It may be
sync or async; a sync function runs inline, so keep it quick or make it async.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from pydantic import BaseModel

from libtext._keywords import strict_keywords
from libtext.errors import ProviderError
from libtext.providers.base import ProviderRequest, ProviderResponse

__all__ = ["FunctionAnswer", "FunctionProvider"]

FunctionAnswer: TypeAlias = str | dict[str, Any] | BaseModel | ProviderResponse
"""What the wrapped function may return."""


class FunctionProvider:
    """Turn ``fn(request) -> answer`` into a provider.

    Example:
        ```python
        from libtext import FunctionProvider

        def answer(request):
            return {"title": "...", "sections": []}

        provider = FunctionProvider(answer, name="mine")
        ```

    Args:
        fn: Called with the request; sync or async; returns ``str`` (JSON text),
            ``dict``, a pydantic model or a ``ProviderResponse``.
        name: The provider's name in outlines, logs and errors.
    """

    @strict_keywords()
    def __init__(
        self,
        fn: Callable[[ProviderRequest], FunctionAnswer | Awaitable[FunctionAnswer]],
        *,
        name: str = "function",
    ) -> None:
        if not callable(fn):
            raise TypeError("FunctionProvider needs a callable: fn(request) -> answer.")
        self.fn = fn
        self.name = name

    def __repr__(self) -> str:
        return f"FunctionProvider({getattr(self.fn, '__name__', 'fn')}, name={self.name!r})"

    async def complete(self, request: ProviderRequest) -> ProviderResponse:
        """Call the function and wrap its answer."""
        result: Any = self.fn(request)
        if inspect.isawaitable(result):
            result = await result
        if isinstance(result, ProviderResponse):
            if not result.model:
                result.model = self.name
            return result
        if isinstance(result, str | dict | BaseModel):
            return ProviderResponse(content=result, model=self.name)
        raise ProviderError(
            f"FunctionProvider {self.name!r} returned {type(result).__name__}; return JSON "
            "text, a dict, a pydantic model or a ProviderResponse.",
            provider=self.name,
            retryable=False,
            details={"returned": type(result).__name__},
        )
