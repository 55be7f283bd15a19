"""Waiting for an asyncio.Event with a time limit, without losing a cancellation.

On Python 3.11, `asyncio.wait_for` returns normally when it is cancelled just
as the awaited event is set, and the cancellation is lost: a listener
supervisor then ran on after `LiveContent.close()` and the close never ended.
`asyncio.timeout` tells its own timeout apart from a cancellation from outside.
"""

from __future__ import annotations

import asyncio


async def set_within(event: asyncio.Event, seconds: float) -> bool:
    """Whether `event` is set within `seconds`; a cancellation always propagates."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
