"""One structured provider call: timeouts, retries, validation and a single re-ask.

Every provider (offline, litellm, a user function) answers through
:func:`run_structured`, so the Outliner and the Translator share one policy: a
per-call timeout and a deadline for the whole call, exponential backoff with full
jitter on failures that may pass (429, 5xx, connection errors, timeouts) honouring
a provider's ``Retry-After``, no retry on failures that will not (bad key, bad
request, unusable output), and one re-ask quoting the validation error when the
answer does not match the schema.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import time
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import anyio
from pydantic import BaseModel, ValidationError
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_random_exponential,
)

from libtext._policy import RetryPolicy
from libtext.errors import (
    LibtextError,
    ProviderAuthError,
    ProviderError,
    ProviderOutputError,
    ProviderTimeoutError,
)
from libtext.providers.base import Provider, ProviderRequest, ProviderResponse, Usage

__all__ = ["RetryPolicy", "StructuredResult", "parse_structured", "run_structured"]

logger = logging.getLogger("libtext.providers")

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"```(?:json|JSON)?\s*+(.*?)```", re.DOTALL)


@dataclass
class StructuredResult(Generic[M]):
    """A validated answer and what it cost.

    Attributes:
        value: The answer, an instance of the request's ``response_model``.
        usage: Tokens and cost summed over every answered attempt (``None`` where
            the provider did not say).
        model: The model name the provider reported.
        latency_s: Wall time of the whole call, retries included.
        attempts: Provider calls made (retries and the re-ask included).
    """

    value: M
    usage: Usage
    model: str
    latency_s: float
    attempts: int


class _InvalidOutput(Exception):
    """The answer is not JSON for the schema; ``error`` is a short, content-free summary."""

    def __init__(self, error: str, location: str = "") -> None:
        super().__init__(error)
        self.error = error
        self.location = location


def _extract_json(text: str) -> Any:
    """The one JSON value in ``text``, tolerating code fences and prose around an object.

    Prose around one object is read past; an answer whose first object does not parse
    is refused, never mined for an inner object that happens to parse (a cut-off echo
    of the schema holds many, each a valid but empty answer).
    """
    stripped = text.strip()
    candidates = [stripped]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(stripped)]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    start = stripped.find("{")
    if start != -1:
        try:
            value, _ = json.JSONDecoder().raw_decode(stripped, start)
        except ValueError:
            pass
        else:
            return value
    raise _InvalidOutput("the answer is not valid JSON (expected one JSON object)")


def parse_structured(content: str | BaseModel | dict[str, Any], model: type[M]) -> M:
    """Validate a provider's answer (JSON text, dict or model) as ``model``.

    Raises:
        _InvalidOutput: The answer is not JSON, or does not match the schema.
    """
    if isinstance(content, model):
        return content
    data: Any
    if isinstance(content, BaseModel):
        data = content.model_dump(mode="json")
    elif isinstance(content, str):
        data = _extract_json(content)
    else:
        data = content
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        location = ".".join(str(part) for part in first.get("loc", ())) or "(root)"
        more = exc.error_count() - 1
        extra = f" (and {more} more error{'s' if more > 1 else ''})" if more else ""
        raise _InvalidOutput(
            f"{location}: {first.get('msg', 'invalid')}{extra}", location
        ) from None


def _as_text(content: str | BaseModel | dict[str, Any]) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, BaseModel):
        return content.model_dump_json()
    try:
        return json.dumps(content, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(content)


def _reask(request: ProviderRequest, answer: ProviderResponse, error: str) -> ProviderRequest:
    schema = request.response_model.__name__
    messages = [
        *request.messages,
        {"role": "assistant", "content": _as_text(answer.content)},
        {
            "role": "user",
            "content": (
                f"Your answer did not match the required {schema} JSON schema: {error}. "
                "Answer again with only one JSON object that matches the schema."
            ),
        },
    ]
    return dataclasses.replace(request, messages=messages)


_CUT_OFF = "length"


def _usable(answer: ProviderResponse, request: ProviderRequest) -> Any:
    """The answer validated and checked, or :class:`_InvalidOutput` saying why not.

    An answer cut off at the output limit is refused whatever it holds: what parses of
    it is a fragment.
    """
    if answer.finish_reason == _CUT_OFF:
        raise _InvalidOutput(
            "the answer was cut off at the output limit (finish_reason 'length')", _CUT_OFF
        )
    value = parse_structured(answer.content, request.response_model)
    problem = request.check(value) if request.check is not None else None
    if problem:
        raise _InvalidOutput(problem, "unusable")
    return value


def _second_request(
    request: ProviderRequest, answer: ProviderResponse, error: _InvalidOutput
) -> ProviderRequest:
    """The re-ask: the error quoted, or for a cut-off answer the same question with twice
    the output limit (the cut answer is not quoted: it would only take more room)."""
    if error.location != _CUT_OFF:
        return _reask(request, answer, error.error)
    options = dict(request.options)
    limit = options.get("max_tokens")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
        options["max_tokens"] = limit * 2
    return dataclasses.replace(request, options=options)


def _unusable(
    name: str,
    request: ProviderRequest,
    first: _InvalidOutput,
    again: _InvalidOutput,
    attempts: int,
) -> ProviderOutputError:
    schema = request.response_model.__name__
    if again.location == _CUT_OFF:
        reason, what = (
            _CUT_OFF,
            (
                "was cut off at its output limit (finish_reason 'length'), even after a re-ask; "
                "raise max_tokens or send less text per call (window_tokens=, max_chars=)"
            ),
        )
    elif again.location == "unusable":
        reason, what = "unusable", f"was not usable ({again.error}), even after a re-ask"
    else:
        reason, what = (
            "invalid",
            (f"did not match the {schema} schema ({again.error}), even after a re-ask"),
        )
    return ProviderOutputError(
        f"Provider {name!r}'s answer {what}; try a stronger model or another provider.",
        provider=name,
        details={
            "reason": reason,
            "error": first.error,
            "last_error": again.error,
            "attempts": attempts,
        },
    )


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, ProviderAuthError | ProviderOutputError):
        return False  # a bad key or a bad answer does not mend by asking again
    return isinstance(exc, ProviderError) and exc.retryable


def _stop(policy: RetryPolicy, deadline_at: float | None) -> Any:
    """Stop after ``max_attempts``, or now if the next wait would pass the deadline.

    A provider asking to wait longer than the time left (``Retry-After: 3600``)
    then ends with its own error (``RateLimitError``), not a vaguer timeout.
    """
    attempts = stop_after_attempt(policy.max_attempts)

    def stop(state: RetryCallState) -> bool:
        if attempts(state):
            return True
        if deadline_at is None:
            return False
        return time.monotonic() + state.upcoming_sleep >= deadline_at

    return stop


def _wait(policy: RetryPolicy) -> Any:
    backoff = wait_random_exponential(multiplier=policy.base_delay, max=policy.max_delay)

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome is not None else None
        retry_after = getattr(exc, "retry_after", None)
        if isinstance(retry_after, int | float) and retry_after >= 0:
            return float(retry_after)
        return float(backoff(state))

    return wait


def _add(total: Usage, more: Usage) -> Usage:
    def plus(a: Any, b: Any) -> Any:
        if a is None:
            return b
        if b is None:
            return a
        return a + b

    return Usage(
        tokens_in=plus(total.tokens_in, more.tokens_in),
        tokens_out=plus(total.tokens_out, more.tokens_out),
        cost_usd=plus(total.cost_usd, more.cost_usd),
    )


async def _call_once(
    provider: Provider, request: ProviderRequest, timeout: float | None, attempt: int
) -> ProviderResponse:
    name = getattr(provider, "name", type(provider).__name__)
    started = time.perf_counter()
    try:
        with anyio.fail_after(timeout):
            response = await provider.complete(request)
    except TimeoutError as exc:
        if isinstance(exc, LibtextError):
            raise  # a worker's own limit (rules stopped past the guard's timeout): final
        logger.info("provider=%s attempt=%d timed out after %ss", name, attempt, timeout)
        raise ProviderTimeoutError(
            f"Provider {name!r} did not answer within {timeout}s; raise "
            "RetryPolicy(call_timeout=...) or try again later.",
            provider=name,
            details={"timeout_s": timeout},
        ) from None
    except LibtextError as exc:
        logger.info(
            "provider=%s attempt=%d failed: %s (status %s)",
            name,
            attempt,
            exc.code,
            getattr(exc, "status_code", None),
        )
        raise
    except Exception as exc:
        logger.info("provider=%s attempt=%d raised %s", name, attempt, type(exc).__name__)
        raise ProviderError(
            f"Provider {name!r} raised {type(exc).__name__}; check the provider's code "
            "or configuration.",
            provider=name,
            retryable=False,
            details={"exception": type(exc).__name__},
        ) from exc
    if not isinstance(response, ProviderResponse):
        raise ProviderError(
            f"Provider {name!r} returned {type(response).__name__}, not a ProviderResponse.",
            provider=name,
            retryable=False,
        )
    logger.debug(
        "provider=%s attempt=%d latency=%.3fs tokens_in=%s tokens_out=%s",
        name,
        attempt,
        time.perf_counter() - started,
        response.usage.tokens_in,
        response.usage.tokens_out,
    )
    return response


async def run_structured(
    provider: Provider, request: ProviderRequest, *, policy: RetryPolicy | None = None
) -> StructuredResult[Any]:
    """Ask ``provider`` and validate the answer as ``request.response_model``.

    Args:
        provider: Any :class:`~libtext.providers.base.Provider`.
        request: The messages, payload and response model.
        policy: Timeouts and retries; default :class:`RetryPolicy()`.

    Returns:
        The validated value with usage summed over all attempts.

    Raises:
        RateLimitError: Still rate limited after ``max_attempts`` tries.
        ProviderTimeoutError: A call passed ``call_timeout`` on every try, or the
            whole call passed ``deadline``.
        ProviderAuthError: The key was rejected (never retried).
        ProviderOutputError: The answer did not match the schema, even after a re-ask.
        ProviderError: Any other provider failure.
    """
    policy = policy or RetryPolicy()
    name = getattr(provider, "name", type(provider).__name__)
    started = time.perf_counter()
    deadline_at = None if policy.deadline is None else time.monotonic() + policy.deadline
    attempts = 0
    usage = Usage()

    async def ask(req: ProviderRequest) -> ProviderResponse:
        nonlocal attempts, usage
        retrying = AsyncRetrying(
            stop=_stop(policy, deadline_at),
            wait=_wait(policy),
            retry=retry_if_exception(_retryable),
            sleep=anyio.sleep,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                attempts += 1
                response = await _call_once(provider, req, policy.call_timeout, attempts)
                usage = _add(usage, response.usage)
                return response
        raise AssertionError("unreachable: tenacity reraises")  # pragma: no cover

    model_name = name
    try:
        with anyio.fail_after(policy.deadline):
            # One-off setup (litellm's import) is not a call: keep it out of call_timeout.
            warm_up = getattr(provider, "warm_up", None)
            if warm_up is not None:
                await warm_up()
            answer = await ask(request)
            model_name = answer.model or name
            try:
                value = _usable(answer, request)
            except _InvalidOutput as first:
                logger.info("provider=%s answer unusable (%s); re-asking", name, first.location)
                second = await ask(_second_request(request, answer, first))
                model_name = second.model or model_name
                try:
                    value = _usable(second, request)
                except _InvalidOutput as again:
                    raise _unusable(name, request, first, again, attempts) from None
    except TimeoutError as exc:
        if isinstance(exc, LibtextError):
            raise  # a worker's own limit, already said as such
        raise ProviderTimeoutError(
            f"Provider {name!r} did not finish within the {policy.deadline}s deadline "
            "(retries included); raise RetryPolicy(deadline=...) or try again later.",
            provider=name,
            details={"deadline_s": policy.deadline, "attempts": attempts},
        ) from None
    latency = time.perf_counter() - started
    # The offline provider answers in microseconds, hundreds of times per book: its
    # per-call line is for debugging only.
    logger.log(
        logging.DEBUG if name == "offline" else logging.INFO,
        "provider=%s done attempts=%d latency=%.3fs tokens_in=%s tokens_out=%s",
        name,
        attempts,
        latency,
        usage.tokens_in,
        usage.tokens_out,
    )
    return StructuredResult(
        value=value, usage=usage, model=model_name, latency_s=latency, attempts=attempts
    )
