"""What both Markdown importers share: front matter, headings outside code, and the labels
("答案", "Answer", "要点", "Key points"…) that split a question's text into its parts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from interviewer.content.bank import _FENCE

_MAX_FRONT_MATTER = 64_000
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LANG_SUFFIX = r"(?:\s*[(（][^()（）]{1,12}[)）])?"
_LABELS = {
    "question": r"题目|问题|题干|面试题|question|q",
    "answer": r"标准答案|参考答案|参考回答|答案|解答|回答|答|answer|reference answer|"
              r"model answer|a|solution",
    "points": r"必答点|要点|关键点|得分点|核心要点|评分要点|key points?|key takeaways|"
              r"scoring points|must mention",
}
_LABEL_RE = {kind: re.compile(
    rf"^\s*(?:(?P<hashes>#{{1,6}})\s+)?(?P<bold>\*\*|__)?\s*(?P<word>{words}){_LANG_SUFFIX}\s*"
    rf"(?P<colon>[:：])?\s*(?:\*\*|__)?\s*(?P<colon2>[:：])?\s*(?P<rest>.*?)\s*$", re.IGNORECASE)
    for kind, words in _LABELS.items()}
_ONE_LETTER = re.compile(r"^(?:q|a|答)$", re.IGNORECASE)
_NEEDS_MARKUP = re.compile(r"^(?:问题|question)$", re.IGNORECASE)  # common words inside answers
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)、]|[（(]\d+[)）])\s+")


def split_front_matter(lines: list[str]) -> tuple[dict | None, int, str | None]:
    """(front matter, index of the first body line, problem) of a Markdown file's lines."""
    if not lines or lines[0].strip() != "---":
        return None, 0, None
    end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), None)
    if end is None:
        return None, 0, "front matter is not closed with '---'"
    raw = "\n".join(lines[1:end])
    if len(raw) > _MAX_FRONT_MATTER:
        return None, end + 1, "front matter is too large"
    try:
        meta = yaml.safe_load(raw)
    except yaml.YAMLError:
        return None, end + 1, "front matter is not valid YAML"
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        return None, end + 1, "front matter is not 'key: value' lines"
    return meta, end + 1, None


def scalar(value: object) -> str | None:
    """A front-matter value as text, only when it is one (never expands a nested alias)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        return str(value).strip() or None
    return None


def scalar_list(value: object) -> list[str]:
    if isinstance(value, list):
        return [s for s in (scalar(v) for v in value[:200]) if s]
    one = scalar(value)
    return [one] if one else []


def headings(lines: list[str], start: int = 0) -> list[tuple[int, int, str]]:
    """(index, level, text) of every heading outside fenced code."""
    out, in_fence = [], False
    for i in range(start, len(lines)):
        if _FENCE.match(lines[i]):
            in_fence = not in_fence
            continue
        if not in_fence:
            m = HEADING.match(lines[i])
            if m:
                out.append((i, len(m.group(1)), m.group(2)))
    return out


def label_of(line: str) -> tuple[str, str] | None:
    """(kind, text after the label) when ``line`` is a label line, else None.

    A label is a heading (``### 答案``), a bold label (``**Answer:**``, ``**答案**``) or a
    plain one with a colon (``答案：…``, ``A: …``). A heading with more words and no colon
    (``## Question answering``) is no label, nor is a plain ``问题：`` inside an answer.
    """
    if line[:1].isspace():
        return None  # indented: part of a list item ("- **Q：…**" then "  A：…")
    for kind, rx in _LABEL_RE.items():
        m = rx.match(line)
        if not m:
            continue
        colon = bool(m.group("colon") or m.group("colon2"))
        rest = m.group("rest")
        if m.group("hashes"):
            if rest and not colon:
                continue
        elif m.group("bold"):
            if rest and not colon:
                continue
            if _ONE_LETTER.match(m.group("word")) and not colon:
                continue
        elif not colon or _NEEDS_MARKUP.match(m.group("word")):
            continue
        return kind, rest
    return None


@dataclass
class Parts:
    """A question's text split by its labels; ``other`` holds unlabelled sections by name."""

    question: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    points: list[str] = field(default_factory=list)
    other: dict[str, list[str]] = field(default_factory=dict)
    lead: list[str] = field(default_factory=list)  # text before the first label
    labelled: set[str] = field(default_factory=set)


def split_parts(lines: list[str]) -> Parts:
    """Split lines by label lines and headings; a heading that is not a label starts an
    unlabelled section, except inside an answer or key points, where a deeper heading is
    part of the text."""
    parts = Parts()
    current: list[str] = parts.lead
    kind, level = "lead", 0
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
            current.append(line)
            continue
        if in_fence:
            current.append(line)
            continue
        h = HEADING.match(line)
        label = label_of(line)
        if label is not None:
            kind, rest = label
            parts.labelled.add(kind)
            level = len(h.group(1)) if h else level
            current = getattr(parts, kind)
            if rest:
                current.append(rest)
            continue
        if h and not (kind in ("answer", "points") and len(h.group(1)) > level):
            name = h.group(2).strip()
            kind, level = "other", len(h.group(1))
            current = parts.other.setdefault(name, [])
            continue
        current.append(line)
    return parts


def bullet_items(lines: list[str]) -> list[str]:
    """Key points from a section: one per bullet (continuation lines joined), or one per
    non-empty line when there are no bullets."""
    items: list[str] = []
    has_bullets = any(_BULLET.match(line) for line in lines)
    for line in lines:
        if not line.strip():
            continue
        if not has_bullets or _BULLET.match(line):
            items.append(_BULLET.sub("", line).strip())
        elif items:
            items[-1] += " " + line.strip()
    return [i for i in items if i]
