from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from interviewer.content.bank import Bank, Question, load_bank, render_bank
from interviewer.errors import RubricError
from interviewer.content.rubric import load_rubric, save_rubric, sha256_text
from interviewer.content.extract import DraftPoint, build_rubric, extract_points, split_label
from interviewer.content.bank_rubric import rubric_for_bank, stale_warnings


def pts(answer: str) -> list[tuple[str | None, str]]:
    return [(p.group, p.text) for p in extract_points(answer)]


def test_label_enumeration_gives_one_point_per_item_grouped_under_the_label() -> None:
    answer = ("训练加速：混合精度训练（FP16/BF16）、数据并行+模型并行+流水线并行、梯度累积减少通信频率、"
              "ZeRO优化器状态分片、Flash Attention、编译优化（torch.compile）、通信与计算重叠。")
    assert pts(answer) == [("训练加速", t) for t in [
        "混合精度训练（FP16/BF16）", "数据并行+模型并行+流水线并行", "梯度累积减少通信频率",
        "ZeRO优化器状态分片", "Flash Attention", "编译优化（torch.compile）", "通信与计算重叠"]]


def test_separators_inside_parentheses_stay_with_their_item() -> None:
    answer = "PTQ：GPTQ（权重逐层量化，Hessian补偿）、AWQ（保护重要通道）、SmoothQuant（平衡权重和激活的量化难度）。"
    assert pts(answer) == [("PTQ", "GPTQ（权重逐层量化，Hessian补偿）"), ("PTQ", "AWQ（保护重要通道）"),
                           ("PTQ", "SmoothQuant（平衡权重和激活的量化难度）")]


def test_label_explanation_bullets_stay_whole_under_an_intro_line() -> None:
    answer = ("DeepSpeed是微软开发的分布式训练优化库，核心功能：\n"
              "- ZeRO（Zero Redundancy Optimizer）：Stage 1/2/3分别切分优化器状态/梯度/参数。\n"
              "- 通信优化：梯度压缩、分桶AllReduce。")
    assert pts(answer) == [
        (None, "DeepSpeed是微软开发的分布式训练优化库"),
        ("核心功能", "ZeRO（Zero Redundancy Optimizer）：Stage 1/2/3分别切分优化器状态/梯度/参数"),
        ("核心功能 › 通信优化", "梯度压缩"),
        ("核心功能 › 通信优化", "分桶AllReduce"),
    ]


def test_label_on_its_own_line_joins_its_explanation_and_inline_bullets_split() -> None:
    answer = ("- GPU利用率：\nnvidia-smi检查GPU利用率是否饱满。 - 数据加载：是否IO瓶颈（CPU预处理慢、磁盘读取慢），"
              "增加DataLoader workers、使用prefetch。")
    assert pts(answer) == [
        (None, "GPU利用率：nvidia-smi检查GPU利用率是否饱满"),
        (None, "数据加载：是否IO瓶颈（CPU预处理慢、磁盘读取慢），增加DataLoader workers、使用prefetch"),
    ]


def test_prose_splits_into_sentences_and_a_closing_line_leaves_the_bullet_group() -> None:
    answer = ("分布式训练主要并行策略：\n- 数据并行（DP/DDP）：每卡持有完整模型。\n"
              "通常组合使用，机内TP+SP。再说一句！")
    assert pts(answer) == [
        ("分布式训练主要并行策略", "数据并行（DP/DDP）：每卡持有完整模型"),
        (None, "通常组合使用，机内TP+SP"),
        (None, "再说一句"),
    ]


@pytest.mark.parametrize("answer, expected", [
    ("Memory savers: activation checkpointing, mixed precision, and ZeRO or FSDP sharding.",
     [("Memory savers", "activation checkpointing"), ("Memory savers", "mixed precision"),
      ("Memory savers", "ZeRO or FSDP sharding")]),
    ("Tricks: KV cache, paged attention and speculative decoding",
     [("Tricks", "KV cache"), ("Tricks", "paged attention"), ("Tricks", "speculative decoding")]),
    # two items joined by "and" are one idea, not a list
    ("- Pipeline parallelism: assigns layers to GPUs and passes activations between stages.",
     [(None, "Pipeline parallelism: assigns layers to GPUs and passes activations between stages")]),
    ("1. Run forward in FP16.\n2. Keep FP32 master weights.",
     [(None, "Run forward in FP16"), (None, "Keep FP32 master weights")]),
    ("- Communication: TP is heavy, so keep it in a node; PP sends less.",
     [(None, "Communication: TP is heavy, so keep it in a node"),
      (None, "Communication: PP sends less")]),
    ("The KV cache stores keys. It costs memory, e.g. for long inputs. Use torch.compile too.",
     [(None, "The KV cache stores keys"), (None, "It costs memory, e.g. for long inputs"),
      (None, "Use torch.compile too")]),
    ("Batching: continuous batching, which adds new requests as soon as others finish.",
     [(None, "Batching: continuous batching, which adds new requests as soon as others finish")]),
])
def test_english_shapes(answer: str, expected: list) -> None:
    assert pts(answer) == expected


def test_no_point_is_a_bare_label_or_empty(zh_bank, en_bank) -> None:
    for bank in (zh_bank, en_bank):
        for q in bank.questions:
            for p in extract_points(q.answer):
                assert len(p.text) >= 2
                assert not p.text.endswith(("：", ":"))


def test_shipped_rubrics_are_current(zh_bank, en_bank) -> None:
    for bank in (zh_bank, en_bank):
        loaded = rubric_for_bank(bank)
        assert loaded.warnings == []
        assert loaded.rubric.path == ROOT / "rubrics" / f"{bank.id}.yaml"
        assert [q.id for q in loaded.rubric.questions] == [q.id for q in bank.questions]


def _bank(answer: str = "学习率过大：震荡。\n数据噪声：标签有误。", path: Path | None = None) -> Bank:
    return Bank(id="t", title="T", language="zh", path=path,
                questions=(Question(id="q1", text="为什么震荡？", answer=answer),))


def test_point_ids_are_stable_across_rebuilds_and_reorders() -> None:
    first = build_rubric(_bank()).rubric
    again = build_rubric(_bank()).rubric
    assert first == again
    swapped = build_rubric(_bank("数据噪声：标签有误。\n学习率过大：震荡。")).rubric
    assert {p.id: p.text for p in first.questions[0].points} == \
        {p.id: p.text for p in swapped.questions[0].points}


def test_save_load_round_trip_and_json_is_accepted(tmp_path: Path) -> None:
    rubric = build_rubric(_bank()).rubric
    path = tmp_path / "rubrics" / "t.yaml"
    save_rubric(rubric, path)
    loaded = load_rubric(path)
    assert loaded.questions == rubric.questions
    assert not loaded.is_hand_edited("q1")
    import json
    from interviewer.content.rubric import rubric_to_data
    jpath = tmp_path / "t.json"
    jpath.write_text(json.dumps(rubric_to_data(rubric), ensure_ascii=False))
    assert load_rubric(jpath).questions == rubric.questions


def _hand_edit(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["questions"][0]["points"][0]["text"] = "学习率太大导致震荡（人工改写）"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_hand_edits_are_kept_when_the_answer_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    save_rubric(build_rubric(_bank()).rubric, path)
    _hand_edit(path)
    existing = load_rubric(path)
    assert existing.is_hand_edited("q1")
    report = build_rubric(_bank(), existing)
    assert report.kept_hand_edits == ["q1"]
    assert report.rubric.questions[0].points[0].text == "学习率太大导致震荡（人工改写）"


def test_hand_edits_are_never_overwritten_silently(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    save_rubric(build_rubric(_bank()).rubric, path)
    _hand_edit(path)
    changed = _bank("学习率过大：震荡。\n数据噪声：标签有误。\n数值不稳定：梯度爆炸。")
    with pytest.raises(RubricError, match="hand-edited points would be lost for q1.*--force"):
        build_rubric(changed, load_rubric(path))
    report = build_rubric(changed, load_rubric(path), force=True)
    assert report.overwritten_hand_edits == ["q1"]
    assert len(report.rubric.questions[0].points) == 3


def test_stale_rubric_warns(tmp_path: Path) -> None:
    bank_dir = tmp_path / "bank"
    bank_dir.mkdir()
    bank = replace(_bank(), path=bank_dir / "t.md")
    (bank_dir / "t.md").write_text(render_bank(bank), encoding="utf-8")
    save_rubric(build_rubric(bank).rubric, tmp_path / "rubrics" / "t.yaml")
    changed = load_bank(bank_dir / "t.md")
    changed = replace(changed, questions=(replace(changed.questions[0], answer="新答案：完全不同。"),))
    warnings = rubric_for_bank(changed).warnings
    assert len(warnings) == 1 and "reference answer of 'q1' changed" in warnings[0]
    assert stale_warnings(load_rubric(tmp_path / "rubrics" / "t.yaml"), changed) == warnings


def test_missing_rubric_is_extracted_on_the_fly_with_a_notice(tmp_path: Path) -> None:
    loaded = rubric_for_bank(replace(_bank(), path=tmp_path / "t.md"))
    assert [p.text for p in loaded.rubric.questions[0].points] == ["学习率过大：震荡", "数据噪声：标签有误"]
    assert "interviewer rubric build" in loaded.warnings[0]


@pytest.mark.parametrize("content, fragment", [
    ("bank: [unclosed\n", "not valid YAML"),
    ("- just a list\n", "expected a mapping"),
    ("bank: t\nquestions: []\n", "non-empty list"),
    ("bank: t\nquestions:\n- id: q1\n  points: []\n", "'points' must be a non-empty list"),
    ("bank: t\nquestions:\n- id: q1\n  points:\n  - id: a\n    text: ''\n", "non-empty 'text'"),
    ("bank: t\nquestions:\n- id: q1\n  points:\n  - {id: a, text: x}\n  - {id: a, text: y}\n",
     "duplicate point id 'a'"),
    ("bank: t\nquestions:\n- id: q1\n  points:\n  - {id: a, text: x, weight: -1}\n", "'weight'"),
    ("bank: t\nquestions:\n- id: q1\n  points:\n  - {id: a, text: x, keywords: 3}\n", "'keywords'"),
])
def test_bad_rubric_files(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RubricError) as info:
        load_rubric(path)
    assert fragment in str(info.value)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


def test_draft_points_are_values() -> None:
    assert DraftPoint("x") == DraftPoint("x", None)
    assert DraftPoint("x") != DraftPoint("x", "group")


def test_sha256_text_is_the_utf8_digest_the_shipped_rubrics_record(zh_bank, en_bank) -> None:
    """The fingerprint that tells a rubric its reference answer changed: SHA-256 of the text's
    UTF-8 bytes, every byte counted. Changing it would mark every stored rubric stale."""
    assert sha256_text("a") == "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
    assert sha256_text("梯度") == "9a4adbad63440538d0063edbb88ed0c14d16adc6b1849fe091001b471e50b170"
    assert sha256_text("a ") != sha256_text("a") != sha256_text("A")
    for bank in (zh_bank, en_bank):
        shipped = load_rubric(ROOT / "rubrics" / f"{bank.id}.yaml")
        assert {q.id: q.source_sha256 for q in shipped.questions} == \
            {q.id: sha256_text(q.answer) for q in bank.questions}


@pytest.mark.parametrize("text, expected", [
    ("ZeRO（Stage 1：切分）：把优化器状态分片", ("ZeRO（Stage 1：切分）", "把优化器状态分片")),
    ("流水线并行（PP：层间切分）", (None, "流水线并行（PP：层间切分）")),  # colon inside brackets
    ("“通信：overlap”：隐藏通信", ("“通信：overlap”", "隐藏通信")),  # quotes are brackets too
    ("Communication: TP is chatty", ("Communication", "TP is chatty")),
    ("torch.compile：图编译", ("torch.compile", "图编译")),
    ("see http://host: here", ("see http://host", "here")),  # "://" is not a label colon
    ("用torch.compile做编译", (None, "用torch.compile做编译")),
])
def test_split_label_uses_the_segmenters_brackets(text: str, expected: tuple) -> None:
    assert split_label(text) == expected


@pytest.mark.parametrize("weight", [".inf", "-.inf", ".nan", "0", "-1", "'2'", "true"])
def test_a_point_weight_must_be_finite_and_positive(tmp_path: Path, weight: str) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("bank: t\nquestions:\n- id: q1\n  points:\n  - {id: a, text: x}\n"
                    f"  - {{id: pt-b, text: y, weight: {weight}}}\n", encoding="utf-8")
    with pytest.raises(RubricError) as info:
        load_rubric(path)
    message = str(info.value)
    assert str(path) in message and "pt-b" in message
    assert "'weight' must be a finite number > 0" in message and "\n" not in message


def test_a_nan_weight_never_reaches_a_batch_result(tmp_path: Path) -> None:
    """Before the check, .nan passed and the batch wrote "score": NaN, which is not JSON."""
    import json

    from helpers import run_cli

    rubric = tmp_path / "r.yaml"
    rubric.write_text("bank: t\nquestions:\n- id: q1\n  points:\n  - {id: a, text: 混合精度训练}\n"
                      "  - {id: b, text: 梯度累积, weight: .nan}\n", encoding="utf-8")
    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": 1, "question_id": "q1", "answer": "混合精度训练"}) + "\n",
                       encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run_cli("grade", "--rubric", str(rubric), "--answers", str(answers),
                           "--out", str(out), "--model", "/nonexistent-model")
    assert code == 2 and "'weight' must be a finite number > 0" in err
    assert not out.exists() or "NaN" not in out.read_text(encoding="utf-8")
def test_every_point_keeps_the_reference_sentence_it_came_from(zh_bank, en_bank) -> None:
    for bank in (zh_bank, en_bank):
        rubric = build_rubric(bank).rubric
        for q, bq in zip(rubric.questions, bank.questions):
            for p in q.points:
                assert p.source and p.source in bq.answer, (q.id, p.text, p.source)
                core = p.text.split("：")[-1].split(": ")[-1]
                assert core[:4] in p.source, (q.id, p.text, p.source)


def test_source_is_saved_and_an_old_rubric_without_it_falls_back_to_the_answer(tmp_path) -> None:
    from interviewer.content.reference import point_sources

    bank = _bank("学习率过大：训练会震荡。\n数据噪声：标签有误，模型学到噪声。")
    rubric = build_rubric(bank).rubric
    path = tmp_path / "t.yaml"
    save_rubric(rubric, path)
    assert "source:" in path.read_text(encoding="utf-8")
    assert load_rubric(path).questions == rubric.questions
    old = yaml.safe_load(path.read_text(encoding="utf-8"))
    for q in old["questions"]:
        for p in q["points"]:
            del p["source"]
    path.write_text(yaml.safe_dump(old, allow_unicode=True), encoding="utf-8")
    loaded = load_rubric(path).questions[0]
    assert all(p.source is None for p in loaded.points)
    sources = point_sources(loaded, bank.questions[0].answer)
    by_text = {p.text: sources[p.id] for p in loaded.points}
    assert by_text["数据噪声：标签有误，模型学到噪声"] == "数据噪声：标签有误，模型学到噪声。"
    assert by_text["学习率过大：训练会震荡"] == "学习率过大：训练会震荡。"
    assert point_sources(rubric.questions[0], "") == {p.id: p.source for p in rubric.questions[0].points}


def test_a_source_that_is_not_text_is_refused(tmp_path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("bank: t\nquestions:\n- id: q1\n  points:\n  - id: a\n    text: x y\n"
                    "    source: [1]\n", encoding="utf-8")
    with pytest.raises(RubricError) as info:
        load_rubric(path)
    assert "'source'" in str(info.value)
