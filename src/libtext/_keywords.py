"""One rule for keyword arguments on every public class and entry point.

An unknown keyword raises :class:`TypeError` naming the closest valid one, so a typo
(``temprature=``) or another class's spelling (``policy=``) never passes silently; an old
spelling kept for one release warns with a :class:`DeprecationWarning` that says what
replaces it. See ``docs/vocabulary.md``.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import warnings
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from libtext.providers.base import Provider

__all__ = [
    "LEGACY_MODEL_OPTIONS",
    "legacy_options",
    "one_or_many",
    "provider_connection",
    "strict_keywords",
    "unknown_keyword",
    "warn_deprecated",
    "warn_deprecated_call",
]

P = ParamSpec("P")
R = TypeVar("R")

REMOVED_IN = "0.2"

LEGACY_MODEL_OPTIONS = (
    "drop_params",
    "extra_body",
    "extra_headers",
    "frequency_penalty",
    "logprobs",
    "max_completion_tokens",
    "max_tokens",
    "mock_response",
    "n",
    "num_retries",
    "presence_penalty",
    "reasoning_effort",
    "seed",
    "stop",
    "temperature",
    "top_p",
    "user",
)
"""Model options the Outliner and LiteLLMProvider took as keywords before ``options=``:
still accepted, with a warning, until 0.2. Only these: any other unknown keyword is a
:class:`TypeError`."""

_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def unknown_keyword(owner: str, name: str, valid: Iterable[str]) -> TypeError:
    """The error for an unknown keyword: the closest valid name, else the valid names."""
    names = sorted(set(valid))
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"valid: {', '.join(names)}."
    return TypeError(f"{owner}() got an unexpected keyword argument {name!r}; {hint}")


def warn_deprecated(owner: str, old: str, new: str, *, stacklevel: int = 4) -> None:
    """Warn that ``owner(old=...)`` is an old spelling; ``new`` says what to write instead.

    The default ``stacklevel`` points at the caller of a method wrapped by
    :func:`strict_keywords` (helper -> method -> wrapper -> caller).
    """
    warnings.warn(
        f"{owner}({old}=...) is deprecated and will be removed in libtext {REMOVED_IN}; use {new}.",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def warn_deprecated_call(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that the method ``old`` is an old name of ``new``."""
    warnings.warn(
        f"{old}() is deprecated and will be removed in libtext {REMOVED_IN}; use {new}.",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def strict_keywords(
    *, deprecated: Collection[str] = ()
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Reject unknown keyword arguments with a :class:`TypeError` naming the closest one.

    Args:
        deprecated: Old spellings that are let through to the function's ``**kwargs``,
            which warns and maps them. Anything else not in the signature is refused,
            so a ``**kwargs`` catch-all takes only these.
    """

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        params = inspect.signature(fn).parameters
        valid = [n for n, p in params.items() if p.kind in _NAMED and n != "self"]
        allowed = frozenset(valid) | frozenset(deprecated)
        owner = fn.__qualname__.removesuffix(".__init__")

        def check(kwargs: dict[str, Any]) -> None:
            for name in kwargs:
                if name not in allowed:
                    raise unknown_keyword(owner, name, valid)

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def acall(*args: P.args, **kwargs: P.kwargs) -> Any:
                check(kwargs)
                return await fn(*args, **kwargs)

            return acall  # type: ignore[return-value]

        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            check(kwargs)
            return fn(*args, **kwargs)

        return call

    return wrap


# --- the shared vocabulary ------------------------------------------------------------


def legacy_options(
    owner: str, options: dict[str, Any] | None, old: dict[str, Any]
) -> dict[str, Any]:
    """``options=`` merged with model options still passed as keywords (with a warning)."""
    merged = dict(options or {})
    for name in [n for n in old if n in LEGACY_MODEL_OPTIONS]:
        warn_deprecated(owner, name, f"options={{{name!r}: ...}}", stacklevel=5)
        merged.setdefault(name, old.pop(name))
    return merged


def one_or_many(
    owner: str,
    provider: str | Provider | None,
    providers: Sequence[str | Provider] | None,
) -> list[str | Provider]:
    """The providers asked for: ``provider=`` (one) or ``providers=`` (several); offline
    when neither is given."""
    if provider is not None and providers is not None:
        raise TypeError(
            f"{owner}() got both provider= and providers=; pass one provider= to outline, "
            "or providers=[...] to compare several."
        )
    if providers is None:
        return [provider if provider is not None else "offline"]
    if isinstance(providers, str):
        return [providers]
    return list(providers)


def provider_connection(
    options: dict[str, Any],
    api_key: str | None,
    api_base: str | None,
    timeout: float | None,
) -> dict[str, Any]:
    """The keywords a named (litellm) provider is made with; the offline one ignores them."""
    return {"api_key": api_key, "api_base": api_base, "timeout": timeout, "options": options}
