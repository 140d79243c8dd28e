"""Two things of one point, each with what the point says of it, said the other way round:
"RPO 决定切换速度，RTO 决定备份频率" against "RTO 决定切换速度要求，RPO 决定备份频率要求";
"训练后量化叫 QAT，量化感知训练叫 PTQ" against "训练后量化 PTQ vs 量化感知训练 QAT".

Each named thing (a glossary term, a member of a set of alternatives, an acronym) that both
texts name, each in one clause, is paired with what its clause says once the names are taken
out. The roles are swapped when two or more such things are each said, in the span, in words
closer to what the point says of another of them than of itself (two exchanged, or three
passed round), or when one of two is said plainly in the other's words and the other leans
to the first's ("binlog 是 InnoDB 引擎独有的，redo log 才是 MySQL server 层的通用日志"). Only
things the point and the span each name in clauses of their own are compared: a clause
that names two things says one thing of both, as a point's two clauses said in one sentence
do ("对于流水线并行，一般通过 Infiniband 交换机" against "流水线并行一般通过无限带宽交换机"),
unless it compares them ("GPU 比 CPU 更擅长逻辑控制" against "CPU 更擅长复杂逻辑控制，而 GPU …
更擅长数学运算"). A paraphrase that keeps the pairs, in whatever order, is not a swap.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.content.language import language_of
from interviewer.grading.alternatives import _MEMBER_PATTERNS, _members
from interviewer.grading.claim_text import named_sets
from interviewer.grading.compared import Names, named_things

_CLAUSE = re.compile(r"[，,。；;！!？?\n]|\bvs\.?(?=\s)|\bwhile\b|\bwhereas\b|而且|而")
_COMPARES = re.compile(r"比|\bthan\b", re.IGNORECASE)  # "GPU 比 CPU 更擅长…" sets two things apart
_ACRONYM = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]{1,5}(?![A-Za-z0-9])")
_GRAMS = re.compile(r"[\u4e00-\u9fff]|[a-z0-9]{2,}")  # not a lone letter or digit
MARGIN = 0.15  # how much closer to the other thing's words, for each of the two
MIN_OVERLAP = 0.25  # ... and how close at least: the words must be the point's own
PLAINLY = 0.4  # ... or, for one of the two, this much closer, the other only leaning


@lru_cache(maxsize=16384)
def _names(clause: str, compared: Names = ()) -> tuple[frozenset[str], str]:
    """The things ``clause`` names (glossary sets, members of sets of alternatives,
    acronyms, the things its question compares), and the clause with their names taken
    out. Only patterns compiled already: a grade compiles nothing for the names an answer
    brings."""
    lowered = clause.lower()
    keys, rest = set(), lowered
    if compared:
        found, rest = named_things(compared, rest)
        keys |= {f"c{i}" for i in found}
    for set_id, alias in named_sets(clause):
        keys.add(f"t{set_id}")
        rest = rest.replace(alias.lower(), " ")
    for g, patterns in enumerate(_MEMBER_PATTERNS):
        for i in _members(lowered, g):
            keys.add(f"a{g}.{i}")
            rest = patterns[i].sub(" ", rest)
    for m in _ACRONYM.finditer(clause):
        keys.add("A" + m.group().lower())
        rest = rest.replace(m.group().lower(), " ")
    return frozenset(keys), rest


def _split(text: str) -> list[str]:
    cuts = [m.start() for m in _CLAUSE.finditer(text)]
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]


@lru_cache(maxsize=16384)  # a point is read against every span; a span against every point
def _clauses(text: str, compared: Names = ()) -> dict[str, tuple[int, str]]:
    """Each thing named in exactly one clause of ``text`` -> (that clause's place, the
    clause without the names in it)."""
    where: dict[str, list[tuple[int, str]]] = {}
    for i, clause in enumerate(_split(text)):
        keys, rest = _names(clause, compared)
        for key in keys:
            where.setdefault(key, []).append((i, rest))
    return {key: places[0] for key, places in where.items() if len(places) == 1}


@lru_cache(maxsize=16384)  # a span is read against every point
def _comparisons(text: str) -> tuple[bool, ...]:
    """For each clause of ``text``, whether it compares two things ("比", "than")."""
    return tuple(bool(_COMPARES.search(clause)) for clause in _split(text))


def _grams(text: str) -> set[str]:
    units = _GRAMS.findall(text.lower())
    return set(units) | {a + b for a, b in zip(units, units[1:])}


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def roles_swapped(point: str, span: str, compared: Names = ()) -> tuple[str, str] | None:
    """The keys of two things whose roles ``span`` swaps against ``point``, or None. Texts in
    two languages share too few words to tell whose words are whose: never a swap.
    ``compared``: the names of the things the point's question compares."""
    said = _clauses(point, compared)
    if len(said) < 2 or language_of(point) != language_of(span):
        return None  # most points have nothing to exchange: the span is not read
    says = _clauses(span, compared)
    common = sorted(set(said) & set(says))
    if len(common) < 2:
        return None
    compares = _comparisons(span)
    p = {k: _grams(said[k][1]) for k in common}
    s = {k: _grams(says[k][1]) for k in common}
    misplaced, leaning = [], {}
    for x in common:
        others = [(_overlap(s[x], p[y]), y) for y in common
                  if said[y][0] != said[x][0] and (says[y][0] != says[x][0] or compares[says[x][0]])]
        if not others:
            continue
        own, (other, best) = _overlap(s[x], p[x]), max(others)
        if other >= own + MARGIN and other >= MIN_OVERLAP:
            misplaced.append((x, best))
        if other > own:
            leaning[x] = (best, other - own)
    if len(misplaced) >= 2:
        return misplaced[0]
    # ... or one said plainly in the other's words and the other leaning to the first's
    for x, (y, margin) in leaning.items():
        if margin >= PLAINLY and y in leaning and leaning[y][0] == x:
            return x, y
    return None
