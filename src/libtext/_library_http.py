"""The online library's HTTP layer: rate limit, bounded concurrency, retries, errors.

Every request of a :class:`~libtext.library.LibraryClient` goes through one
:class:`LibraryHTTP`: it waits for a rate-limit slot, holds one of ``concurrency``
slots, retries connection errors, timeouts, 429 (after its ``Retry-After``) and 5xx
with tenacity, and turns what is left into libtext errors naming the endpoint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from libtext import __version__
from libtext._library_limits import RateLimiter, Sleep
from libtext._retry_after import parse_retry_after
from libtext.errors import LibraryError, LibraryTimeoutError, NotFoundError

__all__ = ["LibraryHTTP"]


class _RetryableStatus(Exception):
    """A 429 or 5xx answer, raised inside the retry loop only."""

    def __init__(self, status_code: int, retry_after: float | None) -> None:
        super().__init__(status_code)
        self.status_code = status_code
        self.retry_after = retry_after


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds from the response's ``Retry-After`` header."""
    return parse_retry_after(response.headers.get("retry-after"))


class LibraryHTTP:
    """GETs JSON from ``{base_url}/api/...`` politely; see the module docstring."""

    def __init__(
        self,
        *,
        base_url: str,
        timeout: float,
        retries: int,
        backoff: float,
        max_wait: float,
        concurrency: int,
        transport: httpx.AsyncBaseTransport | None,
        user_agent: str | None,
        limiter: RateLimiter,
        sleep: Sleep,
    ) -> None:
        self.base_url = base_url
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.concurrency = concurrency
        self.user_agent = user_agent or (
            f"libtext/{__version__} (Hebrew text tools; python-httpx; polite crawler)"
        )
        self._transport = transport
        self._limiter = limiter
        self._sleep = sleep
        self._http: httpx.AsyncClient | None = None
        self._slots: anyio.CapacityLimiter | None = None

    def _client(self) -> httpx.AsyncClient:
        # Made inside the first call, on that call's event loop.
        if self._http is None:
            self._http = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout),
                transport=self._transport,
                headers={"User-Agent": self.user_agent, "Accept": "application/json"},
                follow_redirects=True,
            )
        return self._http

    def _capacity(self) -> anyio.CapacityLimiter:
        if self._slots is None:
            self._slots = anyio.CapacityLimiter(self.concurrency)
        return self._slots

    @property
    def is_open(self) -> bool:
        """Whether an HTTP connection pool has been made (and not closed)."""
        return self._http is not None

    async def aclose(self) -> None:
        """Close the connection pool; a later request makes a new one."""
        if self._http is not None:
            http, self._http = self._http, None
            await http.aclose()

    async def get_once(self, api: str, params: Mapping[str, str]) -> httpx.Response:
        """One GET, no retries and no error mapping (the health check)."""
        return await self._client().get(f"{self.base_url}/api/{api}", params=dict(params))

    def endpoint(self, api: str, params: Mapping[str, str]) -> str:
        return httpx.URL(f"{self.base_url}/api/{api}", params=dict(params)).raw_path.decode()

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome is not None else None
        if isinstance(exc, _RetryableStatus) and exc.retry_after is not None:
            return min(exc.retry_after, self.max_wait)
        return float(min(self.backoff * 2 ** (state.attempt_number - 1), self.max_wait))

    async def get_json(self, api: str, params: Mapping[str, str]) -> Any:
        """GET ``{base_url}/api/{api}`` with retries; the decoded JSON body."""
        url = f"{self.base_url}/api/{api}"
        endpoint = self.endpoint(api, params)
        http = self._client()
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._wait,
            retry=retry_if_exception(
                lambda e: isinstance(e, _RetryableStatus | httpx.TransportError)
            ),
            sleep=self._sleep,
            reraise=True,
        )
        async with self._capacity():
            try:
                async for attempt in retrying:
                    with attempt:
                        await self._limiter.acquire()
                        response = await http.get(url, params=dict(params))
                        if response.status_code == 429 or response.status_code >= 500:
                            raise _RetryableStatus(response.status_code, _retry_after(response))
            except _RetryableStatus as exc:
                what = (
                    "kept answering 429 Too Many Requests; lower rate_limit"
                    if exc.status_code == 429
                    else f"failed with HTTP {exc.status_code}"
                )
                raise LibraryError(
                    f"The online library {what} ({endpoint}, {self.retries + 1} attempts). "
                    "Try again later.",
                    endpoint=endpoint,
                    status_code=exc.status_code,
                ) from None
            except httpx.TimeoutException:
                raise LibraryTimeoutError(
                    f"The online library did not answer {endpoint} within {self.timeout:g} s "
                    f"({self.retries + 1} attempts). Try again later or raise timeout=.",
                    endpoint=endpoint,
                ) from None
            except httpx.TransportError as exc:
                raise LibraryError(
                    f"Could not reach the online library at {self.base_url} "
                    f"({type(exc).__name__}, {endpoint}). Check the network or the "
                    "library URL (base_url=... or LIBTEXT_LIBRARY_URL).",
                    endpoint=endpoint,
                ) from None
            except httpx.DecodingError:
                raise LibraryError(
                    f"Could not decode the online library's answer to {endpoint}. If it is "
                    "brotli-compressed, install the extra: pip install 'libtext[library]'.",
                    endpoint=endpoint,
                ) from None
        return self.decode(response, endpoint)

    def decode(self, response: httpx.Response, endpoint: str) -> Any:
        status = response.status_code
        if status == 404:
            raise NotFoundError(
                f"The online library has nothing at {endpoint} (404). Check the id, or find "
                "one with nav_search() or search() (libtext library find / search).",
                details={"endpoint": endpoint, "status_code": 404},
            )
        if status >= 400:
            raise LibraryError(
                f"The online library refused {endpoint} with HTTP {status}.",
                endpoint=endpoint,
                status_code=status,
            )
        try:
            return response.json()
        except ValueError:
            kind = response.headers.get("content-type", "unknown type")
            raise LibraryError(
                f"The online library answered {endpoint} with malformed JSON ({kind}). "
                "Its API may have changed, or a proxy answered instead.",
                endpoint=endpoint,
                status_code=status,
            ) from None
