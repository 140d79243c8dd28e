"""What a span claims, beyond what it is about.

Embedding similarity says a span is about a point's topic; it cannot tell "累积N个
micro-batch后再更新参数" from "每个micro-batch都立即更新参数". The checks here read the two
texts for the few shapes of contradiction that can be seen without a model of language,
in Chinese and English:

``negated``  one side denies what the other asserts: a negation cue (不/没有/无需/并非/避免…,
             not/no/never/without…) whose scope shares terms with the other side, which
             asserts them without a negation.
``reversed`` the two sides move the same quantity in opposite directions (增加/减少, 提高/
             降低, 变大/变小, more/less, faster/slower, before/after…;
             :mod:`interviewer.grading.directions`).
``swapped``  each names a member of one closed set of alternatives and they share none
             (微软 vs 谷歌, 流水线并行 vs 专家并行, FP16 vs INT8, exactly-once vs at-least-once);
             see :mod:`interviewer.grading.alternatives`, which also reads ``narrowed`` and
             ``widened`` ("只有 X" against "X 和 Y 都").
``number``   both give a number for the same unit and the numbers differ
             (:mod:`interviewer.grading.numbers`).

And whether a span *says* anything (:mod:`interviewer.grading.naming`): :func:`is_bare` is true for
a bare name or a list of names with no predicate, which can name a point but never state it.

Plain ``re`` only: no numpy, so the report and the TUI can import the names cheaply.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.alternatives import (  # noqa: F401 (the grader reads them from here)
    ALTERNATIVES,
    narrowed,
    swapped,
)
from interviewer.grading.claim_text import (
    _BRACKETS,
    _STOP_EN,
    _WORD,
    CJK_RUN_START,
    _body,
    _label,
    _stem,
    _terms,
    _units,
)
from interviewer.grading.degrees import agreed_degrees, degree_after, degree_of_another
from interviewer.grading.glossary import squash
from interviewer.content.language import CJK_CHARS, language_of
from interviewer.grading.naming import _ITEM_SEP, is_bare, is_term_list, topic_core  # noqa: F401
from interviewer.grading.directions import (  # noqa: F401 (tests read them here)
    changed_against_steady,
    direction_conflict,
)
from interviewer.grading.numbers import number_conflict, numbers  # noqa: F401 (tests read it here)
from interviewer.grading.polarity import (_APOSTROPHE, _CONDITION, _QUESTION_EN, _QUESTION_ZH,
                                          NOT_A_DENIAL_AFTER_BU, _minus, _Polarity, _polarity,
                                          _within, stated_as_asserted, without_replaced)
from interviewer.grading.reversals import (mappings, reversed_mapping, reversed_move,
                                           reversed_steps, reversed_trade, reversed_transition,
                                           steps, transitions)
from interviewer.grading.compared import Compared, Names, states_another_point, swapped_thing
from interviewer.grading.scopes import other_scope
from interviewer.grading.averting import denies_preventing
from interviewer.grading.not_only import only_against_not_only
from interviewer.grading.roles import roles_swapped
from interviewer.grading.subjects import paired_by_subject

# ---------------------------------------------------------------- negation

_DENIAL = re.compile(r"(?<!差)不(?!" + NOT_A_DENIAL_AFTER_BU + r")|没|无需|无用|并非|用不着|"
                     r"\b(?:not|no|never|useless|n't)\b|n't")


# a name of two things and what they do together ("通信与计算重叠", "存储与计算分离")
_TOGETHER = re.compile(r"^[^、，,；;]{2,12}[与和及][^、，,；;]{2,12}(?:重叠|结合|分离|解耦|融合|协同|对齐|交互)$")


def _denies_name(point: str, span: str) -> bool:
    """A point that is only a name ("KV Cache", "通信与计算重叠") is denied by a clause that
    names it next to a negation of it: "混合精度训练其实没什么用", "用不着数据并行", "通信和计算
    没办法重叠", "idempotency keys are not needed". A name in brackets counts as well as the
    one outside. An English negation of another thing ("UUIDs need no coordination") denies
    nothing of the name. A name that is itself a denial ("No networking") agrees with one."""
    if _DENIAL.search(point.lower()):
        return False
    if _TOGETHER.search(point):
        # "通信与计算重叠" names what two things do together: one name, whose units are its
        # parts' (the joining 与 makes none), denied only with both and what they do
        names = [" ".join(_ITEM_SEP.split(point))]
    else:
        names = [n for n in _ITEM_SEP.split(_BRACKETS.sub(" ", point)) + re.findall(
            r"[（(]([^（）()]*)[)）]", point) if squash(n)]
    for clause in re.split(r"[，,；;。.!?！？：:]", span):  # "积压原因：消费者跟不上"
        lowered = _QUESTION_EN.sub(" ", _QUESTION_ZH.sub(" ", clause.lower()))
        agreed = agreed_degrees(clause, point)
        denials = [m for m in _DENIAL.finditer(lowered)
                   if not _CONDITION.search(lowered[:m.start()])
                   and _of_the_name(lowered, m, point.lower())
                   and degree_after(lowered[m.end():]) not in agreed
                   and not degree_of_another(lowered, m, point)]
        if not denials:
            continue
        have = _units(lowered)
        for name in names:
            units = _units(name.lower())
            if units and len(units & have) >= max(1, 0.6 * len(units)):
                return True
            if _denied_right_after(lowered, denials, name):
                return True
    return False


_NAME_STOP = re.compile(r"[→–—>=、/或和与及]|\b(?:or|and)\b")


def _denied_right_after(lowered: str, denials: list[re.Match], name: str) -> bool:
    """The name, however it is spaced ("FlashAttention" for "Flash Attention"), right after
    one of the clause's denials of it, with at most a verb of use or need between:
    "并不需要FlashAttention", "don't need flash attention"."""
    squashed = squash(name)
    if len(squashed) < 4:
        return False
    for m in denials:
        after = _NAME_STOP.split(lowered[m.end():m.end() + len(name) + 12], maxsplit=1)[0]
        if squash(after).find(squashed) in range(0, 7):
            return True
    return False


# what an English denial of a name says it lacks: use, need, worth ("not needed"), or what it
# does ("does not save memory"); a denial of another thing ("need no coordination") is none
_WORTH_EN = frozenset(
    "needed necessary useful required important used helpful matter matters help helps work "
    "works effective worth relevant supported exist exists use meaningful reliable accurate "
    "challenge problem issue concern factor bottleneck save saves reduce reduces speed speeds "
    "accelerate accelerates solve solves fix fixes address addresses improve improves lower "
    "lowers cut cuts avoid avoids prevent prevents do does make makes support supports handle "
    "handles affect affects change changes scale scales apply applies".split())
_FILLER_EN = frozenset("really much very so too at all any a an the that need needs require "
                       "requires be been have has is are actually even".split())


def _of_the_name(lowered: str, denial: re.Match, name: str) -> bool:
    """The denial is of the name: a Chinese one in its clause, an English one when what
    follows it is part of the name, a word of its use, worth or effect, or nothing."""
    after = lowered[denial.end():]
    if denial.group() == "useless":
        return True
    if re.match(f"\\s*[{CJK_CHARS}]", after):
        # in its clause, unless it denies a cost the name spares ("前面 token 的 kv 不重算")
        # or says what the speaker does not know ("AWQ 不太清楚细节")
        return not _SPARED_ZH.match(after)
    words = [w for w in _WORD.findall(after) if w not in _FILLER_EN][:3]
    content = [w for w in words if w not in _STOP_EN][:2]
    return not content or words[0] in _WORTH_EN or any(w in name or _stem(w) in name
                                                        for w in content)


_SPARED_ZH = re.compile(r"\s*(?:太|用|需要|必|会|再|会再|用再|需要再|必再|是很|怎么)?\s*(?:重算|重新计算|重复|浪费|阻塞|"
                        r"等待|碎片|冗余|拷贝|复制|清楚|确定|了解|记得|熟)")
_LABEL_DENIAL = re.compile(r"(?:不存在|不需要|不用|没有|没|无需|并不存在)\s*(.{1,12})|"
                           r"\b(?:no|never|not)\b\s+(?:any\s+|a\s+|an\s+)?(.{1,30})")


def _denies_label(label: str, span: str) -> bool:
    """A denial right before the point's topic: "不存在流水线气泡", "there is no bubble"."""
    name = squash(label)
    if not name:
        return False
    terms = _terms(label)
    for clause in re.split(r"[，,；;。.!?！？]", span.lower()):
        for m in _LABEL_DENIAL.finditer(clause):
            if _CONDITION.search(clause[:m.start()]):
                continue
            denied = m.group(1) or m.group(2)
            # the label itself, or its glossary term in any language, right after the denial
            head = " ".join(denied.split()[:3]) if m.group(2) else denied[:6]
            if squash(denied).startswith(name) or (
                    terms and terms <= _terms(head) and language_of(label) != language_of(span)):
                return True
    return False


# "immutable" against "mutable", "unbalanced" against "balanced": an English antonym made by
# a prefix, of a word that reads as a property
_PREFIXED = re.compile(r"\b(un|non-?|in|im|ir|il|dis)([a-z]{5,})\b")
_PROPERTY = re.compile(r"(?:able|ible|ed|ent|ant|ive|al|ic|ous|ing|ate|ful|ary|ct|ure|ile)$")


@lru_cache(maxsize=16384)  # a point is read against every span, a span against every point
def _english_words(text: str) -> frozenset[str]:
    # "non clustered" is written apart what "non-clustered" and "nonclustered" write together
    return frozenset(re.findall(r"[a-z][a-z\-]*", _NON_APART.sub("non-", text.lower())))


_NON_APART = re.compile(r"\bnon\s+(?=[a-z]{5,})")


def _antonym_by_prefix(point: str, span: str) -> bool:
    p_words, s_words = _english_words(point), _english_words(span)
    p_denied, s_denied = _point_polarity(point).negated, _span_polarity(span).negated
    for mine, other, denied in ((p_words, s_words, s_denied), (s_words, p_words, p_denied)):
        for word in mine:
            m = _PREFIXED.fullmatch(word)
            # ... unless a side says both ("non-strict mode …, in strict mode …"), or the
            # other side denies the plain word ("hasn't committed" is "uncommitted")
            if (m and _PROPERTY.search(m.group(2)) and m.group(2) in other
                    and word not in other and m.group(2) not in mine
                    and _stem(m.group(2)) not in denied):
                return True
    return False


def negation_conflict(point: str, span: str, whole: str | None = None) -> bool:
    """One side denies what the other asserts, on shared terms. ``whole``: the point ``point``
    is a part of, whose being a bare name decides how it is read."""
    if _point_is_bare(whole or point):
        return _denies_name(point, span)
    if _antonym_by_prefix(point, span):
        return True
    label = _label(point)
    if label and is_bare(label) and not _point_polarity(point).has_negation \
            and _denies_label(label, span):
        return True  # "不存在负载均衡问题" denies a point labeled 负载均衡
    p, s = _point_polarity(point), _span_polarity(span)
    across = language_of(point) != language_of(span)
    if across:
        # what one side says inside a clause that denies is not what it asserts: English
        # denies the predicate after its subject ("dropout is not needed"), Chinese the
        # object after the cue ("不需要 dropout")
        p, s = p.plainly, s.plainly

    def loose(reading, text: str):
        """The loose reading (read only when the strict one finds a conflict)."""
        return reading(text).plainly if across else reading(text)

    # each check is read again against the other side's loose reading: what a point denies
    # inside a condition ("if no partition") or by 无 and 非 ("即无脏读") is no assertion of it
    if s.has_negation:
        spared = agreed_degrees(span, point) | stated_as_asserted(s, p)
        if _denies(s, p, by_units=True, spared=spared) \
                and _denies(s, loose(_point_loose, point), by_units=True, spared=spared):
            return True
    if p.has_negation:
        spared = p.averted | agreed_degrees(point, span) | stated_as_asserted(p, s)
        if s.heads and s.heads <= p.negated:
            # the span denies only what lies inside the point's denials ("在并发下不安全"
            # against "并不是并发安全的"): where the point's reach begins is no assertion
            spared |= p.heads
        if _denies(p, s, spared=spared) and _denies(p, loose(_span_loose, span), spared=spared):
            return True
    if across:
        # across languages only glossary terms meet: the term right after a denial, which
        # the other side states in a clause with no denial (word order differs: "the
        # parameters are not updated" denies what comes before the cue), and which the
        # denying side does not state as well
        for mine, other, reading, text in ((s, p, _point_loose, point),
                                           (p, s, _span_loose, span)):
            if any(_states(other, mine, t) and _states(loose(reading, text), mine, t)
                   for t in mine.head_terms):
                return True
    return False


def _denies(denier: _Polarity, other: _Polarity, by_units: bool = False,
            spared: frozenset[str] = frozenset()) -> bool:
    """``denier`` denies what ``other`` asserts: the head of one of its denials (``spared``
    aside), or (``by_units``) three Chinese units or more of their reach, unless ``other``
    denies every head of them too: then the denials agree, and their reach has only run on
    past the head into what both say ("竞争不激烈两者差不多" against "如果竞争资源不激烈，两者
    的性能是差不多的")."""
    agreed = bool(denier.heads) and denier.heads <= other.negated
    if by_units and not agreed and len({u for u in (denier.negated - other.negated)
                                        & other.asserted if CJK_RUN_START.match(u)}) >= 3:
        return True
    return bool(_within(_minus(denier.heads - spared, other.negated), other.asserted))


def _states(other: _Polarity, mine: _Polarity, term: frozenset[str]) -> bool:
    """``other`` states ``term`` in a clause with no denial, and ``mine`` does not state it."""
    return (term <= other.plain_terms and not term & other.negated_terms
            and not term <= mine.asserted_terms)


# ---------------------------------------------------------------- all of it

# What a point says is read once per process: rubric points are graded against every answer.
_point_is_bare = lru_cache(maxsize=4096)(lambda point: is_bare(point))
_point_polarity = lru_cache(maxsize=4096)(lambda point: _polarity(without_replaced(_body(point))))
_point_loose = lru_cache(maxsize=4096)(
    lambda point: _polarity(without_replaced(_body(point)), loose=True))
# ... and a span against every point
_span_polarity = lru_cache(maxsize=16384)(lambda span: _polarity(span, regarded=True))
_span_loose = lru_cache(maxsize=16384)(lambda span: _polarity(span, loose=True))


# items of a list that each explain their own name: "GPTQ (…), AWQ (…), SmoothQuant (…)"
_ITEM_END = re.compile(r"[)）]\s*[,，、;；]\s*")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9\-]{2,}")


def own_item(point: str, span: str) -> str:
    """The item of such a list that names one of the point's names, when exactly one does;
    else the span as it is."""
    items = _ITEM_END.split(span)
    if len(items) < 2:
        return span
    names = {n.lower() for n in _NAME.findall(point)}
    mine = [item for item in items
            if names & {n.lower() for n in _NAME.findall(item.split("(")[0].split("（")[0])}]
    return mine[0] if len(mine) == 1 else span


# a point that is a check to make starts with it ("是否使用了 X", "check whether X"); "控制是否
# 允许 X" inside a claim is part of it
_WHETHER = re.compile(r"^\s*(?:(?:检查|确认|看看|看|判断|查看)\s*)?(?:是否|有没有|是不是)|"
                      r"^\s*(?:(?:check|verify|see)\s+)?whether\b")
_point_asks = lru_cache(maxsize=4096)(lambda point: bool(_WHETHER.search(_body(point).lower())))


def contradiction(point: str, span: str, compared: Compared = Compared()) -> str | None:
    """How ``span`` contradicts ``point`` (``negated``, ``reversed``, ``swapped``,
    ``narrowed``, ``number``, ``roles``),
    or None. Brackets are read as part of the text they explain; a bare name, or a list of
    names, claims nothing. ``compared``: the things the point's question compares, which
    are alternatives of their own (:mod:`interviewer.grading.compared`)."""
    # an apostrophe copied from a document ("isn’t") is a plain one to every rule below
    point, span = _APOSTROPHE.sub("'", point), _APOSTROPHE.sub("'", span)
    if (is_bare(span) or is_term_list(span)) and not (transitions(span) or steps(span)
                                                        or mappings(span)):
        return None  # ("O(n) → O(n^2)" names two states and claims the move, "A first, then
        # B" an order)
    span = own_item(point, span)
    # a point that is a check to make ("是否使用了 torch.compile") is answered, not denied, by
    # a "no"; what it says to do about it can still be said the other way round
    # a denial of another scope ("across partitions" against "within a partition") is no
    # denial of the point
    if (not _point_asks(point) and not other_scope(point, span)
            and _negation_by_subject(point, span, compared.names)) \
            or changed_against_steady(point, span) or only_against_not_only(point, span) \
            or denies_preventing(point, span):
        return "negated"
    if direction_conflict(point, span) or reversed_transition(point, span) \
            or reversed_move(point, span) or reversed_trade(point, span) \
            or reversed_steps(point, span) or reversed_mapping(point, span):
        return "reversed"
    member = swapped(point, span)
    if (member and not states_another_point(point, span, member[1], compared)) \
            or swapped_thing(point, span, compared):
        return "swapped"
    if narrowed(point, span):
        return "narrowed"
    if narrowed(span, point):
        return "widened"
    if number_conflict(point, span):
        return "number"
    if roles_swapped(point, span, compared.names):
        return "roles"
    return None


def _negation_by_subject(point: str, span: str, names: Names = ()) -> bool:
    """:func:`negation_conflict`, read thing by thing when the point says one thing of each
    of several named things (:mod:`interviewer.grading.subjects`)."""
    pairs = paired_by_subject(point, span, names)
    if pairs is None:
        return negation_conflict(point, span)
    return any(negation_conflict(mine, said, whole=point) for mine, said in pairs)


_COMPOUND = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+")


def names_neighbour(point: str, span: str) -> bool:
    """The point's compound name (DeepSpeed-Chat, ZeRO-Offload) is absent from the span, which
    names only its head (DeepSpeed, ZeRO): a neighbouring thing, not the point's."""
    compounds = _compounds(point)
    if not compounds:
        return False
    lowered, squashed = span.lower(), squash(span)
    return any(name not in squashed and head.search(lowered) for name, head in compounds)


@lru_cache(maxsize=4096)
def _compounds(point: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The point's compound names (squashed), each with a pattern for its head alone."""
    out = []
    for name in _COMPOUND.findall(point):
        head = re.split(r"[-_]", name)[0].lower()
        if len(head) >= 3:
            out.append((squash(name), re.compile(rf"(?<![a-z0-9]){re.escape(head)}(?![a-z0-9\-_])")))
    return tuple(out)


