"""Reading a user's documents as text: UTF-8 only (a file that is not is refused by name), with
Markdown rendered by markdown-it and HTML stripped by Beautiful Soup to the text a reader sees,
one line per block and ``label: value`` per two-cell table row.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from dragonforge.errors import InputError

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
MARKDOWN = {".md", ".markdown"}
HTML = {".html", ".htm", ".xhtml"}
TEXT = {".txt", ".text", ""} | MARKDOWN | HTML
_BLOCKS = ["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "br", "section", "article", "pre",
           "blockquote", "dt", "dd", "header", "footer", "table", "ul", "ol", "title"]


def read_document(path: Path) -> str:
    """The text of one document; one-line errors for what cannot be read as text."""
    try:
        info = path.stat()
        if path.is_dir():
            raise InputError(f"{path}: is a folder, not a document")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: not a regular file (a device or a pipe is not a document)")
        if info.st_size > MAX_DOCUMENT_BYTES:
            raise InputError(f"{path}: larger than {MAX_DOCUMENT_BYTES // 2**20} MiB, more than one document")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if b"\0" in data[:8192]:
        raise InputError(f"{path}: a binary file, not UTF-8 text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}); convert it to UTF-8 first") from None
    suffix = path.suffix.lower()
    if suffix in MARKDOWN:
        text = markdown_text(text)
    elif suffix in HTML or (suffix not in TEXT and re.match(r"\s*<(?:!doctype|html)", text, re.I)):
        text = html_text(text)
    text = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    if not text:
        raise InputError(f"{path}: empty (no text in it)")
    return text + "\n"


def markdown_text(source: str) -> str:
    from markdown_it import MarkdownIt

    return html_text(MarkdownIt("commonmark").enable("table").render(source))


def html_text(source: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(source, "html.parser")
    for tag in soup(["script", "style", "head", "noscript", "template"]):
        if tag.name == "head" and tag.title:  # keep the page title as the first line
            title = tag.title.get_text(" ", strip=True)
            tag.replace_with(soup.new_string(title + "\n\n") if title else "")
            continue
        tag.decompose()
    for row in soup.find_all("tr"):
        cells = [c.get_text(" ", strip=True) for c in row.find_all(["th", "td"], recursive=False)]
        cells = [c for c in cells if c]
        text = f"{cells[0].rstrip(':：')}: {cells[1]}" if len(cells) == 2 else " | ".join(cells)
        row.replace_with(soup.new_string("\n" + text + "\n"))
    for tag in soup.find_all(["li"]):
        tag.insert(0, soup.new_string("- "))
    for tag in soup.find_all(_BLOCKS):
        tag.insert_before(soup.new_string("\n"))
        tag.insert_after(soup.new_string("\n"))
    lines = [re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in soup.get_text().split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out)
