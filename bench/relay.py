"""The bare WebSocket relay bench/server.py measures the site against: no rules, no storage, each
message forwarded to every socket of its room, on the same stack as the site (Starlette on
uvicorn, the same WebSocket protocol), its event loop watched by bench/loop_monitor.py.

    uv run python bench/relay.py --port 8765 --monitor relay.jsonl   # started by bench/server.py
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tictactoe.server.ops.garbage import collect_young_by_time, tune_garbage_collector

sys.path.insert(0, str(Path(__file__).resolve().parent))

import loop_monitor


def run_relay(port: int, monitor: str) -> None:
    """A WebSocket relay on the same stack as the site (Starlette on uvicorn), nothing else."""
    rooms: dict[str, set[WebSocket]] = {}

    async def relay(websocket: WebSocket) -> None:
        room = rooms.setdefault(websocket.path_params["room"], set())
        await websocket.accept()
        room.add(websocket)
        try:
            while True:
                text = await websocket.receive_text()
                for peer in list(room):
                    await peer.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            room.discard(websocket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        loop_monitor.start(monitor)
        # The server's garbage collection (ops/garbage.py), so that the two are compared on
        # their work, not on Python's default thresholds (young pauses of 100+ ms at 20 000
        # sockets in the relay).
        tune_garbage_collector()
        young = asyncio.ensure_future(collect_young_by_time())
        yield
        young.cancel()

    app = Starlette(routes=[WebSocketRoute("/relay/{room}", relay)], lifespan=lifespan)
    # The same WebSocket protocol as `tictactoe serve` (see serve_command.py).
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
        ws="websockets-sansio",
        backlog=4096,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--monitor", required=True, help="where the loop monitor writes")
    arguments = parser.parse_args()
    run_relay(arguments.port, arguments.monitor)
