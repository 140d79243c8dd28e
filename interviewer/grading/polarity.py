"""What a text denies: the negation cues of Chinese and English, and their reach.

``polarity(text)`` reads a text into the units inside a negation's scope, the head of each
scope (what is denied), the units asserted outside every scope, and the same in glossary
terms, which meet across languages. A negation inside a condition ("if the model doesn't
fit", "…没有成功发送回时") or a question ("有没有", "允不允许") asserts nothing.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from interviewer.content.language import CJK_CHARS
from interviewer.grading.alternatives import _SPAN_CLAUSE
from interviewer.grading.claim_text import _CJK_RUN, _STOP_EN, _WORD, _stem, _terms, _units

# Chinese cues; 不 is left out where it only forms another word (不同 but not 不同步, 不断, 学不动,
# 不仅, 不只, 不能只, 不光, 不单 (not 不单独), 差不多 ...): "not only" affirms what follows.
# what 不 forms a word with, not a denial, wherever a denial is read; NOT_A_DENIAL_AFTER_BU
# is that part of a lookahead after 不
NOT_A_DENIAL_AFTER_BU = r"[断仅只光但过少久管论止然如足错稳变行]|单(?!独)|(?:能|要|应该?|该|可以?)只|同(?!步)"
_NEG_ZH = re.compile(r"(?<![先暂还尚差])(?:不足以|不(?!" + NOT_A_DENIAL_AFTER_BU
                     + r"|[好够了到]|一(?!致)|(?<=[学拉推搬跑走挪]不)动)|没有|没|"
                     r"无需|无须|无法|并非|并不|绝非|未(?!来)|避免|防止|阻止|免得|以免|而非|而不是|缺少|缺乏|缺失|丢失|"
                     r"(?<![区类分级识特个差告性鉴辨派])别(?![名的人处只]))")
# ... but 不到 before an amount is a bound ("下降不到百分之一"), unless it is one not reached
# ("损失降不到 1% 以内")
_AMOUNT = r"\s*(?:[0-9０-９.]|[一二两三四五六七八九十百千万半几]|百分之)"
_CANNOT_ZH = re.compile(f"([{CJK_CHARS}]{{2}})不(?:了|回来|回去|过来|出来|起来|下来|进来|掉|到(?!{_AMOUNT})"
                        f"|到(?={_AMOUNT}[^，,；;。]{{0,10}}?(?:以内|以下|之内)))")
# ... and a verb of one character before 不到 or 不见: "看不到" denies 看到, "达不到" 达到
_CANNOT_ONE_ZH = re.compile(r"([看听找做拿想猜写读查见算存装放跑用达遇碰])不([到见])")
# "有没有 X", "是不是 X", "是否 X", "允不允许", "成没成功": a question about X, not a denial of it
_QUESTION_ZH = re.compile(f"有没有|是不是|会不会|能不能|要不要|用没用|开没开|是否|有无|([{CJK_CHARS}])[没不]\\1")
# what else denies, read only to see that a point denies what a span denies: 无 and 非 as
# prefixes ("即无脏读", "非同步副本"), which also form words that deny nothing (无论, 非常),
# and a hedge ("不一定有单独的 loss" is not "有单独的 loss")
_LOOSE_ZH = re.compile(_NEG_ZH.pattern[:-1]
                       + r"|(?<!除)非(?![常要得凡])|无(?![论关限穷数非])|消除|去掉|去除|免去|省去|省掉|"
                       r"永不|从不|绝不|还没|尚未|丢(?!失)|关闭|关掉|禁用|禁止|取消|"
                       r"不一定|不见得|未必)")
_NEG_EN = re.compile(r"\b(?:not|no|never|without|cannot|can't|none|nor|neither|avoid|avoids|"
                     r"avoiding|prevent|prevents|preventing|lack|lacks|lacking|missing|instead of|"
                     r"give up|gives up|giving up|gave up|sacrifice|sacrifices|sacrificing|"
                     r"rather than|skip(?!\s+connection)|skips|skipping|bypass|bypasses|bypassing|"
                     r"ignore|ignores|ignoring|other than|anything but|nobody|no one|except)\b|"
                     r"n't\b|"
                     # ... and a participle before its noun: "the avoided matrix" (not "is
                     # avoided", read as a passive)
                     r"\b(?<!is )(?<!are )(?<!be )(?<!been )(?<!was )(?<!were )"
                     r"(?:avoided|skipped|bypassed|ignored)(?=\s+[a-z])")
# ... and "near-zero quality loss", "removing any overhead"
_LOOSE_EN = re.compile(_NEG_EN.pattern + r"|\b(?:zero|near-zero|negligible|minimal|drop|drops|"
                       r"dropped|dropping|"
                       r"remov(?:e|es|ed|ing)|eliminat(?:e|es|ed|ing)|disabl(?:e|es|ed|ing)|"
                       r"(?:turn|switch)(?:s|ed|es|ing)? off)\b")
# a negation inside a condition ("if the model doesn't fit") asserts nothing
_CONDITION = re.compile(r"(?:\b(?:if|(?<!is )(?<!are )(?<!'s )when|unless|whether)\b|如果|若|假如|要是|当|"
                        r"先|暂时|还没|确认|检查|核实)"
                        r"[^，,；;。.!?！？]*$")
_QUESTION_EN = re.compile(r"\b(?:whether|if or not)\b")
# a clause that ends in 时, 的时候 or 的话 is a condition too ("应答没有发送回 Producer 端时，")
_WHEN = r"(?<![实及超同准按定临暂小即适])时"  # the 时 of a condition, not of 实时, 及时 ...
_WHEN_ZH = re.compile(rf"[^，,；;。.!?！？]*?(?:{_WHEN}|时候|的话)\s*(?:[，,；;。.!?！？]|$)")
# a cue followed in its clause by 就 or 才 states a condition ("缓存没有就去数据库读"); a clause
# that ends in a question mark asks ("怎么保证消息没有重复消费？")
_THEN_ZH = re.compile(r"[^，,；;。.!?！？]*?[就才]")
_ASKED = re.compile(r"[^，,；;。.!！]*?[?？]")
# a quoted name is mentioned, not said: a cue inside it denies nothing ("“不淘汰”策略")
_MENTION = re.compile(r"(?:[“\"‘][^”\"’]{1,20}[”\"’]|'[^'a-z]{1,20}')(?=\s*(?:策略|模式|选项|参数|配置|"
                      r"命令|policy|mode|option|setting|flag)s?)")
# a denial of a denial asserts: "不会出现不一致", "不得不按最大长度申请" (must)
_DOUBLE_GAP = re.compile(r"[会能可是要出现存在有得]{0,4}")
_QUOTED = re.compile(r"\s*[\"“'‘]([^\"”'’]{1,80})[\"”'’]")  # not "Kafka uses ZK": the whole statement
_CONSEQUENCE = re.compile(r"(?:才能|才会|才可以|才可|\bso that\b|\bin order to\b)[^，,；;。.!?！？]*")
_PASSIVE_EN = re.compile(r"\b(?:is|are|be|been|was|were)\s+(?:avoided|prevented|skipped|ignored|"
                         r"discouraged|deprecated|forbidden|disallowed|banned)\b")
_SCOPE_ZH = 8  # characters after a Chinese cue that it negates
_SCOPE_STOP = "就才则的"  # ... up to the consequence, or the end of a modifier
_LATIN_RUN = re.compile(r"[a-z0-9][a-z0-9\-]*")
_QUOTE_CHARS = "“”‘’\"「」"  # a denial reaches through them ("不是“模型变笨”")
_QUOTES = re.compile(f"[{_QUOTE_CHARS}]")
_SCOPE_EN = 4  # content words after an English cue
_NOT_ONLY = re.compile(r"\s*(?:just|only|merely|simply)\b")
_CLAUSE_END = re.compile(r"[，,；;。!?！？:：]|\.(?!\w)")
_AUX_ZH = "是会能要需用必再就都也还可得"  # skipped at the start of a scope to find its head
_ADJECTIVES_ZH = ("可用", "可靠", "可见", "可控", "可行", "可读", "可写", "可逆", "可信", "可变")
_PREP_ZH = "从在对把将被给向为因由靠"  # ... and so are prepositions: "无法从 X 恢复" denies X
# What comes between a Chinese cue and the thing it denies, Y (the cue's reach begins after it):
_CLAUSE_ZH = "[^，,；;。!?！？：:]"
_SAID_OF_ZH = re.compile(f"[{_AUX_ZH}]*(?:" + "|".join((
    f"(?:因为|由于|因){_CLAUSE_ZH}{{1,16}}?而",  # the cause: "不会因为 X 而 Y"
    f"(?:对|把|将|给|向){_CLAUSE_ZH}{{1,12}}?(?:进行|加以|作出|做出)",  # the object: "不对 X 进行 Y"
    f"(?:可以|能够)?{_CLAUSE_ZH}{{0,6}}?[的地](?=被)",  # how: "不可以强制性的被 Y"
    "可以|能够",  # "不可以 Y"
    "(?:真的|真正地?)去?",  # how surely: "不会真的去 Y"
    "(?:额外|多余|任何|专门)的?",  # how much: "不需要额外的 Y", "没有任何 Y"
)) + ")")
_REGARD_ZH = re.compile("考虑|关心|关注|在乎|理会|看")  # verbs of regard, before what they regard
_WHEN_AFTER_ZH = re.compile(f"{_WHEN}|的话|之前|之后")  # ends a clause that is a condition ("不关心结果时")

_DETERMINERS = frozenset("every some many few such both either other own whole entire".split())
_AVERT = frozenset(("避免", "防止", "阻止", "免得", "以免", "avoid", "avoids", "avoiding", "prevent",
                    "prevents", "preventing"))


_PLAIN_CLAUSE = re.compile(r"[，,；;。.!?！？：:]")


@dataclass(frozen=True)
class _Polarity:
    negated: set[str]  # units inside a negation's scope
    heads: set[str]  # the first content unit of each scope: what is denied
    asserted: set[str]  # units outside every scope
    has_negation: bool
    # the same in glossary terms, which meet across languages
    head_terms: tuple[frozenset[str], ...] = ()
    negated_terms: frozenset[str] = frozenset()
    asserted_terms: frozenset[str] = frozenset()
    averted: frozenset[str] = frozenset()  # heads of 避免, 防止, avoid, prevent
    lowered: str = ""  # the text read, lower-cased, questions set aside

    @cached_property
    def _plain_clauses(self) -> tuple[str, ...]:
        """The clauses with no cue at all (read only across languages)."""
        return tuple(c for c in _PLAIN_CLAUSE.split(self.lowered)
                     if not _NEG_ZH.search(c) and not _NEG_EN.search(c))

    @cached_property
    def plainly(self) -> _Polarity:
        """The same, asserting only what its clauses with no cue at all say: read across
        languages, whose word orders put a denied term on either side of its cue ("dropout
        is not needed", "不需要 dropout")."""
        plain = set().union(*(_units(c) for c in self._plain_clauses))
        return replace(self, asserted=self.asserted & plain)

    @cached_property
    def plain_terms(self) -> frozenset[str]:
        """Glossary terms of the clauses with no cue at all."""
        return frozenset().union(*(_terms(c) for c in self._plain_clauses))


# a formula's variable: no thing a denial is of. In a phrase after a preposition only a
# single letter is left out, a lone digit stays ("都不为 0" denies a zero); as a head any
# single character is (below). Made one rule, the two lost three contradictions of wrong
# answers on development data.
_LETTER = re.compile(r"[a-z]")
# a typographic apostrophe inside a word is a plain one: "isn’t" denies as "isn't" does
_APOSTROPHE = re.compile(r"(?<=[a-z])[’‘](?=[a-z])")


def _reach(lowered: str, start: int) -> int:
    """Where the scope of a Chinese cue ending at ``start`` ends: eight characters at most,
    a Latin word counted as one, up to a consequence or the end of a modifier."""
    stop, reach = start, 0
    while stop < len(lowered) and reach < _SCOPE_ZH and lowered[stop] not in _SCOPE_STOP \
            and re.match(f"[{CJK_CHARS}A-Za-z0-9\\- /、{_QUOTE_CHARS}]", lowered[stop]) \
            and not (lowered[stop] == "、" and not lowered[start:stop].strip()):
        word = _LATIN_RUN.match(lowered, stop)
        stop = word.end() if word else stop + 1  # a Latin word is read whole, and
        reach += 1  # counts as one character of the reach
    return stop


# what a point says is used in place of another thing, or given up: "用 bf16 代替 fp32" says
# nothing of fp32, "牺牲一定性能换取一致性" nothing of performance (a span may name either
# as it likes). Not what cannot be replaced ("不能替代规则校验"), and not in English, whose
# "instead of", "rather than" stay denials on both sides ("soft labels instead of hard
# labels"): measured on the development answers, stripping them lost contradictions of
# wrong answers and fixed none.
_REPLACES = re.compile(r"(?<![不无没])(?<![不无没][能可会法])(?:代替|替代|取代)(?![品方者物性])|牺牲|放弃")
# ... the thing: a Latin name ("代替 fp32 数值类型") or four characters at most
_REPLACED = re.compile(f"\\s*(?:[A-Za-z0-9][A-Za-z0-9_.\\-]*|[{CJK_CHARS}]{{1,4}})?")


def without_replaced(text: str) -> str:
    """``text`` without what it says another thing is used in place of, or given up."""
    out, last = [], 0
    for m in _REPLACES.finditer(text):
        if m.start() < last:
            continue
        out.append(text[last:m.start()] + " ")
        last = _REPLACED.match(text, m.end()).end()
    return "".join(out) + text[last:]


def _polarity(text: str, loose: bool = False, regarded: bool = False) -> _Polarity:
    """What ``text`` denies and asserts. ``loose`` also reads the denials inside conditions
    and by 无 and 非: to see that two texts deny the same thing, never that they disagree.
    ``regarded`` (a span's reading): a denial of regarding a thing ("不看排名") denies the
    thing too; a point that says what not to consider ("不考虑网络拓扑会造成拥塞") says
    nothing against the thing itself."""
    lowered = _QUESTION_EN.sub(" ", _QUESTION_ZH.sub("，", _APOSTROPHE.sub("'", text.lower())))

    def conditional(at: int) -> bool:
        return not loose and bool(_CONDITION.search(lowered[:at]) or _ASKED.match(lowered, at))

    mentions = [m.span() for m in _MENTION.finditer(lowered)]
    cues = [m for m in (_LOOSE_ZH if loose else _NEG_ZH).finditer(lowered)
            if not any(lo < m.start() < hi for lo, hi in mentions)]
    doubled = {i for i, (m, n) in enumerate(zip(cues, cues[1:]))
               if n.group() not in _AVERT and _DOUBLE_GAP.fullmatch(lowered, m.end(), n.start())}
    doubled |= {i + 1 for i in doubled}

    spans: list[tuple[int, int]] = []
    heads: set[str] = set()
    averted: set[str] = set()
    head_texts: list[str] = []
    for i, m in enumerate(cues):
        if i in doubled or conditional(m.start()) or (not loose and (
                _WHEN_ZH.match(lowered, m.start()) or _THEN_ZH.match(lowered, m.end()))):
            continue
        said_of = _SAID_OF_ZH.match(lowered, m.end())
        start = said_of.end() if said_of else m.end()
        stop = _reach(lowered, start)
        spans.append((m.end(), stop))  # what Y is said of is not asserted either
        scope = _QUOTES.sub("", lowered[start:stop])  # "不是“模型变笨”" denies 模型变笨
        # 不可用, 不可靠: an adjective is denied whole, not the noun after it
        scope = scope if scope.startswith(_ADJECTIVES_ZH) else scope.lstrip(_AUX_ZH)
        if m.group() not in _AVERT:  # "避免背压" may meet "otherwise … backpressure"
            head_texts.append(scope.lstrip(_PREP_ZH + " ")[:6])
        if scope[:1] in _PREP_ZH:
            # "不能由检索片段触发", "不是因为减少 flops": what is denied is the whole phrase
            # after the preposition, not its first word
            phrase = sorted(u for u in _units(scope.lstrip(_PREP_ZH + " ")) - set(_PREP_ZH)
                            if not _LETTER.fullmatch(u))
            if phrase:
                heads.add(" ".join(phrase))
            continue
        cjk = _CJK_RUN.match(scope)
        if cjk:
            heads.add(cjk.group()[:2])
            regard = _REGARD_ZH.match(cjk.group()) if regarded else None
            if regard and len(cjk.group()) >= regard.end() + 2 and not _WHEN_AFTER_ZH.search(
                    _PLAIN_CLAUSE.split(lowered[m.end():], maxsplit=1)[0]):
                # "不看排名", "不考虑排名": what is not looked at is denied with the looking
                heads.add(cjk.group()[regard.end():regard.end() + 2])
            if m.group() in _AVERT:
                averted.add(cjk.group()[:2])
        else:
            # a word of one character, a formula's variable ("不需要把 N×N 的矩阵写回") or a
            # lone digit, is no thing a denial is of
            head = {_stem(w) for w in _WORD.findall(scope)[:1] if w not in _STOP_EN and len(w) > 1}
            heads |= head
            if m.group() in _AVERT:
                averted |= head
    for m in _CANNOT_ZH.finditer(lowered):  # "触发不了" denies 触发
        if not conditional(m.start()):
            spans.append((m.start(1), m.end(1)))
            heads.add(m.group(1))
    denied_words: set[str] = set()
    for m in _CANNOT_ONE_ZH.finditer(lowered):
        if not conditional(m.start()):
            # what cannot be seen or reached is denied with it: "看不到未来的 token" against
            # "能看到未来的 token", not against "只能看到前面的 token"
            after = _CLAUSE_END.split(lowered[m.end():], maxsplit=1)[0]
            found = [w for w in (_CJK_RUN.search(after), next(
                (w for w in _WORD.finditer(after) if w.group() not in _STOP_EN), None)) if w]
            what = min(found, key=lambda w: w.start()) if found else None
            if what is None:
                obj, reach = "", 0
            elif _CJK_RUN.match(what.group()):  # a Chinese object: its first two characters
                obj, reach = what.group()[:2], what.start() + 2
            else:
                obj, reach = _stem(what.group()), what.end()
            spans.append((m.start(), m.end() + reach))
            heads.add(" ".join(filter(None, (m.group(1) + m.group(2), obj))))
            denied_words.add(m.group(1) + m.group(2))
    for m in _PASSIVE_EN.finditer(lowered):  # "`var` should be avoided" denies var
        lo = max((c.end() for c in _SPAN_CLAUSE.finditer(lowered, 0, m.start())), default=0)
        if conditional(m.start()) or not lowered[lo:m.start()].strip():
            continue
        spans.append((lo, m.start()))
        content = [_stem(w) for w in _WORD.findall(lowered[lo:m.start()]) if w not in _STOP_EN]
        head_texts.append(lowered[lo:m.start()])
        if content:
            heads.add(" ".join(content[:2]))
            averted.add(" ".join(content[:2]))
    for m in (_LOOSE_EN if loose else _NEG_EN).finditer(lowered):
        if conditional(m.start()):
            continue
        quoted = _QUOTED.match(lowered, m.end())
        if quoted:
            content = [_stem(w) for w in _WORD.findall(quoted.group(1)) if w not in _STOP_EN]
            spans.append((m.end(), quoted.end()))
            head_texts.append(quoted.group(1))
            if content:
                heads.add(" ".join(content[:3]))
            continue
        clause = _CLAUSE_END.split(lowered[m.end():], maxsplit=1)[0]  # "if not, fix it"
        if not loose and m.group() in ("not", "n't") and _NOT_ONLY.match(clause):
            continue  # "not just", "not only": a denial of nothing (but the same on both sides)
        # its reach: four content words ("not the numbers for the different cpus")
        words = [w for w in re.finditer(r"[a-z0-9][a-z0-9\-]*", clause)
                 if w.group() not in _STOP_EN][:_SCOPE_EN]
        if words:
            spans.append((m.end(), m.end() + words[-1].end()))
            content = [_stem(w.group()) for w in words if w.group() not in _STOP_EN]
            # its glossary terms: of the words the head is made of ("isn't worth losing
            # consistency" denies a worth, not consistency)
            if m.group() not in _AVERT:
                head_texts.append(" ".join([w.group() for w in words
                                            if w.group() not in _STOP_EN | _DETERMINERS][:2]))
            if content:
                # what is denied: the first content words together ("avoid gradient
                # underflow" denies an underflow, not gradients)
                heads.add(" ".join(content[:2]))
                if m.group() in _AVERT:
                    averted.add(" ".join(content[:2]))
    negated: set[str] = set(denied_words)
    for lo, hi in spans:
        negated |= _units(lowered[lo:hi])
    kept, last = [], 0
    for lo, hi in sorted(spans):
        kept.append(lowered[last:max(last, lo)])
        last = max(last, hi)
    kept.append(lowered[last:])
    # what a requirement would bring ("要足够大，才能喂饱 GPU") is not asserted to hold
    kept = [_CONSEQUENCE.sub(" ", k) for k in kept]
    return _Polarity(negated, heads, _units(" ".join(kept)), bool(spans),
                     tuple(t for t in map(_terms, head_texts) if t),
                     frozenset().union(*(_terms(lowered[lo:hi]) for lo, hi in spans)),
                     _terms(" ".join(kept)), frozenset(averted), lowered)


def _minus(heads: set[str], units: set[str]) -> set[str]:
    """``heads`` not among ``units``; a one-character head is among a bigram it starts, and
    a head of several words is among ``units`` when any of its words is."""
    return {h for h in heads if h not in units and not (
        len(h) == 1 and any(u.startswith(h) for u in units)) and not (
        " " in h and set(h.split()) & units)}


def _within(heads: set[str], units: set[str]) -> set[str]:
    """``heads`` that ``units`` hold; a head of several words needs all of them."""
    return {h for h in heads if (set(h.split()) <= units if " " in h else h in units)}


def stated_as_asserted(denier: _Polarity, other: _Polarity) -> frozenset[str]:
    """The Chinese heads ``denier`` denies of one thing and states of another, which
    ``other`` says as ``denier`` states them: "不连续的小孔洞" beside "连续张量" denies nothing
    of "连续张量". A head counts when a character pair it makes with a neighbour in
    ``other`` is one ``denier`` asserts and does not deny, and none such pair is one it only
    denies ("读不阻塞写，写阻塞读" still denies "读会阻塞写")."""
    out = set()
    for head in denier.heads:
        if not (_CJK_RUN.fullmatch(head) and len(head) == 2 and head in denier.asserted):
            continue
        said, denied = False, False
        for m in re.finditer(re.escape(head), other.lowered):
            pairs = {other.lowered[max(m.start() - 1, 0):m.start() + 1],
                     other.lowered[m.end() - 1:m.end() + 1]}
            pairs = {x for x in pairs if len(x) == 2 and x != head}
            said |= bool(pairs & (denier.asserted - denier.negated))
            denied |= bool(pairs & (denier.negated - denier.asserted))
        if said and not denied:
            out.add(head)
    return frozenset(out)
