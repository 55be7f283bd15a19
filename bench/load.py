"""Load from wrk (Debian): run it, read its summary and latency distribution."""

from __future__ import annotations

import math
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.prerequisites import command_path

# Each wrk thread stops after its share of answers, requests going round the
# paths. wrk itself waits out its whole -d duration even when every thread has
# stopped, so each thread leaves a file saying so and run_counted interrupts wrk.
COUNTED_SCRIPT = """\
local next_id = 1

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local paths = {}
local limit = 0
local folder = ""
local sent = 0
local answered = 0

function init(args)
  limit = tonumber(args[1])
  folder = args[2]
  for index = 3, #args do
    paths[#paths + 1] = args[index]
  end
end

function request()
  sent = sent + 1
  return wrk.format("GET", paths[(sent - 1) % #paths + 1])
end

function response(status, headers, body)
  answered = answered + 1
  if answered == limit then
    local marker = io.open(folder .. "/thread-" .. id .. ".done", "w")
    marker:close()
    wrk.thread:stop()
  end
end
"""

_TIME_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}
_SUMMARY = re.compile(r"(\d+) requests in ([\d.]+)(us|ms|s|m|h), ([\d.]+)(\w+) read")
_PERCENTILE = re.compile(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s|m|h)\s*$", re.MULTILINE)
_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")
# Non-2xx or 3xx responses, and socket errors (connect, read, write, timeout).
_ERRORS = re.compile(
    r"Non-2xx or 3xx responses: (\d+)|Socket errors: connect (\d+), read "
    r"(\d+), write (\d+), timeout (\d+)"
)


@dataclass(frozen=True, kw_only=True)
class WrkResult:
    requests: int
    seconds: float
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int  # non-2xx/3xx responses and socket errors
    command: str


def run_wrk(
    url: str,
    *,
    seconds: float,
    script: Path | None = None,
    script_args: Sequence[str] = (),
    stop_when: Callable[[], bool] | None = None,
) -> WrkResult:
    """wrk -t2 -c50's figures; `stop_when` is polled and, once true, wrk is interrupted."""
    wrk = command_path("wrk")
    if wrk is None:
        raise RuntimeError("wrk is not installed")
    argv = [wrk, "-t2", "-c50", f"-d{math.ceil(seconds)}s", "--latency"]
    if script is not None:
        argv += ["-s", str(script)]
    argv.append(url)
    if script_args:
        argv += ["--", *script_args]
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT)  # noqa: S603
        deadline = time.monotonic() + seconds + 120
        while process.poll() is None:
            if stop_when is not None and stop_when():
                process.send_signal(signal.SIGINT)  # wrk stops, then prints its report
                stop_when = None
            if time.monotonic() > deadline:
                process.kill()
            time.sleep(0.05)
        output.seek(0)
        text = output.read().decode(errors="replace")
    summary = _SUMMARY.search(text)
    rate = _RATE.search(text)
    if process.returncode != 0 or summary is None or rate is None:
        raise RuntimeError(f"wrk exited with {process.returncode}:\n{text}")
    latency = {
        match.group(1): float(match.group(2)) * _TIME_UNITS[match.group(3)]
        for match in _PERCENTILE.finditer(text)
    }
    return WrkResult(
        requests=int(summary.group(1)),
        seconds=float(summary.group(2)) * _TIME_UNITS[summary.group(3)] / 1e3,
        requests_per_second=float(rate.group(1)),
        p50_ms=latency.get("50", math.nan),
        p99_ms=latency.get("99", math.nan),
        errors=sum(int(n) for match in _ERRORS.finditer(text) for n in match.groups() if n),
        command=" ".join(argv),
    )


def run_counted(base_url: str, *, requests: int, paths: Sequence[str], script: Path) -> WrkResult:
    """About `requests` requests (each thread stops at its share; in-flight ones still land)."""
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(COUNTED_SCRIPT, encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as folder:
        markers = Path(folder)
        # The time limit only matters if the server stops answering.
        return run_wrk(
            base_url,
            seconds=max(60.0, requests / 20),
            script=script,
            script_args=[str(math.ceil(requests / 2)), folder, *paths],
            stop_when=lambda: len(list(markers.glob("*.done"))) == 2,  # wrk's two threads
        )
