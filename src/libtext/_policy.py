"""The retry policy, in a low module: the providers, the Outliner, the Translator and the
LibraryClient all take one (``retry=``), and none of them should import another to get it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RetryPolicy"]


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
