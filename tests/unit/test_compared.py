"""The things a question compares are alternatives of their own: what a point says of one,
said of another, is a swap (interviewer.grading.compared)."""

from __future__ import annotations

import pytest

from interviewer.grading.claims import contradiction
from interviewer.grading.compared import Compared, compared_things


@pytest.mark.parametrize(("question", "things"), [
    ("What is the difference between WHERE clause and HAVING clause?",
     [("where clause", "where"), ("having clause", "having")]),
    ("What are the difference between clustered and a non-clustered index?",
     [("clustered",), ("non-clustered index", "non-clustered")]),
    ("What is the difference among UNION, MINUS and INTERSECT?",
     [("union",), ("minus",), ("intersect",)]),
    ("Prefill 和 Decode 有什么区别？", [("prefill",), ("decode",)]),
    ("MySQL 的 Binlog、Redo Log、Undo Log 有什么作用和区别？",
     [("binlog",), ("redo log", "redo"), ("undo log", "undo")]),
    ("简述GPT和BERT模型的主要区别，以及它们各自的优势。", [("gpt",), ("bert模型", "bert")]),
    ("Compare Mean Squared Error (MSE) and Mean Absolute Error (MAE).",
     [("mean squared error", "mse"), ("mean absolute error", "mae")]),
    ("TCP vs UDP", [("tcp",), ("udp",)]),
    ("How does a goroutine differ from an OS thread?", [("goroutine",), ("os thread",)]),
    ("Compare OSI and TCP/IP models and explain how they map to real-world troubleshooting.",
     [("osi",), ("tcp/ip models", "tcp/ip")]),
    # two things asked about together
    ("什么是防抖和节流？", [("防抖",), ("节流",)]),
    ("What are processes and threads?", [("processes",), ("threads",)]),
    # a title that is the two things, or asks which of them, or what each does
    ("乐观锁与悲观锁", [("乐观锁",), ("悲观锁",)]),
    ("重绘（Repaint）和回流（Reflow）", [("重绘", "repaint"), ("回流", "reflow")]),
    ("InnoDB 和 MyISAM 对比", [("innodb",), ("myisam",)]),
    ("CLOSE_WAIT 和 TIME_WAIT 哪个更危险？", [("close_wait",), ("time_wait",)]),
    ("TCP与UDP分别有哪些使用场景？", [("tcp",), ("udp",)]),
    ("CPU 和 GPU 在 LLM 推理里各干什么？CPU 还能丢掉吗？", [("cpu",), ("gpu",)]),
    ("什么叫大端和小端？", [("大端",), ("小端",)]),
    ("std::move 与 std::forward 的区别？", [("std::move", "move"), ("std::forward", "forward")]),
    ("How do top-k and top-p sampling differ in text generation?",
     [("top-k",), ("top-p sampling", "top-p")]),
    ("When should you use git rebase vs git merge? Trade-offs?",
     [("git rebase",), ("git merge",)]),
    ("Which is faster - subquery or JOIN?", [("subquery",), ("join",)]),
])
def test_a_question_names_what_it_compares(question: str, things: list[tuple[str, ...]]) -> None:
    assert list(compared_things(question)) == things


@pytest.mark.parametrize("question", [
    "什么是 KV Cache？", "How does B-trees index work?",
    "Compare the approaches and explain how each maps to real-world troubleshooting.",
    "什么是 Agentic RAG？它与传统 RAG 有什么区别？",
    "What is batch normalization and why does it help?", "什么是 MVCC 和它的实现原理？",
    "What is an Aggregate and Aggregate Root?",
    "模型量化的原理和常见方法？", "Kafka 的分区与消费组机制是什么？", "大模型训练和推理如何加速？",
    "怎么提高训练效率（时间和资源角度）？", "ReAct 架构原理与失败场景", "MySQL主从复制流程和原理？",
])
def test_a_question_that_compares_nothing_named_names_nothing(question: str) -> None:
    assert compared_things(question) == ()


WHERE_HAVING = "What is the difference between WHERE clause and HAVING clause?"
POINTS = ("WHERE clause can only be applied on a static non-aggregated column",
          "we will need to use HAVING for aggregated columns.")
PREFILL = ("Prefill 阶段一次处理整个 prompt，是计算密集的", "Decode 阶段一次生成一个 token，是访存密集的")


def _compared(question: str, points: tuple[str, ...]) -> Compared:
    return Compared(compared_things(question), points)


@pytest.mark.parametrize(("question", "points", "point", "span", "kind"), [
    # what the point says of WHERE, said of HAVING
    (WHERE_HAVING, POINTS, POINTS[0], "HAVING can only be applied on static non-aggregated columns",
     "swapped"),
    (WHERE_HAVING, POINTS, POINTS[1], "WHERE is actually what you use for aggregated columns",
     "swapped"),
    # ... said of the point's own thing, or of both, is no swap
    (WHERE_HAVING, POINTS, POINTS[0], "WHERE can only filter on plain, non-aggregated columns", None),
    (WHERE_HAVING, POINTS, POINTS[1],
     "Aggregated columns need HAVING, since WHERE can't see them", None),
    # a span that states the other point is that point's, not a swap of this one
    ("Prefill 和 Decode 有什么区别？", PREFILL, PREFILL[0], "Decode 阶段一次只生成一个 token，访存密集", None),
    ("Prefill 和 Decode 有什么区别？", PREFILL, PREFILL[0], "Decode 阶段一次处理整个 prompt，是计算密集的",
     "swapped"),
    # ... nor is one that names the other thing as the contrast
    ("LLaMA和GPT架构的主要区别？", ("LLaMA使用RoPE位置编码",), "LLaMA使用RoPE位置编码",
     "位置信息上它用旋转位置编码 RoPE，而不是 GPT 那种学出来的绝对位置嵌入", None),
    # a question that compares nothing reads no swap
    ("What does the WHERE clause do?", POINTS, POINTS[0],
     "HAVING can only be applied on static non-aggregated columns", None),
])
def test_a_point_said_of_another_compared_thing_is_swapped(
        question: str, points: tuple[str, ...], point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span, _compared(question, points)) == kind


@pytest.mark.parametrize(("question", "point", "span", "kind"), [
    # what a point says of each of two compared things, said the other way round
    ("什么是防抖和节流？", "区别：防抖只执行最后一次，节流定期执行。", "简单记：节流只执行最后一次，防抖是定期执行",
     "roles"),
    ("What is the difference between stemming and lemmatization?",
     "If confronted with the token saw, stemming might return just s, whereas lemmatization would "
     "attempt to return either see or saw",
     "With saw, lemmatization might return just s, whereas stemming would try to return see or saw",
     "roles"),
    # ... and the same way round, in other words
    ("什么是防抖和节流？", "区别：防抖只执行最后一次，节流定期执行。", "防抖只会执行最后那一次，节流则是定期执行", None),
    ("What is the difference between stemming and lemmatization?",
     "If confronted with the token saw, stemming might return just s, whereas lemmatization would "
     "attempt to return either see or saw",
     "For saw, stemming may give just s, whereas lemmatization tries to return see or saw", None),
])
def test_compared_things_said_the_other_way_round_exchange_roles(
        question: str, point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span, _compared(question, (point,))) == kind


def test_a_sentence_that_also_states_another_point_still_swaps_its_maker() -> None:
    # the sentence says what the DeepSpeed-Chat point says too ("训练框架"), and names 谷歌,
    # which no point names: the maker is still swapped
    points = ("DeepSpeed是微软开发的分布式训练优化库", "DeepSpeed-Chat：RLHF训练框架")
    compared = Compared(compared_things("介绍一下 DeepSpeed"), points)
    assert contradiction(points[0], "DeepSpeed是一个训练框架，好像是谷歌开发的", compared) == "swapped"
