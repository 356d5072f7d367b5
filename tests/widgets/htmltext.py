"""Read rendered HTML back as the text a person would see (tags dropped, entities decoded)."""

from __future__ import annotations

from html.parser import HTMLParser


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "style":
            self.skip += 1
        if tag in ("div", "tr", "li", "br", "pre", "h4", "summary"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.skip -= 1
        if tag in ("td", "th"):
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def visible_text(markup: str) -> str:
    """The text of ``markup`` with whitespace runs collapsed to single spaces."""
    parser = _Text()
    parser.feed(markup)
    return " ".join("".join(parser.parts).split())
