"""What a span claims, beyond what it is about.

Embedding similarity says a span is about a point's topic; it cannot tell "累积N个
micro-batch后再更新参数" from "每个micro-batch都立即更新参数". The checks here read the two
texts for the few shapes of contradiction that can be seen without a model of language,
in Chinese and English:

``negated``  one side denies what the other asserts: a negation cue (不/没有/无需/并非/避免…,
             not/no/never/without…) whose scope shares terms with the other side, which
             asserts them without a negation.
``reversed`` the two sides move the same quantity in opposite directions (增加/减少, 提高/
             降低, 变大/变小, more/less, faster/slower, before/after…).
``swapped``  each names a member of one closed set of alternatives and they share none
             (微软 vs 谷歌, 流水线并行 vs 专家并行, FP16 vs INT8, exactly-once vs at-least-once).
``number``   both give a number for the same unit and the numbers differ.

And whether a span *says* anything: :func:`is_bare` is true for a bare name or a list of
names with no predicate ("数据并行、张量并行", "Data parallel, tensor parallel"), which can
name a point but never state it.

Plain ``re`` only: no numpy, so the report and the TUI can import the names cheaply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from interviewer.grading.glossary import squash
from interviewer.content.language import CJK_CHARS
from interviewer.content.language import language_of

_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
CJK_RUN_START = re.compile(f"[{CJK_CHARS}]")
_WORD = re.compile(r"[a-z][a-z0-9'\-]*|[0-9]+")
_BRACKETS = re.compile(r"[（(][^（）()]*[)）]")

# ---------------------------------------------------------------- negation

# Chinese cues; 不 is left out where it only forms another word (不同, 不断, 不仅 ...).
_NEG_ZH = re.compile(r"(?<![先暂还尚])(?:不(?![同断仅但过少久管论止然如足错稳变行好够了到])|没有|没|"
                     r"无需|无须|无法|并非|并不|绝非|未|避免|防止|而非|而不是|缺少|缺乏|缺失|丢失)")
_CANNOT_ZH = re.compile(f"([{CJK_CHARS}]{{2}})不(?:了|到)")
# "有没有 X", "是不是 X", "是否 X": a question about X, not a denial of it
_QUESTION_ZH = re.compile(r"有没有|是不是|会不会|能不能|要不要|用没用|开没开|是否|有无")
_NEG_EN = re.compile(r"\b(?:not|no|never|without|cannot|can't|none|nor|neither|avoid|avoids|"
                     r"avoiding|prevent|prevents|lack|lacks|lacking|missing|instead of|"
                     r"rather than)\b|n't\b")
# a negation inside a condition ("if the model doesn't fit") asserts nothing
_CONDITION = re.compile(r"(?:\b(?:if|when|unless|whether)\b|如果|若|假如|要是|当|先|暂时|还没)"
                        r"[^，,；;。.!?！？]*$")
_QUESTION_EN = re.compile(r"\b(?:whether|if or not)\b")
_SCOPE_ZH = 8  # characters after a Chinese cue that it negates
_SCOPE_EN = 4  # words after an English cue
_AUX_ZH = "是会能要需用必再就都也还可得"  # skipped at the start of a scope to find its head
_PREP_ZH = "从在对把被给向为因由靠"  # ... and so are prepositions: "无法从 X 恢复" denies X

_STOP_EN = frozenset(
    "a an the of to in on for and or is are be by with as at it its this that from into so "
    "than then can per each all any use used using when which what how do does did not no "
    "will would should could may might must has have had been being was were there their "
    "they them only just also very much more less".split())


def _stem(word: str) -> str:
    """Enough stemming that "stores", "stored", "storing" and "store" meet."""
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def _units(text: str) -> set[str]:
    """Content units of a piece of text: CJK bigrams and stemmed English words."""
    out: set[str] = set()
    for run in _CJK_RUN.findall(text):
        out.update(run[i:i + 2] for i in range(len(run) - 1))
        if len(run) == 1:
            out.add(run)
    out.update(_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP_EN)
    return out


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


def _polarity(text: str) -> _Polarity:
    lowered = _QUESTION_EN.sub(" ", _QUESTION_ZH.sub("，", text.lower()))
    spans: list[tuple[int, int]] = []
    heads: set[str] = set()
    head_texts: list[str] = []
    for m in _NEG_ZH.finditer(lowered):
        if _CONDITION.search(lowered[:m.start()]):
            continue
        start = m.end()
        stop = start
        while stop < len(lowered) and stop - start < _SCOPE_ZH and re.match(
                f"[{CJK_CHARS}A-Za-z0-9\\- /、]", lowered[stop]):
            stop += 1
        while stop < len(lowered) and re.match(r"[a-z0-9]", lowered[stop]) and re.match(
                r"[a-z0-9]", lowered[stop - 1]):
            stop += 1  # a Latin word is read whole
        spans.append((start, stop))
        scope = lowered[start:stop].lstrip(_AUX_ZH)
        head_texts.append(scope.lstrip(_PREP_ZH + " ")[:6])
        if scope[:1] in _PREP_ZH:
            # "不能由检索片段触发", "不是因为减少 flops": what is denied is the whole phrase
            # after the preposition, not its first word
            phrase = sorted(_units(scope.lstrip(_PREP_ZH + " ")) - set(_PREP_ZH))
            if phrase:
                heads.add(" ".join(phrase))
            continue
        cjk = _CJK_RUN.match(scope)
        if cjk:
            heads.add(cjk.group()[:2])
        else:
            heads |= {_stem(w) for w in _WORD.findall(scope)[:1] if w not in _STOP_EN}
    for m in _CANNOT_ZH.finditer(lowered):  # "触发不了" denies 触发
        if not _CONDITION.search(lowered[:m.start()]):
            spans.append((m.start(1), m.end(1)))
            heads.add(m.group(1))
    for m in _NEG_EN.finditer(lowered):
        if _CONDITION.search(lowered[:m.start()]):
            continue
        words = list(re.finditer(r"[a-z0-9][a-z0-9\-]*", lowered[m.end():]))[:_SCOPE_EN]
        if words:
            spans.append((m.end(), m.end() + words[-1].end()))
            content = [_stem(w.group()) for w in words if w.group() not in _STOP_EN]
            head_texts.append(" ".join(w.group() for w in words[:3]))
            if content:
                # what is denied: the first content words together ("avoid gradient
                # underflow" denies an underflow, not gradients)
                heads.add(" ".join(content[:2]))
    negated: set[str] = set()
    for lo, hi in spans:
        negated |= _units(lowered[lo:hi])
    kept, last = [], 0
    for lo, hi in sorted(spans):
        kept.append(lowered[last:max(last, lo)])
        last = max(last, hi)
    kept.append(lowered[last:])
    return _Polarity(negated, heads, _units(" ".join(kept)), bool(spans),
                     tuple(t for t in map(_terms, head_texts) if t),
                     frozenset().union(*(_terms(lowered[lo:hi]) for lo, hi in spans)),
                     _terms(" ".join(kept)))


def _minus(heads: set[str], units: set[str]) -> set[str]:
    """``heads`` not among ``units``; a one-character head is among a bigram it starts, and
    a head of several words is among ``units`` when any of its words is."""
    return {h for h in heads if h not in units and not (
        len(h) == 1 and any(u.startswith(h) for u in units)) and not (
        " " in h and set(h.split()) & units)}


def _within(heads: set[str], units: set[str]) -> set[str]:
    """``heads`` that ``units`` hold; a head of several words needs all of them."""
    return {h for h in heads if (set(h.split()) <= units if " " in h else h in units)}


def _body(point: str) -> str:
    """A point without its topic label: "拓扑感知：未充分利用…" asserts only what follows."""
    head, sep, rest = point.partition("：") if "：" in point else point.partition(": ")
    return rest if sep and rest.strip() and len(head) <= 12 else point


_DENIAL = re.compile(r"不(?![同断仅但过少久管论止然如足错稳变行])|没|无需|无用|并非|用不着|"
                     r"\b(?:not|no|never|useless|n't)\b|n't")


def _denies_name(point: str, span: str) -> bool:
    """A point that is only a name ("KV Cache", "通信与计算重叠") is denied by a clause that
    names it next to a negation: "混合精度训练其实没什么用", "用不着数据并行", "通信和计算没办法
    重叠". A name in brackets counts as well as the one outside."""
    names = [n for n in _ITEM_SEP.split(_BRACKETS.sub(" ", point)) + re.findall(
        r"[（(]([^（）()]*)[)）]", point) if squash(n)]
    for clause in re.split(r"[，,；;。.!?！？]", span):
        lowered = _QUESTION_EN.sub(" ", _QUESTION_ZH.sub(" ", clause.lower()))
        denial = _DENIAL.search(lowered)
        if not denial or _CONDITION.search(lowered[:denial.start()]):
            continue
        have = _units(lowered)
        for name in names:
            units = _units(name.lower())
            if units and len(units & have) >= max(1, 0.6 * len(units)):
                return True
    return False


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
            if squash(denied).startswith(name) or (terms and terms <= _terms(head)):
                return True
    return False


def _label(point: str) -> str | None:
    """The topic label of a point written "label：claim" ("负载均衡：避免…")."""
    body = _body(point)
    return point[:len(point) - len(body)].rstrip("：: ") if body != point else None


def negation_conflict(point: str, span: str) -> bool:
    """One side denies what the other asserts, on shared terms."""
    if _point_is_bare(point):
        return _denies_name(point, span)
    label = _label(point)
    if label and is_bare(label) and _denies_label(label, span):
        return True  # "不存在负载均衡问题" denies a point labeled 负载均衡
    p, s = _point_polarity(point), _polarity(span)
    if s.has_negation:
        # the span denies the point's own terms, which the point asserts
        denied = {u for u in (s.negated - p.negated) & p.asserted if CJK_RUN_START.match(u)}
        if len(denied) >= 3 or _within(_minus(s.heads, p.negated), p.asserted):
            return True
    if p.has_negation:
        # the point denies something the span asserts without a negation of its own
        if _within(_minus(p.heads, s.negated), s.asserted):
            return True
    if language_of(point) != language_of(span):
        # across languages only glossary terms meet: the term right after a denial, which
        # the other side states with no denial anywhere (word order differs: "the
        # parameters are not updated" denies what comes before the cue)
        for mine, other in ((s, p), (p, s)):
            if not other.has_negation and any(t <= other.asserted_terms
                                              for t in mine.head_terms):
                return True
    return False


# ---------------------------------------------------------------- direction

_UP = ("增加", "增大", "提高", "提升", "变大", "增多", "更多", "上升", "扩大", "加大", "变多",
       "升高", "加快", "更快", "变快", "更大", "更高", "翻倍", "增长", "变长", "更长", "之后",
       "increase", "increases", "increased", "more", "higher", "larger", "bigger", "faster",
       "raise", "raises", "grow", "grows", "greater", "longer", "after", "later")
_DOWN = ("减少", "减小", "降低", "下降", "变小", "减半", "更少", "缩小", "减慢", "变慢", "更慢",
         "更小", "更低", "节省", "降到", "缩短", "变短", "更短", "之前", "提前", "只需", "仅需",
         "decrease", "decreases", "decreased", "reduce", "reduces", "reduced", "less", "fewer",
         "lower", "smaller", "slower", "shrink", "shrinks", "save", "saves", "shorter",
         "before", "earlier")
_UP += ("更好", "变好", "改善", "better", "improves", "improved")
_DOWN += ("变差", "更差", "恶化", "略降", "下滑", "worse", "degrades", "degraded")
# one of a thing is fewer than "more" of it: "只用一个 KV 头" against "更多的 KV 头"
_ONE = ("单个", "一个", "1个", "1 个", "a single", "only one", "just one")
_DIRECTION = re.compile("|".join(
    sorted((re.escape(w) if not w.isascii() else rf"\b{re.escape(w)}\b"
            for w in _UP + _DOWN + _ONE), key=len, reverse=True)).replace(
    "一个", "(?<![每第某任同哪另])一个"))
_WINDOW = 16  # characters either side of a direction word where its quantity is named


# Chinese verbs name their quantity after them (减少显存); the others before (显存变大).
_VERB_DIRECTIONS = frozenset(("增加", "增大", "提高", "提升", "扩大", "加大", "加快", "减少", "减小",
                              "降低", "节省", "缩小", "减慢", "缩短", "降到", *_ONE))
# comparatives may stand before their noun ("更多的 KV 头") or after it ("显存更多")
_EITHER_SIDE = frozenset(("更多", "更少"))
_MORE = frozenset(("更多", "增多", "变多", "more"))


def _directions(text: str) -> list[tuple[int, set[str]]]:
    """``(+1 or -1, units of the quantity it moves)`` for every direction word in ``text``."""
    lowered = text.lower()
    out = []
    for m in _DIRECTION.finditer(lowered):
        word = m.group()
        sign = 1 if word in _UP else -1  # _DOWN and _ONE
        reach = _WINDOW * (3 if word.isascii() else 1)  # English words are longer
        before = re.split(r"[，,；;。：:]", lowered[max(0, m.start() - reach):m.start()])[-1]
        after = re.split(r"[，,；;。：:]", lowered[m.end():m.end() + reach])[0]
        if word.isascii():
            near = " ".join(before.split()[-3:] + after.split()[:4])
        elif word in _EITHER_SIDE:
            near = before + " " + after
        else:
            near = after if word in _VERB_DIRECTIONS else before
        # "一个" is a count: it only meets "更多/more" of the same thing
        sign = sign * (2 if word in _ONE else 3 if word in _MORE else 1)
        out.append((sign, _units(near) | _terms(near)))
    return out


@lru_cache(maxsize=16384)
def _terms(text: str) -> frozenset[str]:
    """The glossary sets a short text names, as units that meet across languages ("显存占用"
    and "memory usage" are one term)."""
    from interviewer.grading.glossary import glossary

    return frozenset(f"t:{set_id}" for set_id, _ in glossary().named_sets(text))


def direction_conflict(point: str, span: str) -> bool:
    """The span moves one of the point's quantities the other way, and never the point's way."""
    pd, sd = _point_directions(point), _span_directions(span)
    if not pd or not sd:
        return False
    for p_sign, p_near in pd:
        if any(q * p_sign < 0 and p_near & q_near for q, q_near in pd):
            continue  # the point moves it both ways ("更大的窗口保留更早的轮次")
        same = [s_near for s_sign, s_near in sd if s_sign * p_sign > 0]
        # a count (一个, a single) is opposed only by "更多/more", and the other way round
        opposite = [s_near for s_sign, s_near in sd if s_sign * p_sign < 0
                    and {abs(s_sign), abs(p_sign)} != {1, 2}]
        if any(p_near & near for near in same):
            continue
        if any(p_near & near for near in opposite):
            return True
    return False


# ---------------------------------------------------------------- alternatives

# Closed sets of alternatives: naming one member in place of another is a different claim.
ALTERNATIVES: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("微软", "microsoft"), ("谷歌", "google"), ("meta", "facebook", "脸书"),
     ("英伟达", "nvidia"), ("openai",), ("阿里", "alibaba"), ("百度", "baidu"),
     ("华为", "huawei"), ("字节", "bytedance"), ("腾讯", "tencent"),
     ("亚马逊", "amazon", "aws"), ("linkedin", "领英"), ("databricks",), ("netflix",),
     ("uber",), ("anthropic",), ("deepmind",), ("苹果", "apple"), ("伯克利", "berkeley")),
    (("数据并行", "data parallel", "dp", "ddp"), ("张量并行", "tensor parallel", "tp"),
     ("流水线并行", "pipeline parallel", "pp"), ("专家并行", "expert parallel", "ep"),
     ("序列并行", "sequence parallel", "sp"), ("上下文并行", "context parallel", "cp")),
    (("fp64",), ("fp32",), ("fp16",), ("bf16",), ("fp8",), ("int32",), ("int16",), ("int8",),
     ("int4",), ("tf32",)),
    (("线性", "linear", "linearly", "o(n)"),
     ("平方", "二次方", "quadratic", "quadratically", "o(n^2)", "o(n²)", "o(n2)"),
     ("常数", "constant", "o(1)"), ("指数", "exponential", "exponentially"), ("对数", "logarithmic")),
    (("优化器状态", "optimizer state"), ("梯度", "gradient"), ("激活", "activation"),
     ("参数", "权重", "parameter", "weight")),
    (("query", "查询向量", "q"), ("key", "键向量", "k"), ("value", "值向量", "v")),
    (("注意力", "attention"), ("前馈", "ffn", "mlp")),
    (("prefill", "预填充"), ("decode", "解码")),
    (("计算密集", "compute-bound", "compute bound"), ("访存密集", "带宽受限", "memory-bound",
                                                   "memory bound")),
    (("hbm",), ("sram",), ("dram",), ("nvme", "ssd", "磁盘", "disk")),
    (("allreduce", "all-reduce"), ("allgather", "all-gather"),
     ("reducescatter", "reduce-scatter"), ("alltoall", "all-to-all"), ("broadcast", "广播")),
    (("exactly-once", "exactly once", "恰好一次", "精确一次"),
     ("at-least-once", "at least once", "至少一次"),
     ("at-most-once", "at most once", "最多一次", "至多一次")),
    (("kafka",), ("spark",), ("flink",), ("hive",), ("hbase",), ("iceberg",), ("hudi",),
     ("presto", "trino"), ("clickhouse",), ("storm",), ("mapreduce",)),
    (("事件时间", "event time"), ("处理时间", "processing time"), ("摄入时间", "ingestion time")),
    (("滚动窗口", "tumbling"), ("滑动窗口", "sliding"), ("会话窗口", "session window")),
    (("宽依赖", "wide dependenc"), ("窄依赖", "narrow dependenc")),
    (("cbo", "基于代价", "基于成本", "cost-based"), ("rbo", "基于规则", "rule-based")),
    (("同步", "synchronous", "sync"), ("异步", "asynchronous", "async")),
    (("静态", "static"), ("动态", "dynamic")),
    (("行存", "行式", "row-based", "row-oriented"), ("列存", "列式", "columnar", "column-oriented")),
    (("内部表", "managed table", "internal table"), ("外部表", "external table")),
    (("强一致", "strong consistency", "strongly consistent"),
     ("最终一致", "eventual consistency", "eventually consistent")),
    (("leader", "主副本"), ("follower", "从副本")),
    (("encoder-only", "仅编码器"), ("decoder-only", "仅解码器")),
    (("mha", "多头注意力"), ("mqa", "多查询注意力"), ("gqa", "分组查询注意力"), ("mla",)),
    (("sft", "监督微调"), ("rlhf",), ("dpo",), ("预训练", "pretraining", "pre-training")),
    (("cpu",), ("gpu",)),
    (("下溢", "underflow"), ("上溢", "overflow")),
    (("zero-1", "zero1", "zero stage 1"), ("zero-2", "zero2", "zero stage 2"),
     ("zero-3", "zero3", "zero stage 3")),
)
_SHORT_ALIAS = 4


def _alias_pattern(alias: str) -> re.Pattern[str]:
    if alias.isascii() and len(alias) <= _SHORT_ALIAS:
        return re.compile(rf"(?<![a-z0-9]){re.escape(alias)}(?![a-z0-9])")
    return re.compile(re.escape(alias))


# one pattern per member of each set: any of its aliases
_MEMBER_PATTERNS = tuple(tuple(re.compile("|".join(_alias_pattern(a).pattern for a in aliases))
                               for aliases in group) for group in ALTERNATIVES)


def _members(text: str, g: int) -> set[int]:
    """Which members of set ``g`` the (lower-cased) text names."""
    return {i for i, pattern in enumerate(_MEMBER_PATTERNS[g]) if pattern.search(text)}


def _where(text: str, g: int, members: set[int]) -> list[tuple[int, int]]:
    lowered = text.lower()
    return [(m.start(), m.end()) for i in members
            for m in _MEMBER_PATTERNS[g][i].finditer(lowered)]


def _role(text: str, where: list[tuple[int, int]]) -> set[str]:
    """The words right around a thing's name: what is said of it (four characters, or up to
    three English words when English stands next to the name)."""
    lowered = text.lower()  # positions are those of the lowered text
    out: set[str] = set()
    for lo, hi in where:
        before = re.split(r"[^a-z0-9\s\-'+/]", lowered[max(0, lo - 24):lo])[-1]
        after = re.split(r"[^a-z0-9\s\-'+/]", lowered[hi:hi + 24])[0]
        if before.strip():
            out |= _units(" ".join([w for w in before.split() if w not in _STOP_EN][-3:]))
        else:
            out |= _units(lowered[max(0, lo - 4):lo])
        if after.strip():
            out |= _units(" ".join([w for w in after.split() if w not in _STOP_EN][:3]))
        else:
            out |= _units(lowered[hi:hi + 4])
    return out - {""}


# "从 A 到 B", "from A to B", "A → B": what is claimed is where it ends, B
_TRANSITION = (
    re.compile(r"从([^，,；;。从]{1,24}?)(?=(?:下降|上升|降低|提升|增加|减少|缩小|扩大)?(?:到|至|为|成))"),
    re.compile(r"\bfrom\b(.{1,30}?)(?=\b(?:to|into|down to|up to)\b)"),
    re.compile(r"([^\s，,；;。]{1,24}\s*)(?=→|->|=>|⇒)"),
)


_STILL = re.compile(r"仍然|仍是|仍旧|依然|依旧|还是|\b(?:still|remains?|stays?)\b")


def _endpoints(lowered: str) -> tuple[str, bool]:
    """The text with the starting state of every transition blanked out, and whether any
    transition was found: "从 O(n^2) 降到 O(n)" claims O(n) only."""
    found = False
    for pattern in _TRANSITION:
        def blank(m: re.Match[str]) -> str:
            return m.group(0).replace(m.group(1), " " * len(m.group(1)))
        lowered, n = pattern.subn(blank, lowered)
        found = found or bool(n)
    return lowered, found


def swapped(point: str, span: str) -> tuple[str, str] | None:
    """``(what the point names, what the span names instead)`` when the span names a member
    of one set of alternatives in the role the point gives another ("谷歌开发的" for "微软开发
    的"), or replaces one member of those the point enumerates ("Q 和 K" for "K 和 V"). A
    transition ("从 A 到 B") claims its end state, whatever the words around it."""
    ls, transition = _endpoints(span.lower())
    lp, point_transition = _point_endpoints(point)
    # against a point "从 A 到 B", an answer that names A is wrong only if A stays
    still = point_transition and bool(_STILL.search(ls))
    if point_transition and not still:
        lp = point.lower()
    transition = transition or still
    for g, group in enumerate(ALTERNATIVES):
        mp = _point_members(lp, g)
        if not mp:
            continue
        ms = _members(ls, g)
        extra, missing = ms - mp, mp - ms
        # a list of several alternatives names them; it does not put one in another's place
        if not extra or not missing or len(ms) > max(1, len(mp)):
            continue
        m = min(extra)
        if transition and len(ms) == 1 and _units(_body(point).lower()) & _units(ls):
            return group[min(mp)][0], group[m][0]
        label = _label(point)
        if label and len(ms) == 1 and _members(label.lower(), g) == mp:
            # "Decode：一次一个 token" is about decode; the span says it of prefill
            return group[min(mp)][0], group[m][0]
        if _role(point, _where(point, g, missing)) & _role(ls, _where(ls, g, extra)):
            return group[min(missing)][0], group[m][0]
    return None


# ---------------------------------------------------------------- only one of them

_ONLY = re.compile(r"只有|只在|仅在|仅有|唯有|只|仅|\b(?:only|solely|exclusively)\b")
_ENUM_GAP = re.compile(r"^\s*(?:和|与|及|以及|、|,|，|/|&|\band\b|\bor\b|或)\s*(?:the\s+)?$")


def _things(lowered: str) -> list[tuple[int, int, str]]:
    """``(start, end, key)`` of every glossary term and alternative the text names."""
    from interviewer.grading.glossary import glossary

    out = []
    for set_id, alias in glossary().named_sets(lowered):
        for m in _loose_name(alias).finditer(lowered):
            out.append((m.start(), m.end(), f"t{set_id}"))
    for g in range(len(ALTERNATIVES)):
        for i, pattern in enumerate(_MEMBER_PATTERNS[g]):
            out += [(m.start(), m.end(), f"a{g}.{i}") for m in pattern.finditer(lowered)]
    # one key per place: the glossary's when it has the name ("leader" is in both)
    best: dict[tuple[int, int], str] = {}
    for start, end, key in out:
        if (start, end) not in best or key.startswith("t") and best[(start, end)][0] != "t":
            best[(start, end)] = key
    return sorted((start, end, key) for (start, end), key in best.items())


@lru_cache(maxsize=4096)
def _loose_name(alias: str) -> re.Pattern[str]:
    chars = [re.escape(c) for c in squash(alias)]
    edge = r"(?<![a-z0-9])" if alias.isascii() else ""
    return re.compile(edge + r"[\s\-_./]*".join(chars) + (r"(?![a-z0-9])" if edge else ""))


def _enumerated(lowered: str) -> list[set[str]]:
    """Groups of things the text names side by side ("Encoder 和 Decoder", "the producer
    and the consumer")."""
    things = _things(lowered)
    groups: list[set[str]] = []
    for (_, end, a), (start, _, b) in zip(things, things[1:]):
        if a != b and start >= end and _ENUM_GAP.match(lowered[end:start]):
            if groups and a in groups[-1]:
                groups[-1].add(b)
            else:
                groups.append({a, b})
    return groups


_ALL = re.compile(r"所有|全部|每一?个|\b(?:all|every|each)\b")


def _all_of_only(lp: str, ls: str) -> bool:
    """The point says "所有/all X"; the span says "只/only" of the same X, without "所有/all"."""
    if _ALL.search(ls):
        return False
    for m in _ALL.finditer(lp):
        tail = lp[m.end():m.end() + 12]
        noun = _units(" ".join(tail.split()[:2])) if m.group().isascii() else _units(tail[:4])
        for o in _ONLY.finditer(ls):
            near = (" ".join(ls[o.end():].split()[:4]) if o.group().isascii()
                    else ls[o.end():o.end() + 16])
            if noun & _units(near):
                return True
    return False


def narrowed(point: str, span: str) -> bool:
    """The point says something of several things (or of all of them); the span says "only"
    one of them and names none of the others: "只有 Decoder 使用…" against "Encoder 和
    Decoder 都使用…", "只把最后一层…" against "所有层…"."""
    lp, ls = point.lower(), span.lower()
    if not _ONLY.search(ls):
        return False
    if _all_of_only(lp, ls):
        return True
    groups = _point_enumerated(lp)
    if not groups:
        return False
    named = {key for _, _, key in _things(ls)}
    for m in _ONLY.finditer(ls):
        after = [key for start, _, key in _things(ls) if 0 <= start - m.end() <= 6]
        for group in groups:
            if after and after[0] in group and not (group - {after[0]}) & named:
                return True
    return False


# ---------------------------------------------------------------- numbers

_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9, "十": 10, "半": 0.5}
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9.\-])(\d+(?:\.\d+)?)\s*(%|倍|x\b|×|gb|mb|tb|kb|ms|秒|s\b|个|次|层|张|台|位|bit|"
    r"bits|b\b|k\b|m\b)?", re.IGNORECASE)
_ZH_NUMBER = re.compile(r"([一二两三四五六七八九十])(倍|个|次|层|张|台|份|位)")


def numbers(text: str) -> set[tuple[float, str]]:
    """``(value, unit)`` of each standalone number (not the 8 of INT8 nor the 3 of ZeRO-3)."""
    out = set()
    for m in _NUMBER.finditer(text):
        out.add((float(m.group(1)), (m.group(2) or "").lower().replace("×", "x")))
    for m in _ZH_NUMBER.finditer(text):
        out.add((float(_ZH_DIGITS[m.group(1)]), m.group(2)))
    return out


def number_conflict(point: str, span: str) -> bool:
    """Both give a number in the same unit, and the span never gives the point's."""
    lp, point_transition = _point_endpoints(point)
    if point_transition and not _STILL.search(span.lower()):
        lp = point.lower()  # "从 200ms 到 20ms" is said by an answer that names either
    pn, sn = _point_numbers(lp), numbers(_endpoints(span.lower())[0])
    if not pn or not sn or pn & sn:
        return False
    return bool({u for _, u in pn} & {u for _, u in sn})


# ---------------------------------------------------------------- all of it

# What a point says is read once per process: rubric points are graded against every answer.
_point_is_bare = lru_cache(maxsize=4096)(lambda point: is_bare(point))
_point_polarity = lru_cache(maxsize=4096)(lambda point: _polarity(_body(point)))
_point_directions = lru_cache(maxsize=4096)(lambda point: _directions(point))
_span_directions = lru_cache(maxsize=4096)(lambda span: _directions(span))
_point_numbers = lru_cache(maxsize=4096)(lambda point: numbers(point))
_point_members = lru_cache(maxsize=16384)(lambda point, g: _members(point.lower(), g))
_point_endpoints = lru_cache(maxsize=4096)(lambda point: _endpoints(point.lower()))
_point_enumerated = lru_cache(maxsize=4096)(lambda lowered: _enumerated(lowered))


def contradiction(point: str, span: str) -> str | None:
    """How ``span`` contradicts ``point`` (``negated``, ``reversed``, ``swapped``,
    ``narrowed``, ``number``),
    or None. Brackets are read as part of the text they explain; a bare name claims nothing."""
    if is_bare(span):
        return None
    if negation_conflict(point, span):
        return "negated"
    if direction_conflict(point, span):
        return "reversed"
    if swapped(point, span):
        return "swapped"
    if narrowed(point, span):
        return "narrowed"
    if narrowed(span, point):
        return "widened"
    if number_conflict(point, span):
        return "number"
    return None


_COMPOUND = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+")


def names_neighbour(point: str, span: str) -> bool:
    """The point's compound name (DeepSpeed-Chat, ZeRO-Offload) is absent from the span, which
    names only its head (DeepSpeed, ZeRO): a neighbouring thing, not the point's."""
    lowered = span.lower()
    for name in _COMPOUND.findall(point):
        head = re.split(r"[-_]", name)[0].lower()
        if squash(name) not in squash(span) and len(head) >= 3 and re.search(
                rf"(?<![a-z0-9]){re.escape(head)}(?![a-z0-9\-_])", lowered):
            return True
    return False


# ---------------------------------------------------------------- topic-style points

_TOPIC_LEAD = re.compile(
    r"^\s*(?:(?:能|要|需要|应|应该|可以)?(?:说明|解释|描述|阐述|介绍|简述|说出|讲清|讲清楚|理解|了解|掌握|"
    r"知道|提到|指出|回答出|分析|比较|对比)(?:了|清楚|出)?"
    r"|(?:should |must |can )?(?:explain|describe|mention|discuss|state|understand|know|"
    r"compare|identify|name|outline|note)s?(?: that| how| why| what)?\b)[\s:：,，]*",
    re.IGNORECASE)


def topic_core(point: str) -> str:
    """What a topic-style point is about: "说明 CBO 依赖统计信息" -> "CBO 依赖统计信息",
    "Explain why batching raises throughput" -> "why batching raises throughput"."""
    core = _TOPIC_LEAD.sub("", point, count=1).strip()
    return core if len(core) >= 2 else point


# ---------------------------------------------------------------- bare names

# Words that make a Chinese clause say something about its terms. Single characters only
# where they are rarely part of a technical noun.
_PREDICATE_ZH = re.compile(
    r"是|把|将|让|使|会(?!话)|可以|能够|不能|要|需要|就|都|也|在(?!线)|对(?!比|齐|象|话)|从|到|给|"
    r"有(?!向)|没|不|比(?!例|较|特)|更(?!新)|很|太|被|而|则|了|着|通过|"
    r"减少|降低|提高|提升|增加|避免|实现|支持|保证|利用|进行|依赖|导致|因为|所以|如果|"
    r"负责|存储|保存|切分|拆分|划分|分配|计算出|更新|累加|合并|读取|写入|加载|复用|"
    r"替代|代替|取代|等于|相当|等效|意味|决定|控制|处理|执行|生成|产生|传输|发送|接收|节省|"
    r"占用|放到|存到|切到|拆成|分成|变成|作为|用来|用于|的时候|用(?!户|量)|加上|上了|开了|开启|打开|启用|"
    r"使用|采用|引入|换成|换用|首先|然后|再|先|还|另外")
_VERB_EN = frozenset(
    "is are was were be been being can could will would should may might must do does did has "
    "have had uses keeps makes lets allows reduces saves avoids splits stores shards computes "
    "runs means gives takes needs requires caches sends moves overlaps trades replaces lowers "
    "raises cuts fits holds loads writes reads merges updates depends works helps improves "
    "increases decreases enables ensures guarantees prevents by so because if when which that "
    "via to into".split())  # auxiliaries, third-person verbs and linking words; base forms
# are left out because most of them are nouns too (cache, store, shard, update)
_ITEM_SEP = re.compile(r"[、，,；;+&]|\band\b|\bor\b|和|与|及|以及|或")
_MAX_BARE_CJK = 6  # a name rarely has more characters once its Latin part is set aside
_MAX_BARE_WORDS = 3


def _bare_item(item: str) -> bool:
    item = _BRACKETS.sub("", item).strip(" 。.!！?？:：\t")
    if not item:
        return True
    cjk = "".join(_CJK_RUN.findall(item))
    if cjk:
        return len(cjk) <= _MAX_BARE_CJK and not _PREDICATE_ZH.search(cjk)
    words = [w for w in _WORD.findall(item.lower()) if w not in ("a", "an", "the")]
    return len(words) <= _MAX_BARE_WORDS and not (set(words) & _VERB_EN)


def is_bare(span: str) -> bool:
    """A name or a list of names, with nothing said about them."""
    if not squash(span):
        return True
    return all(_bare_item(item) for item in _ITEM_SEP.split(span))


_LIST_SEP = re.compile(r"[、，,；;。!！?？\n]|\.(?!\d)")
_EXPLAINS = re.compile(r"[：:→=]|->")  # "DP：复制模型" says what DP is
_MAX_LISTED_CJK = 8  # a noun phrase, a little longer than a bare name
_MAX_LISTED_WORDS = 5
MIN_LIST_ITEMS = 4
LISTED_SHARE = 0.8


# an item that starts with one of these is advice ("use bf16", "try FSDP"), not a name
_IMPERATIVE_EN = frozenset(
    "use try add enable disable turn set lower raise reduce increase decrease switch make get "
    "call check move keep split shard cache avoid run apply replace cut put overlap fuse "
    "profile measure tune pin prefetch compile quantize offload".split())


def _listed(item: str) -> bool:
    if _EXPLAINS.search(item):
        return False
    plain = _BRACKETS.sub("", item)
    cjk = "".join(_CJK_RUN.findall(plain))
    words = [w for w in _WORD.findall(plain.lower()) if w not in ("a", "an", "the")]
    if cjk:
        return len(cjk) <= _MAX_LISTED_CJK and len(words) <= 3 and not _PREDICATE_ZH.search(cjk)
    return (len(words) <= _MAX_LISTED_WORDS and not set(words) & _VERB_EN
            and not set(words[:2]) & _IMPERATIVE_EN)


def is_term_list(answer: str) -> bool:
    """An answer that is a list of short noun phrases ("连续显存预分配、块表映射、prefix 共享",
    "trade memory for time, two copies per layer, …"): at least four items, four in five of
    them short and without a predicate. Names a lot, states nothing."""
    items = [i for i in _LIST_SEP.split(answer) if squash(i)]
    if len(items) < MIN_LIST_ITEMS:
        return False
    return sum(map(_listed, items)) >= LISTED_SHARE * len(items)
