"""The two PostgreSQL task queues that could carry libtext's jobs, measured on no-op tasks.

For procrastinate and pgqueuer, each on a fresh schema of ``LIBTEXT_TEST_POSTGRES_URL``:
the time to enqueue ``--jobs`` tasks one by one (as ``JobQueue.submit`` does), then
the time for one worker (concurrency 4) to run them all (the queue's own cost per job:
fetch, mark done), and the latency from enqueue to start of a single task on an idle
worker (LISTEN/NOTIFY against polling). The figures behind the choice in docs/jobs.md.

Usage: python benchmarks/queues.py [--jobs 300]
"""

from __future__ import annotations

import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_root = os.path.dirname(_here)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
sys.path.insert(0, _root)

import argparse  # noqa: E402
import asyncio  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from tests.jobs_pg import fresh_schema  # noqa: E402

from libtext.jobs._procrastinate import conninfo  # noqa: E402


async def procrastinate_run(info: str, jobs: int) -> tuple[float, float, float]:
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=info))
    done: list[float] = []
    target = asyncio.Event()

    @app.task(name="noop", queue="bench")
    async def noop(n: int) -> None:
        done.append(time.perf_counter())
        if len(done) >= want:
            target.set()

    async with app.open_async():
        await app.schema_manager.apply_schema_async()
        start = time.perf_counter()
        for n in range(jobs):
            await noop.defer_async(n=n)
        enqueue = time.perf_counter() - start
        want = jobs
        worker = asyncio.create_task(
            app.run_worker_async(queues=["bench"], concurrency=4, install_signal_handlers=False)
        )
        start = time.perf_counter()
        await target.wait()
        run = time.perf_counter() - start
        latencies = []
        for n in range(10):
            want, target = len(done) + 1, asyncio.Event()
            sent = time.perf_counter()
            await noop.defer_async(n=n)
            await target.wait()
            latencies.append(done[-1] - sent)
            await asyncio.sleep(0.05)
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
    return enqueue, run, statistics.median(latencies)


async def pgqueuer_run(info: str, jobs: int) -> tuple[float, float, float]:
    import psycopg
    from pgqueuer import PgQueuer
    from pgqueuer.db import PsycopgDriver
    from pgqueuer.queries import Queries

    conn = await psycopg.AsyncConnection.connect(info, autocommit=True)
    wconn = await psycopg.AsyncConnection.connect(info, autocommit=True)
    queries = Queries(PsycopgDriver(conn))
    await queries.install()
    done: list[float] = []
    state: dict[str, Any] = {"want": jobs, "target": asyncio.Event()}
    pgq = PgQueuer(PsycopgDriver(wconn))

    @pgq.entrypoint("noop", concurrency_limit=4)
    async def noop(job: Any) -> None:
        done.append(time.perf_counter())
        if len(done) >= state["want"]:
            state["target"].set()

    start = time.perf_counter()
    for n in range(jobs):
        await queries.enqueue("noop", str(n).encode(), 0)
    enqueue = time.perf_counter() - start
    worker = asyncio.create_task(pgq.run())
    start = time.perf_counter()
    await state["target"].wait()
    run = time.perf_counter() - start
    latencies = []
    for n in range(10):
        state["want"], state["target"] = len(done) + 1, asyncio.Event()
        sent = time.perf_counter()
        await queries.enqueue("noop", str(n).encode(), 0)
        await state["target"].wait()
        latencies.append(done[-1] - sent)
        await asyncio.sleep(0.05)
    pgq.shutdown.set()
    await asyncio.wait_for(asyncio.gather(worker, return_exceptions=True), 30)
    await conn.close()
    await wconn.close()
    return enqueue, run, statistics.median(latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=300)
    args = parser.parse_args()
    print(f"{args.jobs} no-op tasks, load average {os.getloadavg()[0]:.1f}")
    for name, fn in (("procrastinate", procrastinate_run), ("pgqueuer", pgqueuer_run)):
        with fresh_schema("LIBTEXT_TEST_POSTGRES_URL") as url:
            enqueue, run, latency = asyncio.run(fn(conninfo(url), args.jobs))
        print(
            f"{name:14s} enqueue {enqueue / args.jobs * 1000:6.2f} ms/job, "
            f"run {run / args.jobs * 1000:6.2f} ms/job, idle start latency {latency * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
