"""A job worker process for tests and benchmarks: ``python -m tests.jobs_worker URL LEASE LLM``.

It is ``libtext worker`` (the same loop and signal handling) with one provider more,
``"fake"``: a :class:`~libtext.FunctionProvider` that sends each request to the fake
OpenAI-compatible server at ``LLM`` over HTTP, as litellm would, without litellm's
seconds of import in every worker.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import httpx

from libtext.cli.worker_cmd import run_until_signalled
from libtext.jobs import JobQueue
from libtext.providers.base import ProviderRequest
from libtext.providers.function import FunctionProvider

__all__ = ["http_provider"]


def http_provider(base_url: str) -> FunctionProvider:
    """A provider answering through the fake server's ``/chat/completions``."""
    client: dict[str, httpx.AsyncClient] = {}

    async def ask(request: ProviderRequest) -> str:
        if "c" not in client:
            client["c"] = httpx.AsyncClient(base_url=base_url, timeout=120)
        body: dict[str, Any] = {"model": "fake-model", "messages": request.messages}
        body.update(request.options)
        reply = await client["c"].post("/chat/completions", json=body)
        reply.raise_for_status()
        return str(reply.json()["choices"][0]["message"]["content"])

    return FunctionProvider(ask, name="fake/http")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    url, lease, llm = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    concurrency = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    with JobQueue(url, lease=lease) as queue:
        run_until_signalled(queue, concurrency, {"fake": http_provider(llm)})


if __name__ == "__main__":
    main()
