"""``Retry-After`` values, shared by the library client and the LLM provider."""

from __future__ import annotations

import email.utils
import math
from datetime import UTC, datetime

__all__ = ["parse_retry_after"]


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
