"""Which script a text is written in: the rule the bank, the grader and the prober share.

Plain ``re`` only, so that loading a bank does not import numpy before the first frame.
"""

from __future__ import annotations

import re

CJK_CHARS = "\u3400-\u9fff\uf900-\ufaff"  # CJK ideographs, with extension A and compatibility
CJK = re.compile(f"[{CJK_CHARS}]")
CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def cjk_count(text: str) -> int:
    return len(CJK.findall(text))


def language_of(text: str) -> str:
    """``zh`` when CJK characters outnumber Latin-script words, else ``en``."""
    cjk = cjk_count(text)
    words = len(_LATIN_WORD.findall(text))
    return "zh" if cjk and cjk >= words else "en"
