"""Whether a text says anything: bare names, lists of terms, topic-style points.

A bare name or a list of names ("数据并行、张量并行", "Data parallel, tensor parallel") can
name a point but never state it; a point written as a topic ("说明 X", "Explain why Y") is
matched by what it is about.

Plain ``re`` only: no numpy.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interviewer.content.language import cjk_count
from interviewer.content.segment import split_sentences, split_top_level, strip_punct
from interviewer.grading.claim_text import _BRACKETS, _CJK_RUN, _WORD
from interviewer.grading.glossary import squash

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


@lru_cache(maxsize=4096)
def point_parts(point: str) -> tuple[str, ...]:
    """The claims of a compound point (of what a topic-style point is about), each a sentence
    or a clause after a comma or a semicolon of at least four Chinese characters or three words
    ("短期记忆服务当前任务，长期记忆服务跨任务连续性" holds two); ``()`` for a point of one claim.
    A paraphrase says each in a sentence of its own, where no single span of it is close to
    the whole point (cached: points repeat across answers)."""
    parts = [strip_punct(c) for s in split_sentences(topic_core(point))
             for c in split_top_level(s, "，,；;")]
    parts = [p for p in parts if cjk_count(p) >= 4 or len(_WORD.findall(p.lower())) >= 3]
    return tuple(parts) if len(parts) >= 2 else ()


def states_no_claim(point: str) -> bool:
    """A point that names a topic and says nothing about it ("分析积压原因", "幂等性设计方案",
    "Kafka 4 / KRaft"): graded for coverage only, as nothing in it can be contradicted."""
    return is_bare(topic_core(point))


# ---------------------------------------------------------------- bare names

# Words that make a Chinese clause say something about its terms. Single characters only
# where they are rarely part of a technical noun, and not inside the words that hold them
# ("作用域", "调用", "利用率", "有序", "有向").
_GRAMMAR_ZH = (
    r"是|把|将|让|使|会(?!话)|可以|能够|不能|要|需要|就|都|也|在(?!线)|对(?!比|齐|象|话)|从|(?<![端点])到(?![端点])|给|"
    r"有(?!向|序|状态|界|限|损)|没|不|比(?!例|较|特)|更(?!新)|很|太|被|而|则|了|着|通过|"
    r"因为|所以|如果|的时候|(?<![作引调费应信])用(?!户|量|率|例|性)|加上|上了|开了|开启|打开|"
    r"启用|使用|采用|引入|换成|换用|用来|用于|首先|然后|再|先|还|另外|基于|适合|适用|属于|包括|包含|取决于")
# Verbs that also end a noun ("幂等写入", "窄依赖", "变量提升", "低秩更新"): in a listed
# phrase they state something only with more after them ("写入磁盘")
_ACTION_ZH = (
    r"减少|降低|提高|提升|增加|避免|实现|支持|保证|利用|进行|依赖|导致|"
    r"负责|存储|保存|切分|拆分|划分|分配|计算出|更新|累加|合并|读取|写入|加载|复用|"
    r"替代|代替|取代|等于|相当|等效|意味|决定|控制|处理|执行|生成|产生|传输|发送|接收|节省|"
    r"占用|放到|存到|切到|拆成|分成|变成|作为")
_PREDICATE_ZH = re.compile(f"{_GRAMMAR_ZH}|{_ACTION_ZH}")
_GRAMMAR_ZH_RE = re.compile(_GRAMMAR_ZH)
_ACTION_ZH_RE = re.compile(_ACTION_ZH)
_VERB_EN = frozenset(
    "is are was were be been being can could will would should may might must do does did has "
    "have had uses keeps makes lets allows reduces saves avoids splits stores shards computes "
    "runs means gives takes needs requires caches sends moves overlaps trades replaces lowers "
    "raises cuts fits holds loads writes reads merges updates depends works helps improves "
    "increases decreases enables ensures guarantees prevents by so because if when which that "
    "via to into".split())  # auxiliaries, third-person verbs and linking words; base forms
# are left out because most of them are nouns too (cache, store, shard, update)
# a base form that is a noun too ("update", "cache") is a verb when an object follows it
_INSTRUCTION = re.compile(r"\s*(?:then\s+|first\s+|please\s+)?(?:use|add|enable|disable|set|"
                          r"reduce|increase|split|shard|cache|avoid|run|keep|store|delete|remove|"
                          r"insert|update|evict|invalidate|flush|retry|restart|send|return|write|"
                          r"read|drop|create|close|open|lock|release|commit)\s+(?:the|a|an|every|"
                          r"each|all|its|their|your|this|that|these|those)\b")
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
    if _INSTRUCTION.match(item.lower()):
        return False  # "delete the cache first": a verb with its object, not a name
    words = [w for w in _WORD.findall(item.lower()) if w not in ("a", "an", "the")]
    return len(words) <= _MAX_BARE_WORDS and not (set(words) & _VERB_EN)


def is_bare(span: str) -> bool:
    """A name or a list of names, with nothing said about them."""
    if not squash(span):
        return True
    return all(_bare_item(item) for item in _ITEM_SEP.split(span))


# a period inside a name ("1.5", "unclean.leader.election.enable") ends nothing
_SENTENCE_END = re.compile(r"[。!！?？\n]|\.(?![\dA-Za-z_])")
_LIST_SEP = re.compile(r"[、，,；;。!！?？\n]|\.(?![\dA-Za-z_])")
_EXPLAINS = re.compile(r"[：:→=]|->")  # "DP：复制模型" says what DP is
_MAX_LISTED_CJK = 8  # a noun phrase, a little longer than a bare name
_LATIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9+\-_/.^() ]*")
_LATIN_WEIGHT = 2  # a Latin name counts as two characters of the phrase's length
_MAX_LISTED_WORDS = 5
MIN_LIST_ITEMS = 4
LISTED_SHARE = 0.8


# an item that starts with one of these is advice ("use bf16", "try FSDP"), not a name
_IMPERATIVE_EN = frozenset(
    "use try add enable disable turn set lower raise reduce increase decrease switch make get "
    "call check move keep split shard cache avoid run apply replace cut put overlap fuse "
    "profile measure tune pin prefetch compile quantize offload combine include cover "
    "classify tag collect monitor track log store record "
    "before after first then".split())  # ... or a step in a sequence ("before migrating")
_STEP_EN = frozenset("first then also next finally".split())


def _listed(item: str) -> bool:
    if _EXPLAINS.search(item):
        return False
    plain = _BRACKETS.sub("", item)
    cjk = "".join(_CJK_RUN.findall(plain))
    words = [w for w in _WORD.findall(plain.lower()) if w not in ("a", "an", "the")]
    if cjk:
        # "ZeRO分片优化器状态" is a name and what it does, "bf16混合精度" one name
        length = len(cjk) + _LATIN_WEIGHT * len(_LATIN_NAME.findall(_CJK_RUN.sub(" ", plain)))
        return (length <= _MAX_LISTED_CJK and len(words) <= 3
                and not _GRAMMAR_ZH_RE.search(cjk)
                and all(m.end() == len(cjk) for m in _ACTION_ZH_RE.finditer(cjk)))
    return (len(words) <= _MAX_LISTED_WORDS and not set(words) & _VERB_EN
            and not _leads_with_advice(words))


def _leads_with_advice(words: list[str]) -> bool:
    """"use bf16", "first split the batch": an advice word leads, or follows a step word."""
    lead = words[:2] if words[:1] and words[0] in _STEP_EN else words[:1]
    return bool(set(lead) & _IMPERATIVE_EN)


def is_term_list(answer: str) -> bool:
    """An answer that is a list of short noun phrases ("连续显存预分配、块表映射、prefix 共享",
    "trade memory for time, two copies per layer, …"): at least four items, four in five of
    them short and without a predicate, and no sentence led in by a statement ("申请要包含
    场景、预算、…" states what the items are for). Names a lot, states nothing."""
    items = [i for i in _LIST_SEP.split(answer) if squash(i)]
    if len(items) < MIN_LIST_ITEMS:
        return False
    leads = [next((i for i in _LIST_SEP.split(s) if squash(i)), "")
             for s in _SENTENCE_END.split(answer) if squash(s)]
    if not all(map(_listed, leads)):
        return False
    return sum(map(_listed, items)) >= LISTED_SHARE * len(items)
