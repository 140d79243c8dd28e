"""Alternatives: naming one member of a closed set in another's place, limiting to one of
them what the point says of several, and transitions ("从 A 到 B").

``swapped``  another member of one set of alternatives in the point's member's role, or in
             place of one of the members the point enumerates, or said of another member
             than the point's label; a transition claims its end state.
``narrowed`` "只有/only" one of several things the point names side by side (or of all).

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.grading.claim_text import _STOP_EN, CJK_RUN_START, _body, _label, _units, named_sets
from interviewer.grading.glossary import squash

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
    (("cp",), ("ap",), ("ca",)),  # what a distributed system keeps under CAP
    (("最慢", "slowest"), ("最快", "fastest")),
    (("singly linked", "singly-linked", "单向链表", "单链表"),
     ("doubly linked", "doubly-linked", "双向链表", "双链表")),
    (("读多写少", "read-heavy", "read heavy"), ("写多读少", "write-heavy", "write heavy")),
    (("缓存穿透", "cache penetration"), ("缓存击穿", "cache breakdown", "hotspot invalid"),
     ("缓存雪崩", "cache avalanche")),
    (("rdb",), ("aof",)),  # Redis persistence
    (("先进先出", "fifo", "first-in first-out", "first in first out", "first-in, first-out"),
     ("后进先出", "lifo", "last-in first-out", "last in first out", "last-in, first-out")),
    (("栈上", "栈内存", "stack allocation", "on the stack", "the stack"),
     ("堆上", "堆内存", "heap allocation", "on the heap", "the heap")),
    # the side of a Kafka client or server a setting belongs to
    (("broker 端", "broker端", "broker-side", "broker side", "服务端"),
     ("producer 端", "producer端", "producer-side", "producer side", "生产者端", "生产端"),
     ("consumer 端", "consumer端", "consumer-side", "consumer side", "消费者端", "消费端")),
)
_SHORT_ALIAS = 4
# the attention inputs' names are everyday English words: they are the inputs where a text
# names two of them or speaks of attention
_ATTENTION_INPUTS = next(g for g, group in enumerate(ALTERNATIVES) if ("key", "键向量", "k") in group)
_ATTENTION = re.compile(r"注意力|attention|softmax|token|\bqkv\b|\bkv\b")


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


_NOT_WORDY = re.compile(r"[^a-z0-9\s\-'+/]")  # what ends an English phrase around a name


def _role(text: str, where: list[tuple[int, int]]) -> set[str]:
    """The words right around a thing's name: what is said of it (four characters, or up to
    three English words when English stands next to the name)."""
    lowered = text.lower()  # positions are those of the lowered text
    out: set[str] = set()
    for lo, hi in where:
        before = _NOT_WORDY.split(lowered[max(0, lo - 24):lo])[-1]
        after = _NOT_WORDY.split(lowered[hi:hi + 24])[0]
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


@lru_cache(maxsize=16384)
def _named_ids(lowered: str) -> frozenset[int]:
    return frozenset(i for i, _ in named_sets(lowered))


@lru_cache(maxsize=4096)
def _compound_aliases(set_id: int) -> tuple[str, ...]:
    """The names of a glossary term that hold a member of a set of alternatives as a part
    ("gradient checkpointing" holds "gradient"), not as the whole name."""
    from interviewer.grading.glossary import glossary

    out = []
    for alias in glossary().sets[set_id]:
        lowered = alias.lower()
        for k in range(len(ALTERNATIVES)):
            spans = _where(lowered, k, _members(lowered, k))
            if any(squash(lowered[a:b]) != squash(lowered) for a, b in spans):
                out.append(alias)
                break
    return tuple(out)


def _without_shared_terms(lp: str, ls: str) -> tuple[str, str]:
    shared = _named_ids(lp) & _named_ids(ls)
    for set_id in sorted(shared):
        for alias in _compound_aliases(set_id):
            pattern = _loose_name(alias)
            lp = pattern.sub(lambda m: " " * len(m.group()), lp)
            ls = pattern.sub(lambda m: " " * len(m.group()), ls)
    return lp, ls


# "etcd（CP）、Eureka（AP）": a name, and in brackets the member of a set it is
_ATTRIBUTED = re.compile(r"([a-z][a-z0-9.\-]*|[\u4e00-\u9fff]{2,8})\s*[（(]([^（）()]{1,16})[)）]")
_SPAN_CLAUSE = re.compile(r"[，,；;。!?！？\n]|\.(?!\d)")


def _attribution_swapped(lp: str, ls: str) -> tuple[str, str] | None:
    """A name the point gives one member of a set in brackets, said in the span to be
    another member of that set, in one clause ("etcd 是 AP 系统" for "etcd（CP）")."""
    for m in _ATTRIBUTED.finditer(lp):
        name, attribute = m.group(1), m.group(2)
        own = _loose_name(name)
        for g, group in enumerate(ALTERNATIVES):
            mine = _members(attribute, g)
            if len(mine) != 1 or _members(name, g):
                continue
            for clause in _SPAN_CLAUSE.split(ls):
                if not own.search(clause):
                    continue
                said = _members(own.sub(" ", clause), g)
                if len(said) == 1 and not said & mine:
                    return group[min(mine)][0], group[min(said)][0]
    return None


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
    # one thing under two names ("gradient checkpointing", "activation checkpointing") is
    # not a swap of the words inside them: terms both name are set aside
    lp, ls = _without_shared_terms(lp, ls)
    attributed = _attribution_swapped(lp, ls)
    if attributed:
        return attributed
    for g, group in enumerate(ALTERNATIVES):
        mp = _point_members(lp, g)
        if not mp:
            continue
        if g == _ATTENTION_INPUTS and len(mp) < 2 and not _ATTENTION.search(lp + " " + ls):
            continue  # "unique key" against "column values": everyday words, not Q, K and V
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
        if label and len(ms) == 1 and not _members(label.lower(), g) \
                and _said_of_label(label, span.lower(), g, m):
            # "Decode：串行生成，访存密集" against "Decode 是计算密集的": the span says of
            # what the point is about another member of the set the point gives it
            return group[min(missing)][0], group[m][0]
        if _role(point, _where(point, g, missing)) & _role(ls, _where(ls, g, extra)):
            return group[min(missing)][0], group[m][0]
    return None


def _said_of_label(label: str, lowered: str, g: int, member: int) -> bool:
    """``lowered`` names what ``label`` is about (its name before any bracket: "Decode" of
    "Decode（解码）阶段"; a Latin name as a whole word) and, after it in the same sentence,
    ``member`` of set ``g``: the sentence says the member of it."""
    name = re.split(r"[（(]", label, maxsplit=1)[0].strip().lower()
    if not name:
        return False
    latin = re.fullmatch(r"[a-z0-9][a-z0-9 .\-]*", name)
    pattern = re.compile(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])" if latin
                         else re.escape(name))
    for sentence in re.split(r"[。！？!?；;]", lowered):
        at = pattern.search(sentence)
        if at and any(lo >= at.end() for lo, _ in _where(sentence, g, {member})):
            return True
    return False


# ---------------------------------------------------------------- only one of them

_ONLY = re.compile(r"只有|只在|仅在|仅有|唯有|只|仅|\b(?:only|solely|exclusively)\b")
_ENUM_GAP = re.compile(r"^\s*(?:和|与|及|以及|、|,|，|/|&|\band\b|\bor\b|或)\s*(?:the\s+)?$")


def _things(lowered: str) -> list[tuple[int, int, str]]:
    """``(start, end, key)`` of every glossary term and alternative the text names."""

    out = []
    for set_id, alias in named_sets(lowered):
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


_COMMA = re.compile(r"^\s*[,，]\s*(?:the\s+)?$")
# what may follow the last of a list's items: another separator, a verb of the group
# ("都", "both"), the end of the sentence
_ITEM_END = re.compile(r"^\s*(?:$|[、,，;；。.!?:：)）]|和|与|及|或|等|都|均|\b(?:and|or|etc|both|all)\b)")


def _enumerated(lowered: str) -> list[set[str]]:
    """Groups of things the text names side by side ("Encoder 和 Decoder", "the producer
    and the consumer"). Two things with only a comma between them are a list when the
    second one ends there too ("A，B，C" but not "拆成 A，B 不够时…": a new clause)."""
    things = _things(lowered)
    groups: list[set[str]] = []
    for (_, end, a), (start, b_end, b) in zip(things, things[1:]):
        gap = lowered[end:start]
        if _COMMA.match(gap) and not _ITEM_END.match(lowered[b_end:]):
            continue
        if a != b and start >= end and _ENUM_GAP.match(gap):
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


# What a point says is read once per process: rubric points are graded against every answer.
_point_members = lru_cache(maxsize=16384)(lambda point, g: _members(point.lower(), g))
_point_endpoints = lru_cache(maxsize=4096)(lambda point: _endpoints(point.lower()))
_point_enumerated = lru_cache(maxsize=4096)(lambda lowered: _enumerated(lowered))
