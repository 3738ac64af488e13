"""Any model litellm knows (``"openai/gpt-4o-mini"``, ``"anthropic/claude-..."``, ``"ollama/..."``).

litellm takes seconds to import, so it is imported inside the first call, never by
``import libtext``, and in a worker thread (:meth:`LiteLLMProvider.warm_up`), never on
the event loop. What does not change between calls (the context window, whether the
model takes a schema) is looked up once per provider. Only litellm's documented API is
used: ``acompletion``, its exception classes, the capability and cost helpers. The key check at
construction uses a small table of provider prefixes to environment variables
instead, so a missing key fails before any work. Retries belong to
:func:`~libtext.providers.structured.run_structured`: litellm's own are turned off.
litellm's exceptions become libtext errors whose messages libtext writes, so no key
or prompt text leaks into them.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import importlib.util
import logging
import os
import re
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import anyio
from pydantic import BaseModel

from libtext._keywords import LEGACY_MODEL_OPTIONS, legacy_options, strict_keywords
from libtext._policy import parse_retry_after
from libtext.errors import (
    ConfigurationError,
    MissingAPIKeyError,
    ProviderAuthError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
)
from libtext.providers._server import ServerLimits, server_limits
from libtext.providers.base import ProviderRequest, ProviderResponse, Usage

__all__ = [
    "KEY_ENV_VARS",
    "LOCAL_PREFIXES",
    "NO_KEY",
    "LiteLLMProvider",
    "ServerLimits",
    "redact",
    "server_limits",
]

logger = logging.getLogger("libtext.providers")

# provider prefix -> environment variables litellm reads for its key (the first is named
# in errors). Prefixes not listed are passed to litellm unchecked.
KEY_ENV_VARS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "mistral": ("MISTRAL_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY",),
    "together_ai": ("TOGETHERAI_API_KEY", "TOGETHER_AI_API_KEY", "TOGETHER_API_KEY"),
    "cohere": ("COHERE_API_KEY",),
    "cohere_chat": ("COHERE_API_KEY",),
    "xai": ("XAI_API_KEY",),
    "fireworks_ai": ("FIREWORKS_AI_API_KEY", "FIREWORKS_API_KEY", "FIREWORKSAI_API_KEY"),
    "perplexity": ("PERPLEXITYAI_API_KEY", "PERPLEXITY_API_KEY"),
    "cerebras": ("CEREBRAS_API_KEY",),
    "huggingface": ("HUGGINGFACE_API_KEY", "HF_TOKEN"),
}

# Prefixes of models that run locally and need no key (all litellm routes).
LOCAL_PREFIXES = frozenset(
    {"ollama", "ollama_chat", "lm_studio", "llamafile", "vllm", "hosted_vllm"}
)

NO_KEY = "no-key-required"
"""The key sent to a server at ``api_base`` when none is given: the OpenAI client refuses
to start without one, and a local server ignores it."""

MIN_SECRET_CHARS = 8
"""Shorter "keys" (a dummy ``"x"`` for a local server) are not masked: masking them would
only garble the message (``ma[redacted]imum``)."""

_KEYLIKE = re.compile(
    r"\b(?:sk|pk|rk|key|gsk|xai|hf)[-_][A-Za-z0-9_\-]{6,}"  # sk-..., gsk_..., hf_...
    r"|Bearer\s+\S+"
    r"|AIza[0-9A-Za-z_\-]{20,}"  # Google keys
    r"|[A-Za-z0-9_\-]{32,}",  # any long token
)

_FORMAT_WORDS = re.compile(r"response_format|json|schema|grammar")

_FIRST_CALL_IMPORTS = ("openai.resources", "httpcore", "h11")

_import_lock = threading.Lock()
_litellm: Any = None


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with the given secrets and anything that looks like a key masked.

    A secret is masked only where it stands as a whole token (not inside a longer
    word), and only when it has at least :data:`MIN_SECRET_CHARS` characters.
    """
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_CHARS:
            whole = re.compile(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])")
            text = whole.sub("[redacted]", text)
    return _KEYLIKE.sub("[redacted]", text)


def _form_name(form: Any) -> str:
    if isinstance(form, dict):
        return "json_object+schema" if "schema" in form else str(form.get("type"))
    return "json_schema"


def _litellm_installed() -> bool:
    """Whether litellm can be imported, without importing it (seconds)."""
    if _litellm is not None:
        return True
    try:
        return importlib.util.find_spec("litellm") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["litellm"] is None
        return False


def _no_litellm() -> str:
    from libtext._wording import install_hint

    return f"AI providers other than 'offline' need litellm: {install_hint('llm')}."


def _load_litellm() -> Any:
    """Import litellm once, quietly, with the bundled cost map and httpx transport."""
    global _litellm
    if _litellm is None:
        with _import_lock:
            if _litellm is None:
                # The bundled cost map: no network fetch (and no 10 s stall offline).
                os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                try:
                    import litellm as module
                except ImportError:
                    raise ConfigurationError(_no_litellm()) from None

                litellm: Any = module
                # What litellm's first call would import on the event loop (seconds):
                # the OpenAI SDK's resources (its client for OpenAI-compatible APIs)
                # and httpx's connection layer.
                for name in _FIRST_CALL_IMPORTS:
                    with contextlib.suppress(ImportError):  # a piece this litellm lacks
                        importlib.import_module(name)
                # httpx transport, so respx and local fakes see the calls.
                litellm.disable_aiohttp_transport = True
                litellm.suppress_debug_info = True
                litellm.set_verbose = False
                litellm.turn_off_message_logging = True
                for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
                    logging.getLogger(name).setLevel(logging.WARNING)
                _litellm = litellm
    return _litellm


def _prefix(model: str) -> str:
    return model.split("/", 1)[0].lower() if "/" in model else ""


def _transport_failure(exc: BaseException) -> tuple[str, str, str] | None:
    """``(kind, reason, exception name)`` when the cause chain shows no HTTP answer came.

    ``kind`` is ``"timeout"`` or ``"connection"``; for a connection, ``reason`` is what
    the socket said (``"connection refused"``, ``"host name not found"``...). litellm
    reports a refused connection as an ``InternalServerError`` (500); the chain still
    holds the httpx and OS errors that tell what happened.
    """
    import httpx

    seen: set[int] = set()
    found: str | None = None
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        kind = type(cause).__name__
        if isinstance(cause, httpx.TimeoutException) or kind == "APITimeoutError":
            return "timeout", "timed out", kind
        if isinstance(cause, httpx.TransportError) or (
            found is None and kind == "APIConnectionError"
        ):
            found = kind  # the innermost httpx error names it best
        if found is not None:  # read on for the socket's own error
            reason = _socket_reason(cause)
            if reason is not None:
                return "connection", reason, found
        cause = cause.__cause__ or cause.__context__
    return ("connection", "connection failed", found) if found is not None else None


def _socket_reason(exc: BaseException) -> str | None:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.gaierror):
        return "host name not found"
    if isinstance(exc, ConnectionResetError):
        return "connection reset"
    if isinstance(exc, ssl.SSLError):
        return "TLS handshake failed"
    return None


def _retry_after(exc: BaseException) -> float | None:
    """Seconds from a ``Retry-After`` header of the answer that failed, if any.

    litellm's own exception holds a stand-in response without the headers; the cause
    chain holds the HTTP client's error (``openai``'s or ``httpx``'s), whose
    ``response.headers`` are the answer's.
    """
    headers = _failed_headers(exc)
    if not headers:
        return None
    try:
        raw = headers.get("retry-after-ms")
        if raw is not None:
            return max(float(raw) / 1000.0, 0.0)
        raw = headers.get("retry-after") or headers.get("Retry-After")
    except (AttributeError, TypeError, ValueError):
        return None
    return parse_retry_after(raw)


def _failed_headers(exc: BaseException) -> Any:
    """The first non-empty response headers along the exception's cause chain."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        for headers in (
            getattr(getattr(cause, "response", None), "headers", None),
            getattr(cause, "headers", None),
        ):
            if headers:
                return headers
        cause = cause.__cause__ or cause.__context__
    return None


class LiteLLMProvider:
    """A provider over litellm: any ``provider/model`` string litellm knows.

    Args:
        model: The litellm model string, e.g. ``"openai/gpt-4o-mini"``; also the
            provider's ``name``.
        api_key: The key; default the provider's environment variable (read now).
        api_base: A custom endpoint (OpenAI-compatible servers, proxies, local
            models); with one, no key is required.
        timeout: Seconds litellm waits for one HTTP answer (``run_structured``
            also enforces its own ``call_timeout``).
        options: Passed to ``litellm.acompletion`` (``{"temperature": 0}``,
            ``max_tokens``, ``mock_response``...).
        context_tokens: The model's context window, when litellm's model map and the
            server do not say (or say wrong).
        max_concurrency: Calls the server takes at once (``1`` for a one-slot local
            server); default what llama.cpp's ``/props`` reports, else no limit. The
            Outliner and the Translator queue their calls before the timed call, so a
            call's timeout counts only its own time.

    The context window (:attr:`max_input_tokens`) is ``context_tokens`` if given, else
    what the server at ``api_base`` reports (vLLM's ``max_model_len`` in ``/v1/models``,
    llama.cpp's ``n_ctx`` in ``/props``), else litellm's model map; a server that
    refuses a request as too long and names its window (``maximum context length is
    8192``) sets it for the calls after.

    The answer's form (``response_format``) is the model's JSON schema where litellm
    says the model takes one, else for a model litellm does not know at an ``api_base``
    ``{"type": "json_object", "schema": ...}`` (llama.cpp enforces it with a grammar),
    else JSON mode. A server that refuses the form gets the next one (then none: the
    prompt holds the schema), once per provider.

    Model options as keywords (``temperature=0``) still work until libtext 0.2, with a
    :class:`DeprecationWarning`; any other unknown keyword raises :class:`TypeError`.

    Raises:
        MissingAPIKeyError: No ``api_key`` and the environment variable is unset.
    """

    @strict_keywords(deprecated=LEGACY_MODEL_OPTIONS)
    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        api_base: str | None = None,
        timeout: float | None = None,
        options: dict[str, Any] | None = None,
        context_tokens: int | None = None,
        max_concurrency: int | None = None,
        **deprecated: Any,
    ) -> None:
        options = legacy_options("LiteLLMProvider", options, deprecated)
        for arg, value in (
            ("context_tokens", context_tokens),
            ("max_concurrency", max_concurrency),
        ):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ConfigurationError(f"LiteLLMProvider({arg}=...) must be a positive int.")
        self.context_tokens = context_tokens
        self.max_concurrency = max_concurrency
        self.model = model
        self.name = model
        self.api_base = api_base
        self.timeout = timeout
        self.options = options
        if not _litellm_installed():  # the extra first: a key alone would not do
            raise ConfigurationError(_no_litellm())
        prefix = _prefix(model)
        env_vars = KEY_ENV_VARS.get(prefix, ())
        if api_key is None:
            api_key = next((os.environ[v] for v in env_vars if os.environ.get(v)), None)
        needs_key = bool(env_vars) and api_base is None and prefix not in LOCAL_PREFIXES
        if api_key is None and needs_key and "mock_response" not in options:
            raise MissingAPIKeyError(model, env_vars[0])
        if api_key is None and api_base is not None:
            api_key = NO_KEY  # a server of one's own: the client still wants some key
        self._api_key = api_key
        # Looked up once per provider, not per call.
        self._formats: dict[type[BaseModel], list[Any]] = {}
        self._max_input_tokens: int | bool | None = False  # False: not looked up yet
        self._known = True  # whether litellm's model map knows the model

    def __repr__(self) -> str:
        # Never the key, nor credentials written into api_base.
        base = f", api_base={self._endpoint()!r}" if self.api_base else ""
        return f"LiteLLMProvider({self.model!r}{base})"

    @property
    def max_input_tokens(self) -> int | None:
        """The model's input context window; ``None`` if unknown.

        ``context_tokens`` if given, else the server's report (``api_base``), else
        litellm's model map. The first read imports litellm and may ask the server
        (seconds): in async code ``await warm_up()`` first, which does it in a worker
        thread.
        """
        if self._max_input_tokens is False:
            value: int | None = None
            try:
                info = _load_litellm().get_model_info(self.model)
                raw = info.get("max_input_tokens") or info.get("max_tokens")
                value = int(raw) if raw else None
            except Exception:  # unknown model: litellm raises a plain Exception
                value = None
                self._known = False
            if self.api_base:
                served = server_limits(self.api_base, self._api_key, self.model)
                value = served.context or value
                if self.max_concurrency is None and served.slots:
                    self.max_concurrency = served.slots
            self._max_input_tokens = value
        if self.context_tokens is not None:
            return self.context_tokens
        return self._max_input_tokens if isinstance(self._max_input_tokens, int) else None

    def _response_format(self, litellm: Any, model: type[BaseModel]) -> Any:
        """The first form of answer the model takes: schema, JSON mode + schema, JSON mode.

        Looked up once per response model, with litellm's documented capability
        checks, and moved down the list when a server refuses a form
        (:meth:`_refused_format`). Given the pydantic class, litellm builds the schema
        in the provider's own flavour on each call.
        """
        if model not in self._formats:
            forms: list[Any] = []
            try:
                if litellm.supports_response_schema(model=self.model):
                    forms.append(model)
                params = litellm.get_supported_openai_params(model=self.model) or []
                if "response_format" in params:
                    if self.api_base and not self._known:
                        schema = model.model_json_schema()
                        forms.append({"type": "json_object", "schema": schema})
                    forms.append({"type": "json_object"})
            except Exception:  # capability lookup must never break a call
                forms = []
            self._formats[model] = [*forms, None]
        fmt = self._formats[model][0]
        # litellm may adjust a dict it is given: each call gets its own copy.
        return copy.deepcopy(fmt) if isinstance(fmt, dict) else fmt

    def _refused_format(self, model: type[BaseModel], error: ProviderError) -> bool:
        """Whether ``error`` is a server refusing the answer form; if so, use the next."""
        forms = self._formats.get(model)
        if not forms or forms[0] is None or error.status_code not in (400, 415, 422, 500, 501):
            return False
        said = str(error.details.get("upstream_message", "")).lower()
        if not _FORMAT_WORDS.search(said):  # another failure: not the form's
            return False
        if error.details.get("reason") == "context_window":
            return False
        logger.info(
            "provider=%s refused response_format %s; trying the next form",
            self.model,
            _form_name(forms[0]),
        )
        forms.pop(0)
        return True

    async def warm_up(self) -> None:
        """Import litellm and look up the model in a worker thread, off the event loop.

        The import takes seconds, once per process; the lookup is what
        :attr:`max_input_tokens` returns. :func:`~libtext.providers.structured.run_structured`
        calls this before the timed call, so neither counts against ``call_timeout``,
        and the Outliner calls it before sizing windows.
        """
        if _litellm is None or self._max_input_tokens is False:
            await anyio.to_thread.run_sync(lambda: self.max_input_tokens)

    async def complete(self, request: ProviderRequest) -> ProviderResponse:
        """Ask the model once (no retries here: ``run_structured`` owns them)."""
        await self.warm_up()
        litellm = _load_litellm()
        options = {**self.options, **request.options}
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": request.messages,
            "num_retries": 0,
            "max_retries": 0,
        }
        if self.timeout is not None:
            kwargs["timeout"] = self.timeout
        if self._api_key is not None:
            kwargs["api_key"] = self._api_key
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
        chosen = "response_format" in options
        kwargs.update(options)
        while True:
            if not chosen:
                kwargs.pop("response_format", None)
                fmt = self._response_format(litellm, request.response_model)
                if fmt is not None:
                    kwargs["response_format"] = fmt
            try:
                response = await litellm.acompletion(**kwargs)
            except Exception as exc:
                error = self._map_error(litellm, exc)
                if not chosen and self._refused_format(request.response_model, error):
                    continue  # the same question in the next form the server may take
                learnt = error.details.get("context_tokens")
                if isinstance(learnt, int) and learnt > 0:
                    self._max_input_tokens = learnt  # what the server said in refusing
                raise error from None
            return self._to_response(litellm, response)

    def _to_response(self, litellm: Any, response: Any) -> ProviderResponse:
        try:
            content = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            content = None
        try:
            finish = response.choices[0].finish_reason
        except (AttributeError, IndexError, TypeError):
            finish = None
        if content is None:
            content = ""
        usage_obj = getattr(response, "usage", None)
        tokens_in = getattr(usage_obj, "prompt_tokens", None)
        tokens_out = getattr(usage_obj, "completion_tokens", None)
        cost: float | None = None
        hidden = getattr(response, "_hidden_params", None)
        try:
            # litellm prices every answer already (``response._hidden_params["response_cost"]``,
            # as its cost-tracking docs show); compute it again only if it did not.
            if isinstance(hidden, dict) and "response_cost" in hidden:
                raw_cost = hidden["response_cost"]
            else:
                raw_cost = litellm.completion_cost(completion_response=response)
            cost = float(raw_cost) if raw_cost else None
        except Exception:  # unknown price: cost stays unknown
            cost = None
        return ProviderResponse(
            content=content,
            usage=Usage(
                tokens_in=tokens_in if isinstance(tokens_in, int) else None,
                tokens_out=tokens_out if isinstance(tokens_out, int) else None,
                cost_usd=cost,
            ),
            model=str(getattr(response, "model", None) or self.model),
            finish_reason=finish if isinstance(finish, str) else None,
        )

    def _endpoint(self) -> str:
        """Where calls go, for messages: ``api_base`` without credentials or query, else
        the provider's name."""
        if not self.api_base:
            return f"provider {self.model!r}"
        try:
            parts = urlsplit(self.api_base)
            shown = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}"
        except ValueError:  # a malformed URL (unbalanced "[")
            shown = self.api_base.split("?", 1)[0].rpartition("@")[2]
        return redact(shown, self._api_key)

    def _map_error(self, litellm: Any, exc: Exception) -> ProviderError:
        """A libtext error for a litellm exception, with a message libtext writes.

        The cause chain comes first: a call that got no HTTP answer is a connection
        failure or a timeout whatever litellm named it. Otherwise litellm's exception
        class picks the error (:data:`_BY_EXCEPTION`), and then the HTTP status.
        """
        failure = _Failure.of(exc, self.model, self._api_key)
        answered = isinstance(exc, _classes(litellm, _ANSWERED))
        transport = None if answered else _transport_failure(exc)
        if transport is not None and transport[0] == "connection":
            return self._unreachable(failure, reason=transport[1], cause=transport[2])
        logger.info(
            "provider=%s litellm raised %s (status %s)",
            self.model,
            type(exc).__name__,
            failure.status,
        )
        if transport is not None:  # timed out before any answer
            return _timed_out(failure)
        for names, build in _BY_EXCEPTION:
            if isinstance(exc, _classes(litellm, names)):
                return build(failure)
        return _by_status(failure)

    def _unreachable(self, failure: _Failure, *, reason: str, cause: str) -> ProviderError:
        """No server answered at all (litellm may still call it InternalServerError, 500)."""
        name, where = failure.provider, self._endpoint()
        failure.details.update(exception=cause, reason=reason)
        logger.info(
            "provider=%s could not connect to %s: %s; check api_base / network",
            name,
            where,
            reason,
        )
        return ProviderError(
            f"Could not connect to {where}: {reason}; check api_base / network "
            f"(provider {name!r}).",
            provider=name,
            status_code=None,
            retryable=True,
            details=failure.details,
        )


# --- litellm's exceptions -> libtext errors ---------------------------------------------


@dataclass(frozen=True, slots=True)
class _Failure:
    """One failed call, as the error messages need it."""

    provider: str
    status: int | None
    details: dict[str, Any]
    exc: Exception

    @classmethod
    def of(cls, exc: Exception, provider: str, api_key: str | None) -> _Failure:
        status = getattr(exc, "status_code", None)
        upstream = redact(str(getattr(exc, "message", "") or exc), api_key)[:300]
        return cls(
            provider=provider,
            status=status if isinstance(status, int) else None,
            details={"exception": type(exc).__name__, "upstream_message": upstream},
            exc=exc,
        )


def _classes(litellm: Any, names: tuple[str, ...]) -> tuple[type, ...]:
    """litellm's exception classes of these names (all documented, exported at its top)."""
    return tuple(k for k in (getattr(litellm, n, None) for n in names) if k)


def _auth_rejected(f: _Failure) -> ProviderError:
    return ProviderAuthError(
        f"Provider {f.provider!r} rejected the API key ({f.status or 401}); check the key "
        "passed as api_key= or set in the provider's environment variable.",
        provider=f.provider,
        status_code=f.status or 401,
        details=f.details,
    )


def _rate_limited(f: _Failure) -> ProviderError:
    retry_after = _retry_after(f.exc)
    wait = f" (it asked to wait {retry_after:g}s)" if retry_after is not None else ""
    return RateLimitError(
        f"Provider {f.provider!r} is rate limiting requests{wait}; wait and try again, "
        "or lower the concurrency.",
        provider=f.provider,
        status_code=429,
        retry_after=retry_after,
        details=f.details,
    )


def _timed_out(f: _Failure) -> ProviderError:
    return ProviderTimeoutError(
        f"Provider {f.provider!r} did not answer in time; raise the timeout or try later.",
        provider=f.provider,
        status_code=None,
        details=f.details,
    )


def _unknown_model(f: _Failure) -> ProviderError:
    return ProviderError(
        f"Provider {f.provider!r} does not know this model (404); check the model name.",
        provider=f.provider,
        status_code=404,
        retryable=False,
        details=f.details,
    )


_CONTEXT_SAID = re.compile(
    r"(?:maximum context length is|context window of|context size \(?|n_ctx\D{0,4})\s*(\d{3,7})",
    re.IGNORECASE,
)


def _too_long(f: _Failure) -> ProviderError:
    f.details["reason"] = "context_window"  # the Outliner splits the window and asks again
    said = _CONTEXT_SAID.search(str(f.details.get("upstream_message", "")))
    if said is not None:  # the server named its window: later windows are sized to it
        f.details["context_tokens"] = int(said.group(1))
    return ProviderError(
        f"The input is too long for {f.provider!r}'s context window; use smaller windows "
        "or a model with a larger context.",
        provider=f.provider,
        status_code=f.status or 400,
        retryable=False,
        details=f.details,
    )


def _bad_request(f: _Failure) -> ProviderError:
    return ProviderError(
        f"Provider {f.provider!r} rejected the request ({f.status or 400}); check the model "
        "name and the options passed to it.",
        provider=f.provider,
        status_code=f.status or 400,
        retryable=False,
        details=f.details,
    )


def _no_connection(f: _Failure) -> ProviderError:
    return ProviderError(
        f"Could not connect to provider {f.provider!r}; check the network and api_base.",
        provider=f.provider,
        status_code=None,
        retryable=True,
        details=f.details,
    )


def _server_failed(f: _Failure) -> ProviderError:
    return ProviderError(
        f"Provider {f.provider!r} failed on its side ({f.status or 500}); try again later.",
        provider=f.provider,
        status_code=f.status or 500,
        retryable=True,
        details=f.details,
    )


def _by_status(f: _Failure) -> ProviderError:
    """An exception no entry of :data:`_BY_EXCEPTION` names: its HTTP status, if any."""
    if f.status is not None:
        return ProviderError(
            f"Provider {f.provider!r} answered with HTTP {f.status}.",
            provider=f.provider,
            status_code=f.status,
            retryable=f.status >= 500 or f.status == 408,
            details=f.details,
        )
    return ProviderError(
        f"Provider {f.provider!r} failed ({type(f.exc).__name__}); check the model name "
        "and options.",
        provider=f.provider,
        retryable=False,
        details=f.details,
    )


# Exceptions that mean the provider answered: their cause chain is not read for a
# transport failure.
_ANSWERED = ("AuthenticationError", "PermissionDeniedError", "RateLimitError")

# litellm's exception classes (by name: litellm is imported late) -> the libtext error.
# The first match wins: ContextWindowExceededError is a BadRequestError, so it comes first.
_BY_EXCEPTION: tuple[tuple[tuple[str, ...], Callable[[_Failure], ProviderError]], ...] = (
    (("AuthenticationError", "PermissionDeniedError"), _auth_rejected),
    (("RateLimitError",), _rate_limited),
    (("Timeout",), _timed_out),
    (("NotFoundError",), _unknown_model),
    (("ContextWindowExceededError",), _too_long),
    (("BadRequestError", "UnprocessableEntityError", "UnsupportedParamsError"), _bad_request),
    (("APIConnectionError",), _no_connection),
    (("ServiceUnavailableError", "InternalServerError", "BadGatewayError"), _server_failed),
)
