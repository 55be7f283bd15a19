"""Load from wrk (Debian): run it, read its figures."""

from __future__ import annotations

import math
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

THREADS = 2
CONNECTIONS = 50
WRK = f"wrk -t{THREADS} -c{CONNECTIONS}"  # as the reports name it

# Requests go round the paths; each thread stops after its share of answers (none
# with a limit of 0). wrk itself waits out its whole -d duration even when every
# thread has stopped, so each thread adds a byte to a file and run_wrk interrupts wrk.
COUNTED_SCRIPT = """\
local paths, limit, sent, answered = {}, 0, 0, 0

function init(args)
  limit = tonumber(args[1])
  for index = 2, #args do paths[#paths + 1] = args[index] end
end

function request()
  sent = sent + 1
  return wrk.format("GET", paths[(sent - 1) % #paths + 1])
end

function response()
  answered = answered + 1
  if answered == limit then
    local marker = io.open("done", "a")  -- a byte per thread
    marker:write("x")
    marker:close()
    wrk.thread:stop()
  end
end
"""

# wrk's figures on one line: requests, microseconds, p50 and p99 in microseconds, and
# errors (non-2xx/3xx responses, socket errors: connect, read, write, timeout).
REPORT_SCRIPT = """
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("figures %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99),
    e.status + e.connect + e.read + e.write + e.timeout))
end
"""


@dataclass(frozen=True, kw_only=True)
class WrkResult:
    requests: int
    seconds: float
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int  # non-2xx/3xx responses and socket errors
    command: str


def run_wrk(url: str, *, seconds: float, paths: Sequence[str] = (), limit: int = 0) -> WrkResult:
    """WRK's figures on `url`, or going round `paths` on its server; with a `limit` of answers,
    each thread stops after its share, and wrk is interrupted once every thread has."""
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as name:
        folder = Path(name)
        script = (COUNTED_SCRIPT if paths else "") + REPORT_SCRIPT
        (folder / "bench.lua").write_text(script, encoding="utf-8")
        argv = [*WRK.split(), f"-d{math.ceil(seconds)}s", "-s", "bench.lua", url, "--"]
        argv += [str(math.ceil(limit / THREADS)), *paths]
        # A few lines of output: the pipe never fills.
        process = subprocess.Popen(  # noqa: S603 - our own argv
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=folder
        )
        deadline, done = time.monotonic() + seconds + 120, folder / "done"
        while process.poll() is None:
            if done.exists() and done.stat().st_size == THREADS:
                process.send_signal(signal.SIGINT)  # wrk stops, then reports
            if time.monotonic() > deadline:
                process.kill()
            time.sleep(0.05)
        text = process.communicate()[0]
    figures = re.search(r"^figures (\d+) (\d+) (\d+) (\d+) (\d+)$", text, re.MULTILINE)
    if process.returncode != 0 or figures is None:
        raise RuntimeError(f"wrk exited with {process.returncode}:\n{text}")
    requests, microseconds, p50, p99, errors = map(int, figures.groups())
    return WrkResult(
        requests=requests,
        seconds=microseconds / 1e6,
        requests_per_second=requests / (microseconds / 1e6),
        p50_ms=p50 / 1e3,
        p99_ms=p99 / 1e3,
        errors=errors,
        command=" ".join(argv),
    )
