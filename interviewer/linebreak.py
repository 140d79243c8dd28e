"""Where to break lines of mixed Chinese and English text for a terminal of a given width.

A generic word wrapper treats a run of Chinese without spaces as one long word: it breaks
at the last space before it (leaving a short line) and then folds the run at the edge,
where a closing mark such as "。" can land alone at the start of a line. Here each Chinese
character is a break opportunity, English words stay whole, and no line starts with a
closing mark or ends with an opening one (the character before moves down with it).
"""

from __future__ import annotations

import unicodedata

NO_START = set("。，、；：？！）」』】》〉”’…・·.,;:?!)]}%》")
NO_END = set("（「『【《〈“‘([{")


def cell_width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, kind) with kind "space", "wide" (one CJK char or mark) or "word"."""
    out: list[tuple[int, int, str]] = []
    i = start
    while i < end:
        ch = text[i]
        if ch.isspace():
            j = i
            while j < end and text[j].isspace():
                j += 1
            out.append((i, j, "space"))
        elif cell_width(ch) == 2:
            j = i + 1
            out.append((i, j, "wide"))
        else:
            j = i
            while j < end and not text[j].isspace() and cell_width(text[j]) == 1:
                j += 1
            out.append((i, j, "word"))
        i = j
    return out


def _width(text: str, start: int, end: int) -> int:
    return sum(cell_width(c) for c in text[start:end])


def line_ranges(text: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each line, so that ``text[start:end]`` fits in ``width`` cells."""
    width = max(2, width)
    ranges: list[tuple[int, int]] = []
    para_start = 0
    for para in text.split("\n"):
        para_end = para_start + len(para)
        tokens: list[tuple[int, int, str]] = []
        for s, e, kind in _tokens(text, para_start, para_end):
            if kind == "word" and _width(text, s, e) > width:  # fold a word too long to fit
                tokens += [(k, k + 1, "word") for k in range(s, e)]
            else:
                tokens.append((s, e, kind))
        line: list[tuple[int, int, str]] = []
        line_start = para_start
        for tok in tokens:
            s, e, kind = tok
            solid = [t for t in line if t[2] != "space"]
            if not solid or _width(text, line_start, e) <= width:
                line.append(tok)
                continue
            if kind == "space":  # break at the space, which is dropped
                ranges.append((line_start, solid[-1][1]))
                line, line_start = [], e
                continue
            cut = _cut(text, line, tok)
            kept = [t for t in line[:cut] if t[2] != "space"]
            if not kept:
                line.append(tok)  # nothing could stay: overflow rather than loop
                continue
            ranges.append((line_start, kept[-1][1]))
            line = line[cut:] + [tok]
            while line and line[0][2] == "space":
                line.pop(0)
            line_start = line[0][0]
        ranges.append((line_start, para_end))
        para_start = para_end + 1
    return ranges


def _cut(text: str, line: list[tuple[int, int, str]], tok: tuple[int, int, str]) -> int:
    """How many tokens of ``line`` stay when ``tok`` does not fit after them."""
    cut = len(line)
    while cut > 1:
        first = line[cut][0] if cut < len(line) else tok[0]
        before = line[cut - 1]
        if before[2] == "space":
            break
        if text[first] in NO_START or text[before[1] - 1] in NO_END:
            cut -= 1
            continue
        break
    return cut
