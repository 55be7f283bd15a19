"""The application, settings in, a Starlette app out: `uvicorn server.app:create_app --factory`."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route

from server.content.factory import open_content
from server.content.local import IMAGES_FOLDER
from server.enquiries.factory import open_enquiries
from server.handlers.assets import AssetFiles, ContentImages
from server.handlers.content_api import content_api
from server.handlers.enquiry import enquiry_page
from server.handlers.health import healthz, readiness, readyz
from server.handlers.images import ROUTE_PATH, photo_variant
from server.handlers.pages import item_page, not_found, render_page
from server.handlers.site_files import ICONS, SiteFiles
from server.handlers.vitals import vitals_report
from server.http.access_log import AccessLog
from server.http.rate_limit import TokenBuckets
from server.http.request_rules import RequestRules
from server.http.security_headers import SecurityHeaders
from server.images.factory import open_image_route
from server.logs import configure_logging
from server.rendering.document import DocumentTemplate
from server.rendering.manifest import ASSETS_URL, AssetManifest
from server.rendering.page_content import PageContent, empty_page_data
from server.rendering.page_renderer import PageRenderer, RenderedPageCache
from server.rendering.render_pool import RenderPool
from server.settings import Settings
from server.site.company import load_company
from server.site.pages import ENQUIRY_PAGES, ITEM_ROUTE, LIST_PAGES, PAGES
from server.studio.lifespan import open_studio
from server.studio.routes import PREFIX as STUDIO_PREFIX
from server.studio.routes import studio_routes

logger = logging.getLogger(__name__)

PROBE_PATHS = ("/healthz", "/readyz")
VITALS_PATH = "/vitals"


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings.from_environment()
    configure_logging(level=settings.log_level, log_format=settings.log_format)
    # Read before serving: a broken company.toml or a missing build fails at
    # start-up, with its reason, rather than on the first request.
    company = load_company(settings.company_file)
    assets = AssetManifest.load(settings.bundles_dir)
    client_dir = settings.bundles_dir / "client"

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[dict[str, object]]:
        content, close_content = open_content(settings, company)
        pool = await RenderPool.start(
            settings.bundles_dir,
            size=settings.render_pool_size,
            timeout_seconds=settings.render_timeout_seconds,
            warm_up=("/", json.dumps(empty_page_data(company))),
        )
        vitals = VITALS_PATH if settings.web_vitals else None
        html_cache_bytes = int(settings.html_cache_mb * 1024 * 1024) if settings.html_cache else 0
        logger.info("Serving content from %s", settings.content_source.value)
        try:
            async with (
                open_image_route(settings, content) as (photo_keys, photos),
                open_enquiries(settings, company, content) as (enquiries, intake, outbox),
                open_studio(settings, company, content, enquiries) as studio,
            ):
                renderer = PageRenderer(
                    content=content,
                    pool=pool,
                    document=DocumentTemplate(assets, vitals_endpoint=vitals),
                    page_content=PageContent(company, settings.public_base_url, photo_keys),
                    pages=RenderedPageCache(max_bytes=html_cache_bytes),
                )
                yield {
                    "content": content,
                    "studio": studio,
                    "renderer": renderer,
                    "readiness": partial(readiness, client_dir, assets, pool, content),
                    # A page view sends three beacons at most; a burst of 30 lets a
                    # few visitors behind one address (an office, a carrier) through.
                    "vitals_limits": TokenBuckets(burst=30, per_second=1),
                    "photo_keys": photo_keys,
                    "photos": photos,
                    "intake": intake,
                    "outbox": outbox,
                }
        finally:
            await close_content()  # the listeners too
            await pool.close()

    site_files = SiteFiles(company, settings.public_base_url)
    studio = studio_routes(settings, company)
    routes: list[BaseRoute] = [
        *(
            Route(page.path, partial(render_page, page=page), methods=["GET"])
            for page in PAGES
            if page not in ENQUIRY_PAGES
        ),
        *(
            Route(page.path, partial(enquiry_page, page=page), methods=["GET", "POST"])
            for page in ENQUIRY_PAGES
        ),
        *(
            Route(page.path + ITEM_ROUTE, partial(item_page, list_page=page), methods=["GET"])
            for page in LIST_PAGES
        ),
        Route("/robots.txt", site_files.robots),
        Route("/sitemap.xml", site_files.sitemap),
        Route("/manifest.webmanifest", site_files.manifest),
        *(Route(f"/{name}", site_files.icon) for name in ICONS),
        Route("/api/content/{collection}", content_api, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        *([Route(VITALS_PATH, vitals_report, methods=["POST"])] if settings.web_vitals else []),
        *([Route(ROUTE_PATH, photo_variant, methods=["GET"])] if settings.image_route else []),
        *studio,
        Mount(ASSETS_URL, AssetFiles(directory=client_dir, check_dir=False)),
        Mount(
            "/images",
            ContentImages(directory=settings.content_dir / IMAGES_FOLDER, check_dir=False),
            name="images",
        ),
    ]
    middleware = [
        # Outermost first, so that every answer is logged and has the headers (architecture.md).
        Middleware(AccessLog, quiet_paths=PROBE_PATHS),
        Middleware(
            SecurityHeaders,
            image_hosts=settings.image_hosts,
            inline_style=assets.inline_css,
            inline_script=assets.inline_boot,
        ),
        Middleware(
            RequestRules,
            allowed_hosts=settings.allowed_hosts,
            probe_paths=PROBE_PATHS,
            canonical_paths=[page.path for page in PAGES],
            item_prefixes=[page.path for page in LIST_PAGES],
            methods={
                **({VITALS_PATH: ("POST",)} if settings.web_vitals else {}),
                **{page.path: ("GET", "HEAD", "POST") for page in ENQUIRY_PAGES},
            },
            post_prefixes=[STUDIO_PREFIX + "/"] if studio else [],
        ),
    ]
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={404: not_found},
    )
