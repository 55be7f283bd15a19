"""set_within: a time-limited wait on an event that never loses a cancellation."""

from __future__ import annotations

import asyncio

import pytest

from server.content.cache import set_within


@pytest.mark.anyio
async def test_an_event_set_in_time_or_not() -> None:
    event = asyncio.Event()
    assert not await set_within(event, 0.01)
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await set_within(event, 5)


@pytest.mark.anyio
@pytest.mark.parametrize("turns", [0, 1, 2, 3])
async def test_a_cancellation_as_the_event_is_set_still_cancels(turns: int) -> None:
    # asyncio.wait_for (Python 3.11) returned True here in 3 of these 4 cases:
    # a listener supervisor cancelled by LiveContent.close() ran on forever.
    event = asyncio.Event()
    waiting = asyncio.create_task(set_within(event, 10))
    for _ in range(turns):
        await asyncio.sleep(0)
    event.set()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
