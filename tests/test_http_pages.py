"""Every route of the real app over HTTP (Starlette's TestClient runs the lifespan)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import Settings
from tests.content_files import sample_cards, stored_fields, write_content
from tests.support import parse


def make_client(content_dir: Path) -> TestClient:
    return TestClient(create_app(Settings(content_dir=content_dir, render_pool_size=1)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(write_content(tmp_path_factory.mktemp("content"))) as client:
        yield client


def test_landing_page_is_rendered_on_the_server_with_every_section_in_order(
    client: TestClient,
) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    page = parse(response.text)
    text = " ".join(page.text)
    order = [
        "WELCOME TO THE WORLD OF FINE STONE",
        "Our Services",
        "About Us",
        "Our Work in Stone",
        "Book an appointment",
        "Contact Us",
    ]
    positions = [text.index(heading) for heading in order]
    assert positions == sorted(positions)
    # The video, named and linked; the player itself comes after the page loads
    # (tests/browser/test_landing.py).
    assert ">Our quarry and factory at work</a>" in response.text
    for feature in ("Best Time", "Best Quality", "Expert Guidance"):
        assert feature in text
    assert {"about", "contact"} <= set(page.ids)
    slider = page.page_data["content"]["slider"]  # type: ignore[index]
    assert [stored_fields(slide) for slide in slider] == page_slider()


def page_slider() -> list[dict[str, str]]:
    return [{"id": f"slide-{i}", "photoUrl": "/images/sample.jpg"} for i in range(3)]


def test_hero_description_says_everything_the_spec_asks(client: TestClient) -> None:
    text = " ".join(parse(client.get("/").text).text)
    for fact in (
        "factory and a quarry",
        "sawing and cutting",
        "marble, Jerusalem stone and granite",
        "Jordan, Palestine, Italy, Greece, Spain, the Gulf and the United States",
        "since 1969",
        "modern equipment",
        "innovating",
    ):
        assert fact in text


def test_header_links_are_real_hrefs_for_crawlers(client: TestClient) -> None:
    links = parse(client.get("/projects").text).links
    # The skip link, then the header's logo and menu.
    assert links[:7] == [
        "#main",
        "/",
        "/projects",
        "/Collabrations",
        "/stones",
        "/#about",
        "/#contact",
    ]


def test_book_now_opens_the_booking_page_in_a_new_tab_safely(client: TestClient) -> None:
    html = client.get("/").text
    book = re.search(r"<a[^>]*>Book Now!</a>", html)
    assert book is not None
    assert 'target="_blank"' in book.group(0)
    assert 'rel="noopener noreferrer"' in book.group(0)
    assert 'href="https://booking.example.com/fine-stone"' in book.group(0)


def test_footer_has_mail_and_phone_links_for_the_branches(client: TestClient) -> None:
    links = parse(client.get("/").text).links
    assert "mailto:info@example.com" in links
    assert {"tel:+96255550100", "tel:+33155550100", "tel:+390255550100"} <= set(links)


@pytest.mark.parametrize(
    ("path", "key", "heading"),
    [("/projects", "projects", "Projects"), ("/Collabrations", "collabrations", "Collabrations")],
)
def test_list_pages_render_their_cards_and_inline_exactly_that_data(
    client: TestClient, path: str, key: str, heading: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = parse(response.text)
    assert heading in page.text
    names = [document["name"] for document in page.page_data["content"][key]]  # type: ignore[index]
    assert names
    assert all(name in page.text for name in names)
    assert f"<title>{heading} | Example Fine Stone Co.</title>" in response.text


def test_the_spelling_of_collabrations_is_exact(client: TestClient) -> None:
    assert client.get("/Collaborations").status_code == 404
    assert client.get("/Collabrations").status_code == 200


def test_unknown_path_is_a_404_page_with_the_header(client: TestClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    page = parse(response.text)
    assert "This page is not here" in page.text
    assert "/projects" in page.links


def test_page_links_its_hashed_script_and_carries_its_stylesheet(client: TestClient) -> None:
    html = client.get("/").text
    script = re.search(r'<meta name="site-code" content="(/assets/[^" ]+\.js)', html)
    assert script
    assert client.get(script.group(1)).status_code == 200
    # The stylesheet is in the page, so no request holds the first paint.
    assert '<link rel="stylesheet"' not in html
    style = re.search(r"<style>(.*?)</style>", html, re.DOTALL)
    assert style
    assert ".hero__title" in style.group(1)


def test_content_api_serves_a_collection_as_json(client: TestClient) -> None:
    response = client.get("/api/content/collabrations")
    assert response.status_code == 200
    assert [item["id"] for item in response.json()] == ["partner-1", "partner-2"]
    assert client.get("/api/content/users").status_code == 404


def test_hostile_text_is_escaped_in_markup_and_inlined_data(tmp_path: Path) -> None:
    payload = '</script><script>alert("x")</script><img src=x onerror=alert(1)>\u2028'
    cards = sample_cards("p", 1)
    cards[0]["name"] = payload
    with make_client(write_content(tmp_path, projects=cards)) as client:
        html = client.get("/projects").text
    assert "<script>alert" not in html
    assert "<img src=x" not in html
    page = parse(html)
    assert page.page_data["content"]["projects"][0]["name"] == payload  # type: ignore[index]


def test_a_failed_read_logs_the_spec_line_and_still_serves_the_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = write_content(tmp_path)
    (root / "projects.json").unlink()
    with make_client(root) as client, caplog.at_level(logging.ERROR):
        response = client.get("/projects")
        api = client.get("/api/content/projects")
    assert response.status_code == 200
    assert parse(response.text).page_data["content"] == {"projects": []}
    assert "Error fetching projects:" in caplog.text
    assert api.status_code == 503


def test_local_images_are_served(client: TestClient) -> None:
    response = client.get("/images/sample.jpg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/jpeg"
