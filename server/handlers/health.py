"""GET /healthz and GET /readyz: whether the process lives, and whether it should get visitors
(what each check reports, and why a probe adds no load to Firestore: docs/operating.md)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.content.cache import ContentCache
from server.content.models import Collection
from server.http.caching import NO_STORE
from server.rendering.manifest import AssetManifest, asset_file
from server.rendering.render_pool import RenderPool

Check = dict[str, Any]  # {"ok": bool, and what it found}


async def healthz(_request: Request) -> Response:
    """Liveness: the process answers. Nothing else is checked, so nothing else restarts it."""
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": NO_STORE})


async def readyz(request: Request) -> Response:
    readiness: ReadinessCheck = request.state.readiness
    report = await readiness.run()
    status_code = 503 if report["failing"] else 200
    return JSONResponse(report, status_code=status_code, headers={"Cache-Control": NO_STORE})


@dataclass(frozen=True)
class ReadinessCheck:
    client_dir: Path
    manifest: AssetManifest
    pool: RenderPool
    content: ContentCache

    async def run(self) -> dict[str, Any]:
        """The report /readyz sends: ready when no check is failing."""
        checks = {
            "bundles": self._bundles(),
            "render_pool": self._render_pool(),
            "content": await self._content_check(),
        }
        failing = [name for name, check in checks.items() if not check["ok"]]
        return {"status": "not ready" if failing else "ready", "failing": failing, "checks": checks}

    def _bundles(self) -> Check:
        files = (asset_file(self.client_dir, url) for url in self.manifest.all_urls())
        missing = [file for file in files if not file.is_file()]
        return {"ok": not missing, **({"missing": len(missing)} if missing else {})}

    def _render_pool(self) -> Check:
        alive, size = len(self.pool.contexts), self.pool.size
        return {"ok": size > 0 and alive == size, "contexts": alive, "size": size}

    async def _content_check(self) -> Check:
        unread = [c for c in Collection if not self.content.status(c).has_content]
        # Concurrently: a probe waits at most one store deadline, not one per collection.
        await asyncio.gather(*(self.content.get(c) for c in unread))
        states = {c.page_key: self._collection_state(c) for c in Collection}
        return {"ok": "unavailable" not in states.values(), "collections": states}

    def _collection_state(self, collection: Collection) -> str:
        status = self.content.status(collection)
        if not status.has_content:
            return "unavailable"  # pages would show this list empty
        if status.live:
            return "live"
        if status.unverified:
            return "unverified"
        return "stale" if status.last_error is not None else "fresh"
