"""How a contradiction is told from the same claim written another way: a prefix written
apart ("non clustered"), a denial by its subject ("nobody"), by exception ("except"), a
size that modifies a noun ("切成小 chunk"), the amount of a move ("省得更多") and the saving
of a cost ("显存收益更大"), and the attention inputs' names, which are everyday English words
("column values", "unique key")."""

from __future__ import annotations

import pytest

from interviewer.grading.claims import contradiction


@pytest.mark.parametrize(("point", "span", "kind"), [
    # "non clustered", "non-clustered" and "nonclustered" are one word
    ("A non clustered index is a special type of index in which the logical order of the "
     "index does not match the physical stored order of the rows on disk.",
     "A non-clustered index is different: its logical order doesn't match the physical order "
     "of the rows on disk", None),
    # ... which still denies the plain word
    ("A clustered index reorders how the rows are physically stored",
     "A non-clustered index reorders how the rows are physically stored", "negated"),
    # "nobody" and "no one" deny as "no" does
    ("In case of exclusive lock, no other lock can be acquired on that row or table.",
     "With an exclusive lock nobody else can take any lock on the row or table, so other "
     "processes wait until it's released.", None),
    ("No other lock can be acquired on the row", "Other locks can be acquired on the row",
     "negated"),
    # "except X" denies X: "aren't present" agrees with it
    ("MINUS gives us all the rows from the first table except the rows which are present in "
     "the second table.",
     "MINUS gives you the rows of the first table that aren't present in the second one", None),
    ("INTERSECT returns the rows that are present in both tables",
     "INTERSECT returns every row except the rows present in both tables", "negated"),
])
def test_english_denials_are_read_however_they_are_written(point: str, span: str,
                                                           kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a size before a Latin noun modifies it ("大 Documents 块", "小 chunk"): no size is
    # said of what comes before
    ("Split拆分：文本拆分器将大 Documents 块分解为更小的块。这对于索引数据和将其传递到模型都很有用，"
     "因为大块更难搜索，并且不适合模型的有限上下文窗口。",
     "然后用文本切分器切成小 chunk，因为大块既不好检索，也塞不进模型有限的上下文窗口", None),
    # ... while a size that ends its clause is still said of its quantity
    ("batch size 较大时梯度方差小", "batch size 较大时梯度方差大", "reversed"),
    # "省得更多" saves more, as 减少 does; "增得更多" still adds
    ("进一步减少显存占用（梯度按需通信），适合更大模型。",
     "所以 ZeRO-2 显存省得更多，梯度按需通信，能放下更大的模型", None),
    ("进一步减少显存占用", "显存占用增得更多", "reversed"),
    # ... and a larger saving of memory is less memory, as saving more is
    ("INT4显存收益更大但风险更高", "显存和带宽省得更多", None),
    ("INT4显存收益更大但风险更高", "显存占用更多", "reversed"),
])
def test_chinese_sizes_and_denials_are_read_where_they_apply(point: str, span: str,
                                                              kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # "key" and "value" are the attention inputs only where attention is meant
    ("Both primary key and unique key enforces uniqueness of the column on which they are "
     "defined.", "both of them guarantee that the column values are unique", None),
    ("The cache keeps the key and the value of each past token",
     "The cache keeps the query and the key of each past token", "swapped"),
    ("The attention cache keeps the key of each past token",
     "The attention cache keeps the query of each past token", "swapped"),
])
def test_attention_inputs_are_told_apart_only_in_attention(point: str, span: str,
                                                           kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    ("The index isn’t large", "The index is large"),
    ("it isn’t a problem", "it is a problem"),
    ("Latency doesn’t change", "Latency increases a lot"),
    ("The value can’t be null", "the value can be null"),
])
def test_a_typographic_apostrophe_reads_as_a_plain_one_in_every_rule(point: str, span: str) -> None:
    plain = point.replace("’", "'")
    assert contradiction(point, span) == contradiction(plain, span)
    assert contradiction(span, point) == contradiction(span, plain)


@pytest.mark.parametrize(("point", "span", "kind"), [
    # what is denied across partitions is not what holds within one
    ("Kafka guarantees message ordering within a partition.",
     "across partitions you get no ordering guarantee at all", None),
    ("Kafka 保证分区内消息有序", "跨分区就没有顺序保证了", None),
    ("Kafka 保证单个分区内的消息有序", "不同分区之间不保证顺序", None),
    ("Order is kept inside a node", "there is no order between nodes", None),
    # ... while a denial of the same scope still denies it
    ("Kafka guarantees message ordering within a partition.",
     "Kafka doesn't guarantee ordering within a partition", "negated"),
    ("Kafka 保证分区内消息有序", "分区内的消息也不保证有序", "negated"),
    # ... and so does one with no scope of its own
    ("Kafka guarantees message ordering within a partition.",
     "Kafka gives no ordering guarantee at all", "negated"),
])
def test_a_denial_of_another_scope_is_not_a_denial_of_the_point(point: str, span: str,
                                                                 kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_a_scope_spares_only_the_clause_that_denies() -> None:
    """The span's other scope is in a clause of its own, and its denial is of something
    else: still a denial."""
    assert contradiction("跨节点用 IB 与 NVLink 混合通信，并配合 PP",
                         "没有用 PP，通信都走节点内 NVLink") == "negated"


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a denial of preventing X denies the prevention the point states, or the "no X" it says
    ("Idempotent producers prevent duplicate messages",
     "An idempotent producer doesn't prevent duplicates", "negated"),
    ("Idempotent producers ensure that messages are not duplicated",
     "An idempotent producer doesn't stop duplicates", "negated"),
    ("幂等生产者保证消息不重复", "幂等生产者并不能防止重复", "negated"),
    ("残差连接可以避免梯度消失", "残差连接其实没法避免梯度消失", "negated"),
    # ... a span that prevents it too agrees
    ("Idempotent producers prevent duplicate messages",
     "The idempotent producer stops duplicates from being written", None),
    ("幂等生产者保证消息不重复", "开启幂等后可以防止重复写入", None),
    # ... as does a point that itself says it cannot be prevented
    ("TIME_WAIT 不能彻底消除，只能缩短或复用", "TIME_WAIT 确实没法彻底消除，只能缩短或者复用", None),
    # ... and a span that fails to prevent something else
    ("Idempotent producers prevent duplicate messages",
     "Idempotence doesn't prevent reordering across partitions", None),
])
def test_a_denied_prevention_denies_what_the_point_prevents(point: str, span: str,
                                                            kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # not looking at X, not considering X deny what is said of X
    ("RRF 按两路各自的排名来融合结果", "它是把两路的原始相似度分数直接加权求和，并不看排名",
     "negated"),
    ("RRF 按两路各自的排名来融合结果", "RRF 不考虑排名，只加分数", "negated"),
    # 实时 is no 时 of a condition: not considering it is a denial like any other
    ("系统要保证实时性", "我们不考虑实时性", "negated"),
    ("系统要保证一致性", "我们不考虑一致性", "negated"),
    # ... and agree with a point that ignores it too
    ("RRF 只看排名，不看原始分数", "RRF 不考虑原始分数，只用排名", None),
    # ... while a point that says what not to regard denies nothing the span states
    ("如果对提交的结果不关心，建议使用 apply", "不关心结果时用 apply，需要确保提交成功时用 commit", None),
    ("说明拓扑感知的作用：不考虑网络拓扑会造成链路拥塞", "不做拓扑感知，部分链路会拥塞，应该按网络拓扑调度", None),
])
def test_not_regarding_a_thing_denies_what_is_said_of_it(point: str, span: str,
                                                        kind: str | None) -> None:
    assert contradiction(point, span) == kind
