"""Markdown with one question per heading, or per bold question line under a heading.

::

    # Title of the collection
    ## Section                        (a heading with questions beneath: a tag)
    ### 1. What is ZeRO?              (a question heading: its text up to the next heading of
    Optional detail of the question.   its level or higher is the question's)
    #### 答案 / **Answer:**           (a label: what follows is the answer; without one, the
    ZeRO shards …                      whole text under the question is the answer)
    #### 要点 / Key points            (bullets: the author's key points, a hand rubric)

A section whose text holds lines that are all bold and end with ``?`` (``**What is X?**``)
has a question per such line.
"""

from __future__ import annotations

import re
from pathlib import Path

from interviewer.content.bank import _FENCE
from interviewer.content.importers.markdown_common import (
    HEADING,
    bullet_items,
    headings,
    label_of,
    scalar,
    scalar_list,
    split_front_matter,
    split_parts,
)
from interviewer.content.importers.result import Found, Reading, difficulty_of

_QUESTION_MARK = re.compile(r"[?？]\s*(?:[^\w\s]\s*)*$")
_QUESTION_LOOK = re.compile(
    r"[?？]|^(?:Q\s*\d*|\d+|第\s*\d+\s*题)\s*[.、:：)·]|^Q\d+\s*[-–—]\s|什么|如何|为什么|为何|怎么|怎样|哪些|是否|吗|"
    r"区别|对比|介绍|解释|说说|谈谈|简述|^(?:what|how|why|when|which|who|explain|describe|"
    r"compare|define|can|does|do|is|are|should|tell)\b", re.IGNORECASE)
_BOLD_LINE = re.compile(r"^\s*(?:\d+[.)、]\s*)?(?:\*\*|__)(.+?)(?:\*\*|__)\s*$")
_NUMBERING = re.compile(r"^(?:Q\s*\d+|\d+(?:\.\d+)*|第\s*\d+\s*题)\s*[.、:：)·\-–—]?\s+|"
                        r"^Q\s*[:：]\s*|^[一二三四五六七八九十]+\s*[、.．]\s*", re.IGNORECASE)
_NUMBER_ONLY = re.compile(r"^(?:\d+(?:\.\d+)*|[一二三四五六七八九十]+)\s*[.、．:：)·]")
_SYMBOLS = re.compile(r"^[^\w#]+", re.UNICODE)  # "📑 本章目录": the emoji
_NOT_QUESTIONS = re.compile(
    r"^(?:本章|本节|本文|全文)?(?:table of contents|contents|toc|目录|references?|参考(?:资料|文献|链接)?|"
    r"links?|resources|further reading|license|许可|致谢|acknowledge?ments?|contributing|"
    r"贡献|updates?|changelog|更新日志|前言|说明|intro(?:duction)?)$", re.IGNORECASE)
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\([^)]*\)")
_ONLY_LINKS = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:!?\[[^\]]*\]\([^)]*\)\s*[,，、]?\s*)+$")


def question_title(text: str) -> str:
    """A heading's text as a question: numbering and bold markers taken off."""
    text = re.sub(r"^(?:\*\*|__)(.*)(?:\*\*|__)$", r"\1", text.strip())
    text = _NUMBERING.sub("", text, count=1).strip()
    text = re.sub(r"^(?:\*\*|__)(.*)(?:\*\*|__)$", r"\1", text)  # "1.1 **What is X?**"
    return re.sub(r"(?<=[?？])[^\w?？()（）]+$", "", text).strip()  # "What is X? 👶"


def _is_bold_question(line: str) -> str | None:
    m = _BOLD_LINE.match(line)
    if m and _QUESTION_MARK.search(m.group(1)) and label_of(line) is None:
        return m.group(1).strip()
    return None


def read_headings(text: str, path: Path, reading: Reading) -> None:
    lines = close_open_fence(text.split("\n"), path, reading)
    meta, start, problem = split_front_matter(lines)
    if problem:
        reading.skip(path, 1, problem)
    if meta:
        reading.title = scalar(meta.get("title"))
        for key in meta:
            if key not in ("title", "id", "tags"):
                reading.not_mapped(f"front matter '{key}'")
    base_tags = tuple(scalar_list((meta or {}).get("tags")))
    found_before = len(reading.found)
    marks = [h for h in headings(lines, start) if label_of(lines[h[0]]) is None]
    h1 = [h for h in marks if h[1] == 1]
    if len(h1) == 1 and not reading.title:
        reading.title = question_title(h1[0][2])
    section: list[tuple[int, str]] = []  # (level, text) of the sections above
    inside_until = -1  # headings inside a question's answer are part of it
    for n, (idx, level, title) in enumerate(marks):
        if idx < inside_until:
            continue
        end = next((m[0] for m in marks[n + 1:] if m[1] <= level), len(lines))
        child = next((m for m in marks[n + 1:] if m[0] < end), None)
        body_end = child[0] if child else end
        section = [s for s in section if s[0] < level]
        name = question_title(title)
        if level == 1 and len(h1) == 1:  # the title of the file
            _bold_questions(lines, idx + 1, body_end, path, reading, base_tags)
            continue
        if _NOT_QUESTIONS.match(_SYMBOLS.sub("", name).rstrip(":：")):
            reading.skip(path, idx + 1, f"section '{name[:40]}' is not a question")
            inside_until = end
            continue
        tags = base_tags + tuple(t for _, t in section)
        looks = bool(_QUESTION_LOOK.search(title))
        bold = any(_is_bold_question(line) for line in _outside_code(lines[idx + 1:body_end]))
        if bold and not looks:
            _bold_questions(lines, idx + 1, body_end, path, reading, tags + (name,))
            section.append((level, name))
            continue
        if child is not None and (not looks or _numbered_section(title, marks, n, end)):
            section.append((level, name))
            continue
        _add(lines[idx + 1:end], name, idx + 1, path, reading, tags, looks)
        inside_until = end
    if len(reading.found) == found_before:
        _bold_questions(lines, start, len(lines), path, reading, base_tags)


def _numbered_section(title: str, marks: list[tuple[int, int, str]], n: int, end: int) -> bool:
    """``## 2. 训练`` over ``### 2.1 如何微调？``: a heading that looks like a question only by
    its number, over headings that look like questions, is a section."""
    if not _NUMBER_ONLY.match(title) or _QUESTION_LOOK.search(_NUMBERING.sub("", title, 1)):
        return False
    return any(_QUESTION_LOOK.search(t) for i, _, t in marks[n + 1:] if i < end)


def close_open_fence(lines: list[str], path: Path, reading: Reading) -> list[str]:
    """A code fence never closed would make the rest of the file code: close it before the
    next heading instead, and say so."""
    opened = None
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            opened = None if opened is not None else i
    if opened is None:
        return lines
    stop = next((i for i in range(opened + 1, len(lines)) if HEADING.match(lines[i])), None)
    if stop is None:
        return lines
    reading.warn(path, opened + 1, f"code fence is not closed; closed it before line {stop + 1}")
    return lines[:stop] + [_FENCE.match(lines[opened]).group(1), ""] + lines[stop:]


def _outside_code(lines: list[str]) -> list[str]:
    out, in_fence = [], False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            out.append(line)
    return out


def _bold_questions(lines: list[str], start: int, end: int, path: Path, reading: Reading,
                    tags: tuple[str, ...]) -> None:
    """Questions written as bold lines ending in ``?``, each answered by the text below it."""
    at: list[int] = []
    in_fence = False
    for i in range(start, end):
        if _FENCE.match(lines[i]):
            in_fence = not in_fence
        elif not in_fence and not HEADING.match(lines[i]) and _is_bold_question(lines[i]):
            at.append(i)
    for k, i in enumerate(at):
        stop = at[k + 1] if k + 1 < len(at) else end
        _add(lines[i + 1:stop], question_title(_is_bold_question(lines[i]) or ""), i + 1, path,
             reading, tags)


def _add(body: list[str], title: str, line: int, path: Path, reading: Reading,
         tags: tuple[str, ...], looks: bool = True) -> None:
    parts = split_parts(body)
    detail: list[str] = []
    if "answer" in parts.labelled:
        detail, answer_lines = parts.lead, parts.answer
    elif not parts.labelled:
        answer_lines = body
    else:  # key points but no answer label: the rest is the answer
        answer_lines = list(parts.lead)
        for name, other in parts.other.items():
            answer_lines += [f"### {name}", *other]
    question = "\n".join([title, *parts.question, *detail]).strip()
    answer = "\n".join(answer_lines).strip()
    text_lines = [x for x in answer.split("\n") if x.strip()]
    links = sum(bool(_LINK.search(x)) for x in text_lines)  # images are content, links not
    if text_lines and (all(_ONLY_LINKS.match(x) for x in text_lines) or not looks
                       and links * 2 >= len(text_lines)):
        reading.skip(path, line, "no answer, only links")
        return
    if not answer:
        reading.skip(path, line, f"no answer under the question '{title[:40]}'")
        return
    difficulty = next((difficulty_of(t) for t in tags if difficulty_of(t)), None)
    reading.found.append(Found(text=question, answer=answer, path=path, line=line,
                               tags=tags, difficulty=difficulty,
                               key_points=tuple(bullet_items(parts.points))))
