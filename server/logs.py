"""Log lines: readable text by default, one JSON object per line with LOG_FORMAT=json. One handler
on the root logger writes every line, whoever logs it; uvicorn's access log is off
(server/http/access_log.py writes a richer one)."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from server.settings import LogFormat


@dataclass
class RequestFacts:
    """What the request being handled did, as its access line tells it: noted by the code that
    did it (the content cache counts the reads it starts, a page says if its HTML was cached)."""

    id: str | None = None
    content_reads: int = 0
    html_cache: str | None = None  # a page's: "hit" or "miss"


# A context variable follows a request into the tasks it spawns, and never mixes two requests.
# Outside a request (start-up, tests) the facts go to a default nobody reads.
current_request: ContextVar[RequestFacts] = ContextVar("request", default=RequestFacts())  # noqa: B039


@contextmanager
def handling_request(request_id: str | None = None) -> Iterator[RequestFacts]:
    """The facts of the request whose code runs inside (the access-log middleware's)."""
    facts = RequestFacts(request_id)
    token = current_request.set(facts)
    try:
        yield facts
    finally:
        current_request.reset(token)


# Attributes every LogRecord has (color_message: uvicorn's ANSI copy); the others came from `extra`.
_BLANK_RECORD = logging.LogRecord("", logging.INFO, "", 0, "", None, None)
_RECORD_ATTRIBUTES = {*vars(_BLANK_RECORD), "message", "asctime", "taskName", "color_message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _RECORD_ATTRIBUTES and not key.startswith("_"):
                entry.setdefault(key, value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # default=str: an odd `extra` value must not cost the line.
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """The classic line, plus the request id when the line belongs to a request."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        request_id = getattr(record, "request_id", None)
        return f"{line} [request {request_id}]" if request_id else line


def _one_line_grpc_errors(record: logging.LogRecord) -> bool:
    """gRPC's line for a stream cut short, without its traceback: the listener's
    supervisor already reports the stream's end and recovers."""
    if record.name.startswith("grpc.") and record.exc_info and record.exc_info[1]:
        error = record.exc_info[1]
        record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
    return True


class SiteLogHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever sys.stderr is at the time (a test runner swaps it), and
    adds the id of the request being handled."""

    def emit(self, record: logging.LogRecord) -> None:
        request_id = current_request.get().id
        if request_id is not None and getattr(record, "request_id", None) is None:
            record.request_id = request_id
        self.stream = sys.stderr
        super().emit(record)


def configure_logging(*, level: str, log_format: LogFormat) -> None:
    """Route every logger through one handler; safe to call again (tests make many apps)."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, SiteLogHandler)]:
        root.removeHandler(handler)
    handler = SiteLogHandler()
    text = TextFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handler.setFormatter(JsonFormatter() if log_format is LogFormat.JSON else text)
    handler.addFilter(_one_line_grpc_errors)
    root.addHandler(handler)
    root.setLevel(level)
    # uvicorn configured its loggers before it called the app factory: its
    # error lines now go up to the root handler, its access lines nowhere
    # (with no handler at all, uvicorn skips formatting them).
    for name, propagate in (("uvicorn", True), ("uvicorn.error", True), ("uvicorn.access", False)):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = propagate
