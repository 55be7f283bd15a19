"""What the HTTP tests share: reading a page's HTML, a render bundle that fails."""

from __future__ import annotations

import json
from html.parser import HTMLParser


class PageParser(HTMLParser):
    """The bits of a page the tests read: text, the inlined data, element ids, links."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.page_data_raw = ""
        self._in_page_data = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.append(str(attributes["id"]))
        if tag == "a" and attributes.get("href"):
            self.links.append(str(attributes["href"]))
        self._in_page_data = tag == "script" and attributes.get("id") == "page-data"

    def handle_endtag(self, tag: str) -> None:
        self._in_page_data = False

    def handle_data(self, data: str) -> None:
        if self._in_page_data:
            self.page_data_raw += data
        else:
            self.text.append(data)

    @property
    def page_data(self) -> dict[str, object]:
        data: dict[str, object] = json.loads(self.page_data_raw)
        return data


def parse(html: str) -> PageParser:
    parser = PageParser()
    parser.feed(html)
    return parser


# Stands in for a React tree with a bug: it throws on /projects, never returns
# on /Collabrations, and renders the others (the warm-up renders "/").
BROKEN_RENDER = """
globalThis.renderPage = (url) => {
  if (url === "/projects") throw new TypeError("Cannot read properties of undefined");
  if (url === "/Collabrations") for (;;) {}
  if (url === "/ar") throw new Error("the Arabic landing page breaks");
  return "<main><h1>fine</h1></main>";
};
"""
