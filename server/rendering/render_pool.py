"""A pool of embedded V8 contexts (mini-racer) that render the React tree to HTML."""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from pathlib import Path

import anyio
from py_mini_racer import JSEvalException, JSTimeoutException, MiniRacer, init_mini_racer

logger = logging.getLogger(__name__)

SERVER_BUNDLE = Path("server") / "render.js"
RENDER_FUNCTION = "renderPage"
# V8's set-up, once, on the thread that imports this module, before any worker thread makes a
# context: on CPUs with memory protection keys, the only safe order (docs/operating.md).
init_mini_racer(ignore_duplicate_init=True)
COLLECT_HEAP_BYTES = 16 * 1024 * 1024  # past this after a render: collected before the next

WarmUp = tuple[str, str]  # (url, page data JSON), rendered on each new context before it serves


class RenderError(Exception):
    """The React render threw or ran past its time limit."""


class RenderPool:
    """`size` V8 contexts, each checked out for one render at a time (mini-racer's are
    not thread-safe), rendering in worker threads while the event loop serves."""

    def __init__(
        self, bundle_source: str, *, size: int, warm_up: WarmUp, timeout_seconds: float
    ) -> None:
        self.size = size  # the number of contexts the pool is meant to hold
        self._bundle_source = bundle_source
        self._warm_up = warm_up
        self._timeout = timeout_seconds
        self._idle: asyncio.Queue[MiniRacer] = asyncio.Queue()
        # Created and warmed, idle or rendering; one being replaced is not counted.
        self.contexts: list[MiniRacer] = []
        # Collections and replacements of contexts, after the render that asked.
        self._background: set[asyncio.Task[None]] = set()

    @classmethod
    async def start(
        cls, bundles_dir: Path, *, size: int, timeout_seconds: float, warm_up: WarmUp
    ) -> RenderPool:
        source = (bundles_dir / SERVER_BUNDLE).read_text(encoding="utf-8")
        pool = cls(source, size=size, warm_up=warm_up, timeout_seconds=timeout_seconds)
        started = time.perf_counter()
        for _ in range(size):
            context = await anyio.to_thread.run_sync(pool._new_context)
            pool.contexts.append(context)
            pool._idle.put_nowait(context)
        elapsed_ms = (time.perf_counter() - started) * 1000
        logger.info("Render pool ready: %d V8 contexts in %.0f ms", size, elapsed_ms)
        return pool

    def _new_context(self) -> MiniRacer:
        context = MiniRacer()
        context.eval(self._bundle_source)
        # The first render compiles React's hot paths; do it before a visitor waits.
        url, page_data_json = self._warm_up
        context.call(RENDER_FUNCTION, url, page_data_json, timeout_sec=10)
        return context

    async def render(self, url: str, page_data_json: str) -> str:
        context = await self._idle.get()
        healthy = True
        heap_bytes = 0
        try:
            html, heap_bytes = await anyio.to_thread.run_sync(
                self._call, context, url, page_data_json
            )
            return html
        except RenderError as error:
            healthy = False
            raise RenderError(f"render of {url} failed: {error}") from error
        finally:
            if healthy and heap_bytes <= COLLECT_HEAP_BYTES:
                self._idle.put_nowait(context)
            else:
                if not healthy:
                    # A context that threw or was stopped mid-render may hold
                    # broken state: replace it. It stops counting as alive now,
                    # not when the task gets to run.
                    self.contexts.remove(context)
                # In the background, after the response: the context waits, not the visitor.
                work = self._collect(context) if healthy else self._replace(context)
                task = asyncio.get_running_loop().create_task(work)
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    async def _replace(self, broken: MiniRacer) -> None:
        await anyio.to_thread.run_sync(_close_after_termination, broken)
        fresh = await anyio.to_thread.run_sync(self._new_context)
        self.contexts.append(fresh)
        self._idle.put_nowait(fresh)
        logger.info("Replaced a V8 context after a failed render")

    async def _collect(self, context: MiniRacer) -> None:
        try:
            await anyio.to_thread.run_sync(context.low_memory_notification)
        finally:
            self._idle.put_nowait(context)

    def _call(self, context: MiniRacer, url: str, page_data_json: str) -> tuple[str, int]:
        """The page's HTML, and the V8 heap's size after rendering it."""
        try:
            html = context.call(RENDER_FUNCTION, url, page_data_json, timeout_sec=self._timeout)
        except JSTimeoutException as error:
            raise RenderError(f"no result within {self._timeout:g} s") from error
        except JSEvalException as error:
            # V8's message without the (minified, very long) source line it quotes.
            lines = [line for line in str(error).splitlines() if line.strip() and len(line) < 300]
            raise RenderError(" | ".join(lines[:8])) from None
        if not isinstance(html, str):
            raise RenderError(f"{RENDER_FUNCTION} returned {type(html).__name__}, not HTML")
        return html, int(context.heap_stats()["total_heap_size"])

    async def close(self) -> None:
        for task in list(self._background):
            await task
        for context in self.contexts:
            context.close()
        self.contexts.clear()


def _close_after_termination(context: MiniRacer) -> None:
    # mini-racer stops a context's event loop before V8 reports the end of a
    # terminated script; closing straight after a timeout makes that report
    # land on a closed loop. A trivial script queued behind it drains it first.
    with suppress(JSEvalException):
        context.eval("0", timeout_sec=1)
    context.close()
