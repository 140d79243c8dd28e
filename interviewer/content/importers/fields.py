"""Which column or key holds what: names in Chinese or English, or given with ``--columns``.

Shared by the CSV/TSV and JSON importers: both read records of named fields.
"""

from __future__ import annotations

import re
from pathlib import Path

from interviewer.errors import BankError
from interviewer.content.importers.result import Found, Reading, difficulty_of, printable, split_tags

ROLES = ("question", "answer", "tags", "id", "difficulty", "key_points")
_NAMES = {
    "question": "question|q|questions|问题|题目|题干|面试题|front|prompt|正面",
    "answer": "answer|a|answers|reference|referenceanswer|modelanswer|答案|参考答案|标准答案|"
              "回答|解答|back|response|背面",
    "tags": "tags|tag|标签|category|categories|分类|类别|topic|topics|主题",
    "id": "id|qid|questionid|编号|序号|题号|guid",
    "difficulty": "difficulty|level|难度|等级",
    "key_points": "keypoints|keypoint|points|要点|必答点|关键点|得分点|rubric",
}
_ALIASES = {name: role for role, names in _NAMES.items() for name in names.split("|")}


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-/]+", "", name.strip().lower())


def parse_columns(spec: str | None) -> dict[str, str]:
    """``question=题干,answer=解析`` → ``{"question": "题干", "answer": "解析"}``."""
    if not spec:
        return {}
    out = {}
    for item in spec.split(","):
        role, sep, name = item.partition("=")
        role = role.strip().replace("-", "_")
        if not sep or role not in ROLES or not name.strip():
            raise BankError(f"--columns: '{printable(item.strip())}' is not ROLE=NAME",
                            hint=f"roles: {', '.join(ROLES)}")
        out[role] = name.strip()
    return out


def map_fields(names: list[str], explicit: dict[str, str], path: Path,
               reading: Reading) -> dict[str, str]:
    """role → field name; fields with no role are reported as not mapped."""
    mapping: dict[str, str] = {}
    for role, name in explicit.items():
        if name not in names:
            raise BankError(f"--columns: no field '{printable(name)}' "
                            f"(fields: {printable(', '.join(names))})", path=path)
        mapping[role] = name
    for name in names:
        role = _ALIASES.get(_norm(name))
        if name in mapping.values():
            continue
        if role and role not in mapping:
            mapping[role] = name
        else:
            reading.not_mapped(f"field '{name}'")
    if "question" not in mapping or "answer" not in mapping:
        missing = " and ".join(r for r in ("question", "answer") if r not in mapping)
        raise BankError(f"no {missing} field among: {printable(', '.join(names)) or 'none'}",
                        path=path,
                        hint="name them question/answer (问题/答案) or use "
                             "--columns question=NAME,answer=NAME")
    return mapping


def found_from(record: dict, mapping: dict[str, str], path: Path, line: int | None,
               reading: Reading, where: str = "") -> None:
    def get(role: str) -> object:
        return record.get(mapping[role]) if role in mapping else None

    question, answer = _text(get("question")), _text(get("answer"))
    if not question:
        reading.skip(path, line, f"{where}no question")
        return
    if not answer:
        reading.skip(path, line, f"{where}no answer to '{question[:40]}'")
        return
    raw_difficulty = _text(get("difficulty"))
    if raw_difficulty and not difficulty_of(raw_difficulty):
        reading.not_mapped(f"difficulty '{raw_difficulty}'")
    points = get("key_points")
    if isinstance(points, list):
        key_points = tuple(t for t in (_text(p) for p in points if not isinstance(p, list)) if t)
    else:
        key_points = tuple(p.strip(" -•*") for p in re.split(r"\n|[;；|]", _text(points))
                           if p.strip(" -•*"))
    reading.found.append(Found(text=question, answer=answer, path=path, line=line or 0,
                               id=_text(get("id")) or None, tags=split_tags(get("tags")),
                               difficulty=difficulty_of(raw_difficulty),
                               key_points=key_points))


def _text(value: object) -> str:
    if value is None or isinstance(value, (dict, bool)):
        return ""
    if isinstance(value, list):  # a list of lines; anything nested deeper is no text
        return "\n".join(str(v).strip() for v in value
                         if isinstance(v, (str, int, float)) and not isinstance(v, bool)
                         and str(v).strip())
    return str(value).strip()
