"""The edge benchmark's pure helpers: the static copy, nginx's configuration, lhr figures."""

from __future__ import annotations

import gzip
import math
from pathlib import Path
from typing import Any

import brotli
import pytest

from bench import lighthouse_figures as lhr
from bench.edge_config import EdgeLayout, StaticFile, nginx_config
from bench.page_copy import (
    Captured,
    css_urls,
    file_for,
    linked_urls,
    manifest_urls,
    same_origin_path,
    write_copy,
)

ORIGIN = "http://127.0.0.1:8123"


@pytest.mark.parametrize(
    ("path", "content_type", "file"),
    [
        ("/", "text/html; charset=utf-8", "index.html"),
        ("/projects", "text/html; charset=utf-8", "projects/index.html"),
        ("/ar/Collabrations", "text/html", "ar/Collabrations/index.html"),
        ("/assets/entry-client-X.js", "text/javascript; charset=utf-8", "assets/entry-client-X.js"),
        ("/img/w320/k/local/slider/a.jpg", "image/avif", "img/w320/k/local/slider/a.jpg"),
    ],
)
def test_each_response_has_its_file_and_pages_are_folders(
    path: str, content_type: str, file: str
) -> None:
    assert file_for(path, content_type) == file


@pytest.mark.parametrize("path", ["/assets/../../etc/passwd", "assets/x.js", "/.."])
def test_a_path_that_could_leave_the_copy_is_refused(path: str) -> None:
    with pytest.raises(ValueError, match="not a plain URL path"):
        file_for(path, "text/css")


def test_only_the_apps_origin_is_copied_and_paths_are_decoded() -> None:
    assert same_origin_path(f"{ORIGIN}/img/a%20b.jpg?x=1", ORIGIN) == "/img/a b.jpg"
    assert same_origin_path(ORIGIN, ORIGIN) == "/"
    assert same_origin_path("http://127.0.0.1:9999/a.js", ORIGIN) is None
    assert same_origin_path("https://www.youtube-nocookie.com/embed/x", ORIGIN) is None


def test_the_html_names_what_the_page_loads_and_not_the_links_it_shows() -> None:
    html = """<!doctype html><html><head>
      <link rel="stylesheet" href="/assets/a.css">
      <link rel="modulepreload" href="/assets/chunks/c.js">
      <link rel="preload" as="image" href="/hero.jpg"
            imagesrcset="/h-480.jpg 480w, /h-960.jpg 960w">
      <link rel="icon" href="/favicon.ico"><link rel="manifest" href="/manifest.webmanifest">
      <link rel="canonical" href="/projects"><link rel="alternate" hreflang="ar" href="/ar">
      </head><body><a href="/projects">Projects</a>
      <img src="/img/w320/a.jpg" srcset="/img/w320/a.jpg 320w,/img/w640/a.jpg 640w" alt="">
      <iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>
      <script type="module" src="/assets/entry.js"></script></body></html>"""
    assert set(linked_urls(html)) == {
        "/assets/a.css",
        "/assets/chunks/c.js",
        "/hero.jpg",
        "/h-480.jpg",
        "/h-960.jpg",
        "/favicon.ico",
        "/manifest.webmanifest",
        "/img/w320/a.jpg",
        "/img/w640/a.jpg",
        "/assets/entry.js",
    }


def test_css_and_the_manifest_name_fonts_photos_and_icons() -> None:
    css = (
        "@font-face{src:url(/assets/media/f.woff2) format('woff2'),url('/assets/media/f.woff')}"
        '.hero{background-image:url("/assets/media/hero.jpg")}'
        ".x{background:url(data:image/png;base64,AAAA)}"
    )
    assert css_urls(css) == [
        "/assets/media/f.woff2",
        "/assets/media/f.woff",
        "/assets/media/hero.jpg",
    ]
    manifest = '{"name": "Fine Stone", "icons": [{"src": "/icon-192.png"}, {"sizes": "any"}]}'
    assert manifest_urls(manifest) == ["/icon-192.png"]
    assert manifest_urls("not json") == []


def test_the_copy_keeps_bytes_and_precompresses_text_only(tmp_path: Path) -> None:
    css = b".card{color:#222}" * 200
    photo = bytes(range(256)) * 20
    files = write_copy(
        [
            Captured(path="/assets/a.css", content_type="text/css", headers={}, body=css),
            Captured(path="/img/w320/a.jpg", content_type="image/avif", headers={}, body=photo),
            Captured(
                path="/ar",
                content_type="text/html; charset=utf-8",
                headers={"cache-control": "no-cache"},
                body=b"<p>" * 100,
            ),
        ],
        tmp_path,
    )
    assert [(f.path, f.file) for f in files] == [
        ("/assets/a.css", "assets/a.css"),
        ("/img/w320/a.jpg", "img/w320/a.jpg"),
        ("/ar", "ar/index.html"),
    ]
    assert files[2].headers == {"cache-control": "no-cache"}
    assert (tmp_path / "assets/a.css").read_bytes() == css
    assert brotli.decompress((tmp_path / "assets/a.css.br").read_bytes()) == css
    assert gzip.decompress((tmp_path / "assets/a.css.gz").read_bytes()) == css
    assert (tmp_path / "img/w320/a.jpg").read_bytes() == photo
    assert not (tmp_path / "img/w320/a.jpg.br").exists()
    assert (tmp_path / "ar/index.html.br").exists()
    # nginx's workers (user nobody when the master is root) must enter every folder.
    assert all(folder.stat().st_mode & 0o005 == 0o005 for folder in tmp_path.rglob("*/"))


def _layout(tmp_path: Path) -> EdgeLayout:
    return EdgeLayout(
        root=tmp_path,
        certificate=tmp_path / "edge.crt",
        private_key=tmp_path / "edge.key",
        app_port=8001,
        edge_port=8443,
        static_port=8444,
        static_root=tmp_path / "www",
    )


def test_the_edge_proxies_to_the_app_with_keep_alive_and_the_browsers_accept_encoding(
    tmp_path: Path,
) -> None:
    config = nginx_config(_layout(tmp_path), [], brotli_module=None)
    assert "listen 127.0.0.1:8443 ssl http2;" in config
    assert "server 127.0.0.1:8001;\n        keepalive 16;" in config
    assert "proxy_http_version 1.1;" in config
    assert 'proxy_set_header Connection "";' in config
    assert "proxy_set_header Accept-Encoding $http_accept_encoding;" in config
    assert "gzip off;" in config  # the app compresses; nginx does not again
    assert "load_module" not in config
    assert "brotli_static" not in config


def test_the_static_copy_serves_each_file_with_its_own_type_and_headers(tmp_path: Path) -> None:
    files = [
        StaticFile(
            path="/img/w320/a.jpg",
            file="img/w320/a.jpg",
            content_type="image/avif",
            headers={"cache-control": "public, max-age=31536000, immutable"},
        ),
        StaticFile(path="/", file="index.html", content_type="text/html; charset=utf-8"),
    ]
    module = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
    config = nginx_config(_layout(tmp_path), files, brotli_module=module)
    assert config.startswith(f'load_module "{module}";\n')
    assert "listen 127.0.0.1:8444 ssl http2;" in config
    assert "brotli_static on;" in config
    assert "gzip_static on;" in config
    assert (
        '        location = "/img/w320/a.jpg" {\n'
        "            types { }\n"
        '            default_type "image/avif";\n'
        '            add_header cache-control "public, max-age=31536000, immutable" always;\n'
        '            try_files "/img/w320/a.jpg" =404;\n'
        "        }"
    ) in config
    assert 'location = "/" {' in config
    assert 'try_files "/index.html" =404;' in config


def test_a_value_nginx_would_expand_is_refused(tmp_path: Path) -> None:
    files = [StaticFile(path="/a$uri.js", file="a$uri.js", content_type="text/javascript")]
    with pytest.raises(ValueError, match="cannot write"):
        nginx_config(_layout(tmp_path), files, brotli_module=None)


def _report() -> dict[str, Any]:
    """A Lighthouse 12 report cut to the parts the edge section reads."""
    return {
        "categories": {
            "performance": {
                "score": 0.91,
                "auditRefs": [
                    {"id": "largest-contentful-paint", "weight": 25},
                    {"id": "render-blocking-insight", "weight": 0},
                    {"id": "font-display-insight", "weight": 0},
                ],
            },
            "accessibility": {"score": 1, "auditRefs": [{"id": "color-contrast", "weight": 7}]},
            "best-practices": {
                "score": 0.96,
                "auditRefs": [{"id": "errors-in-console", "weight": 1}],
            },
            "seo": {"score": None, "auditRefs": []},
        },
        "audits": {
            "largest-contentful-paint": {"numericValue": 2306.5, "score": 0.7},
            "first-contentful-paint": {"numericValue": 2006.0},
            "total-blocking-time": {"numericValue": 268.0},
            "cumulative-layout-shift": {"numericValue": 0.004},
            "color-contrast": {"score": 1},
            "render-blocking-insight": {"score": 0.5, "scoreDisplayMode": "metricSavings"},
            "font-display-insight": {"score": 0, "scoreDisplayMode": "notApplicable"},
            "errors-in-console": {
                "score": 0,
                "details": {
                    "items": [
                        {
                            "description": "Failed to load resource: 404",
                            "sourceLocation": {"url": "https://127.0.0.1:8444/icon-192.png"},
                        }
                    ]
                },
            },
            "resource-summary": {
                "details": {
                    "items": [
                        {"resourceType": "total", "transferSize": 322989},
                        {"resourceType": "script", "transferSize": 92059},
                        {"resourceType": "font", "transferSize": 73854},
                        {"resourceType": "document", "transferSize": 4612},
                        {"resourceType": "stylesheet", "transferSize": 4985},
                        {"resourceType": "image", "transferSize": 139333},
                        {"resourceType": "other", "transferSize": 8146},
                    ]
                }
            },
            "metrics": {
                "details": {
                    "items": [
                        {
                            "observedTimeOriginTs": 1_000_000,
                            "observedLargestContentfulPaintTs": 1_300_000,
                        }
                    ]
                }
            },
            "network-requests": {
                "details": {
                    "debugData": {"networkStartTimeTs": 1_002_000},
                    "items": [
                        {
                            "url": "https://h/",
                            "resourceType": "Document",
                            "protocol": "h2",
                            "networkRequestTime": 0,
                        },
                        # 1_002_000 + 150 ms = 1_152_000 µs: before the LCP at 1_300_000.
                        {
                            "url": "https://h/assets/entry.js",
                            "resourceType": "Script",
                            "networkRequestTime": 150,
                        },
                        {
                            "url": "https://h/assets/media/amiri.woff2",
                            "resourceType": "Font",
                            "networkRequestTime": 200,
                            "transferSize": 101000,
                        },
                        # 1_002_000 + 298 ms = 1_300_000: not before the LCP.
                        {
                            "url": "https://h/assets/chunks/lazy.js",
                            "resourceType": "Script",
                            "networkRequestTime": 298,
                        },
                        # Fetched for the next page: "Fetch" to Lighthouse, a font all the same.
                        {
                            "url": "https://h/assets/media/noto.woff2",
                            "resourceType": "Fetch",
                            "networkRequestTime": 400,
                            "transferSize": 9000,
                        },
                    ],
                }
            },
            "largest-contentful-paint-element": {
                "details": {
                    "type": "list",
                    "items": [
                        {
                            "type": "table",
                            "items": [
                                {
                                    "node": {
                                        "type": "node",
                                        "selector": "main#main > section.hero",
                                        "snippet": '<section class="hero">',
                                    }
                                }
                            ],
                        },
                        {
                            "type": "table",
                            "items": [
                                {"phase": "TTFB", "timing": 656.0},
                                {"phase": "Load Delay", "timing": 883.2},
                            ],
                        },
                    ],
                }
            },
        },
    }


def test_figures_read_scores_metrics_and_bytes_by_type() -> None:
    figures = lhr.figures(_report())
    assert figures["performance"] == pytest.approx(91)
    assert figures["best-practices"] == pytest.approx(96)
    assert math.isnan(figures["seo"])  # not scored: no figure rather than zero
    assert (figures["lcp_ms"], figures["fcp_ms"], figures["tbt_ms"]) == (2306.5, 2006.0, 268.0)
    assert figures["cls"] == 0.004
    assert figures["font_bytes"] == 73854
    assert figures["total_bytes"] == 322989
    assert figures["scripts_before_lcp"] == 1


def test_scripts_before_lcp_use_the_traces_clock() -> None:
    assert lhr.scripts_before_lcp(_report()) == ["https://h/assets/entry.js"]


def test_the_lcp_element_and_its_phases() -> None:
    element = lhr.lcp_element(_report())
    assert element == lhr.LcpElement(
        selector="main#main > section.hero",
        snippet='<section class="hero">',
        phases={"TTFB": 656.0, "Load Delay": 883.2},
    )


def test_what_failed_and_what_was_flagged() -> None:
    report = _report()
    assert lhr.failed_audits(report) == {
        "performance": ["largest-contentful-paint"],
        "best-practices": ["errors-in-console"],
    }
    assert lhr.flagged_diagnostics(report) == ["render-blocking-insight"]
    assert lhr.console_errors(report) == ["Failed to load resource: 404 (/icon-192.png)"]
    assert lhr.font_files(report) == {"amiri.woff2": 101000.0, "noto.woff2": 9000.0}
    assert lhr.document_protocol(report) == "h2"
