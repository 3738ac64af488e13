"""Durable jobs: worker scaling, the queue's own cost per job, recovery after a worker dies.

A fake OpenAI-compatible server (``tests/fake_llm.py``) answers every call after
``--delay`` seconds (the fake model of ``tests/jobs_fake.py``: an outline per chapter
heading, six-word phrases); every job is ``examples/sample.pdf`` with its own model
options (``{"seed": n}``), so no job reads another's answers from the provider cache.
Workers are processes (``tests/jobs_worker.py``: ``libtext worker`` with a provider
that calls the fake server over HTTP). In the same run:

1. Throughput with 1, 2 and 4 worker processes: each warms up on one job per worker
   (the first job of a process pays imports and data loading), then ``--jobs`` jobs
   are submitted at once and timed until the last ends. Prints jobs/s and the ratio
   to 1 worker (goal >= 0.8 x N). A job's calls wait on the fake model, not on CPU,
   as with a real one; on a 2-core machine shared with other work, the CPU each job
   still needs (extraction, alignment) is what stops the ratio from reaching N.
2. The queue's overhead per job: ``--jobs`` jobs run one after another in this
   process, by direct ``aprocess_document`` + ``TextStore.asave`` calls and through
   ``JobQueue`` (submitting them included; one worker in this process, started and
   warmed up before), interleaved in 3 rounds; prints the median per job of each and
   the difference (goal <= 50 ms).
3. Recovery: a job whose calls hang is taken by one of 2 workers, which is killed
   with SIGKILL; prints the seconds until another worker runs the job again
   (goal <= 30 s with the default lease; ``--lease`` sets it).

``--store URL`` runs on that database (a PostgreSQL URL uses the procrastinate
queue); default a SQLite file in a temporary folder. ``--postgres`` makes a fresh
schema on ``LIBTEXT_TEST_POSTGRES_URL``.

Usage: python benchmarks/jobs.py [--delay 1.0] [--jobs 8] [--lease 15] [--store URL | --postgres]
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py would shadow the standard library's ``http`` (used by the fake
# server): keep this folder off sys.path, and put the repository root on it.
_here = os.path.dirname(os.path.abspath(__file__))
_root = os.path.dirname(_here)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
sys.path.insert(0, _root)

import argparse  # noqa: E402
import contextlib  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import anyio  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from tests.fake_llm import FakeLLMServer  # noqa: E402
from tests.jobs_fake import fake_model, kind_of  # noqa: E402
from tests.jobs_worker import http_provider  # noqa: E402

from libtext.jobs import DEFAULT_LEASE, JobQueue  # noqa: E402
from libtext.jobs._tables import JOBS  # noqa: E402

ROOT = Path(_root)
SAMPLE = ROOT / "examples" / "sample.pdf"
_seed = iter(range(10**9))


def seed() -> dict[str, int]:
    return {"seed": next(_seed)}


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


@contextlib.contextmanager
def workers(url: str, llm: str, n: int, lease: float, logs: Path) -> Iterator[list[Any]]:
    procs = []
    for k in range(n):
        out = (logs / f"worker{k}.log").open("ab")
        args = [sys.executable, "-m", "tests.jobs_worker", url, str(lease), llm]
        procs.append(subprocess.Popen(args, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT))
    try:
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()


def run_all(queue: JobQueue, count: int) -> float:
    """Submit ``count`` jobs at once; seconds until the last one ends (all must succeed)."""
    start = time.perf_counter()
    ids = [queue.submit(pdf=SAMPLE, provider="fake", options=seed()).id for _ in range(count)]
    pending = set(ids)
    while pending:
        time.sleep(0.05)
        for job_id in list(pending):
            job = queue.get(job_id)
            if job.state.final:
                if job.state.value != "succeeded":
                    raise SystemExit(f"job {job_id} ended {job.state.value}: {job.error}")
                pending.discard(job_id)
    return time.perf_counter() - start


def scaling(url: str, llm: str, jobs: int, lease: float, logs: Path) -> None:
    print(f"\n1. throughput, {jobs} jobs per run ({load()})")
    base = None
    with JobQueue(url) as queue:
        for n in (1, 2, 4):
            with workers(url, llm, n, lease, logs):
                run_all(queue, n)  # warm-up: one job per worker (imports, data)
                took = run_all(queue, jobs)
            rate = jobs / took
            base = base or rate
            print(
                f"   {n} worker(s): {took:6.1f} s, {rate:5.2f} jobs/s, "
                f"x{rate / base:4.2f} of 1 worker (goal >= {0.8 * n:.1f})"
            )


async def overhead(url: str, llm: str, jobs: int) -> None:
    from libtext.outline import Outliner
    from libtext.process import aprocess_document
    from libtext.providers._cache import ProviderCache, default_cache_path
    from libtext.translate import Translator

    print(f"\n2. queue overhead per job, {jobs} jobs in a row, 3 rounds ({load()})")
    provider = http_provider(llm)
    direct: list[float] = []
    queued: list[float] = []
    async with JobQueue(url) as queue:
        store = queue.store
        cache = ProviderCache(default_cache_path(store.url))

        async def one_direct() -> None:
            opts = seed()
            document = await aprocess_document(
                SAMPLE.read_bytes(),
                # As a job: its options in the outline's cache key (and, through the
                # worker, in its requests), so no job reuses another's outline.
                outliner=Outliner(provider=provider, options=opts),
                translator=Translator(provider=provider, options=opts),
                cache=cache,
            )
            await store.asave(document)

        await one_direct()  # warm-up
        stop = anyio.Event()
        async with anyio.create_task_group() as tg:
            # One worker in this process, started (and warmed up) before the timing: a
            # worker starts once and runs many jobs; submitting them is timed.
            tg.start_soon(partial(queue.awork, 1, stop, providers={"fake": provider}))
            warm = await queue.asubmit(pdf=SAMPLE, provider="fake", options=seed())
            while not (await queue.aget(warm.id)).state.final:
                await anyio.sleep(0.05)
            for _ in range(3):
                start = time.perf_counter()
                for _ in range(jobs):
                    await one_direct()
                direct.append((time.perf_counter() - start) / jobs)

                start = time.perf_counter()
                ids = [
                    (await queue.asubmit(pdf=SAMPLE, provider="fake", options=seed())).id
                    for _ in range(jobs)
                ]
                # One worker takes them oldest first: the last one's end is the run's.
                while not (await queue.aget(ids[-1])).state.final:
                    await anyio.sleep(0.05)
                queued.append((time.perf_counter() - start) / jobs)
                for job_id in ids:  # a job that failed fast would flatter the figure
                    job = await queue.aget(job_id)
                    if job.state.value != "succeeded":
                        raise SystemExit(f"job {job_id} ended {job.state.value}: {job.error}")
            stop.set()
        cache.close()
    d, q = statistics.median(direct), statistics.median(queued)
    print(f"   direct process_document + save: {d * 1000:7.1f} ms/job")
    print(f"   through JobQueue (submit + run):  {q * 1000:7.1f} ms/job")
    print(
        f"   overhead: {(q - d) * 1000:+.1f} ms/job (goal <= 50 ms); rounds: "
        f"direct {[round(x * 1000) for x in direct]}, queued {[round(x * 1000) for x in queued]}"
    )


def recovery(url: str, server: FakeLLMServer, lease: float, logs: Path) -> None:
    print(f"\n3. recovery after SIGKILL, lease {lease:g} s ({load()})")
    hang = {"seed": -1}
    # The job's translations hang (its outline, which carries its options too, does not):
    # the kill finds it in the "translate" stage.
    server.responder = fake_model(
        delay=server_delay,
        slow=lambda body: body.get("seed") == -1 and kind_of(body) == "translate",
        slow_delay=3600,
    )
    with JobQueue(url, lease=lease) as queue, workers(url, server.url, 2, lease, logs) as procs:
        job = queue.submit(pdf=SAMPLE, provider="fake", options=hang)
        owner = None
        while owner is None:
            time.sleep(0.05)
            with queue.store.engine.connect() as conn:
                owner = conn.execute(sa.select(JOBS.c.owner).where(JOBS.c.id == job.id)).scalar()
        deadline = time.monotonic() + 120
        while queue.get(job.id).progress.stage != "translate":
            if time.monotonic() > deadline:
                raise SystemExit(f"the job never reached its translations: {queue.get(job.id)}")
            time.sleep(0.05)
        pid = int(owner.split(":")[1])
        assert pid in {p.pid for p in procs}
        os.kill(pid, signal.SIGKILL)
        killed = time.perf_counter()
        while queue.get(job.id).attempts < 2:
            time.sleep(0.05)
        took = time.perf_counter() - killed
        queue.cancel(job.id)
    print(f"   running again after {took:.1f} s (goal <= 30 s)")


server_delay = 1.0


def main() -> None:
    global server_delay
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--delay", type=float, default=1.0, help="seconds per fake call")
    parser.add_argument("--jobs", type=int, default=8, help="jobs per timed run")
    parser.add_argument("--lease", type=float, default=DEFAULT_LEASE)
    parser.add_argument("--store", default=None, help="database URL (default: a SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="a fresh schema on PostgreSQL")
    parser.add_argument("--skip", default="", help="parts to skip, e.g. '1,3'")
    args = parser.parse_args()
    server_delay = args.delay
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        os.environ["LIBTEXT_CACHE_DIR"] = str(tmp / "cache")
        if args.postgres:
            from tests.jobs_pg import fresh_schema

            url = stack.enter_context(fresh_schema("LIBTEXT_TEST_POSTGRES_URL"))
        else:
            url = args.store or f"sqlite:///{tmp / 'jobs.db'}"
        server = stack.enter_context(FakeLLMServer(fake_model(delay=args.delay)))
        backend = "procrastinate (PostgreSQL)" if url.startswith("postgresql") else "embedded"
        print(
            f"jobs benchmark: {backend} queue, fake model {args.delay:g} s per call, cores "
            f"{os.cpu_count()}, {load()}"
        )
        skip = set(args.skip.split(","))
        if "1" not in skip:
            scaling(url, server.url, args.jobs, args.lease, tmp)
        if "2" not in skip:
            anyio.run(overhead, url, server.url, args.jobs)
        if "3" not in skip:
            recovery(url, server, args.lease, tmp)
        print(f"\n({load()})")


if __name__ == "__main__":
    main()
