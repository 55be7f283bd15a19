"""Section: the pages' latency under wrk, quiet and while 20 enquiries a second are sent."""

from __future__ import annotations

import itertools
import math
import statistics
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx

from bench.load import WRK, run_wrk
from bench.section import BenchContext, SectionReport, Table, fixed, median, progress, times
from harness.live_server import LiveServer, procfile_default_workers
from harness.mail_server import MailServer
from server.enquiries.guard import Guard
from server.site.languages import LOCALES
from server.site.pages import ENQUIRY_PAGES, LANDING, PROJECTS, STONES, ItemPage

NAME = "enquiries"
TITLE = f"7. The pages under {WRK} while enquiries are sent (loopback)"
FRENCH = next(locale for locale in LOCALES if locale.code == "fr")
PAGES = (
    *(page.path for page in (LANDING, PROJECTS, STONES, ItemPage(STONES, "jerusalem-gold"))),
    STONES.in_locale(FRENCH).path,
)
FORM = next(page.path for page in ENQUIRY_PAGES if page.locale is FRENCH)
PER_SECOND = 20
GUARD = Guard(b"the benchmark's own", min_seconds=3)
_NUMBERS = itertools.count()  # each enquiry's, hence its own address: no rate limit


def run(context: BenchContext) -> SectionReport:
    seconds, rounds = (3.0, 1) if context.quick else (10.0, 3)
    runs: dict[str, list[dict[str, Any]]] = {"quiet": [], "sending": []}
    with (
        MailServer() as mail,
        LiveServer(
            env={
                "ENQUIRY_DATABASE": str(context.logs / "enquiries.sqlite3"),
                "ENQUIRY_SECRET": GUARD.secret.decode(),
                "SMTP_URL": mail.url,
            },
            workers=procfile_default_workers(),
            log_path=context.logs / "server.log",
        ) as server,
    ):
        run_wrk(server.url, seconds=2, paths=PAGES, limit=2000)
        # The loads in turn, round after round: a busy moment of the machine hits both alike.
        for _round, load in itertools.product(range(rounds), runs):
            progress(f"{NAME}: pages, {load}, {seconds:g} s")
            stop, sent, latencies = threading.Event(), Counter[int](), list[float]()
            sender = threading.Thread(target=_send, args=(server.url, stop, sent, latencies))
            if load == "sending":
                sender.start()
            pages = run_wrk(server.url, seconds=seconds, paths=PAGES)
            stop.set()
            if load == "sending":
                sender.join()
            p99 = statistics.quantiles(latencies, n=100)[98] * 1000 if latencies[1:] else math.nan
            rate = sum(sent.values()) / seconds
            runs[load].append(
                {"pages": pages, "sent": dict(sent), "send_p99_ms": p99, "rate": rate}
            )
        stored = sum(run["sent"].get(303, 0) for run in runs["sending"])
        mailed = len(mail.wait_for(stored, timeout=60))
    quiet_p99 = median([run["pages"].p99_ms for run in runs["quiet"]])
    rows = []
    for load, results in runs.items():
        wrk_results = [run["pages"] for run in results]
        p99 = median([page.p99_ms for page in wrk_results])
        statuses = sum((Counter(run["sent"]) for run in results), Counter[int]())
        rows.append(
            {
                "enquiries": load,
                "pages req/s": fixed(median([page.requests_per_second for page in wrk_results])),
                "p50 ms": fixed(median([page.p50_ms for page in wrk_results]), 2),
                "p99 ms": fixed(p99, 2),
                "p99 ÷ quiet": times(p99, quiet_p99),
                "sent/s": fixed(median([run["rate"] for run in results]), 1),
                "send p99 ms": fixed(median([run["send_p99_ms"] for run in results]), 1),
                "send statuses": " ".join(f"{code}:{n}" for code, n in sorted(statuses.items())),
                "errors": fixed(sum(page.errors for page in wrk_results)),
            }
        )
    notes = [
        f"Pages: {', '.join(PAGES)} in turn; the Procfile's server on the sample content, "
        "enquiries kept in SQLite and mailed to an SMTP server in the benchmark's process "
        f"(aiosmtpd). Median of {rounds} round(s), {seconds:g} s per load.",
        f"sending: {PER_SECOND} enquiries a second, each from an address of its own, each a "
        "POST and the thank-you page it leads to (send p99: both).",
        f"Mail: {mailed} of the {stored} enquiries kept reached the SMTP server.",
    ]
    data = {
        load: [run | {"pages": vars(run["pages"])} for run in results]
        for load, results in runs.items()
    }
    return SectionReport(tables=[Table(title=TITLE, rows=rows)], notes=notes, data=data)


def _send(url: str, stop: threading.Event, sent: Counter[int], latencies: list[float]) -> None:
    """PER_SECOND enquiries a second until `stop`, each on a new connection (either worker's)."""
    started = time.monotonic()
    no_keep_alive = httpx.Limits(max_keepalive_connections=0)
    with (
        httpx.Client(base_url=url, timeout=30, limits=no_keep_alive) as client,
        ThreadPoolExecutor(16) as pool,
    ):
        for index in itertools.count():
            if stop.wait(max(0.0, started + index / PER_SECOND - time.monotonic())):
                return
            pool.submit(_enquiry, client, next(_NUMBERS), sent, latencies)


def _enquiry(client: httpx.Client, number: int, sent: Counter[int], latencies: list[float]) -> None:
    # The sender's address as the proxy reports it, in the benchmarking range (RFC 2544).
    headers = {
        "x-forwarded-for": f"198.{18 + number // 65536 % 2}.{number // 256 % 256}.{number % 256}"
    }
    form = {
        "token": GUARD.token(time.time() - 10),
        "name": f"Visitor {number}",
        "email": f"visitor{number}@example.com",
        "country": "FR",
        "stone": "jerusalem-gold",
        "message": "Bonjour, 120 m² en finition adoucie, s'il vous plaît.",
    }
    began = time.monotonic()
    answer = client.post(FORM, data=form, headers=headers, follow_redirects=False)
    if answer.status_code == 303:
        client.get(answer.headers["location"], headers=headers | {"accept-encoding": "br"})
    latencies.append(time.monotonic() - began)
    sent[answer.status_code] += 1
