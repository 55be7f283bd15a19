"""Section: the pages' latency under wrk, quiet and while 20 enquiries a second are sent."""

from __future__ import annotations

import itertools
import statistics
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

import httpx2 as httpx

from bench.context import BenchContext, progress
from bench.load import COUNTED_SCRIPT, WRK, WrkResult, run_wrk
from bench.report import SectionReport, Table, fixed, median, ratio, thousands
from harness.live_server import LiveServer, procfile_default_workers
from harness.mail_server import MailServer
from server.enquiries.guard import Guard

NAME = "enquiries"
TITLE = f"7. The pages under {WRK} while enquiries are sent (loopback)"
PAGES = ("/", "/projects", "/stones", "/stones/jerusalem-gold", "/fr/stones")
PER_SECOND = 20
SECRET = "the benchmark's own"  # noqa: S105 - a throwaway server's key
# Every enquiry of the run its own number, hence its own address.
_NUMBERS = itertools.count()


LOADS = {"quiet": None, "sending": False, "viewing and sending": True}  # load -> form viewed too


def run(context: BenchContext) -> SectionReport:
    seconds = 3.0 if context.quick else 10.0
    # The loads in turn, round after round, so a busy moment of the machine hits each alike.
    rounds = 1 if context.quick else 3
    workers = procfile_default_workers()
    folder = context.run_dir / NAME
    folder.mkdir(parents=True, exist_ok=True)
    guard = Guard(SECRET.encode(), min_seconds=3)
    runs: dict[str, list[tuple[WrkResult, _Sender]]] = {load: [] for load in LOADS}
    with MailServer() as mail:
        env = {
            "ENQUIRY_DATABASE": str(folder / "enquiries.sqlite3"),
            "ENQUIRY_SECRET": SECRET,
            "SMTP_URL": mail.url,
        }
        with LiveServer(env=env, workers=workers, log_path=folder / "server.log") as server:
            run_wrk(server.url, seconds=2, script=COUNTED_SCRIPT, script_args=["1000", *PAGES])
            for round_number, (load, with_form) in itertools.product(range(rounds), LOADS.items()):
                progress(f"{NAME}: round {round_number + 1}, pages, {load}, {seconds:g} s")
                sender = _Sender(server.url, guard, with_form=bool(with_form))
                if with_form is not None:
                    sender.start()
                pages = run_wrk(
                    server.url, seconds=seconds, script=COUNTED_SCRIPT, script_args=["1e9", *PAGES]
                )
                sender.stop()
                runs[load].append((pages, sender))
        stored = sum(s.statuses[303] for load in runs.values() for _, s in load)
        mailed = len(mail.wait_for(stored, timeout=60))
    quiet_p99 = median([pages.p99_ms for pages, _ in runs["quiet"]])
    rows = []
    for load, results in runs.items():
        p99 = median([pages.p99_ms for pages, _ in results])
        statuses = sum((sender.statuses for _, sender in results), Counter[int]())
        rows.append(
            [
                load,
                thousands(median([pages.requests_per_second for pages, _ in results])),
                fixed(median([pages.p50_ms for pages, _ in results]), 2),
                fixed(p99, 2),
                f"{ratio(p99, quiet_p99):.2f}x",
                fixed(median([sender.rate for _, sender in results]), 1),
                fixed(median([sender.p99_ms for _, sender in results]), 1),
                " ".join(f"{status}:{n}" for status, n in sorted(statuses.items())),
                thousands(sum(pages.errors for pages, _ in results)),
            ]
        )
    table = Table(
        title=TITLE,
        columns=[
            "enquiries",
            "pages req/s",
            "p50 ms",
            "p99 ms",
            "p99 ÷ quiet",
            "sent/s",
            "send p99 ms",
            "send statuses",
            "errors",
        ],
        rows=rows,
    )
    notes = [
        f"Pages: {', '.join(PAGES)} in turn, the Procfile's {workers} workers on the sample "
        "content, enquiries kept in SQLite and mailed to an SMTP server in the benchmark's "
        f"process (aiosmtpd). Median of {rounds} round(s) of {seconds:g} s per load, the "
        "loads in turn in each round.",
        f"sending: {PER_SECOND} enquiries a second, each from an address of its own, each a "
        "POST and the thank-you page it leads to; viewing and sending: the form's page "
        "(rendered for each visitor) before each POST as well. send p99: the whole of it.",
        f"Mail: {mailed} of the {stored} enquiries kept had reached the SMTP server within a "
        "minute of the last.",
    ]
    data = {
        load: [{"pages": asdict(pages), "sent": sender.figures()} for pages, sender in results]
        for load, results in runs.items()
    }
    return SectionReport(
        tables=[table], notes=notes, data={"runs": data, "stored": stored, "mailed": mailed}
    )


class _Sender:
    """PER_SECOND enquiries a second on a thread of its own, each on its own connection."""

    def __init__(self, url: str, guard: Guard, *, with_form: bool) -> None:
        self._url, self._guard, self._with_form = url, guard, with_form
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._send_all)
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.rate = 0.0

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def p99_ms(self) -> float:
        if len(self.latencies) < 2:
            return float("nan")
        return statistics.quantiles(self.latencies, n=100)[98] * 1000

    def figures(self) -> dict[str, Any]:
        statuses = {str(status): count for status, count in self.statuses.items()}
        return {"rate": self.rate, "p99_ms": self.p99_ms, "statuses": statuses}

    def _send_all(self) -> None:
        started = time.monotonic()
        # One client (its set-up costs the benchmark's CPU), no connection kept: each
        # enquiry comes on a new one, which either worker may take.
        no_keep_alive = httpx.Limits(max_keepalive_connections=0)
        with (
            httpx.Client(base_url=self._url, timeout=30, limits=no_keep_alive) as client,
            ThreadPoolExecutor(16) as pool,
        ):
            for index in itertools.count():
                due = started + index / PER_SECOND
                if self._stopping.wait(max(0.0, due - time.monotonic())):
                    break
                pool.submit(self._send, client, next(_NUMBERS))
        self.rate = sum(self.statuses.values()) / (time.monotonic() - started)

    def _send(self, client: httpx.Client, number: int) -> None:
        # A sender's address as the proxy reports it (the benchmarking range, RFC 2544): each
        # enquiry its own, so the rate limit refuses none.
        address = f"198.{18 + number // 65536 % 2}.{number // 256 % 256}.{number % 256}"
        form = {
            "token": self._guard.token(time.time() - 10),
            "name": f"Visitor {number}",
            "email": f"visitor{number}@example.com",
            "country": "FR",
            "stone": "jerusalem-gold",
            "message": "Bonjour, 120 m² en finition adoucie, s'il vous plaît.",
        }
        headers = {"x-forwarded-for": address, "accept-encoding": "gzip, deflate, br"}
        began = time.monotonic()
        if self._with_form:
            client.get("/fr/enquiry?stone=jerusalem-gold", headers=headers)
        sent = client.post("/fr/enquiry", data=form, headers=headers, follow_redirects=False)
        if sent.status_code == 303:
            client.get(sent.headers["location"], headers=headers)
        self.latencies.append(time.monotonic() - began)
        self.statuses[sent.status_code] += 1
