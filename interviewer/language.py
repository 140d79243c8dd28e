"""Which script a text is written in: the rule the bank, the grader and the prober share.

Plain ``re`` only, so that loading a bank does not import numpy before the first frame.
"""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def cjk_count(text: str) -> int:
    return len(CJK.findall(text))


def language_of(text: str) -> str:
    """``zh`` when CJK characters outnumber Latin-script words, else ``en``."""
    cjk = cjk_count(text)
    words = len(_LATIN_WORD.findall(text))
    return "zh" if cjk and cjk >= words else "en"
