"""A streamed response whose client must keep taking its bytes.

uvicorn waits as long as it takes for a client to read what it was sent (flow control), so a client
that asks for a long stream and never reads it held the stream, and whatever place it took, for good.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.responses import StreamingResponse
from starlette.types import Message, Receive, Scope, Send

STALL_S = 30.0  # longest a client may take no bytes at all (a slow honest link drains a chunk far sooner)


class StallLimitedResponse(StreamingResponse):
    """A StreamingResponse that ends (the connection closed, the body's generator closed, so its
    `finally` runs) once the client has taken nothing for STALL_S."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def paced(message: Message) -> None:
            async with asyncio.timeout(STALL_S):
                await send(message)

        try:
            await super().__call__(scope, receive, paced)
        except TimeoutError:  # uvicorn closes a connection whose response never completed
            if isinstance(self.body_iterator, AsyncIterator) and hasattr(self.body_iterator, "aclose"):
                await self.body_iterator.aclose()
