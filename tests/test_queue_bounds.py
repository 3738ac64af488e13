"""The job queue is bounded (issue 27): by waiting jobs and by their PDFs' bytes.

Before, 60 queued 10 MB PDFs added 611 MB to the database in 3 s and nothing said no.
Now a submission past ``max_queued`` / ``max_queued_bytes`` raises ``QueueFullError``
(over HTTP: 503 ``queue_full`` with ``Retry-After``) and nothing is stored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlmodel")

from tests.test_jobs_http import (
    SAMPLE,
    app_for,
    client_for,
    library,  # noqa: F401 - a fixture
    pdf_upload,
    store,  # noqa: F401 - a fixture
)

from libtext.errors import ConfigurationError, QueueFullError
from libtext.jobs import JobQueue


def test_max_queued_refuses_the_next_job(tmp_path: Path) -> None:
    data = SAMPLE.read_bytes()
    with JobQueue(f"sqlite:///{tmp_path / 'q.db'}", max_queued=2) as queue:
        queue.submit(data)
        queue.submit(data)
        with pytest.raises(QueueFullError) as caught:
            queue.submit(data)
        assert caught.value.code == "queue_full" and caught.value.retry_after > 0
        assert caught.value.details["limit"] == "max_queued"
        assert len(queue.list()) == 2  # nothing stored for the refused one


def test_max_queued_bytes_counts_the_waiting_pdfs(tmp_path: Path) -> None:
    data = SAMPLE.read_bytes()
    with JobQueue(f"sqlite:///{tmp_path / 'q.db'}", max_queued_bytes=2 * len(data)) as queue:
        queue.submit(data)
        queue.submit(data)
        with pytest.raises(QueueFullError) as caught:
            queue.submit(data)
        assert caught.value.details["limit"] == "max_queued_bytes"
        queue.submit(work_id="100")  # a library work holds no PDF: it still fits


@pytest.mark.parametrize("bound", [0, -1, True, 2.5])
def test_bounds_are_checked(tmp_path: Path, bound: Any) -> None:
    with pytest.raises(ConfigurationError):
        JobQueue(f"sqlite:///{tmp_path / 'q.db'}", max_queued=bound)


async def test_queue_full_over_http_is_503_with_retry_after(store: Any, library: Any) -> None:  # noqa: F811
    async with client_for(app_for(store, library, max_queued_jobs=1)) as c:
        first = await c.post("/api/process?wait=false", files=pdf_upload())
        assert first.status_code == 202, first.text
        full = await c.post("/api/process?wait=false", files=pdf_upload())
        assert full.status_code == 503, full.text
        assert full.json()["error"]["code"] == "queue_full"
        assert int(full.headers["retry-after"]) >= 1
        assert (await c.get("/api/jobs")).json()["pagination"]["total"] == 1
        health = (await c.get("/api/health")).json()
        assert health["queue"]["queued"] == 1 and health["queue"]["max_queued"] == 1
        assert health["queue"]["queued_bytes"] == len(SAMPLE.read_bytes())
