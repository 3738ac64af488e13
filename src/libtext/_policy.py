"""The retry policy, in a low module: the providers, the Outliner, the Translator and the
LibraryClient all take one (``retry=``), and none of them should import another to get it;
with it, how long a ``Retry-After`` header asks to wait (the client and the LLM provider).
"""

from __future__ import annotations

import email.utils
import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from libtext._keywords import strict_keywords, warn_deprecated
from libtext.errors import ConfigurationError

__all__ = ["RetryPolicy", "legacy_retry", "parse_retry_after", "with_timeout"]


@dataclass(frozen=True)
class RetryPolicy:
    """How hard libtext tries before giving up on a provider call or a library request.

    Attributes:
        max_attempts: Total tries per call for failures that may pass (429, 5xx,
            connection errors, timeouts).
        base_delay: Base of the exponential backoff, in seconds (full jitter).
        max_delay: Longest wait between tries, in seconds (a provider's
            ``Retry-After`` is honoured even when longer).
        call_timeout: Seconds one provider call may take; ``None`` for no limit.
        deadline: Seconds the whole structured call may take, retries and re-ask
            included; ``None`` for no limit.
    """

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 20.0
    call_timeout: float | None = 120.0
    deadline: float | None = 900.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("RetryPolicy.max_attempts must be at least 1.")
        if self.base_delay < 0 or self.max_delay < 0:
            raise ValueError("RetryPolicy delays must not be negative.")
        for name in ("call_timeout", "deadline"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"RetryPolicy.{name} must be positive or None.")


# Unknown fields name the closest one, as on every public class.
RetryPolicy.__init__ = strict_keywords()(RetryPolicy.__init__)  # type: ignore[method-assign]


def legacy_retry(owner: str, retry: RetryPolicy | None, old: dict[str, Any]) -> RetryPolicy | None:
    """``retry=``, or the old ``policy=`` (popped from ``old``) with a warning."""
    if "policy" not in old:
        return retry
    policy = old.pop("policy")
    warn_deprecated(owner, "policy", "retry=RetryPolicy(...)", stacklevel=5)
    if retry is not None:
        raise TypeError(f"{owner}() got both retry= and its old spelling policy=; pass retry=.")
    return policy  # type: ignore[no-any-return]


def with_timeout(retry: RetryPolicy | None, timeout: float | None) -> RetryPolicy | None:
    """``retry`` with ``timeout=`` as its per-call timeout (the default policy when none)."""
    if timeout is None:
        return retry
    if timeout <= 0:
        raise ConfigurationError(f"timeout must be a positive number of seconds, got {timeout!r}.")
    return replace(retry or RetryPolicy(), call_timeout=timeout)


def parse_retry_after(value: object) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delta-seconds or an HTTP date).

    ``None`` where the value is missing or unreadable; never negative.
    """
    text = str(value).strip() if value is not None else ""
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, OverflowError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    return max(0.0, seconds) if math.isfinite(seconds) else None
