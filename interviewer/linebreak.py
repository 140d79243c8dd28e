"""Where to break lines of mixed Chinese and English text for a terminal of a given width.

A generic word wrapper treats a run of Chinese without spaces as one long word: it breaks
at the last space before it (leaving a short line) and then folds the run at the edge,
where a closing mark such as "。" can land alone at the start of a line. Here each Chinese
character is a break opportunity, English words stay whole, and no line starts with a
closing mark or ends with an opening one (the character before moves down with it).
"""

from __future__ import annotations

import re
import unicodedata
from itertools import accumulate

NO_START = set("。，、；：？！）」』】》〉”’…・·.,;:?!)]}%》")
NO_END = set("（「『【《〈“‘([{")


def cell_width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


class _Widths(dict):
    """Character -> cell width, worked out once per character."""

    def __missing__(self, ch: str) -> int:
        width = self[ch] = cell_width(ch)
        return width


_WIDTHS = _Widths()
_SPACES = re.compile(r"\s+")
_NARROW_RUN = re.compile(r"[\x21-\x7e]+")  # printable ASCII but the space: one cell each


def _tokens(text: str, start: int, end: int, pre: list[int]) -> list[tuple[int, int, str]]:
    """(start, end, kind) with kind "space", "wide" (one CJK char or mark) or "word".

    ``pre[i]`` is the width in cells of ``text[:i]``.
    """
    out: list[tuple[int, int, str]] = []
    spaces, narrow = _SPACES.match, _NARROW_RUN.match
    i = start
    while i < end:
        ch = text[i]
        if ch.isspace():
            j = spaces(text, i, end).end()
            out.append((i, j, "space"))
        elif pre[i + 1] - pre[i] == 2:
            j = i + 1
            out.append((i, j, "wide"))
        else:
            m = narrow(text, i, end)  # most of a word at once; the loop checks the rest
            j = m.end() if m else i
            while j < end and not text[j].isspace() and pre[j + 1] - pre[j] == 1:
                j += 1
            out.append((i, j, "word"))
        i = j
    return out


def _prefix_widths(text: str) -> list[int]:
    """``out[i]``: the width in cells of ``text[:i]``."""
    if text.isascii():
        return list(range(len(text) + 1))
    return list(accumulate(map(_WIDTHS.__getitem__, text), initial=0))


def _last_solid_end(line: list[tuple[int, int, str]], stop: int) -> int | None:
    """The end of the last token of ``line[:stop]`` that is not a space (None: all are)."""
    for k in range(stop - 1, -1, -1):
        if line[k][2] != "space":
            return line[k][1]
    return None


def line_ranges(text: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each line, so that ``text[start:end]`` fits in ``width`` cells."""
    width = max(2, width)
    pre = _prefix_widths(text)
    ranges: list[tuple[int, int]] = []
    para_start = 0
    for para in text.split("\n"):
        para_end = para_start + len(para)
        tokens: list[tuple[int, int, str]] = []
        for s, e, kind in _tokens(text, para_start, para_end, pre):
            if kind == "word" and pre[e] - pre[s] > width:  # fold a word too long to fit
                tokens += [(k, k + 1, "word") for k in range(s, e)]
            else:
                tokens.append((s, e, kind))
        line: list[tuple[int, int, str]] = []
        solid_end: int | None = None  # end of the line's last token that is not a space
        line_start = para_start
        for tok in tokens:
            s, e, kind = tok
            if solid_end is None or pre[e] - pre[line_start] <= width:
                line.append(tok)
                if kind != "space":
                    solid_end = e
                continue
            if kind == "space":  # break at the space, which is dropped
                ranges.append((line_start, solid_end))
                line, line_start, solid_end = [], e, None
                continue
            cut = _cut(text, line, tok)
            kept_end = _last_solid_end(line, cut)
            if kept_end is None:
                line.append(tok)  # nothing could stay: overflow rather than loop
                solid_end = e
                continue
            ranges.append((line_start, kept_end))
            line = line[cut:] + [tok]
            while line and line[0][2] == "space":
                line.pop(0)
            line_start = line[0][0]
            solid_end = _last_solid_end(line, len(line))
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
