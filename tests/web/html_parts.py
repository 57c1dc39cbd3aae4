"""The parts of a page the tests look at: inline blocks, the meta policy and visible text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Button:
    attributes: dict[str, str | None]
    text: str = ""  # the characters written in it (an icon drawn in it is no text)
    inside: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)  # elements


@dataclass
class Parts:
    scripts: list[str] = field(default_factory=list)  # inline scripts the browser runs
    styles: list[str] = field(default_factory=list)
    data: dict[str, str] = field(default_factory=dict)  # JSON blocks by id
    meta_policy: str | None = None
    text: list[str] = field(default_factory=list)  # text nodes outside script and style
    urls: list[tuple[str, str, str]] = field(default_factory=list)  # (tag, src or href, value)
    buttons: dict[str, Button] = field(default_factory=dict)  # by id


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts = Parts()
        self._inside: tuple[str, dict[str, str | None]] | None = None
        self._buffer: list[str] = []
        self._button: Button | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "button":
            self._button = Button(values)
            self.parts.buttons[str(values.get("id"))] = self._button
        elif self._button is not None:
            self._button.inside.append((tag, values))
        for name in ("src", "href"):
            if values.get(name) is not None:
                self.parts.urls.append((tag, name, str(values[name])))
        if tag in ("script", "style"):
            self._inside, self._buffer = (tag, values), []
        elif tag == "meta" and values.get("http-equiv") == "Content-Security-Policy":
            self.parts.meta_policy = values.get("content")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)  # <path/>: no end tag follows

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._button = None
        if self._inside is None or tag != self._inside[0]:
            return
        kind, values = self._inside
        content = "".join(self._buffer)
        if kind == "style":
            self.parts.styles.append(content)
        elif values.get("type") == "application/json":
            self.parts.data[str(values.get("id"))] = content
        else:
            self.parts.scripts.append(content)
        self._inside = None

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button.text += data
        if self._inside is not None:
            self._buffer.append(data)
        elif data.strip():
            self.parts.text.append(data.strip())


def parts(html: str) -> Parts:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.parts
