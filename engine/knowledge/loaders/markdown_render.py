"""Markdown as a reader sees it: HTML, link targets and emphasis markers never reach a chunk.

Wiki exports mix HTML into Markdown; a kiosk quoting ``<div class="info-panel">``, ``<br/>``,
``[price list][prices]`` or ``[prices]: https://...`` to a patient is what this module prevents.

* :func:`prepare_html` (whole body, before blocks are found): ``<script>``/``<style>`` with their
  content go; ``<h1>``..``<h6>`` become Markdown headings; block tags (``div``, ``p``, ``br``,
  ``li``, ``tr``, ...) become paragraph breaks; table cells are separated by `` | ``.
* :func:`link_definitions` finds ``[label]: url`` lines (dropped from the text).
* :func:`render_inline` (per line of a paragraph, list, table or heading): remaining tags are
  stripped, inline and reference links become their text (a shortcut ``[label]`` only when
  ``label`` is defined), images their alt text, autolinks their URL, emphasis and code markers
  go, entities are decoded.

Every pattern is bounded (no unbounded lazy match that could be retried from every position), so
rendering is linear in the text. It must never drop words a reader would see.
"""

from __future__ import annotations

import html
import re

_BLOCK_TAGS = (
    "address|article|aside|blockquote|br|center|dd|details|dialog|div|dl|dt|fieldset|figcaption|"
    "figure|footer|form|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|tfoot|thead|"
    "tr|ul"
)
_RAW_TEXT = re.compile(r"<(script|style)\b[^<>]{0,1000}>", re.IGNORECASE)
_HEADING_OPEN = re.compile(r"<h([1-6])\b[^<>]{0,1000}>", re.IGNORECASE)
_HEADING_CLOSE = re.compile(r"</h[1-6]\s*>", re.IGNORECASE)
_BLOCK = re.compile(rf"</?(?:{_BLOCK_TAGS})\b[^<>]{{0,1000}}>", re.IGNORECASE)
_CELL_END = re.compile(r"</t[dh]\s*>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]{0,40}(?:\s[^<>]{0,1000})?/?>")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]{1,2000})>", re.IGNORECASE)
_DEFINITION = re.compile(r"^ {0,3}\[([^\[\]\n]{1,300})\]:[ \t]*\S")
_LINK = re.compile(r"(!?)\[([^\[\]\n]{0,500})\](?:\(([^()\n]{0,2000})\)|\[([^\[\]\n]{0,300})\])?")
_STRONG = re.compile(r"\*\*(?=[^\s*])([^*\n]{0,300}[^\s*])\*\*|__(?=[^\s_])([^_\n]{0,300}[^\s_])__")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]{1,500}?)(?<=[^\s*])\*(?![\w*])")
_EM_UNDERSCORE = re.compile(r"(?<![\w_])_(?=[^\s_])([^_\n]{1,500}?)(?<=[^\s_])_(?![\w_])")
_STRIKE = re.compile(r"~~(?=[^\s~])([^~\n]{0,300}[^\s~])~~")
_CODE = re.compile(r"(`{1,3})([^`\n]{1,1000}?)\1")
_TRAILING_CELL = re.compile(r"[ \t]*\|[ \t]*$", re.MULTILINE)


def _drop_raw_text(body: str) -> str:
    parts: list[str] = []
    position = 0
    lower = body.lower()
    while True:
        match = _RAW_TEXT.search(body, position)
        if match is None:
            parts.append(body[position:])
            return "".join(parts)
        parts.append(body[position : match.start()])
        end = lower.find(f"</{match.group(1).lower()}", match.end())
        if end < 0:
            return "".join(parts)  # unclosed script/style: nothing after it is text
        close = body.find(">", end)
        position = len(body) if close < 0 else close + 1


def prepare_html(body: str) -> str:
    """Block-level HTML in a Markdown body turned into Markdown structure."""
    if "<" not in body:
        return body
    body = _drop_raw_text(body)
    body = _HEADING_OPEN.sub(lambda m: "\n\n" + "#" * int(m.group(1)) + " ", body)
    body = _HEADING_CLOSE.sub("\n\n", body)
    body = _CELL_END.sub(" | ", body)
    body = _BLOCK.sub("\n\n", body)
    return _TRAILING_CELL.sub("", body)


def link_definitions(lines: list[str]) -> set[str]:
    """Labels (case-folded) of ``[label]: url`` definition lines."""
    return {m.group(1).strip().casefold() for line in lines if (m := _DEFINITION.match(line))}


def is_link_definition(line: str) -> bool:
    return _DEFINITION.match(line) is not None


def render_inline(text: str, labels: set[str]) -> str:
    """One line of Markdown as the words a reader sees."""
    if "<" in text:
        text = _AUTOLINK.sub(r"\1", text)
        text = _TAG.sub("", text)

    def link(match: re.Match[str]) -> str:
        bang, label, target, reference = match.groups()
        if target is not None or reference is not None or bang:
            return label
        if label.strip().casefold() in labels:
            return label
        return match.group(0)  # "[1]" or "[sic]" with no definition: literal text

    if "[" in text:
        text = _LINK.sub(link, text)
    if "`" in text:
        text = _CODE.sub(lambda m: m.group(2).strip(), text)
    if "*" in text or "_" in text:
        text = _STRONG.sub(lambda m: m.group(1) or m.group(2), text)
        text = _EM_STAR.sub(r"\1", text)
        text = _EM_UNDERSCORE.sub(r"\1", text)
    if "~~" in text:
        text = _STRIKE.sub(r"\1", text)
    if "&" in text:
        text = html.unescape(text)
    return text
