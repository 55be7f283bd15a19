"""GET /healthz and GET /readyz: whether the process lives, and whether it should get visitors."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.http.caching import NO_STORE
from server.readiness import ReadinessCheck


async def healthz(_request: Request) -> Response:
    """Liveness: the process answers. Nothing else is checked, so nothing else restarts it."""
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": NO_STORE})


async def readyz(request: Request) -> Response:
    """Readiness: whether this instance should get visitors (server/readiness.py)."""
    readiness: ReadinessCheck = request.state.readiness
    report = await readiness.run()
    status_code = 503 if report["failing"] else 200
    return JSONResponse(report, status_code=status_code, headers={"Cache-Control": NO_STORE})
