"""GET /healthz and GET /readyz: whether the process lives, and whether it should get visitors
(what each check reports, and why a probe adds no load to Firestore: docs/operating.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.content.cache import CollectionStatus, ContentCache
from server.content.models import Collection
from server.http.caching import NO_STORE
from server.rendering.manifest import AssetManifest, asset_file
from server.rendering.render_pool import RenderPool


async def healthz(_request: Request) -> Response:
    """Liveness: the process answers. Nothing else is checked, so nothing else restarts it."""
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": NO_STORE})


async def readyz(request: Request) -> Response:
    report = await request.state.readiness()
    status_code = 503 if report["failing"] else 200
    return JSONResponse(report, status_code=status_code, headers={"Cache-Control": NO_STORE})


async def readiness(
    client_dir: Path, manifest: AssetManifest, pool: RenderPool, content: ContentCache
) -> dict[str, Any]:
    """The report /readyz sends: ready when no check is failing."""
    files = (asset_file(client_dir, url) for url in manifest.all_urls())
    missing = sum(not file.is_file() for file in files)
    alive, size = len(pool.contexts), pool.size
    unread = [c for c in Collection if not content.status(c).has_content]
    # Concurrently: a probe waits at most one store deadline, not one per collection.
    await asyncio.gather(*(content.get(c) for c in unread))
    states = {c.page_key: _state(content.status(c)) for c in Collection}
    checks: dict[str, dict[str, Any]] = {
        "bundles": {"ok": not missing, **({"missing": missing} if missing else {})},
        "render_pool": {"ok": size > 0 and alive == size, "contexts": alive, "size": size},
        "content": {"ok": "unavailable" not in states.values(), "collections": states},
    }
    failing = [name for name, check in checks.items() if not check["ok"]]
    return {"status": "not ready" if failing else "ready", "failing": failing, "checks": checks}


def _state(status: CollectionStatus) -> str:
    if not status.has_content:
        return "unavailable"  # pages would show this list empty
    if status.live:
        return "live"
    if status.unverified:
        return "unverified"
    return "stale" if status.last_error is not None else "fresh"
