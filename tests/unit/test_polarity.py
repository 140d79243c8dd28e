"""What a text denies, in the shapes long spoken points take (pure code)."""

from __future__ import annotations

import pytest

from interviewer.grading.claims import contradiction, is_bare


@pytest.mark.parametrize(("point", "span"), [
    # a denial inside a question asserts nothing
    ("系统复杂度提高：怎么保证消息没有重复消费？怎么处理消息丢失的情况？",
     "要额外处理重复投递、重复消费、丢消息这些麻烦，复杂度上去了"),
    # 没 X 就 Y, 不 X 就 Y: a condition, said without 如果
    ("读的时候，先读缓存，缓存没有的话，就读数据库，然后取出数据后放入缓存",
     "读的时候缓存没有就去数据库读然后放进缓存"),
    ("在缓存之前增加布隆过滤器：key 不存在于布隆过滤器中，可以确定数据就一定不会存在于数据库中",
     "在缓存前面放一个布隆过滤器，过滤器说不存在就一定不存在，直接返回"),
    # a denial that stands alone ("缓存里没有、") reaches nothing after it
    ("缓存穿透：恶意请求的数据缓存中查不到，数据库里也查不到，请求每次都直接查询数据库",
     "缓存穿透是请求的数据缓存里没有、数据库里也没有，每次都直接查数据库"),
    # a denial reaches no further than 的 that ends its phrase
    ("若缓存的数据更新不频繁，可以采用分布式互斥锁或者本地互斥锁",
     "更新不频繁的用分布式互斥锁或本地互斥锁"),
    # a denial of a denial asserts
    ("读请求和写请求串行化，串到一个内存队列里去，可以保证一定不会出现不一致，但会导致系统的吞吐量大幅度降低",
     "如果要求严格一致，可以把读请求和写请求串行化到一个内存队列里，但系统吞吐量会大幅降低"),
    # a quoted name is mentioned, not said
    ("如果大量过期 key 堆积在内存里，导致 Redis 内存块耗尽了，走内存淘汰机制",
     "内存耗尽就走内存淘汰机制：“不淘汰”策略在内存不足时让新的写入直接报错"),
    # the same denial said another way: 还没来得及, 丢 for 丢失, 别让它 for 关闭
    ("consumer 有些消息处理了，但是没来得及提交 offset，重启之后，少数消息会再次消费一次",
     "消费者处理完消息还没来得及提交位点就被 kill 了"),
    ("RDB 快照每隔 5 分钟生成一次，一旦 Redis 进程宕机，会丢失最近 5 分钟的数据",
     "快照每隔五分钟才生成一次，宕机会丢最近五分钟的数据"),
    ("关闭自动提交 offset，在处理完之后自己手动提交 offset，就可以保证数据不会丢",
     "别让它自动提交位移，等业务真正处理完再手动 commit"),
])
def test_denials_in_questions_conditions_and_idioms_are_not_contradictions(point: str,
                                                                           span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    # 一个 is an article, not a count: "三个好处" is no other number
    ("解耦：通过一个 MQ，Pub/Sub 发布订阅消息这么一个模型，A 系统就跟其它系统彻底解耦了",
     "引入消息队列有三个好处：一是解耦，用发布/订阅模型"),
    # "一个过期时间" is a count of one, not a time said to shrink
    ("从数据库中只要没查到，就写一个空值到缓存里去，然后设置一个过期时间",
     "数据库没查到就往缓存写一个空值并设置过期时间"),
])
def test_an_article_is_no_count(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # what these readings leave: a plain denial, and only one of a count
    ("读请求和写请求串行化，可以保证一定不会出现不一致", "读写串行化之后还是会出现不一致", "negated"),
    ("Redis 的过期策略是定期删除加惰性删除", "Redis 的过期策略是定期删除，不会惰性删除", "negated"),
    ("消息队列只有一种消费模型", "消息队列有三种消费模型", "number"),
    ("缓存没有的话，就读数据库，然后放入缓存", "缓存没有的话也不读数据库，直接返回空", "negated"),
])
def test_what_these_readings_leave(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a quoted statement is said, not only mentioned
    ("AWQ：“并非所有权重都同样重要”——根据激活分布保护关键通道", "激活感知权重量化认为并非所有权重同样重要，根据激活分布保护关键通道",
     None),
    ("AWQ：“并非所有权重都同样重要”", "AWQ 对所有权重一视同仁，所有权重都同样重要", "negated"),
    # 一个 that ends its phrase is a count
    ("三节点集群最多容忍 1 个节点故障", "三个节点的话能挂一个，因为写入要过半", None),
])
def test_quoted_statements_and_counts_at_a_phrase_end(point: str, span: str,
                                                      kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_a_denial_of_avoiding_is_no_double_denial() -> None:
    # "并不能避免 X" says X happens: it denies the point's 避免 X
    assert contradiction("KV Cache 把已计算的 K、V 缓存起来，避免重复计算 → 空间换时间。",
                         "KV Cache 并不能避免重复计算，每一步还是要把前面所有 token 的 K、V 重新算一遍。") \
        == "negated"


@pytest.mark.parametrize(("point", "span", "kind"), [
    # two steps in the other order
    ("更新的时候，先更新数据库，然后再删除缓存", "正确做法是先更新缓存再更新数据库", "reversed"),
    # across languages, in the glossary's terms
    ("先在节点内做张量并行，再在节点间做流水线并行", "Pipeline parallelism first, then tensor parallelism",
     "reversed"),
    ("First update the database, then delete the cache", "Delete the cache first, then update the database",
     "reversed"),
    # ... and in the same order
    ("更新的时候，先更新数据库，然后再删除缓存", "先写数据库，写成功了再删缓存", None),
    ("First update the database, then delete the cache",
     "update the database first and then delete the cache", None),
    ("更新的时候，先更新数据库，然后再删除缓存", "Update the database first, then delete the cache", None),
])
def test_steps_in_the_other_order_are_reversed(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a mapping the other way round
    ("ARP maps IP to MAC", "ARP maps a MAC address to an IP address", "reversed"),
    ("DNS = domain → IP translation", "DNS translates IP addresses into domain names", "reversed"),
    ("DNS 把域名解析成 IP 地址", "DNS 把 IP 地址解析成域名", "reversed"),
    # ... and the same way
    ("ARP maps IP to MAC", "ARP resolves an IPv4 address to the MAC address that owns it", None),
    ("DNS = domain → IP translation", "DNS turns a hostname into the IP address to connect to", None),
    ("DNS 把域名解析成 IP 地址", "DNS resolves a domain name to an IP address", None),
])
def test_a_mapping_the_other_way_round(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a quantity said to stay as it is, against one said to move
    ("读请求和写请求串行化，串到一个内存队列里去，但会导致系统的吞吐量大幅度降低",
     "把读写请求串行化到内存队列里也不会影响吞吐，是最推荐的方案", "negated"),
    ("Gradient checkpointing reduces activation memory at the cost of extra compute",
     "Gradient checkpointing doesn't affect memory at all, it only slows training down", "negated"),
    ("量化后模型精度会略降", "量化对精度没有任何影响", "negated"),
    ("Flash Attention 不改变数学结果，只是更高效计算", "Flash Attention 会让结果变差", "negated"),
    # ... the same, or another quantity
    ("Flash Attention 不改变数学结果，只是更高效计算", "FlashAttention 不影响计算结果，只是算得更快", None),
    ("增大 batch 可以提升吞吐量", "增大 batch 不会影响单个请求的结果", None),
])
def test_no_change_against_a_change(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize("span", [
    "Delete the cache first, then update the database",
    "update the database first and then delete the cache",
    "Insert the row only if the key is new",
    "Evict the least recently used keys",
])
def test_an_instruction_is_no_bare_name(span: str) -> None:
    assert not is_bare(span)


@pytest.mark.parametrize(("span", "named"), [
    ("ZeRO", True),
    ("能减少幻觉", False),  # a short clause that says something: touched on, not only named
    ("默认不要微调", False),
])
def test_a_partial_point_is_called_named_only_when_its_evidence_is_a_name(span: str,
                                                                         named: bool) -> None:
    import numpy as np

    from interviewer.grading.features import FEATURES
    from interviewer.grading.evidence import Evidence
    from interviewer.grading.reasons import reason

    row = np.zeros((1, len(FEATURES)))
    row[0, FEATURES.index("short")] = 0.2  # the evidence is a fifth of the point's length
    ev = Evidence(rows=row, spans=[span], similarities=np.zeros(1))
    assert reason("partial", ev, 0, scorer=None).startswith("named") is named


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a member of a set in the place of another: access patterns, cache failures, persistence
    ("缓存：大部分的高并发场景都是读多写少，读的时候大量走缓存", "缓存适合写多读少的场景", "swapped"),
    ("Caching suits read-heavy workloads", "Caches suit write-heavy, read-light workloads", "swapped"),
    ("缓存击穿：某个 key 非常热点，当这个 key 在失效的瞬间，大量的请求就击穿了缓存，直接请求数据库",
     "缓存穿透就是热点 key 过期导致大量请求打到数据库", "swapped"),
    ("AOF 以 append-only 的模式写入日志文件，重启时回放日志", "RDB 以 append-only 的模式写日志", "swapped"),
    # ... and both named, or the same one
    ("缓存：大部分的高并发场景都是读多写少", "读多写少的场景适合缓存，写多读少就不划算", None),
    ("AOF 一般每隔 1 秒，通过一个后台线程执行一次 fsync 操作", "AOF 默认每秒 fsync 一次，比 RDB 丢得少", None),
])
def test_more_sets_of_alternatives(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # "extra" is a direction too
    ("Slower: needs extra compute and memory", "so it uses less memory than greedy", "reversed"),
    # an English word of direction in a Chinese text that names a stage is no move of it
    ("增加 reduce 数", "reduce 数要减少", "reversed"),
    # ... the same way
    ("Needs extra compute and memory", "it needs more memory as well", None),
    ("Map 端先做一次 combine，减少 shuffle 数据量", "combine 在 reduce 端之后才做", None),
    ("增加 reduce 数", "reduce 数可以多一些", None),
])
def test_more_words_of_direction(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("span", "kind"), [
    # max.poll.interval.ms is not max.poll.records: moving one says nothing of the other
    ("max.poll.interval.ms 要减少，max.poll.records 反而要增加", "reversed"),
    ("max.poll.records 要减少，max.poll.interval.ms 可以增加", None),
])
def test_a_dotted_setting_is_one_thing(span: str, kind: str | None) -> None:
    assert contradiction("减少一次性消费信息的总数 max.poll.records", span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # 不到 before a number is a bound ("下降不到百分之一"), not "cannot fall"
    ("INT8：精度损失很小（通常 <1% benchmark 下降）", "精度损失很小，基准测试一般下降不到百分之一"),
    # TTFT is a time: a longer first-token latency is TTFT going up
    ("batch 越大吞吐越高，但每个请求的 TTFT 可能增加", "批次越大吞吐越高，但每个请求的首词元延迟可能变长"),
    # "甚至更多" after a saving is more of the saving, not more of the thing saved
    ("量化把权重压到 8-bit/4-bit 整数，显存减半甚至减到 1/4", "压成 8bit、4bit 的整数，显存就能省一半甚至更多"),
    ("LoRA cuts optimizer memory by half or more", "LoRA reduces optimizer memory by half or more"),
])
def test_bounds_first_token_times_and_intensifiers_are_no_contradictions(point: str,
                                                                          span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # ... while a denial, the other way, and more of the thing itself still are
    ("INT8：精度损失很小", "INT8 的精度损失一点都不小", "reversed"),
    ("消费者宕机会触发 Rebalance", "消费者宕机触发不了 Rebalance", "negated"),
    ("batch 越大，每个请求的 TTFT 可能增加", "batch 越大，每个请求的 TTFT 反而会降低", "reversed"),
    ("量化后显存减半", "量化后显存反而占用更多", "reversed"),
    ("LoRA 显存减半", "LoRA 显存甚至更多", "reversed"),
])
def test_what_bounds_and_intensifiers_leave(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # a denial next to a name denies it only of its worth or of the name's own words:
    # "不重算" is what a KV cache is for
    ("KV Cache", "kv cache 前面token的kv不重算"),
    ("AWQ（保护重要通道）", "AWQ不太清楚细节"),
    # a dash ends an English clause: "more workers" is not "more bottleneck"
    ("减少数据加载瓶颈（prefetch、多worker）",
     "make sure the input pipeline isn't the bottleneck — more DataLoader workers"),
    # a point that asks whether ("是否使用了 torch.compile") is answered, not denied, by "no"
    ("编译优化：是否使用了torch.compile/CUDA Graph",
     "no torch.compile / CUDA graphs → launch overhead dominates w/ lots of small ops"),
])
def test_what_a_name_a_dash_and_a_whether_leave_uncontradicted(point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    ("KV Cache", "KV Cache 其实没什么用", "negated"),
    ("通信与计算重叠", "通信和计算没办法重叠", "negated"),
    ("数据并行", "用不着数据并行", "negated"),
    ("减少数据加载瓶颈", "more data-loading bottleneck is fine", "reversed"),
    ("编译优化：使用 torch.compile", "don't use torch.compile", "negated"),
])
def test_what_names_dashes_and_whethers_still_deny(point: str, span: str, kind: str) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # in a list of named items, each with its own brackets, the point is read against the
    # item that names it: AWQ's activations are not said of GPTQ
    ("GPTQ（权重逐层量化，Hessian补偿）",
     "PTQ: GPTQ (layer by layer, uses 2nd-order/Hessian info to compensate rounding error), "
     "AWQ (find salient channels via activation magnitude, scale them to protect), SmoothQuant "
     "(migrate activation outliers into the weights w/ a per-channel scale → W8A8 doable)", None),
    # "drop X" takes X away, as "no X" does
    ("BF16 has the same exponent range as FP32, so it usually needs no loss scaling",
     "fewer mantissa bits — so in practice you drop loss scaling entirely", None),
])
def test_a_point_is_read_against_its_own_item_of_a_list(point: str, span: str,
                                                       kind: str | None) -> None:
    assert contradiction(point, span) == kind


def test_its_own_item_still_contradicts_it() -> None:
    assert contradiction("GPTQ 量化的是权重", "GPTQ 量化的是激活，AWQ 保护重要通道") == "swapped"


@pytest.mark.parametrize(("point", "span"), [
    # both deny the same thing, the point with its name in quotation marks
    ("常见原因不是“模型变笨”，而是 SFT 数据分布让模型过度拟合语言格式、弱化了视觉依赖",
     "常见原因不是模型变笨了，而是监督微调的数据分布让模型过度拟合语言格式，削弱了对视觉的依赖"),
    # 差不多 is "about the same", no denial
    ("DPO 训练简单稳定", "DPO 训练起来跟 SFT 差不多简单稳"),
    ("显存占用和全量微调差不多，训练简单稳定", "训练起来跟 SFT 差不多简单稳定"),
    # "not necessarily X" is not "X": a span that says "usually no X" agrees with it
    ("图像本身不一定有单独 pixel loss；视觉信息通过影响文本 token 预测被监督",
     "图片这边通常没有单独的像素级重建损失，视觉信息是通过文字预测被间接监督的"),
])
def test_quoted_denials_about_the_same_and_not_necessarily_are_no_contradictions(
        point: str, span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # what they leave: a denial of what the point asserts in quotation marks, a plain denial
    # after 差不多, and an "always" point denied
    ("常见原因是“模型变笨”", "常见原因不是模型变笨了", "negated"),
    ("训练和 SFT 差不多简单，不需要奖励模型", "训练和 SFT 差不多简单，但需要单独训练奖励模型",
     "negated"),
    ("图像有单独的 pixel loss", "图片这边没有单独的像素级损失", "negated"),
])
def test_what_quotes_about_the_same_and_not_necessarily_leave(point: str, span: str,
                                                              kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a point labeled by what it is about says its property after the label; a span about the
    # same thing that gives it another member of the property's set contradicts it
    ("Decode（解码）阶段：输入：已生成的 tokens；输出：下一个 token；特点：串行生成，访存密集",
     "Decode 阶段可以并行生成很多 token，是计算密集的", "swapped"),
    ("Decode：串行生成，访存密集", "Decode 是计算密集的", "swapped"),
    # ... not a span that names both members, nor one about the property without the label
    ("Decode：串行生成，访存密集", "Decode 是访存密集的，不像 prefill 那样计算密集", None),
    ("Decode：串行生成，访存密集", "一般来说矩阵乘法是计算密集的", None),
])
def test_a_labeled_point_and_another_member_said_of_its_label(point: str, span: str,
                                                               kind: str | None) -> None:
    assert contradiction(point, span) == kind



@pytest.mark.parametrize("span", ["LRU 假设最近访问的数据未来不会再被访问",
                                  "LRU 认为最近访问过的数据以后不会再被访问"])
def test_the_future_is_no_denial(span: str) -> None:
    """未来 ("the future") holds the cue 未 and denies nothing: a span that denies what the
    point says of the future contradicts it, and one that says it again agrees."""
    point = "LRU 假设最近访问的数据未来还会被访问"
    assert contradiction(point, span) == "negated"
    assert contradiction(point, "LRU 假设最近被访问过的数据未来还会再被访问") is None


@pytest.mark.parametrize(("point", "span"), [
    ("Benefits grow with longer sequences because the avoided attention matrix is n×n.",
     "Since the matrix you avoid is n×n, the gains get bigger the longer the sequence"),
    ("the skipped layers are cheap", "the layers you skip are cheap"),
])
def test_a_participle_that_denies_agrees_with_its_verb(point: str, span: str) -> None:
    """"the avoided matrix" is "the matrix you avoid": the participle before a noun denies
    as its verb does, so the two say the same."""
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span", "kind"), [
    # 阻止 denies what it stops, as 防止 does: across languages "no other transaction can
    # insert" says it again
    ("防止幻读：锁定记录及其前面的间隙，阻止其他事务插入",
     "because it locks the record and the gap in front of it so no other transaction can insert there",
     None),
    ("间隙锁阻止其他事务插入", "间隙锁会阻止别的事务往间隙里插入", None),
    # ... and is a denial a point's plain claim meets
    ("间隙锁允许其他事务在间隙中插入", "间隙锁会阻止插入", "negated"),
])
def test_zuzhi_stops_what_it_names(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span", "kind"), [
    # "恢复不回来" cannot recover, as "恢复不了" cannot
    ("如果只写 Binlog，主库崩溃后无法恢复内存中的数据",
     "反过来只写了 binlog 没写 redo log，主库一崩，内存里还没刷盘的修改就恢复不回来", None),
    ("主库崩溃后可以恢复内存中的数据", "主库一崩，内存里的修改就恢复不回来", "negated"),
])
def test_a_verb_before_buhuilai_is_denied(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind


@pytest.mark.parametrize(("point", "span"), [
    # "不会因为 X 而 Y" denies Y, not X; "不会对 X 进行 Y" denies Y
    ("守护进程是不依赖终端（tty）的进程, 不会因为用户退出终端而停止运行的进程",
     "守护进程是不依赖终端设备的进程，用户退出终端它也不会停止运行"),
    ("归一化和标准化的本质都是一种线性变换，他们都不会因为对数据的处理而改变数据的原始数值排序。",
     "两者本质上都是线性变换，相当于先按比例缩放再平移若干单位，都不会改变数据原始的数值排序"),
    ("UDP 没有拥塞控制，一直会以恒定的速度发送数据。即使网络条件不好，也不会对发送速率进行调整",
     "它也没有拥塞控制，始终以恒定速率发送，网络变差也不调整发送速率"),
    # ... and what Y is said of is not asserted by the denial either
    ("乐观锁在整个的执行过程中其实都没有对数据库进行加锁", "整个执行过程中它其实没有对数据库加任何锁"),
    # "不会真的去 Y" denies Y: 真的 says how surely, and ends no modifier
    ("乐观锁在整个的执行过程中其实都没有对数据库进行加锁", "不对就重试，它不会真的去加锁"),
    # "不需要额外的 X", "没有任何 X" deny X
    ("BF16 有 8 位指数（与 FP32 相同），范围达到 $10^{\\pm 38}$，更接近 FP32，不需要额外的 loss scaling 技巧，训练过程更稳定。",
     "BF16 的指数位数和 FP32 一样，基本不需要 loss scaling，训练更稳定"),
    # "不可以强制性的被抢占" denies the taking, however the adverb is written
    ("不可抢占：已经分配的资源不可以强制性的被抢占，只能被拥有者显式释放",
     "三是不可抢占，分出去的资源不能被强行夺走，只能由持有它的进程主动释放"),
])
def test_what_comes_between_a_denial_and_what_it_denies_is_not_denied(point: str,
                                                                      span: str) -> None:
    assert contradiction(point, span) is None


@pytest.mark.parametrize(("point", "span"), [
    ("守护进程不会因为用户退出终端而停止运行", "用户一退出终端，守护进程就会停止运行"),
    ("UDP 不会对发送速率进行调整", "UDP 会根据网络状况调整发送速率"),
    ("BF16 不需要额外的 loss scaling 技巧", "BF16 训练必须配合 loss scaling 才能稳定"),
    ("已经分配的资源不可以强制性的被抢占", "资源分配出去以后，操作系统可以随时抢占回来"),
    # a name before 的 may be what is denied
    ("输出是 value 向量的加权和", "输出是 query 向量的加权和，而不是 value 的加权和"),
])
def test_what_a_denial_reaches_past_is_still_denied(point: str, span: str) -> None:
    assert contradiction(point, span) == "negated"


@pytest.mark.parametrize(("point", "span", "kind"), [
    # a "label" that denies a verb is the point's first claim, not its topic
    ("不支持删除：清除某个位可能影响其他元素（它们的哈希位重叠）。变体 Counting Bloom Filter 用计数器替代 bit 可支持删除",
     "不过它不支持直接删除，把某一位清零可能会影响共用这一位的其他元素", None),
    ("不支持排序：哈希值是无序的，无法利用哈希索引来优化 ORDER BY 子句", "哈希索引支持排序，可以优化 ORDER BY", "negated"),
    # ... but a name that starts with 不可 is a topic
    ("不可抢占：已经分配的资源不可以强制性的被抢占，只能被拥有者显式释放", "资源一旦分配给进程，别的进程不能强行抢走，只能由它自己释放", None),
    # a name that is itself a denial agrees with a denial of what it names
    ("No networking", "And none gives the container no networking at all", None),
    ("Host networking", "host mode gives the container no networking of its own", "negated"),
    # a name of two things and what they do together is denied only with what they do
    ("通信与计算重叠", "推理用 KV Cache 避免重复计算，不需要额外的通信", None),
    ("通信与计算重叠", "通信和计算没办法重叠", "negated"),
])
def test_labels_and_names_that_deny_or_join(point: str, span: str, kind: str | None) -> None:
    assert contradiction(point, span) == kind
