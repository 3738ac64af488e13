"""The provider layer: structured calls, retries, litellm mapping, FunctionProvider, registry.

All offline: litellm's ``mock_response``, FunctionProvider, or the fake
OpenAI-compatible server in ``tests/fake_llm.py`` on 127.0.0.1.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from pydantic import BaseModel
from tests.fake_llm import FakeLLMServer, FakeReply, error_body, ok

from libtext.errors import (
    ConfigurationError,
    MissingAPIKeyError,
    ProviderAuthError,
    ProviderError,
    ProviderOutputError,
    ProviderTimeoutError,
    RateLimitError,
)
from libtext.providers import (
    FunctionProvider,
    LiteLLMProvider,
    Provider,
    ProviderRequest,
    ProviderResponse,
    RetryPolicy,
    Usage,
    resolve_provider,
    run_structured,
)
from libtext.providers.llm import redact

SECRET = "sk-test-SECRET0123456789abcdefABCDEF"
FAST = RetryPolicy(max_attempts=3, base_delay=0.001, max_delay=0.01, call_timeout=5, deadline=30)


class Title(BaseModel):
    title: str
    pages: int


VALID = '{"title": "בראשית", "pages": 3}'


def request(**options: Any) -> ProviderRequest:
    return ProviderRequest(
        task="outline",
        messages=[{"role": "system", "content": "Answer JSON."}, {"role": "user", "content": "x"}],
        response_model=Title,
        options=options,
    )


def scripted(*answers: Any, name: str = "scripted") -> tuple[FunctionProvider, list[Any]]:
    """A provider answering ``answers`` in order (exceptions are raised); records requests."""
    seen: list[ProviderRequest] = []
    queue = list(answers)

    def fn(req: ProviderRequest) -> Any:
        seen.append(req)
        answer = queue.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    return FunctionProvider(fn, name=name), seen


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture
def fake(server: FakeLLMServer) -> FakeLLMServer:
    """The shared server, emptied for this test."""
    server.requests.clear()
    server._queue.clear()
    return server


def via(fake: FakeLLMServer, model: str = "openai/fake-model") -> LiteLLMProvider:
    return LiteLLMProvider(model, api_base=fake.url, api_key=SECRET)


# --- validation and the re-ask ---------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        VALID,
        f"```json\n{VALID}\n```",
        f"Here is the outline you asked for:\n{VALID}\nHope it helps!",
        {"title": "בראשית", "pages": 3},
        Title(title="בראשית", pages=3),
    ],
    ids=["json", "fenced", "prose", "dict", "model"],
)
async def test_content_forms_validate(content: Any) -> None:
    provider, seen = scripted(content)
    result = await run_structured(provider, request(), policy=FAST)
    assert result.value == Title(title="בראשית", pages=3)
    assert result.attempts == 1 and len(seen) == 1
    assert result.model == "scripted"


async def test_success_through_litellm_mock_response() -> None:
    provider = LiteLLMProvider(
        "openai/gpt-4o-mini", api_key=SECRET, options={"mock_response": VALID}
    )
    result = await run_structured(provider, request(), policy=FAST)
    assert result.value.title == "בראשית"
    assert result.attempts == 1
    assert result.usage.tokens_in and result.usage.tokens_out
    assert "gpt-4o-mini" in result.model


async def test_mock_response_in_request_options() -> None:
    provider = LiteLLMProvider("openai/gpt-4o-mini", api_key=SECRET)
    result = await run_structured(provider, request(mock_response=VALID), policy=FAST)
    assert result.value.pages == 3


async def test_invalid_json_then_valid_reasks_once(fake: FakeLLMServer) -> None:
    fake.queue(ok("I think the title is Bereshit."), ok(VALID))
    result = await run_structured(via(fake), request(), policy=FAST)
    assert result.value.pages == 3
    assert result.attempts == 2 and fake.count == 2
    # usage is summed over both answers (the fake reports 11 in / 7 out each)
    assert result.usage == Usage(tokens_in=22, tokens_out=14, cost_usd=None)
    first, second = (r.body["messages"] for r in fake.requests)
    assert second[: len(first)] == first
    assert second[len(first)] == {
        "role": "assistant",
        "content": "I think the title is Bereshit.",
    }
    assert second[-1]["role"] == "user" and "JSON" in second[-1]["content"]


async def test_schema_error_reask_quotes_the_location() -> None:
    provider, seen = scripted('{"title": "a", "pages": "many"}', VALID)
    result = await run_structured(provider, request(), policy=FAST)
    assert result.attempts == 2
    reask = seen[1].messages[-1]["content"]
    assert "pages" in reask and "Title" in reask
    assert seen[0].messages == request().messages  # the original request is not mutated


async def test_permanently_invalid_raises_output_error() -> None:
    bad = '{"title": "leaked model output", "pages": "many"}'
    provider, seen = scripted(bad, bad, VALID)
    with pytest.raises(ProviderOutputError) as info:
        await run_structured(provider, request(), policy=FAST)
    err = info.value
    assert len(seen) == 2  # one re-ask, no more
    assert "after a re-ask" in err.message and "Title" in err.message
    assert err.provider == "scripted"
    assert "pages" in err.details["error"]
    assert "leaked model output" not in repr(err.details) + err.message


async def test_output_error_is_not_retried() -> None:
    provider, seen = scripted(ProviderOutputError("bad", provider="p"), VALID)
    with pytest.raises(ProviderOutputError):
        await run_structured(provider, request(), policy=FAST)
    assert len(seen) == 1


# --- retries and timeouts through the fake server --------------------------------------


async def test_429_honours_retry_after_then_succeeds(fake: FakeLLMServer) -> None:
    fake.queue(FakeReply(status=429, headers={"Retry-After": "0.3"}), ok(VALID))
    result = await run_structured(via(fake), request(), policy=FAST)
    assert result.value.pages == 3
    assert result.attempts == 2 and fake.count == 2
    gap = fake.requests[1].time - fake.requests[0].time
    assert gap >= 0.3  # the backoff alone (max_delay 0.01 s) would be far shorter


async def test_429_exhausted_stays_rate_limit_error(fake: FakeLLMServer) -> None:
    fake.queue(*[FakeReply(status=429, headers={"Retry-After": "0.01"})] * 3)
    with pytest.raises(RateLimitError) as info:
        await run_structured(via(fake), request(), policy=FAST)
    assert fake.count == FAST.max_attempts
    assert info.value.status_code == 429
    assert info.value.retry_after == pytest.approx(0.01)


async def test_401_is_auth_error_without_retry(fake: FakeLLMServer) -> None:
    fake.queue(FakeReply(status=401), ok(VALID))
    with pytest.raises(ProviderAuthError) as info:
        await run_structured(via(fake), request(), policy=FAST)
    assert fake.count == 1
    assert info.value.status_code == 401
    assert "api_key" in info.value.message


@pytest.mark.parametrize("status", [400, 404])
async def test_client_errors_are_not_retried(fake: FakeLLMServer, status: int) -> None:
    fake.queue(FakeReply(status=status), ok(VALID))
    with pytest.raises(ProviderError) as info:
        await run_structured(via(fake), request(), policy=FAST)
    assert fake.count == 1
    assert info.value.status_code == status
    assert not isinstance(info.value, ProviderAuthError | RateLimitError)


async def test_500_exhausted_after_max_attempts(fake: FakeLLMServer) -> None:
    fake.queue(*[FakeReply(status=500)] * 5)
    with pytest.raises(ProviderError) as info:
        await run_structured(via(fake), request(), policy=FAST)
    assert fake.count == FAST.max_attempts
    assert type(info.value) is ProviderError
    assert info.value.status_code == 500 and info.value.retryable


async def test_503_then_success(fake: FakeLLMServer) -> None:
    fake.queue(FakeReply(status=503), ok(VALID))
    result = await run_structured(via(fake), request(), policy=FAST)
    assert result.attempts == 2 and fake.count == 2


async def test_per_call_timeout(fake: FakeLLMServer) -> None:
    fake.queue(FakeReply(delay=1.5, content=VALID), FakeReply(delay=1.5, content=VALID))
    policy = RetryPolicy(max_attempts=2, base_delay=0.001, call_timeout=0.2, deadline=10)
    with pytest.raises(ProviderTimeoutError) as info:
        await run_structured(via(fake), request(), policy=policy)
    assert fake.count == 2  # a timeout is retried
    assert "openai/fake-model" in info.value.message and "0.2" in info.value.message


async def test_connection_error_is_retried() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = LiteLLMProvider(
        "openai/fake-model", api_base=f"http://127.0.0.1:{port}/v1", api_key=SECRET
    )
    attempts = 0
    original = provider.complete

    async def counting(req: ProviderRequest) -> ProviderResponse:
        nonlocal attempts
        attempts += 1
        return await original(req)

    provider.complete = counting  # type: ignore[method-assign]
    with pytest.raises(ProviderError) as info:
        await run_structured(provider, request(), policy=FAST)
    assert attempts == FAST.max_attempts
    assert info.value.retryable and info.value.status_code in (None, 500)
    assert "connect" in info.value.message.lower()


@pytest.mark.parametrize("credentials", [False, True], ids=["plain", "credentials-in-url"])
async def test_refused_connection_is_reported_as_one(
    caplog: pytest.LogCaptureFixture, credentials: bool
) -> None:
    """A stopped server: no HTTP answer, so not "InternalServerError (status 500)"."""
    server = FakeLLMServer().start()
    port = server.port
    server.stop()  # nothing listens on the port any more
    where = f"http://127.0.0.1:{port}/v1"
    api_base = f"http://user:{SECRET}@127.0.0.1:{port}/v1?key={SECRET}" if credentials else where
    provider = LiteLLMProvider("openai/fake-model", api_base=api_base, api_key=SECRET)
    caplog.set_level(logging.INFO, logger="libtext")
    with pytest.raises(ProviderError) as info:
        await run_structured(provider, request(), policy=FAST)
    err = info.value
    assert type(err) is ProviderError and err.retryable and err.status_code is None
    assert f"could not connect to {where}: connection refused" in err.message.lower()
    assert "api_base" in err.message and "500" not in err.message
    assert err.details["reason"] == "connection refused"
    assert err.details["exception"] != "InternalServerError"
    ours = [r.getMessage() for r in caplog.records if r.name.startswith("libtext")]
    refused = [m for m in ours if f"could not connect to {where}: connection refused" in m]
    assert len(refused) == FAST.max_attempts  # logged, and retried, on every attempt
    assert not any("InternalServerError" in m or "status 500" in m for m in ours)
    everything = f"{err} {err.details!r} {provider!r} {caplog.text}"
    assert SECRET not in everything and SECRET[:12] not in everything


@pytest.mark.parametrize(
    ("cause", "reason"),
    [
        (ConnectionRefusedError(111, "Connect call failed"), "connection refused"),
        (socket.gaierror(-2, "Name or service not known"), "host name not found"),
        (ConnectionResetError(104, "reset by peer"), "connection reset"),
        (OSError("All connection attempts failed"), "connection failed"),
    ],
)
def test_connection_failures_name_their_reason(cause: OSError, reason: str) -> None:
    import httpx

    from libtext.providers.llm import _transport_failure

    try:
        try:
            raise cause
        except OSError as exc:
            raise httpx.ConnectError(str(exc)) from exc
    except httpx.ConnectError as outer:
        assert _transport_failure(outer) == ("connection", reason, "ConnectError")
    try:
        raise httpx.ConnectTimeout("slow")
    except httpx.ConnectTimeout as slow:
        assert _transport_failure(slow) == ("timeout", "timed out", "ConnectTimeout")


async def test_deadline_covers_retries() -> None:
    calls = 0

    async def slow(req: ProviderRequest) -> str:
        nonlocal calls
        calls += 1
        await anyio.sleep(0.15)
        raise ProviderError("down", provider="slow", status_code=503)

    policy = RetryPolicy(max_attempts=50, base_delay=0.001, max_delay=0.001, deadline=0.5)
    with pytest.raises(ProviderTimeoutError) as info:
        await run_structured(FunctionProvider(slow, name="slow"), request(), policy=policy)
    assert "deadline" in info.value.message
    assert 1 < calls < 50


async def test_retry_after_past_the_deadline_raises_rate_limit_at_once() -> None:
    provider, seen = scripted(
        RateLimitError("slow down", provider="p", retry_after=3600), VALID, name="p"
    )
    policy = RetryPolicy(max_attempts=4, deadline=60)
    with anyio.fail_after(10):  # it must not sleep an hour, nor until the deadline
        with pytest.raises(RateLimitError) as info:
            await run_structured(provider, request(), policy=policy)
    assert len(seen) == 1 and info.value.retry_after == 3600


async def test_auth_error_is_never_retried_even_with_5xx_status() -> None:
    provider, seen = scripted(ProviderAuthError("no", provider="p", status_code=503), VALID)
    with pytest.raises(ProviderAuthError):
        await run_structured(provider, request(), policy=FAST)
    assert len(seen) == 1


def test_retry_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)
    with pytest.raises(ValueError):
        RetryPolicy(call_timeout=0)


# --- litellm exception mapping ---------------------------------------------------------


async def test_mock_rate_limit_error_is_mapped() -> None:
    provider = LiteLLMProvider(
        "openai/gpt-4o-mini", api_key=SECRET, options={"mock_response": "litellm.RateLimitError"}
    )
    with pytest.raises(RateLimitError) as info:
        await run_structured(provider, request(), policy=FAST)
    assert info.value.provider == "openai/gpt-4o-mini"
    assert info.value.status_code == 429


async def test_response_format_follows_model_support(fake: FakeLLMServer) -> None:
    fake.queue(ok(VALID), ok(VALID))
    await run_structured(via(fake, "openai/gpt-4o-mini"), request(), policy=FAST)
    await run_structured(via(fake, "openai/some-local-model"), request(), policy=FAST)
    schema_fmt, json_fmt = (r.body.get("response_format") for r in fake.requests)
    assert schema_fmt["type"] == "json_schema"
    assert schema_fmt["json_schema"]["name"] == "Title"
    # litellm does not know the model at this api_base: JSON mode with the schema, which
    # a server such as llama.cpp's enforces with a grammar.
    assert json_fmt == {"type": "json_object", "schema": Title.model_json_schema()}
    assert all(r.body["model"] in ("gpt-4o-mini", "some-local-model") for r in fake.requests)


@pytest.mark.parametrize("model", ["openai/gpt-4o-mini", "openai/some-local-model"])
async def test_cached_response_format_sends_what_litellm_builds(
    fake: FakeLLMServer, model: str
) -> None:
    # The provider works out response_format once; litellm given the pydantic class
    # itself builds it on every call. The requests must not differ.
    import litellm

    provider = via(fake, model)
    fake.queue(ok(VALID), ok(VALID), ok(VALID))
    for _ in range(2):  # the second call uses the cached format
        await run_structured(provider, request(), policy=FAST)
    local = {"type": "json_object", "schema": Title.model_json_schema()}
    direct: Any = local if model.endswith("local-model") else Title
    await litellm.acompletion(
        model=model,
        messages=request().messages,
        response_format=direct,
        api_base=fake.url,
        api_key=SECRET,
    )
    first, second, reference = (r.body for r in fake.requests)
    assert first == second == reference
    assert "response_format" in reference


async def test_warm_up_looks_the_model_up_in_a_worker_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from libtext.providers import llm

    real = llm._load_litellm()
    threads: list[int] = []

    def load() -> Any:
        threads.append(threading.get_ident())
        return real

    monkeypatch.setattr(llm, "_load_litellm", load)
    provider = LiteLLMProvider("openai/gpt-4o-mini", api_key=SECRET)
    await provider.warm_up()
    assert threads and threading.get_ident() not in threads
    seen = len(threads)
    assert isinstance(provider.max_input_tokens, int)  # answered from the lookup
    await provider.warm_up()  # nothing left to do
    assert len(threads) == seen


def test_max_input_tokens() -> None:
    known = LiteLLMProvider("openai/gpt-4o-mini", api_key=SECRET)
    unknown = LiteLLMProvider("openai/no-such-model-xyz", api_key=SECRET)
    assert isinstance(known.max_input_tokens, int) and known.max_input_tokens > 1000
    assert unknown.max_input_tokens is None


# --- secrets ---------------------------------------------------------------------------


async def test_no_key_in_errors_or_logs(
    fake: FakeLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    echo = error_body(f"Incorrect API key provided: {SECRET}.", "invalid_request_error")
    fake.queue(FakeReply(status=401, body=echo))
    provider = via(fake)
    with pytest.raises(ProviderAuthError) as info:
        await run_structured(provider, request(), policy=FAST)
    err = info.value
    assert fake.requests[0].headers["Authorization"] == f"Bearer {SECRET}"  # it was sent
    everything = f"{err} {err.details!r} {provider!r} {caplog.text}"
    assert SECRET not in everything
    assert SECRET[:12] not in everything
    ours = " ".join(r.getMessage() for r in caplog.records if r.name.startswith("libtext"))
    assert "provider=openai/fake-model" in ours
    assert "Answer JSON." not in ours  # libtext never logs prompt text


def test_redact_masks_keylike_text() -> None:
    text = redact(f"key {SECRET} and Bearer abc.def and AIza{'x' * 30}", None)
    assert SECRET not in text and "abc.def" not in text and "AIza" not in text
    assert redact("a risk-assessment stays", None) == "a risk-assessment stays"
    assert redact("passed my-key-value here", "my-key-value") == "passed [redacted] here"


async def test_user_function_bug_becomes_provider_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    provider, seen = scripted(KeyError(f"boom {SECRET}"), VALID, name="mine")
    with pytest.raises(ProviderError) as info:
        await run_structured(provider, request(), policy=FAST)
    assert len(seen) == 1  # a bug is not retried
    assert "'mine'" in info.value.message and "KeyError" in info.value.message
    assert SECRET not in str(info.value) + caplog.text


# --- missing keys ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "env_var"),
    [
        ("openai/gpt-4o-mini", "OPENAI_API_KEY"),
        ("anthropic/claude-3-5-haiku-latest", "ANTHROPIC_API_KEY"),
        ("gemini/gemini-1.5-flash", "GEMINI_API_KEY"),
        ("groq/llama-3.1-8b-instant", "GROQ_API_KEY"),
    ],
)
def test_missing_key_names_env_var(
    monkeypatch: pytest.MonkeyPatch, model: str, env_var: str
) -> None:
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GEMINI_API_KEY",
                "GOOGLE_API_KEY", "GROQ_API_KEY"):  # fmt: skip
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(MissingAPIKeyError) as info:
        resolve_provider(model)
    assert info.value.env_var == env_var and env_var in info.value.message
    assert info.value.provider == model


def test_key_from_environment_is_read_at_construction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MISTRAL_API_KEY", SECRET)
    provider = LiteLLMProvider("mistral/mistral-small-latest")
    monkeypatch.delenv("MISTRAL_API_KEY")
    assert provider._api_key == SECRET
    assert SECRET not in repr(provider)


def test_local_models_and_api_base_need_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert LiteLLMProvider("ollama/llama3").name == "ollama/llama3"
    assert LiteLLMProvider("openai/local", api_base="http://127.0.0.1:1/v1").name == "openai/local"


def test_missing_key_fails_before_loading_litellm() -> None:
    code = (
        "import os, sys\n"
        "os.environ.pop('OPENAI_API_KEY', None)\n"
        "from libtext.errors import MissingAPIKeyError\n"
        "from libtext.providers import resolve_provider\n"
        "try:\n"
        "    resolve_provider('openai/gpt-4o-mini')\n"
        "except MissingAPIKeyError as exc:\n"
        "    print(exc.env_var, 'litellm' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["OPENAI_API_KEY", "False"]


def test_import_providers_does_not_import_litellm() -> None:
    code = (
        "import sys, libtext.providers\n"
        "from libtext.providers import LiteLLMProvider, FunctionProvider, run_structured\n"
        "LiteLLMProvider('openai/x', api_key='k')\n"
        "print('litellm' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- FunctionProvider ------------------------------------------------------------------


async def test_function_provider_sync_and_async() -> None:
    def sync_fn(req: ProviderRequest) -> dict[str, Any]:
        return {"title": req.messages[-1]["content"], "pages": 1}

    async def async_fn(req: ProviderRequest) -> Title:
        await anyio.sleep(0)
        return Title(title="async", pages=2)

    sync_result = await run_structured(FunctionProvider(sync_fn), request(), policy=FAST)
    async_result = await run_structured(
        FunctionProvider(async_fn, name="a"), request(), policy=FAST
    )
    assert sync_result.value == Title(title="x", pages=1)
    assert sync_result.model == "function"
    assert async_result.value == Title(title="async", pages=2)
    assert async_result.model == "a"


async def test_function_provider_passes_provider_response_through() -> None:
    answer = ProviderResponse(content=VALID, usage=Usage(tokens_in=5, tokens_out=2), model="m1")
    result = await run_structured(FunctionProvider(lambda r: answer), request(), policy=FAST)
    assert result.usage == Usage(tokens_in=5, tokens_out=2) and result.model == "m1"


async def test_function_provider_bad_return() -> None:
    provider = FunctionProvider(lambda r: 42, name="bad")
    with pytest.raises(ProviderError) as info:
        await provider.complete(request())
    assert "int" in info.value.message and "'bad'" in info.value.message
    assert not info.value.retryable


def test_function_provider_is_a_provider() -> None:
    assert isinstance(FunctionProvider(lambda r: "{}"), Provider)
    with pytest.raises(TypeError):
        FunctionProvider("not callable")  # type: ignore[arg-type]


# --- resolve_provider ------------------------------------------------------------------


def test_resolve_passes_instances_through() -> None:
    provider = FunctionProvider(lambda r: "{}")
    assert resolve_provider(provider) is provider


def test_resolve_litellm_spec() -> None:
    provider = resolve_provider("openai/gpt-4o-mini", api_key=SECRET, options={"temperature": 0})
    assert isinstance(provider, LiteLLMProvider)
    assert provider.name == "openai/gpt-4o-mini"
    assert provider.options == {"temperature": 0}


def test_resolve_offline() -> None:
    offline = pytest.importorskip("libtext.providers.offline")
    provider = resolve_provider("offline")
    assert isinstance(provider, offline.OfflineProvider)


@pytest.mark.parametrize("spec", ["", "   ", "gpt4", "offline-ish", "/model", "openai/"])
def test_resolve_rejects_garbage(spec: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        resolve_provider(spec)
    assert "provider/model" in info.value.message


def test_resolve_rejects_non_providers() -> None:
    with pytest.raises(ConfigurationError):
        resolve_provider(42)  # type: ignore[arg-type]


# --- docs ------------------------------------------------------------------------------


def test_docs_examples_run() -> None:
    """Every ```python block of docs/providers.md runs (``python skip`` blocks need keys)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "providers.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "docs/providers.md", "exec"), namespace)
    assert isinstance(namespace["retry"], RetryPolicy)
