"""The application: settings in, a Starlette app out.

Run with `uvicorn server.app:create_app --factory`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TypedDict

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import BaseRoute, Mount, Route

from server.company import load_company
from server.content.cache import ContentCache
from server.content.factory import open_content_store
from server.content.local import IMAGES_FOLDER
from server.http.assets import AssetFiles, ContentImages
from server.http.request_rules import RequestRules
from server.http.security_headers import SecurityHeaders
from server.images.factory import open_image_route
from server.images.handler import ROUTE_PATH, photo_variant
from server.images.pipeline import PhotoPipeline
from server.images.urls import PhotoKeys
from server.pages import content_api, not_found, page_endpoint
from server.rendering.document import DocumentTemplate
from server.rendering.manifest import AssetManifest
from server.rendering.page_renderer import PageRenderer, empty_page_data
from server.rendering.render_pool import RenderPool
from server.settings import Settings
from server.site_map import PAGES

logger = logging.getLogger(__name__)


class AppState(TypedDict):
    content: ContentCache
    renderer: PageRenderer
    photo_keys: PhotoKeys
    photos: PhotoPipeline | None


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings.from_environment()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # Read before serving: a broken company.toml or a missing build fails at
    # start-up, with its reason, rather than on the first request.
    company = load_company(settings.company_file)
    assets = AssetManifest.load(settings.bundles_dir)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[AppState]:
        store = open_content_store(settings, company)
        pool = await RenderPool.start(
            settings.bundles_dir,
            size=settings.render_pool_size,
            timeout_seconds=settings.render_timeout_seconds,
            warm_up=("/", json.dumps(empty_page_data(company))),
        )
        content = ContentCache(store, max_age_seconds=settings.content_cache_seconds)
        images = open_image_route(settings, content)
        renderer = PageRenderer(
            content=content,
            pool=pool,
            document=DocumentTemplate(assets),
            company=company,
            photo_keys=images.keys,
            cache_pages=settings.html_cache,
        )
        logger.info("Serving content from %s", settings.content_source.value)
        try:
            yield {
                "content": content,
                "renderer": renderer,
                "photo_keys": images.keys,
                "photos": images.pipeline,
            }
        finally:
            await images.close()
            await content.close()
            await pool.close()
            await store.close()

    routes: list[BaseRoute] = [
        *(Route(page.path, page_endpoint(page), methods=["GET"]) for page in PAGES),
        Route("/api/content/{collection}", content_api, methods=["GET"]),
        Route("/assets/{path:path}", AssetFiles(settings.bundles_dir / "client").serve),
        *([Route(ROUTE_PATH, photo_variant, methods=["GET"])] if settings.image_route else []),
        Mount(
            "/images",
            ContentImages(directory=settings.content_dir / IMAGES_FOLDER, check_dir=False),
            name="images",
        ),
    ]
    middleware = [
        # Outermost first: every response, refusals included, gets the headers.
        Middleware(SecurityHeaders, image_hosts=settings.image_hosts),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts)),
        Middleware(RequestRules, canonical_paths=[page.path for page in PAGES]),
    ]
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={404: not_found},
    )
