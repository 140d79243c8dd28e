"""What a span claims: contradictions and bare names, in Chinese and English (pure code)."""

from __future__ import annotations

import pytest

from interviewer.grading.claims import contradiction, is_bare, names_neighbour, numbers
from interviewer.grading.compared import Compared, compared_things


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a denial of what the point asserts
    ("CBO 依赖统计信息来估算代价", "CBO 不需要统计信息", "negated"),
    ("hint 不是强制命令，优化器可以忽略", "join hint 是强制命令", "negated"),
    ("梯度累加到梯度buffer中，不立即更新参数", "每个micro-batch都立即更新一次参数", "negated"),
    ("The KV cache stores keys and values of past tokens",
     "The KV cache does not store the keys and values", "negated"),
    # a name the point gives one member of a set in brackets, said to be another member
    ("举例：etcd（CP）、Eureka（AP）", "etcd 是 AP 系统，分区时优先保证可用", "swapped"),
    ("ZeRO-1（优化器状态）", "ZeRO-1 切分的是梯度", "swapped"),
    # across languages, a denial elsewhere in the span does not hide the one asserted term
    ("AWQ：并非所有权重都同样重要", "AWQ treats all weights equally, ignoring activations", "negated"),
    # 不一致 still denies 一致 (only "快慢不一" is a word of its own)
    ("强一致：所有副本的数据一致", "副本之间的数据经常不一致", "negated"),
    # an English antonym made by a prefix
    ("SSTables: Immutable, sorted segments on disk",
     "SSTables are mutable log segments that are updated in place", "negated"),
    ("B-Tree: Ordered, balanced tree over key space", "B-trees are unbalanced binary trees", "negated"),
    # skipping a thing denies it; a definition ("X is when …") is no condition
    ("DPO lets you skip the explicit reward model", "DPO first trains an explicit reward model", "negated"),
    ("Reward hacking is when the policy games the reward instead of solving the task",
     "Reward hacking means the policy solves the task as intended", "negated"),
    # the opposite direction on the same quantity
    ("量化可以减少显存占用", "量化会增加显存占用", "reversed"),
    ("Gradient checkpointing reduces activation memory",
     "Gradient checkpointing increases activation memory", "reversed"),
    # another member of a closed set, in the same role
    ("DeepSpeed是微软开发的分布式训练优化库", "DeepSpeed是谷歌开发的", "swapped"),
    ("Kafka 的 exactly-once 依赖幂等生产者和事务", "Kafka 的 at-least-once 依赖幂等生产者和事务",
     "swapped"),
    ("流水线并行：将模型层间切分到多卡", "专家并行：将模型层间切分到多卡", "swapped"),
    # another number for the same unit
    ("等效于使用4倍大的batch size", "等效于使用8倍大的batch size", "number"),
    ("ZeRO-3 shards parameters across 8 GPUs", "ZeRO-3 shards parameters across 4 GPUs",
     "number"),
])
def test_contradictions_are_seen(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # the same claim in other words
    ("梯度累加到梯度buffer中，不立即更新参数", "梯度先攒着，不马上更新参数"),
    ("量化可以减少显存占用", "量化以后显存占用小很多，也节省带宽"),
    ("混合精度减少计算量", "混合精度算得更快"),
    # a question about a thing does not deny it
    ("编译优化：是否使用了torch.compile/CUDA Graph", "最后看有没有开torch.compile或者CUDA Graph"),
    # the point's own negation, said again in other words
    ("模型架构问题：缺少残差连接或归一化层", "结构上没加norm层/残差"),
    ("batch size太小：GPU计算未饱和", "batch size太小也喂不饱GPU"),
    # words that only contain a negation character
    ("数值不稳定：梯度爆炸/消失，特别是FP16训练中", "FP16训练的时候可能数值溢出、梯度爆炸"),
    # a list of alternatives names them; it does not put one in another's place
    ("序列并行（SP）：长序列切分到多卡处理", "数据并行、张量并行、流水线并行都会用"),
    # another member, but about something else
    ("数据加载：是否IO瓶颈（CPU预处理慢）", "先看GPU利用率，低的话再查数据加载"),
    # a bare name claims nothing
    ("DeepSpeed是微软开发的", "DeepSpeed"),
    # the same number, and names that hold digits
    ("INT8 量化把显存减半", "INT8 量化把显存减半，速度也更快"),
    # what is to be avoided, named as the risk ("不然容易 OOM"), or avoided in other words
    ("服务端需要限制每个 prompt 的图片数量，避免 OOM", "要注意限制每个请求带的图片数量，不然容易 OOM"),
    ("增加消费者实例（不超过分区数）", "在组里多加几个消费者，不过别超过分区数"),
    ("每个控制器应独立设置限流参数，避免互相影响", "每个控制器单独配置限流参数，免得互相干扰"),
    ("不考虑网络拓扑会造成链路拥塞，应按拓扑调度", "ignoring the network topology congests some links"),
    ("closed-form derivation lets you skip the explicit reward model and PPO",
     "DPO gets there without the reward model or PPO"),
    ("Reward hacking is maximizing the reward signal without solving the task as intended",
     "Reward hacking is when the model exploits the reward model instead of really solving the task"),
    # both sides deny it, in their own words; a Latin word is one word of a denial's reach
    ("证据不足时要允许回答“不足以判断”", "证据不够时，允许直接回答'现有材料无法判断'"),
    ("失败进入补偿队列，而不是让 Agent 自由重试", "失败进入补偿队列，而不是让智能体自由重试"),
    ("节点算力或速度不一致，快节点在同步点等慢节点", "节点快慢不一会让快节点在同步点等慢节点"),
    # English says what it denies before the cue too ("X should be avoided")
    ("`var` should be avoided whenever possible; prefer `const` as the default",
     "所以尽量别用 var，默认一律 const"),
    # a prefix that is part of the word, or the word said both ways, is no antonym
    ("The index is rebuilt in the background", "Indexing happens in a background thread"),
    ("Writes are atomic and durable", "writes are atomic, never partially applied, and durable"),
    ("In non-strict mode `this` is the global object, in strict mode it is undefined",
     "outside strict mode it points at the global object, under 'use strict' it is undefined"),
    ("RSM requires deterministic execution",
     "it only works if execution is deterministic: non-deterministic calls break it"),
    # ... and the same attribution, or more members than one, is no swap
    ("举例：etcd（CP）、Eureka（AP）", "etcd 是 CP 的，Eureka 是 AP 的"),
    ("ZeRO-1（优化器状态）", "ZeRO-1 只切优化器状态，不切梯度"),
    # what a requirement would bring ("才能喂饱") is not asserted to hold
    ("batch size 太小，GPU 算力没被喂饱", "batch size 要足够大，才能喂饱 GPU"),
    ("without batching the GPU is not saturated", "you need big batches so that the GPU is saturated"),
    # what is checked first is not denied
    ("执行前查业务状态，执行后记录外部单号", "调用前先查一下外部系统的状态，确认没执行过再执行，执行后把单号记下来"),
    # "基于", "适合" say something of a name
    ("FSDP2 基于 DTensor/per-parameter sharding，适合大模型", "FSDP2 按单个参数切，特别适合单卡放不下的大模型"),
])
def test_agreement_is_not_a_contradiction(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # the same number in another unit, or rounded, or with its thousands grouped
    ("把 loss 乘一个大数（比如 1024），反向传播时梯度也被放大",
     "先把 loss 放大比如 1024 倍，小梯度很容易变成 0"),
    ("Trainable parameters drop from d·k to r·(d+k), often 100×–10,000× less",
     "可训练参数从 d·k 降到 r·(d+k)，通常少 100 到 10000 倍"),
    ("Guardrails: injection ASR 73%→8.7%", "layered defenses bring attack success from about 73% to about 9%"),
    # numbers written as words
    ("Size Reduction: 10-100x smaller models",
     "a model that is ten to a hundred times smaller and 5 to 50 times faster"),
    # a year is when, not how many
    ("ZeRO (Rajbhandari et al. 2020): shards optimizer state (Z1), gradients (Z2), parameters (Z3)",
     "it partitions the optimizer states, then the gradients, then the parameters in stages 1, 2 and 3"),
])
def test_the_same_number_said_otherwise_is_not_another(point: str, span: str) -> None:
    assert contradiction(point, span) is None


def test_numbers_skip_enumerators_and_years() -> None:
    assert numbers("Requires (1) the serving stack and (2) the scheduler, since 2023") == set()
    assert numbers("三种 State Backend，只有一种") == {(3.0, "种"), (1.0, "种")}
    assert numbers("quorum = N/2 + 1") == {(1.0, "")}


def test_numbers_skip_digits_inside_names() -> None:
    assert numbers("ZeRO-3 用 INT8 和 FP16，H100 上快 2 倍") == {(2.0, "x")}
    assert numbers("快两倍，占 30%") == {(2.0, "x"), (30.0, "%")}


@pytest.mark.parametrize(("span", "bare"), [
    ("数据并行、张量并行、流水线并行", True),
    ("Data parallel, tensor parallel, pipeline parallel.", True),
    ("KV Cache", True),
    ("显存碎片", True),
    ("continuous batching, paged attention", True),
    ("张量并行，把权重切到多卡", False),
    ("KV Cache避免重复计算", False),
    ("首先上BF16/FP16混合精度", False),
    ("用torch.compile做图编译", False),
    ("It stores the KV cache in blocks", False),
    ("use a KV cache to avoid recomputation", False),
])
def test_bare_names_are_told_from_statements(span: str, bare: bool) -> None:
    assert is_bare(span) is bare


def test_a_compound_name_is_not_its_head() -> None:
    assert names_neighbour("DeepSpeed-Chat：RLHF训练框架", "DeepSpeed是一个训练框架")
    assert not names_neighbour("DeepSpeed-Chat：RLHF训练框架", "DeepSpeed-Chat 用来做 RLHF")
    assert not names_neighbour("DeepSpeed是微软开发的", "DeepSpeed是一个训练框架")


@pytest.mark.parametrize(("point", "span", "kind"), [
    # one member of the set the point enumerates replaced by another, in the same clause
    ("ZeRO-2 切分优化器状态和梯度", "ZeRO-2 切分优化器状态和参数", "swapped"),
    ("The cache keeps the key and the value of each past token",
     "The cache keeps the query and the key of each past token", "swapped"),
    # a point that denies something, affirmed by the answer
    ("提速不是因为减少了计算量，而是因为减少了显存读写", "提速是因为减少了计算量", "negated"),
    ("The speed-up comes not from fewer FLOPs but from less memory traffic",
     "The speed-up comes from fewer FLOPs", "negated"),
    # what the point says of several things, limited by the answer to one of them
    ("Encoder 和 Decoder 都使用多头注意力", "只有 Decoder 使用多头注意力", "narrowed"),
    ("Both the producer and the consumer need idempotence",
     "Only the consumer needs idempotence", "narrowed"),
    # a transition ends somewhere else than the point's state
    ("显存占用仍然是 O(n^2)", "显存占用从 O(n^2) 降到了 O(n)", "swapped"),
    ("Memory is still O(n^2) in sequence length", "Memory goes from O(n^2) to O(n)", "swapped"),
    # one thing against more of them
    ("GQA 比 MQA 用更多的 KV 头", "GQA 只用一个 KV 头", "reversed"),
    ("MQA shares a single KV head across all query heads",
     "MQA uses more KV heads than MHA", "reversed"),
    # unable to do what the point says is done
    ("Flink 可以从 checkpoint 恢复状态", "Flink 无法从 checkpoint 恢复状态", "negated"),
    ("Spark can recompute a lost partition from its lineage",
     "Spark cannot recompute a lost partition", "negated"),
])
def test_more_shapes_of_contradiction_are_seen(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # the contrastive point said again, in the other order
    ("提速不是因为减少了计算量，而是因为减少了显存读写", "提速靠的是减少显存读写，而不是减少计算量"),
    ("The speed-up comes not from fewer FLOPs but from less memory traffic",
     "It is faster because of less memory traffic, not because of fewer FLOPs"),
    # both members, in another order
    ("ZeRO-2 切分优化器状态和梯度", "ZeRO-2 把梯度和优化器状态都切开"),
    # "only" about something the point does not enumerate
    ("Encoder 和 Decoder 都使用多头注意力", "Encoder 和 Decoder 都用多头注意力，只有 Decoder 加了掩码"),
    # the transition ends at the point's state
    ("显存占用降到 O(n)", "显存占用从 O(n^2) 降到了 O(n)"),
    # one of something, where the point says nothing about how many
    ("MQA 让所有查询头共享 KV", "MQA 里所有查询头共享一个 KV 头"),
])
def test_restatements_of_these_shapes_are_not_contradictions(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # "由 X 触发" names who may not trigger it; saying X cannot trigger it agrees
    ("权限只能由管理员授予，不能由普通用户触发", "普通用户触发不了授权，只有管理员可以授予"),
    # a stage a thing includes is not put in its place
    ("DeepSpeed-Chat：RLHF训练框架", "DeepSpeed-Chat 做 RLHF，SFT、奖励模型、PPO 三步都包了"),
])
def test_agreement_in_other_constructions_is_not_a_contradiction(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # single-letter names of the attention inputs
    ("缓存 K 和 V，每层各一份", "缓存的是 Q 和 K", "swapped"),
    # all of them against only some of them
    ("推理时所有层的缓存都要留在显存里", "推理时只需要把最后一层的缓存留在显存里", "narrowed"),
    ("Every replica must acknowledge the write", "Only the leader replica must acknowledge the write",
     "narrowed"),
    # the topic a point is labeled with, denied
    ("流水线气泡：用 1F1B 调度让各阶段尽早开工", "这种方案根本不存在流水线气泡", "negated"),
])
def test_enumerations_and_labels_are_read(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    ("流水线气泡：用 1F1B 调度让各阶段尽早开工", "如果不用 1F1B，流水线气泡会很大"),
    ("推理时所有层的缓存都要留在显存里", "所有层的缓存都在显存里，只是长序列时占得多"),
])
def test_conditions_and_asides_are_not_contradictions(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # the same quantity moved the other way, named in the other language
    ("量化可以降低显存占用", "Quantization increases memory usage", "reversed"),
    ("Gradient checkpointing reduces activation memory", "梯度检查点会增加激活显存", "reversed"),
])
def test_directions_are_compared_across_languages(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


def test_a_direction_on_another_quantity_across_languages_is_not_a_contradiction() -> None:
    assert contradiction("量化可以降低显存占用", "Quantization increases throughput") is None


@pytest.mark.parametrize(("point", "span"), [
    # "一个" counts nothing here: it is an article
    ("用一个更小、更快的模型先做粗排", "A smaller and faster model does the first ranking pass"),
    # a point that moves a quantity both ways is not read for direction
    ("更大的缓冲区能保存更早的消息", "A bigger buffer keeps the messages from earlier on"),
])
def test_articles_and_two_way_points_are_not_reversals(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # the point's subject is its label; the span says the same of another member
    ("Prefill：一次处理整个 prompt，计算密集", "Decode 一次处理整个 prompt", "swapped"),
    ("Decode: one token per step, bound by memory bandwidth",
     "Prefill 每步只出一个 token，受显存带宽限制", "swapped"),
    # the label denied in the other language
    ("负载均衡：用辅助损失让 token 分散到各个专家", "There is no load balancing issue at all", "negated"),
])
def test_labels_are_read_across_languages(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


def test_both_members_named_is_not_a_swap_of_the_label() -> None:
    assert contradiction("Prefill：一次处理整个 prompt，计算密集",
                         "Prefill 一次处理整个 prompt，decode 一次一个 token") is None


@pytest.mark.parametrize(("point", "span"), [
    ("PP：按层切分，相邻阶段之间传递激活值", "Pipeline parallelism never sends activations between stages"),
    ("Tensor parallelism needs an all-reduce after each layer", "张量并行不需要全归约"),
])
def test_a_denied_term_is_seen_across_languages(point: str, span: str) -> None:
    assert contradiction(point, span) == "negated"


def test_a_denial_of_another_term_across_languages_is_not_a_contradiction() -> None:
    assert contradiction("PP：按层切分，相邻阶段之间传递激活值",
                         "Pipeline parallelism splits layers, no all-reduce of activations needed") is None


def test_a_denial_in_both_languages_is_agreement() -> None:
    assert contradiction("缓存先攒着，不立即写入磁盘", "the cache is filled first and the disk is not written yet") is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # the point says "only one"; the answer says it of several
    ("只有 leader 副本处理读写请求", "leader 和 follower 都处理读写请求", "widened"),
    ("Only the driver holds the DAG", "The driver and the executors both hold the DAG", "widened"),
    # the point's own transition, and an answer that stays at its start
    ("延迟：200ms → 20ms", "延迟仍然是 200ms", "number"),
    ("计算复杂度：O(n^2) → O(n)", "计算复杂度仍然是 O(n^2)", "swapped"),
    # better against worse
    ("尾延迟更好", "尾延迟会变差", "reversed"),
    # underflow against overflow
    ("FP16 的梯度容易下溢", "FP16 的梯度容易上溢", "swapped"),
    # another stage of the same technique
    ("ZeRO-2：切分梯度", "ZeRO-3 才切分梯度", "swapped"),
    # the point's subject named, and another member of the point's set said of it
    ("TP：每层之后做 all-reduce", "张量并行每层之后用 all-to-all 交换", "swapped"),
])
def test_further_shapes(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    ("只有 leader 副本处理读写请求", "leader 处理读写请求，follower 只同步数据"),
    ("延迟：200ms → 20ms", "延迟从 200ms 降到了 20ms"),
    ("ZeRO-2：切分梯度", "ZeRO-2 在 ZeRO-1 的基础上再切分梯度"),
])
def test_further_agreements(point: str, span: str) -> None:
    assert contradiction(point, span) is None


def test_members_joined_by_plus_signs_are_read_in_their_role() -> None:
    assert contradiction("常见组合：DP + TP + PP", "常见组合是 DP+EP+SP") == "swapped"
    assert contradiction("常见组合：DP + TP + PP", "常见组合是 TP+DP+PP") is None


@pytest.mark.parametrize(("answer", "listed"), [
    # lists of short noun phrases, some longer than a bare name
    ("梯度累积、连续显存预分配、通信计算重叠、算子融合、混合精度", True),
    ("prefix caching, trade latency for throughput, two copies per layer, memory bottleneck", True),
    ("分块计算、在线 softmax、重计算、IO 感知", True),
    # statements, even short ones, and notes that say what each item does
    ("梯度累积省显存，算子融合减少访存，混合精度提速", False),
    ("DP：复制模型切数据；TP：切层内矩阵；PP：按层切分", False),
    ("It caches keys and values, so decoding skips recomputation.", False),
    ("显存不够，先开重计算", False),
    # a list, then names with what each one does
    ("数据并行、张量并行、流水线并行，ZeRO分片优化器状态，FlashAttention减少显存访问。", False),
    # names with a Latin part are names still
    ("fallback 契约兼容、O(n^2) 注意力矩阵、下一个 token 预测、bf16混合精度", True),
    # a noun that ends in a verb names a thing ("幂等写入", "窄依赖", "变量提升"), and
    # characters of a predicate inside a word ("作用域", "有序") make none
    ("Lineage、血缘、重算、窄依赖、宽依赖、Checkpoint", True),
    ("端到端、可重放 Source、Checkpoint、Barrier 对齐、幂等写入、两阶段提交", True),
    ("词法作用域、内部函数、捕获的状态、单方法对象、私有变量、模块模式", True),
    ("变量提升、暂时性死区、块级作用域、函数作用域、默认 const", True),
    ("连续显存预分配、block、块表映射、显存利用率、吞吐、prefix 共享", True),
    # ... but a verb with its object after it states something
    ("梯度累积节省显存、算子融合减少访存、重计算换显存、混合精度提速", False),
    ("消息写入磁盘、副本同步更新、消费者提交 offset、分区有序", False),
    # a word of advice ("cache", "store") leads the item when it is one
    ("KV cache, fixed-size blocks, block table, contiguous memory, fragmentation, padding", True),
])
def test_term_lists_are_told_from_statements(answer: str, listed: bool) -> None:
    from interviewer.grading.claims import is_term_list

    assert is_term_list(answer) is listed


def test_advice_written_as_a_list_is_not_a_term_list() -> None:
    from interviewer.grading.claims import is_term_list

    assert not is_term_list("activation checkpointing, smaller micro-batches, use fp16, "
                            "try ZeRO-3, also check the dataloader")


@pytest.mark.parametrize("answer", [
    "Each record must carry its owner, source, scope, creation time and expiry.",
    "Tag every message by where it came from: user input, system policy, retrieved text, tool output.",
    "上线申请要写清楚场景、预算、数据级别、峰值流量、回滚方案",
    "Combine the hit rate, the latency, the cost and the error budget.",
])
def test_a_statement_that_enumerates_is_not_a_term_list(answer: str) -> None:
    from interviewer.grading.claims import is_term_list

    assert not is_term_list(answer)


def test_a_step_in_a_sequence_is_not_a_term_list() -> None:
    from interviewer.grading.claims import is_term_list

    assert not is_term_list("Before the upgrade, freeze a regression suite with parsing, "
                            "retries, timeouts, logging and metrics.")


@pytest.mark.parametrize(("point", "span"), [
    # one technique under two names is not a swap of its first word
    ("梯度checkpointing以时间换空间", "然后开 activation checkpointing"),
    ("activation checkpointing", "turn on gradient checkpointing"),
    # a point that names a problem, and an answer that describes the same problem
    ("拓扑感知：未充分利用网络拓扑导致链路拥塞", "没按拓扑放置任务，流量挤在少数链路上"),
])
def test_synonyms_and_described_problems_are_not_contradictions(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # a comma between two clauses is not a list: "micro-batch，显存不够时…" names no pair
    ("等效于使用N倍大的batch size，但峰值显存只需一个micro-batch的量",
     "梯度累积把大batch拆成多个micro-batch，显存不够时用它"),
    ("Only the leader handles writes", "Requests go to the leader, followers catch up later"),
])
def test_things_in_separate_clauses_are_not_an_enumeration(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # two things, each said with what the point says of the other
    ("RTO 决定了备份切换的速度要求，RPO 决定了备份频率和复制延迟要求",
     "所以 RPO 决定切换速度，RTO 决定备份频率和复制延迟"),
    # ... or compared in one clause, the other way round
    ("CPU更擅长复杂逻辑控制，而GPU得益于大量ALU和并行结构设计，更擅长数学运算。",
     "是因为 GPU 比 CPU 更擅长复杂的逻辑分支控制"),
    # three passed round
    ("事实缺失优先 RAG，格式不稳优先结构化输出和 Prompt，稳定风格/领域术语才考虑 SFT/LoRA。",
     "事实缺失优先 SFT/LoRA，格式不稳优先 RAG，稳定风格/领域术语靠结构化输出和 Prompt。"),
])
def test_roles_exchanged_between_the_point_s_things_contradict_it(point: str, span: str) -> None:
    assert contradiction(point, span) == "roles"


@pytest.mark.parametrize(("point", "span"), [
    # the same pairs in another order, or in other words
    ("RTO 决定了备份切换的速度要求，RPO 决定了备份频率和复制延迟要求",
     "RPO 决定备份频率和复制延迟，RTO 决定切换速度"),
    ("RTO 决定了备份切换的速度要求，RPO 决定了备份频率和复制延迟要求",
     "RTO 管切换要多快，RPO 管多久备份一次、复制能落后多少"),
    ("事实缺失优先 RAG，格式不稳优先结构化输出和 Prompt，稳定风格/领域术语才考虑 SFT/LoRA。",
     "缺事实就上 RAG；格式不稳先用结构化输出和 Prompt；要稳定风格和术语再做 SFT/LoRA。"),
    # one thing: nothing to exchange
    ("PP（Pipeline Parallel）：层间切分，流水线传 activation", "PP：层间切分，传 activation"),
    # the point's two clauses said in one: a clause that names both says one thing of both
    ("对于流水线并行，一般通过 Infiniband 交换机进行连接", "流水线并行一般通过无限带宽交换机在机器之间连接"),
    ("在预填充阶段，模型会并行处理输入的 prompt（即 input token），生成 KV cache",
     "预填充阶段模型并行处理输入的提示词，生成键值缓存"),
    ("受通讯负载不均的影响，DP一般用于单机多卡场景",
     "普通的数据并行受通讯负载不均衡的影响，压力都集中在主节点上，一般只用于单机多卡"),
])
def test_the_same_pairs_in_any_order_are_not_an_exchange(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # a quantity called high against low, large against small, without a comparative
    ("shuffle 是高成本的重分布边界", "shuffle 其实开销不大"),
    ("机器之间的带宽比机内 NVLink 低得多", "机间网络带宽其实比机内 NVLink 还高"),
    ("学习率过大，更新步子太大，在最优点附近来回跳", "loss 震荡一般是学习率太小，更新太慢"),
    ("QAT 在训练中模拟量化，精度最好但成本高", "QAT 精度不如 PTQ，但成本更低"),
    ("ZeRO-3 可以训练超大模型，但通信开销变大", "ZeRO-3 的通信量比 DDP 还小"),
    ("Shuffles are expensive because every record crosses the network",
     "Shuffles are cheap, the records stay local"),
    ("The KV cache is large for long contexts", "The KV cache is tiny even for long contexts"),
    ("流水线并行：通信类型是P2P通信，单次通信数据量较少", "PP 是点对点通信，单次通信量不算小"),
    ("线程上下文切换比进程上下文切换要快得多", "线程切换其实比进程切换更慢"),
    ("集群越大，AllReduce 的延迟累积越严重", "集群越大 AllReduce 延迟反而越小"),
])
def test_a_magnitude_said_the_other_way_is_reversed(point: str, span: str) -> None:
    assert contradiction(point, span) == "reversed"


@pytest.mark.parametrize(("point", "span"), [
    ("shuffle 是高成本的重分布边界", "shuffle 代价很高，是数据重新分布的边界"),
    ("机器之间的带宽比机内 NVLink 低得多", "跨机带宽远低于机内 NVLink"),
    # 不算大 is small; 得多 says how much, it is no size of its own
    ("流水线并行：通信类型是P2P通信，单次通信数据量较少", "PP 是点对点通信，通信量不算大"),
    ("转化后的向量空间 3 万维不是很大", "3 万维也不算大"),
    ("线程上下文切换比进程上下文切换要快得多", "线程切换比进程切换快很多"),
    ("集群越大，AllReduce 的延迟累积越严重", "集群规模越大，AllReduce 累积的延迟就越多"),
    ("低成本：与相同总参数的密集模型相比，MoE 模型在训练和推理上要便宜得多",
     "跟总参数量相同的稠密模型比，训练和推理成本都低不少"),
    ("batch size 太小，梯度估计方差大，更新方向不稳", "batch 太小的话梯度方差很大，更新方向不稳定"),
    # the comparison the other way round says the same
    ("机器之间的带宽比机内 NVLink 低得多", "机内 NVLink 的带宽比机器之间高得多"),
    # sizes that name things, not magnitudes
    ("大模型推理的瓶颈是显存带宽", "大模型推理主要卡在显存带宽上，小 batch 时更明显"),
    ("让一个更小、更快的草稿模型先猜几个 token，再让大模型一次并行验证",
     "用一个小的草稿模型先猜几个 token，再让大模型并行验证"),
    ("The KV cache is large for long contexts", "For long contexts the KV cache gets big"),
    # 太多 after an adjective says how much, not how many
    ("机器之间的带宽比机内 NVLink 低得多", "机器之间的网络比机器里面 NVLink 慢太多了"),
    # run on with no comma: each size is said of what comes right before it
    ("batch size太小：梯度估计方差大，导致更新方向不稳定", "batch size太小梯度方差大"),
    # a size is said of the quantity in its own clause
    ("参数量大但激活量小：万亿级模型推理时只激活几十亿参数",
     "总参数很多，但每个token实际参与计算的只是其中一小部分"),
    # a size asked for is no size asserted
    ("batch size 太小，GPU 算力没被喂饱", "check that the batch size is big enough to saturate the GPU"),
])
def test_a_magnitude_said_the_same_way_agrees(point: str, span: str) -> None:
    assert contradiction(point, span) is None


def test_a_size_asked_for_in_chinese_is_no_size_asserted() -> None:
    from interviewer.grading.claims import direction_conflict

    assert not direction_conflict("batch size 太小，GPU 算力没被喂饱", "batch size 要足够大，才能喂饱 GPU")


@pytest.mark.parametrize(("point", "span"), [
    # the point denies it too, inside a condition, by 无 or by 非: the same denial said otherwise
    ("PACELC adds: if no partition, you still trade latency vs consistency",
     "PACELC extends it: even with no partition you still pay for consistency in response time"),
    ("PACELC adds: if no partition, you still trade latency vs consistency",
     "PACELC 在此基础上补充：即使没有分区，也要在延迟和一致性之间权衡"),
    ("读取时只能看到已提交的数据，即无脏读", "读时只能看到已提交的数据，没有脏读"),
    ("非同步副本落后 Leader 太多，如果选择这些副本作为新 Leader，就可能出现数据的丢失",
     "没同步到的那部分数据就丢了"),
    ("如果leader发现follower超过这个参数所设置的时间没有向它发起fetch请求，那么将这个follower从ISR移除",
     "领导者发现某个追随者超过这个时间没有向它发起拉取请求，就把它移出同步副本集合"),
    # across languages: a denial whose reach differs, or that the other side asserts as well
    ("You cannot have linearizable consistency and availability for all clients during a partition.",
     "你没办法对所有客户端同时保证线性一致性和可用性"),
    ("建议不要开启，为了这点儿高可用性的改善，牺牲了数据一致性，那就非常不值当了",
     "a little extra availability isn't worth losing consistency"),
    ("每个分区只能由同一个消费者组内的一个Consumer实例来消费。",
     "Within a group each partition is consumed by exactly one instance, and an instance "
     "doesn't need all partitions"),
])
def test_the_same_denial_said_otherwise_is_agreement(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # a clause that ends in 时 or 的时候 is a condition, as one that starts with 如果 is
    ("Broker 的应答没有成功发送回 Producer 端时，Producer 无法确定消息是否真的提交成功",
     "只有当服务端代理节点成功收到消息、并且生产者收到了它的确认应答，生产者才认为发送成功"),
    ("ISR 为空了，就说明 Leader 副本也挂掉了，Kafka 需要重新选举一个新的 Leader",
     "就是 ISR 里没有副本可选的时候，从那些副本里选 leader"),
    # "允不允许", "成没成功": a question, not a denial
    ("Broker 端参数 unclean.leader.election.enable 控制是否允许 Unclean 领导者选举",
     "允不允许由 broker 参数 unclean.leader.election.enable 决定"),
    ("只有Broker成功接收消息且Producer接到Broker的应答才会认为该消息成功发送",
     "生产者没法判断到底成没成功，只好再发一遍"),
    # a quoted statement is denied whole
    ('KRaft is Kafka\'s Raft-based metadata quorum (not "Kafka uses ZK" in 4.x).',
     "Kafka 4.x uses exactly this for metadata — KRaft"),
    # a named point, and a denial of something else in the clause that names it
    ("UUID v4: unique, 128-bit, random → index fragmentation.",
     "Random UUIDs (v4) need no coordination and basically never collide"),
    ("Payments: idempotency keys (Stripe model).",
     "the client sends a unique idempotency key with each charge so a retry is not charged "
     "twice — that's Stripe's model"),
    # a list of names claims nothing
    ("Broker 端参数 unclean.leader.election.enable 控制是否允许 Unclean 领导者选举",
     "ISR为空、非同步副本、数据丢失、unclean.leader.election.enable、可用性、一致性"),
    ("You cannot have linearizable consistency and availability for all clients during a partition.",
     "网络分区、线性一致性、可用性、CA、PACELC、延迟与一致性的权衡"),
    # a shorter time is a faster speed
    ("缩短单条消息处理的时间，优化下游的逻辑是最不容易出错的", "最稳妥的是把单条消息的处理变快"),
    # 一次性 is "at once", not a count
    ("减少一次性消费信息的总数 max.poll.records",
     "调大两次拉取之间允许的最大间隔，或者调小单次拉取的最大消息条数"),
])
def test_conditions_questions_quotes_and_lists_are_not_contradictions(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    ('KRaft is Kafka\'s Raft-based metadata quorum (not "Kafka uses ZK" in 4.x).',
     "In 4.x Kafka uses ZK for its metadata", "negated"),
    ("Payments: idempotency keys (Stripe model).", "Idempotency keys are not needed for payments",
     "negated"),
    ("缩短单条消息处理的时间", "单条消息的处理会变慢", "reversed"),
    ("读取时只能看到已提交的数据，即无脏读", "读时能看到未提交的数据，会有脏读", "negated"),
])
def test_what_these_agreements_leave_contradicted(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # "near-zero", "removing": the point denies it too
    ("FP8 (E4M3 / E5M2): drop-in for weights and activations; near-zero quality loss",
     "FP8 works for weights and activations alike with almost no quality loss"),
    ("merge it into W (W' = W + (α/r)BA), removing any inference overhead.",
     "推理时还可以把它合并进 W（W' = W + (α/r)BA），没有额外开销"),
    # 不可用 is "unavailable": it denies 可用, not the time it qualifies
    ("错误预算消耗速率 = 实际不可用时间 / 总时间", "看实际挂掉的时间占整个周期时长的比例"),
    # a named topic, then after a colon what it is
    ("分析积压原因", "积压原因：消费者处理速度跟不上生产速度、消费者异常停止"),
    # the same size in other units, and a value inside the point's range
    ("UUID v4: unique, 128-bit, random → index fragmentation.",
     "but they're 16 bytes and land at random spots in a B-tree index"),
    ("Throughput: Continuous batching + PagedAttention = 8–23×",
     "put it on vLLM with continuous batching and PagedAttention, that's something like 20x"),
])
def test_more_agreements_from_other_writers(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    ("UUID v4: unique, 128-bit, random", "UUID v4 values are 64 bits", "number"),
    ("Throughput: Continuous batching + PagedAttention = 8–23×",
     "continuous batching with PagedAttention gives about 2x", "number"),
    ("Activation checkpointing saves memory", "Activation checkpointing does not save memory",
     "negated"),
    ("错误预算消耗速率 = 实际不可用时间 / 总时间", "错误预算消耗速率 = 可用时间 / 总时间", "negated"),
])
def test_what_those_agreements_leave(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    ("HashMap + doubly linked list, O(1) get/put.", "Use a HashMap plus a singly linked list"),
    ("Broker 端参数 unclean.leader.election.enable 控制是否允许 Unclean 领导者选举",
     "unclean.leader.election.enable 是 producer 端的参数"),
])
def test_another_kind_of_list_or_another_side_is_a_swap(point: str, span: str) -> None:
    assert contradiction(point, span) == "swapped"


def test_the_same_side_in_other_words_is_no_swap() -> None:
    assert contradiction("Broker 端参数 unclean.leader.election.enable 控制是否允许 Unclean 领导者选举",
                         "unclean.leader.election.enable is a broker-side setting") is None


@pytest.mark.parametrize(("point", "span"), [
    # a transition said the other way round
    ("把 K 和 V 分块，从 HBM（显存）加载到 SRAM（芯片）中计算", "把 K 和 V 分块，从 SRAM 加载到 HBM 中计算。"),
    ("显存：O(n^2) → O(n)", "显存：O(n) → O(n^2)。"),
    ("把模型权重和/或激活值从高精度（FP32/FP16）转换为低精度（INT8/INT4）。",
     "把模型权重从低精度（INT8/INT4）转换为高精度（FP32/FP16）。"),
    # a verb whose object is a number: its quantity is before it
    ("吞吐量提升 2-4×", "吞吐量下降 2-4×，换来更低的延迟。"),
    # a trade the other way round
    ("梯度checkpointing以时间换空间", "梯度checkpointing是以空间换时间：多存激活、少算一遍，训练更快。"),
    ("KV Cache 把已计算的 K、V 缓存起来，避免重复计算 → 空间换时间。",
     "KV Cache 是时间换空间：少存一些 K、V，多算几次，从而省显存。"),
    ("Activation checkpointing trades compute for memory",
     "Activation checkpointing trades memory for compute"),
])
def test_a_transition_a_trade_and_a_change_said_the_other_way_are_reversed(point: str,
                                                                            span: str) -> None:
    assert contradiction(point, span) == "reversed"


@pytest.mark.parametrize(("point", "span"), [
    ("把 K 和 V 分块，从 HBM（显存）加载到 SRAM（芯片）中计算", "K、V 分块后从 HBM 读进 SRAM 里算"),
    ("显存：O(n^2) → O(n)", "显存从 O(n^2) 降到 O(n)"),
    ("吞吐量提升 2-4×", "吞吐量能提高两到四倍"),
    ("梯度checkpointing以时间换空间", "用多一次前向的计算换显存"),
    ("Activation checkpointing trades compute for memory",
     "it spends extra compute to save memory"),
])
def test_the_same_transition_trade_and_change_agree(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    ("梯度累积减少通信频率", "梯度累积会让通信变得更频繁。", "reversed"),
    ("Gradient accumulation makes communication less frequent",
     "gradient accumulation makes communication more frequent", "reversed"),
    ("静态 batching：整批请求一起开始，必须等这批最慢的也结束才能进下一批",
     "静态 batching：等这批里最快的请求结束就进下一批。", "swapped"),
    ("梯度累积减少通信频率", "梯度累积让通信没那么频繁了", None),
])
def test_frequency_and_the_extremes(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_what_a_point_avoids_may_be_named_as_the_risk_in_another_language() -> None:
    assert contradiction("生产环境需要配置合理的队列参数，避免背压导致 OOM",
                         "In production you have to size the queue carefully, otherwise a slow "
                         "backend causes backpressure and Prometheus can OOM") is None


@pytest.mark.parametrize(("point", "span"), [
    # a number in a name ("RAID 1") counts nothing
    ("RAID1: mirroring, writing the same data on two drives; if one drive fails, the second "
     "drive is used", "RAID 1 keeps an identical copy on a second disk"),
    # the head of an English denial is made of its content words
    ("Most tools show three averages, for 1, 5, and 15 minutes; they are not the numbers for "
     "the different CPUs", "You get three numbers, averaged over the last 1, 5 and 15 minutes"),
    # "not just" denies nothing
    ("If it gets higher than the number of CPUs, some threads will stay in queue, waiting for "
     "free CPU", "it measures demand on the box, not just what the CPUs are chewing on"),
    # what changes after 后 is what follows it
    ("请求延迟增加：Redis 处理大量过期 key 需要消耗 CPU 资源，CPU 占用率升高，进而影响其他请求的处理速度",
     "一是请求延迟变高，清理大量过期键要消耗中央处理器资源，占用率上去后其他请求处理变慢"),
    # an answer that says both ways with 反之
    ("if the 1 minute average is lower than the 5 or 15 minute averages, then load is decreasing",
     "1 分钟的值比 5 分钟、15 分钟的高，说明负载在上升，反之说明负载在下降"),
    # 永不过期 denies as the answer's 不设过期时间 does
    ("永不过期（不推荐）：设置热点数据永不过期或者过期时间比较长", "一是永不过期（不推荐）：热点数据不设过期时间"),
])
def test_names_with_numbers_content_heads_and_both_ways(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    ("RAID1: writing the same data on two drives", "RAID1 writes the same data on three drives",
     "number"),
    ("Most tools show three averages; they are not the numbers for the different CPUs",
     "they are the numbers for the different CPUs", "negated"),
    ("CPU 占用率升高", "CPU 占用率降低", "reversed"),
])
def test_what_the_name_and_head_rules_leave(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


def test_a_status_class_said_of_another_is_another_number() -> None:
    assert contradiction("2xx - Success - the client's request was accepted successfully",
                         "3xx 是成功") == "number"


def test_not_only_on_both_sides_is_agreement() -> None:
    assert contradiction('Do not only say "Kafka." Compare log vs competing-consumers queue.',
                         "I'd also contrast the two models rather than just saying 'Kafka'") is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a move to the other place: where the point puts it is where the answer takes it from
    ("ZeRO-Offload/Infinity：将数据卸载到CPU/NVMe", "ZeRO-Offload是把CPU/NVMe上的数据搬进GPU显存", "reversed"),
    ("ZeRO-Offload moves optimizer states to CPU memory",
     "ZeRO-Offload loads the optimizer states from CPU into GPU memory", "reversed"),
    ("ZeRO-Offload/Infinity：将数据卸载到CPU/NVMe", "ZeRO-Offload 把优化器状态从 GPU 挪到 CPU 内存", None),
    ("ZeRO-Offload/Infinity：将数据卸载到CPU/NVMe", "用 ZeRO-Infinity 还能卸载到 NVMe", None),
])
def test_a_move_to_the_other_place(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_a_named_point_said_to_do_nothing_is_denied() -> None:
    assert contradiction("KV Cache", "KV cache doesn't do anything for speed") == "negated"


def test_out_of_sync_is_a_denial_of_sync() -> None:
    # 不同 is "different", but 不同步 is "not in sync"
    assert contradiction("ISR 中的副本都与 leader 保持同步", "ISR 里的副本和 leader 不同步") == "negated"
    assert contradiction("ISR 中的副本都与 leader 保持同步", "不同的副本和 leader 保持同步") is None


@pytest.mark.parametrize(("point", "span"), [
    # the span denies what the point denies in its condition; its reach runs on into the
    # next clause, which says what the point says
    ("性能：资源竞争激烈的情况下，lock性能会比synchronized好；如果竞争资源不激烈，两者的性能是差不多的",
     "性能：竞争很激烈的时候Lock要比synchronized好一些，竞争不激烈两者差不多"),
])
def test_a_denial_whose_every_head_the_point_denies_too_agrees(point: str, span: str) -> None:
    assert contradiction(point, span) is None


def test_a_denial_of_another_head_still_contradicts_however_the_point_denies() -> None:
    # the span denies what the point's condition denies, and what the point asserts
    point = "如果显存不够，就用梯度累积；梯度累积减少通信频率"
    assert contradiction(point, "显存不够时梯度累积也不能减少通信频率") == "negated"


def test_a_prefixed_antonym_agrees_with_a_denial_of_its_word() -> None:
    """"uncommitted" is "not committed": a span that denies the plain word says the same,
    and one that asserts it still says the opposite."""
    point = "Dirty read: Reading uncommitted data from another transaction."
    assert contradiction(point, "A dirty read is when you read data another transaction "
                                "hasn't committed yet") is None
    assert contradiction(point, "A dirty read means reading data another transaction has "
                                "already committed") == "negated"


@pytest.mark.parametrize(("point", "span"), [
    # English denies the predicate after its subject, Chinese the object after the cue: the
    # term the other side names is said inside a clause that denies too
    ("加入dropout会使神经网络训练时间边长，模型预测时不需要dropout，记得关掉。",
     "at prediction time dropout is not needed, so remember to turn it off"),
    ("Avoid Empty select{}: This blocks forever (useful for preventing main from exiting)",
     "空的 select{} 会永远阻塞，有时用来防止 main 退出"),
])
def test_across_languages_a_term_said_in_a_denying_clause_is_not_asserted(point: str,
                                                                           span: str) -> None:
    assert contradiction(point, span) is None


def test_across_languages_a_term_said_in_a_plain_clause_is_still_denied() -> None:
    assert contradiction("模型预测时不需要dropout", "at prediction time dropout is applied "
                                                  "to every layer") == "negated"


@pytest.mark.parametrize(("point", "span"), [
    # "more time-consuming" and "takes longer" both say it is slower
    ("GridSearchCV: More time-consuming as it evaluates all possible combinations of "
     "hyperparameters.", "grid search takes much longer because it evaluates every combination"),
    # "more" before a property is a comparative, not a count that "a single" opposes; and
    # "a single" counts the noun after it
    ("Dropout: More memory efficient because it represents an exponential number of "
     "sub-models through parameter sharing within a single network.",
     "whereas dropout represents exponentially many sub-models with the memory of a single "
     "network thanks to that sharing"),
])
def test_the_same_direction_said_in_other_words_agrees(point: str, span: str) -> None:
    assert contradiction(point, span) is None


def test_taking_less_time_is_still_the_opposite_of_more_time_consuming() -> None:
    assert contradiction("GridSearchCV: More time-consuming as it evaluates all possible "
                         "combinations.", "grid search takes much less time because it "
                         "evaluates every combination") == "reversed"


@pytest.mark.parametrize(("point", "span"), [
    # the name written without its space, or with one it lacks, is the same name
    ("Flash Attention", "推理用 KV Cache 避免重复计算，并不需要FlashAttention"),
    ("FlashAttention", "we don't need Flash Attention at all"),
])
def test_a_denied_name_is_read_however_it_is_spaced(point: str, span: str) -> None:
    assert contradiction(point, span) == "negated"


def test_a_name_spaced_otherwise_and_not_denied_is_no_contradiction() -> None:
    assert contradiction("Flash Attention", "推理时开 FlashAttention 可以省显存") is None


@pytest.mark.parametrize(("span", "kind"), [
    # 很多 after "少了" says how much less, not more
    ("所以可训练参数少了很多", None),
    ("所以可训练参数多了很多", "reversed"),
    ("可训练参数少了", None),
])
def test_a_size_with_le_before_its_degree(span: str, kind: str | None) -> None:
    assert contradiction("减少可训练参数（1-10%）", span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a verb of one character before 不到 is denied too: 看不到 is "cannot see"
    ("Decoder 看不到未来的 token", "Decoder 能看到未来的 token", "negated"),
    ("Decoder 能看到未来的 token", "Decoder 看不到未来的 token", "negated"),
    ("Decoder 看不到未来的 token", "Decoder 也看不到未来的 token", None),
    ("Decoder 看不到未来的 token", "每个位置只能看到它前面的 token", None),
])
def test_a_one_character_verb_before_budao_is_denied(point: str, span: str,
                                                      kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # "不高" of what the point says is low is its own claim in other words
    ("DP 跨节点（带宽要求低），TP 节点内（高带宽 NVLink）", "数据并行对带宽要求不高，可以跨机器", None),
    ("通信开销小，计算开销大", "通信开销不大", None),
    ("通信开销不大", "通信开销小，计算开销大", None),
    # ... and still a denial when the point says it is high, of this thing or of both
    ("通信开销大", "通信开销不大", "negated"),
    ("通信开销小，计算开销大", "计算开销不大", "negated"),
    ("通信开销大，计算开销小", "通信开销不大", "negated"),
])
def test_a_denied_degree_agrees_with_its_opposite_said_of_the_same_thing(
        point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a number in an example illustrates the point; another example is no other claim
    ("Offset and Limit: query parameters give the starting point and the number of records "
     "(e.g., ?offset=0&limit=10).", "offset=200&limit=50 means skip 200 records and return 50",
     None),
    ("分页：用 offset 和 limit 指定起点和条数（例如 offset=0&limit=10）", "offset=200&limit=50，跳过 200 条",
     None),
    ("批大小要调大，比如 batch size 取 64", "batch size 可以取 128", None),
    # ... while a number the point states is still contradicted
    ("The default page size is 10 records (e.g., ?limit=10).", "The default page size is 50 records",
     "number"),
])
def test_a_number_in_an_example_is_no_claim(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_a_range_in_an_example_is_what_the_point_recommends() -> None:
    point = "Combine top-p with temperature (for example τ≈0.7–1.0) for stable, creative outputs"
    assert contradiction(point, "Combine top-p with temperature (for example τ≈1.5–2.0)") == "number"


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a degree denied of something the name has ("带宽要求不高") does not deny the name ...
    ("数据并行+模型并行+流水线并行", "数据并行对带宽要求不高可以跨节点", None),
    ("KV Cache", "KV Cache 的显存占用不小", None),
    ("梯度累积", "梯度累积的步数不多", None),
    # ... but its worth denied ("作用不大") does
    ("混合精度训练（FP16/BF16）", "混合精度训练其实作用不大", "negated"),
    ("Flash Attention", "Flash Attention 的收益不大", "negated"),
    ("梯度累积", "梯度累积对显存帮助不大", "negated"),
])
def test_a_named_point_is_denied_by_its_worth_not_by_a_degree(point: str, span: str,
                                                              kind: str | None) -> None:
    assert contradiction(point, span) == kind


_TCP_UDP = "TCP面向连接(如打电话要先拨号建立连接);UDP是无连接的，即发送数据之前不需要建立连接"


@pytest.mark.parametrize(("point", "span", "kind"), [
    # what a point denies of one named thing is not held against what is said of another
    (_TCP_UDP, "TCP 是面向连接的，通信前要先三次握手建立连接", None),
    (_TCP_UDP, "TCP 要先建立连接", None),
    ("Innodb支持外键，而Myisam不支持", "InnoDB 好像还支持外键，MyISAM 没有", None),
    # ... while each thing's own claim is still read against what is said of it
    (_TCP_UDP, "UDP 发送数据之前也需要先建立连接", "negated"),
    ("Innodb支持外键，而Myisam不支持", "MyISAM 也支持外键", "negated"),
    ("Innodb支持外键，而Myisam不支持", "InnoDB 不支持外键", "negated"),
])
def test_a_point_about_several_named_things_is_read_thing_by_thing(point: str, span: str,
                                                                    kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # "other than X" and "anything but X" deny X, as "not X" does: the two agree
    ("The value of float is not none.",
     "An element starts a new one if it's floated (float anything other than none)", None),
    ("The value of position is neither static nor relative.",
     "its position is something other than static or relative", None),
    ("The value of overflow is not visible.", "overflow is anything but visible", None),
    # ... and still disagree with the point that asserts X
    ("Set the position to static", "set the position to anything other than static", "negated"),
])
def test_other_than_denies_what_follows(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a typographic apostrophe denies as a plain one does ("isn’t", copied from a document)
    ("The cache isn’t shared between workers", "The cache is shared between workers", "negated"),
    ("A background service performs an operation that isn’t directly noticed by the user.",
     "A background service does work the user doesn't directly notice", None),
    # 不得不 is "must", not a denial
    ("系统不得不按最大长度提前申请连续显存", "系统只能按最大长度提前申请连续显存", None),
    ("系统不得不按最大长度申请显存", "系统不需要按最大长度申请显存", "negated"),
])
def test_must_and_typographic_apostrophes_are_read_as_written(point: str, span: str,
                                                              kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # what a point denies of one thing and states of another ("不连续的小孔洞" beside "连续张量")
    # is no denial of every span that states it
    ("频繁申请和释放不同尺寸的连续张量会导致显存被分割成不连续的小孔洞",
     "大小不一的连续张量被频繁申请、释放，显存被割成许多不相邻的小空洞", None),
    # ... while the same word denied in one clause and stated in another still contradicts
    # the span that turns the denied clause round
    ("读不阻塞写，写阻塞读", "读会阻塞写", "negated"),
    ("读操作不加锁，写操作加锁", "读操作也要加锁", "negated"),
    # ... and the same of an answer: "单线程执行的……没有线程之间切换上下文的成本" denies no 单线程
    ("单线程模型可以避免锁竞争、上下文切换等开销，也使得代码更加清晰",
     "命令是单线程执行的，没有锁竞争，也没有线程之间切换上下文的成本，代码也更清晰", None),
    ("Redis 采用单线程处理命令", "Redis 不是单线程处理命令，而是多线程", "negated"),
])
def test_a_word_a_point_both_denies_and_states(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a single letter after a denial is a formula's variable, not what is denied
    ("完全不需要将 $N \\times N$ 中间矩阵写回 HBM，读写复杂度降低到 $O(N)$",
     "完全不需要把 N×N 的中间矩阵写回显存，显存读写复杂度降到 O(N)", None),
    ("不需要把 N 个副本都写完再返回", "要等 N 个副本都写完才返回", "negated"),
])
def test_a_single_letter_is_no_denied_thing(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # how much a verb moves a quantity is no size of it: "省不少" saves, as 减少 does
    ("混合精度: FP16训练，减少内存占用", "用 FP16 或 BF16 做计算，显存占用能省不少", None),
    ("量化可以减少显存占用", "量化以后显存占用降了不少", None),
    ("量化可以减少显存占用", "量化以后显存占用多了不少", "reversed"),
    # an English time two words after its direction is a time as one word after is
    ("can increase online request latency", "单个请求的延迟会上升", None),
    ("can increase online request latency", "请求的延迟会下降", "reversed"),
])
def test_amounts_of_a_move_and_times_named_later(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # what a point says is used in place of another thing is not asserted of it
    ("使用 bf16 数值类型代替 fp32 数值类型", "精度上用 bf16 训练，不用 fp32"),
    ("使用 bf16 数值类型代替 fp32 数值类型", "Train in bf16 rather than fp32"),
    ("KV Cache 占显存太多，用 INT8/INT4 代替 FP16", "KV cache 太大，就用 INT8 或 INT4 存，不再用 FP16"),
    ("Counting Bloom Filter 用计数器替代 bit 可支持删除", "Counting Bloom Filter 不用 bit，改用计数器，就能删除"),
    # ... nor denied: the replaced thing may be named elsewhere as it is
    ("不支持删除：清除某个位可能影响其他元素。变体 Counting Bloom Filter 用计数器替代 bit 可支持删除",
     "Deletion is the other problem: clearing a bit may wipe out other elements that share it"),
    ("单分区全局有序但牺牲并行度", "所以多分区的 topic 做不到整体有序"),
])
def test_a_denial_of_what_the_point_replaces_agrees(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    ("使用 bf16 数值类型代替 fp32 数值类型", "用 fp32 训练，不用 bf16"),
    ("使用 bf16 数值类型代替 fp32 数值类型", "Use fp32 instead of bf16"),
    # what cannot be replaced is no replaced thing
    ("缺点是主观、易漂移、不能替代规则校验", "它打分客观稳定，完全可以替代规则校验"),
    # an English point's "instead of" still denies
    ("Knowledge Distillation: train students on the teacher's soft distributions instead of hard labels",
     "In distillation the student learns from the teacher's hard labels"),
])
def test_a_denial_of_what_the_point_puts_in_its_place_contradicts(point: str, span: str) -> None:
    assert contradiction(point, span) is not None


def test_a_verb_that_cannot_move_denies_nothing_after_it() -> None:
    # "学不动" (cannot learn) is no denial of the 训练不足 listed after it
    assert contradiction("Init[B]（A 初始化为 0，B 随机初始化）更稳定，但 B 矩阵训练不足，导致性能较差",
                         "A 置零那种虽然更稳，但 B 矩阵学不动、训练不足，最后效果就差一些") is None


@pytest.mark.parametrize(("point", "span"), [
    # the span denies a thing inside what the point denies: both deny one claim
    ("Go 语言中的 map 本身并不是并发安全的", "原生 map 在并发下不安全"),
])
def test_a_denial_inside_the_point_s_denial_agrees(point: str, span: str) -> None:
    assert contradiction(point, span) is None


def test_a_denial_inside_the_point_s_denial_still_meets_a_wrong_claim() -> None:
    assert contradiction("Go 语言中的 map 本身并不是并发安全的", "map 是并发安全的，不需要加锁") is not None


def test_what_a_point_gives_up_is_not_what_it_states() -> None:
    assert contradiction("牺牲一定性能换取一致性", "you give up some performance in exchange for consistency") is None


def test_what_is_given_up_is_denied() -> None:
    point = "Writeback: Journal updates are not atomic, but this gives better performance"
    assert contradiction(point, "Writeback mode gives up atomic journal updates in exchange for speed") is None
    assert contradiction("Journal updates are atomic in ordered mode",
                         "Ordered mode gives up atomic journal updates") == "negated"



_MAPS = Compared(compared_things("std::map 与 std::unordered_map 有什么区别？"))
_PREFIX = "前缀缓存：PagedAttention (vLLM) 不支持；RadixAttention (SGLang) 支持（基数树管理）"


@pytest.mark.parametrize(("point", "span", "compared", "kind"), [
    # a label before the first thing is what the point is about, not a thing of its own
    (_PREFIX, "RadixAttention 靠基数树管理，天然支持前缀缓存", Compared(), None),
    (_PREFIX, "PagedAttention 也支持前缀缓存", Compared(), "negated"),
    # the things the question compares are subjects too, lower-cased or under a namespace
    ("迭代器：map 插入不失效；unordered_map rehash 全失效", "unordered_map 一旦 rehash 所有迭代器都失效",
     _MAPS, None),
    ("迭代器：map 插入不失效；unordered_map rehash 全失效", "map 插入以后迭代器也会失效", _MAPS,
     "negated"),
])
def test_a_labelled_point_about_several_things_is_read_thing_by_thing(
        point: str, span: str, compared: Compared, kind: str | None) -> None:
    assert contradiction(point, span, compared) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # 不只, 不光, 不单 say "not only": they deny nothing
    ("LoRA 同时动视觉编码和语言解码。", "LoRA 不只挂在语言解码那部分，视觉编码器那边也一起微调", None),
    ("Redis 同时支持字符串和哈希结构", "Redis 不光支持字符串，也支持哈希结构", None),
    ("Redis 同时支持字符串和哈希结构", "Redis 不单支持字符串，还支持哈希结构", None),
    # ... but 不单独 does
    ("每个分片单独存储一份索引", "分片不单独存储索引", "negated"),
])
def test_not_only_in_chinese_denies_nothing(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a time listed with other quantities is still a time: lowering it lowers it
    ("缓存降低延迟和数据库负载", "缓存降低延迟，也减轻数据库负载", None),
    ("缓存降低延迟和数据库负载", "缓存能降低数据库负载", None),
    ("缓存降低延迟和数据库负载", "缓存会增加延迟", "reversed"),
    ("缓存降低延迟和数据库负载", "缓存会增加数据库负载", "reversed"),
])
def test_a_time_in_a_list_of_quantities_moves_as_a_time(point: str, span: str,
                                                        kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # "不能只看 X" is "不只看 X": both say "not only"
    ("跑真实业务评测集，不只看 PPL 或少量样例。", "效果方面，用真实业务评测集来验证，不能只看困惑度或少量样例"),
    ("评测最终应看 task success，不只看 next-action accuracy", "评测不能只看每一步动作预测得准不准，最终要看整个任务有没有做成"),
    ("评测最终应看 task success，不只看 next-action accuracy", "评测最终要看整个任务是否成功完成，而不能只看下一步动作预测的准确率"),
    ("Blue-Green Deployment 是一种减少服务宕机时间和避免 regression 的方法，它提供了两套一摸一样的生产环境",
     "蓝绿发布的思路是准备两套完全相同的线上环境，目的是把停机时间压到最低，同时避免新版本带来回归问题"),
])
def test_not_only_said_either_way_agrees(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    ("量化不能只看 LLM 权重；vision tower、projector、KV cache 也可能成为瓶颈或精度敏感点",
     "Quantizing an MLLM isn't just about the LLM weights: the vision tower, the projector and "
     "the KV cache can also be bottlenecks", None),
    # "only X" against "not only X" says the other way
    ("Trace 评测不能只看最终答案，还要看中间 action 是否越权。", "评测只看最终答案引用的文档对不对就行", "negated"),
    ("上线前不要只测 happy path，还要测重试和积压", "上线前只测 happy path 就够了", "negated"),
    ("Evaluation must not look only at the final answer", "evaluation only looks at the final answer", "negated"),
    ("评估只看最终答案", "评估不能只看最终答案", "negated"),
    # ... but "only" of another thing is not
    ("Trace 评测不能只看最终答案，还要看中间 action 是否越权。", "只看一次是不够的，还要看中间步骤有没有越权", None),
])
def test_only_against_not_only(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_not_only_of_another_thing_sharing_one_word_is_no_denial() -> None:
    assert contradiction(
        "A high request-level hit rate can still save little work if only short prefixes hit.",
        "a high fraction of requests with a hit can still save little if the matched prefixes "
        "are short - look at tokens saved, not just requests hit.") is None


def test_only_against_not_only_reads_past_a_latin_name() -> None:
    assert contradiction("KV Cache 只在 Decoder 自回归生成时有用。",
                         "KV Cache 在 Encoder 的一次性前向里同样有用，不只是自回归生成。") == "negated"


@pytest.mark.parametrize(("point", "span"), [
    ("标准 attention 的瓶颈不只是 FLOPs，还包括 IO", "标准 attention 的瓶颈只在 FLOPs"),
    ("标准 attention 的瓶颈不只是 FLOPs，还包括 IO", "since standard attention is bottlenecked only by FLOPs"),
])
def test_only_the_one_thing_not_only_names_is_a_denial(point: str, span: str) -> None:
    assert contradiction(point, span) == "negated"


@pytest.mark.parametrize(("point", "span", "kind"), [
    # first-in first-out and last-in first-out, the stack and the heap: one in the other's place
    ("多个 defer 按后进先出的顺序执行", "多个 defer 按注册顺序先进先出执行", "swapped"),
    ("Deferred calls run in LIFO order", "Deferred calls run in FIFO order, first registered first", "swapped"),
    ("Stack allocation is preferred: Faster, no GC overhead",
     "Heap allocation is preferred in Go: it is faster and has no GC overhead", "swapped"),
    ("Stack allocation is faster", "stack allocation is faster than heap allocation", None),
    ("多个 defer 按后进先出的顺序执行", "defer 是后进先出的，像栈一样", None),
])
def test_the_order_of_a_queue_and_the_place_of_memory_are_alternatives(
        point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


_LOGS = Compared(compared_things("bin log 与 redo log 的区别?"))


@pytest.mark.parametrize(("point", "span", "kind"), [
    # one thing given the other's words outright, the other leaning to the first's: exchanged
    ("bin log是MySQL级别的日志文件，无论使用哪种存储引擎都会生成；而redo log是innodb引擎独有的日志",
     "binlog 是 InnoDB 引擎独有的，redo log 才是 MySQL server 层的通用日志", "roles"),
    ("bin log是MySQL级别的日志文件，无论使用哪种存储引擎都会生成；而redo log是innodb引擎独有的日志",
     "binlog 是 MySQL server 层的日志，哪个存储引擎都会写；redo log 是 InnoDB 自己的", None),
    ("bin log是MySQL级别的日志文件，无论使用哪种存储引擎都会生成；而redo log是innodb引擎独有的日志",
     "redo log 是 InnoDB 引擎独有的，binlog 则是 MySQL server 层的通用日志", None),
])
def test_roles_exchanged_when_one_is_plainly_the_others(point: str, span: str,
                                                        kind: str | None) -> None:
    assert contradiction(point, span, _LOGS) == kind
