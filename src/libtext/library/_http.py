"""The online library's HTTP layer: rate limit, bounded concurrency, retries, errors.

Every request of a :class:`~libtext.library.LibraryClient` goes through one
:class:`LibraryHTTP`: it waits for a rate-limit slot, holds one of ``concurrency``
slots, retries connection errors, timeouts, 429 (after its ``Retry-After``) and 5xx
with tenacity, and turns what is left into libtext errors naming the endpoint.

An ``httpx.AsyncClient`` (and an anyio limiter) belongs to the event loop it was
first used on; a sync call runs on libtext's loop thread and an ``await`` on the
caller's loop, so one pool per loop is kept, and pools of loops that have closed are
dropped. The site may answer brotli-compressed JSON, with or without a
``Content-Encoding`` header; both are decoded when the ``brotli`` package (the
``library`` extra) is there, and its absence is named when it is needed.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

import anyio
import anyio.lowlevel
import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from libtext._policy import parse_retry_after
from libtext._version import __version__
from libtext.errors import LibraryError, LibraryTimeoutError, NotFoundError
from libtext.library._limits import RateLimiter, Sleep

__all__ = ["LibraryHTTP", "brotli_decompress"]


def brotli_decompress() -> Callable[[bytes], bytes] | None:
    """The brotli decompressor (``brotli`` or ``brotlicffi``), or ``None`` if neither."""
    for name in ("brotli", "brotlicffi"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        decompress: Callable[[bytes], bytes] = module.decompress
        return decompress
    return None


def _loop() -> object:
    """The running event loop (asyncio), or anyio's token standing for it (trio)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # pragma: no cover - trio
        return anyio.lowlevel.current_token()


_closing: set[asyncio.Task[None]] = set()  # held until done, as asyncio asks


def _close_on(loop: asyncio.AbstractEventLoop, http: httpx.AsyncClient) -> None:
    """Close a pool on its own loop (called there, from another thread's aclose)."""
    task = loop.create_task(http.aclose())
    _closing.add(task)
    task.add_done_callback(_closing.discard)


def _closed(loop: object) -> bool:
    is_closed = getattr(loop, "is_closed", None)
    return bool(is_closed()) if callable(is_closed) else False


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
        # One pool and one concurrency limiter per event loop (see the module docstring).
        self._pools: dict[int, tuple[object, httpx.AsyncClient, anyio.CapacityLimiter]] = {}
        self._lock = threading.Lock()
        self.closed = False

    def _pool(self) -> tuple[httpx.AsyncClient, anyio.CapacityLimiter]:
        """This event loop's pool, made on first use; pools of closed loops dropped."""
        if self.closed:
            raise LibraryError(
                "This LibraryClient is closed; make a new one.", details={"url": self.base_url}
            )
        loop = _loop()
        with self._lock:
            entry = self._pools.get(hash(loop))
            if entry is None or entry[0] != loop:
                for key in [k for k, e in self._pools.items() if _closed(e[0])]:
                    del self._pools[key]
                http = httpx.AsyncClient(
                    timeout=httpx.Timeout(self.timeout),
                    transport=self._transport,
                    headers={"User-Agent": self.user_agent, "Accept": "application/json"},
                    follow_redirects=True,
                )
                entry = (loop, http, anyio.CapacityLimiter(self.concurrency))
                self._pools[hash(loop)] = entry
        return entry[1], entry[2]

    def _client(self) -> httpx.AsyncClient:
        return self._pool()[0]

    @property
    def is_open(self) -> bool:
        """Whether an HTTP connection pool has been made (and not closed)."""
        return bool(self._pools)

    async def aclose(self) -> None:
        """Close the connection pools for good: a later request raises :class:`LibraryError`.

        This loop's pool is closed here; a pool of another running asyncio loop is
        closed on that loop, one of a closed loop is dropped.
        """
        self.closed = True
        loop = _loop()
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for owner, http, _ in pools:
            if owner == loop:
                await http.aclose()
            elif isinstance(owner, asyncio.AbstractEventLoop) and owner.is_running():
                owner.call_soon_threadsafe(_close_on, owner, http)

    async def get_once(self, api: str, params: Mapping[str, str]) -> httpx.Response:
        """One GET, no retries and no error mapping (the health check)."""
        return await self._client().get(self.url(api, params))

    def url(self, api: str, params: Mapping[str, str]) -> httpx.URL:
        """``{base_url}/api/{api}?...``; a ``/`` in a value stays one (``path=/3400000000``)."""
        return httpx.URL(f"{self.base_url}/api/{api}?{urlencode(dict(params), safe='/')}")

    def endpoint(self, api: str, params: Mapping[str, str]) -> str:
        return self.url(api, params).raw_path.decode()

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome is not None else None
        if isinstance(exc, _RetryableStatus) and exc.retry_after is not None:
            return min(exc.retry_after, self.max_wait)
        return float(min(self.backoff * 2 ** (state.attempt_number - 1), self.max_wait))

    async def get_json(self, api: str, params: Mapping[str, str]) -> Any:
        """GET ``{base_url}/api/{api}`` with retries; the decoded JSON body."""
        url = self.url(api, params)
        endpoint = self.endpoint(api, params)
        http, slots = self._pool()
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._wait,
            retry=retry_if_exception(
                lambda e: isinstance(e, _RetryableStatus | httpx.TransportError)
            ),
            sleep=self._sleep,
            reraise=True,
        )
        async with slots:
            try:
                async for attempt in retrying:
                    with attempt:
                        await self._limiter.acquire()
                        response = await http.get(url)
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
                    f"Could not decode the online library's compressed answer to {endpoint}: "
                    "its body does not match its Content-Encoding. Try again later.",
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
            pass
        body = self._unbrotli(response, endpoint)
        if body is not None:
            return body
        kind = response.headers.get("content-type", "unknown type")
        raise LibraryError(
            f"The online library answered {endpoint} with malformed JSON ({kind}). "
            "Its API may have changed, or a proxy answered instead.",
            endpoint=endpoint,
            status_code=status,
        )

    def _unbrotli(self, response: httpx.Response, endpoint: str) -> Any | None:
        """The JSON of a brotli body httpx left undecoded, or ``None`` if it is not one.

        The site sometimes compresses without saying so; without the brotli package,
        a body that says (or looks) compressed gets an error naming what to install.
        """
        raw = response.content
        declared = "br" in response.headers.get("content-encoding", "").lower()
        decompress = brotli_decompress()
        if decompress is None:
            if declared or not _looks_like_text(raw):
                from libtext._wording import install_hint

                raise LibraryError(
                    f"The online library answered {endpoint} with a brotli-compressed body "
                    f"{'(Content-Encoding: br)' if declared else '(it is not text)'}, and "
                    f"the brotli package is missing: {install_hint('library')} (or pip install "
                    "brotli).",
                    endpoint=endpoint,
                    status_code=response.status_code,
                )
            return None
        try:
            return json.loads(decompress(raw))
        except Exception:  # brotli.error and the like: not a brotli body after all
            return None


def _looks_like_text(raw: bytes) -> bool:
    """Whether a body is UTF-8 text (JSON gone wrong) rather than compressed bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ch < " " and ch not in "\t\r\n" for ch in text[:2000])
