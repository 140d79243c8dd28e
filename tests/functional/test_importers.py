"""Importing the banks people keep: every format, good and broken files, round trips."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from conftest import DATA
from interviewer.content.bank import load_bank, parse_bank, render_bank
from conftest import ROOT
from helpers import run_cli
from interviewer.errors import BankError
from interviewer.content.importers import import_source
from interviewer.content.importers.anki_text import html_to_text
from interviewer.content.importers.export import to_anki_text

IMPORT = DATA / "import"
sys.path.insert(0, str(IMPORT / "anki-apkg"))
from make_deck import write_deck  # noqa: E402

# file → (format, question texts, skipped "line: why" fragments)
EXPECTED = {
    "markdown/good-zh.md": ("markdown", ["什么是混合精度训练？", "梯度累积的原理是什么？",
                                          "KV Cache 有什么作用？"], ["32: section '参考资料'"]),
    "markdown/bold-questions-en.md": ("markdown", [
        "What is regression? Which models can you use?", "What is the normal equation?",
        "What is overfitting?"], ["20: the answer is a placeholder"]),
    "markdown/numbered-sections-zh.md": ("markdown", ["KV Cache", "投机解码"],
                                         ["3: section '📑 本章目录' is not a question"]),
    "markdown/nested-numbered-zh.md": ("markdown", [
        "什么是 Transformer 架构？", "BERT 和 GPT 的主要区别是什么？", "如何进行模型微调？"], []),
    "markdown/bom-crlf.md": ("markdown", ["What is ZeRO?", "What is FSDP?"], []),
    "markdown/broken.md": ("markdown", ["What is a fence left open?",
                                        "Which question comes after the open fence?",
                                        "What is a duplicate?"],
                           ["15: no answer under the question", "21: duplicate of the question "
                                                                "at"]),
    "markdown-folder/good": ("markdown-folder", [
        "LoRA 的原理是什么？为什么能省显存？", "What is retrieval-augmented generation (RAG)?",
        "What is speculative decoding?"], []),
    "markdown-folder/broken": ("markdown-folder", [
        "LoRA 的原理是什么？为什么能省显存？", "How do you write a CUDA kernel launch?"],
        ["002-no-answer.md:5: no answer", "005-bad-yaml.md:1: front matter is not valid YAML",
         "006-not-utf8.md:1: not valid UTF-8", "003-duplicate.md:4: duplicate"]),
    # excerpts of public collections (tests/data/import/SOURCES.md: where from, licence)
    "markdown-folder/po4yka-excerpt": ("markdown-folder", [
        "In Kotlin `Flow`, what should you use if you need to transform one data stream into "
        "another data stream?",
        "What is the result of executing `val result = (1..3).flatMap { listOf(it, it * 2) }`?"],
        []),
    "markdown/alexeygrigorev-theory-excerpt.md": ("markdown", [
        "What is supervised machine learning?",
        "What is regression? Which models can you use to solve a regression problem?"],
        ["19: section 'Table of contents' is not a question"]),
    "markdown/axiaoquan-inference-excerpt.md": ("markdown", ["KV Cache"],
                                                ["5: section '📑 本章目录' is not a question"]),
    "csv/good-zh-bom-crlf.csv": ("csv", ["什么是张量并行？", "什么是流水线并行？"], []),
    "csv/broken.csv": ("csv", ["What is ZeRO?"], [
        "broken.csv:3: no answer", "broken.csv:5: 4 cells but 3 columns",
        "broken.csv:6: no question", "broken.csv:4: duplicate"]),
    "tsv/good.tsv": ("tsv", ["What is a TSV?", "What is HTML?"], []),
    "json/good.json": ("json", ["What is a data lake?", "What is CDC?"], []),
    "jsonl/good.jsonl": ("jsonl", ["什么是数据倾斜？", "如何处理数据倾斜？"], [
        "good.jsonl:3: not valid JSON", "good.jsonl:5: not an object", "good.jsonl:4: duplicate"]),
    "anki-text/deck-html.txt": ("anki-text", ["What is attention?", "What is a <pad> token?"], [
        "deck-html.txt:9: the note 'An empty back?' has no back", "deck-html.txt:10: duplicate"]),
    "anki-apkg/deck.apkg": ("anki-apkg", ["What is KV cache?", "什么是 LoRA？"], [
        "deck.apkg:3: the note 'A note with an empty back' has no back",
        "deck.apkg:4: duplicate"]),
}


def test_every_data_file_has_an_expectation() -> None:
    on_disk = {str(p.relative_to(IMPORT)) for p in IMPORT.glob("*/*") if p.suffix != ".py"
               and not p.name.startswith(("LICENSE", "SOURCE"))}
    assert on_disk == set(EXPECTED) | set(FAILS)


FAILS = {"json/broken.json": "broken.json:3: not valid JSON"}


@pytest.mark.parametrize("name", sorted(FAILS))
def test_a_file_that_cannot_be_read_at_all_is_one_line(name: str) -> None:
    with pytest.raises(BankError) as info:
        import_source(IMPORT / name)
    assert FAILS[name] in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_file_imports_what_it_holds_and_names_what_it_skips(name: str) -> None:
    fmt, texts, skips = EXPECTED[name]
    result = import_source(IMPORT / name)
    assert result.format == fmt
    assert [q.text for q in result.bank.questions] == texts
    assert len(result.skipped) == len(skips)
    for fragment, skip in zip(skips, result.skipped):
        assert fragment in str(skip)
    # what is written reads back as the same bank
    again = parse_bank(render_bank(result.bank))
    assert [(q.id, q.text, q.answer, q.tags, q.difficulty) for q in again.questions] == \
        [(q.id, q.text, q.answer, q.tags, q.difficulty) for q in result.bank.questions]


def test_an_open_fence_is_closed_before_the_next_heading_with_a_warning() -> None:
    result = import_source(IMPORT / "markdown/broken.md")
    assert [str(w) for w in result.warnings] == [
        f"{IMPORT / 'markdown/broken.md'}:5: code fence is not closed; closed it before line 9"]
    assert result.bank.questions[0].answer.endswith("```")


def test_labels_key_points_tags_and_difficulty() -> None:
    result = import_source(IMPORT / "markdown-folder/good")
    lora, rag, plain = result.bank.questions
    assert (lora.id, lora.tags, lora.difficulty) == ("llm-001", ("微调", "lora"), "medium")
    assert result.key_points["llm-001"] == ("冻结原权重", "低秩分解 ΔW = BA", "只训练 A、B，优化器状态小")
    assert result.key_points["llm-002"][0] == "retrieve relevant passages"
    assert "Follow-up" not in rag.answer and plain.id.startswith("q-")
    assert result.unmapped == ["front matter 'author'", "section 'Follow-up'"]
    zh = import_source(IMPORT / "markdown/good-zh.md")
    first = zh.bank.questions[0]
    assert first.tags == ("训练",) and "## 这一行在代码里" in first.answer
    assert zh.key_points[first.id] == ("半精度计算", "FP32 主权重", "损失缩放防止下溢")


def test_a_label_inside_a_list_item_does_not_split_the_answer() -> None:
    kv = import_source(IMPORT / "markdown/numbered-sections-zh.md").bank.questions[0]
    assert kv.answer.startswith("### 🎯 核心思想\n\n缓存已计算的 K、V")
    assert kv.answer.endswith("  A：不用，Encoder 一次看到全部 token。")


def test_a_closing_rule_is_not_part_of_the_answer() -> None:
    kv = import_source(IMPORT / "markdown/axiaoquan-inference-excerpt.md").bank.questions[0]
    assert kv.answer.endswith("decode 阶段每步**读取 + 追加** KV Cache。")


def test_numbered_sections_are_tags_of_the_questions_beneath() -> None:
    bank = import_source(IMPORT / "markdown/nested-numbered-zh.md").bank
    assert [q.tags for q in bank.questions] == [("基础概念与原理",), ("基础概念与原理",), ("训练",)]


def test_ids_are_stable_across_imports_and_reorders(tmp_path: Path) -> None:
    rows = ["question,answer", "What is A?,a", "What is B?,b"]
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    one.write_text("\n".join(rows), encoding="utf-8")
    two.write_text("\n".join([rows[0], rows[2], rows[1]]), encoding="utf-8")
    first, again, reordered = (import_source(p).bank for p in (one, one, two))
    assert [q.id for q in first.questions] == [q.id for q in again.questions]
    assert {q.id: q.text for q in first.questions} == {q.id: q.text for q in reordered.questions}


def test_anki_html_becomes_text() -> None:
    assert html_to_text("<div>a&nbsp;<b>b</b></div><div>c<br>d</div>") == "a b\nc\nd"
    assert html_to_text("{{c1::Paris::city}} [sound:x.mp3]<script>x()</script>") == "Paris"
    assert html_to_text("<ul><li>one</li><li>two</li></ul>") == "- one\n- two"
    assert html_to_text("1 &lt; 2 &amp;&amp; x") == "1 < 2 && x"


def test_apkg_fields_are_found_by_name(tmp_path: Path) -> None:
    deck = write_deck(tmp_path / "d.apkg", [("g1", ["extra", "What is X?", "X is y."], "t")],
                      field_names=("Notes", "Front", "Back"))
    result = import_source(deck)
    assert [(q.text, q.answer, q.tags) for q in result.bank.questions] == \
        [("What is X?", "X is y.", ("t",))]
    assert result.unmapped == ["note field 3"]


def _zip(members: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("content, fragment", [
    (b"not a zip", "not an Anki package"),
    (_zip({"media": b"{}"}), "no collection inside this package"),
    (_zip({"collection.anki2": b"garbage, not SQLite" * 100}), "the collection is not readable"),
])
def test_broken_apkg_is_one_line(tmp_path: Path, content: bytes, fragment: str) -> None:
    p = tmp_path / "x.apkg"
    p.write_bytes(content)
    with pytest.raises(BankError) as info:
        import_source(p)
    assert fragment in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["markdown/good-zh.md", "markdown-folder/good", "csv/broken.csv",
                                  "anki-text/deck-html.txt", "anki-apkg/deck.apkg",
                                  "jsonl/good.jsonl"])
def test_round_trip_through_markdown_and_anki_text(name: str, tmp_path: Path) -> None:
    bank = import_source(IMPORT / name).bank
    md = tmp_path / "bank.md"
    md.write_text(render_bank(bank), encoding="utf-8")
    assert import_source(md).bank.questions == load_bank(md).questions
    assert [(q.id, q.text, q.answer) for q in load_bank(md).questions] == \
        [(q.id, q.text, q.answer) for q in bank.questions]
    anki = tmp_path / "deck.txt"
    anki.write_text(to_anki_text(bank), encoding="utf-8")
    back = import_source(anki).bank
    assert [(q.id, q.text, q.answer, q.tags) for q in back.questions] == \
        [(q.id, q.text, q.answer, tuple(t.replace(" ", "_") for t in q.tags))
         for q in bank.questions]


def test_a_folder_without_markdown_and_an_unknown_file(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(BankError, match="no .md files"):
        import_source(tmp_path / "empty")
    odd = tmp_path / "x.dat"
    odd.write_text("just words\n", encoding="utf-8")
    with pytest.raises(BankError, match="cannot tell the format"):
        import_source(odd)


def test_copy_of_a_folder_imports_to_the_same_ids(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(IMPORT / "markdown-folder/good", copy)
    assert [q.id for q in import_source(copy).bank.questions] == \
        [q.id for q in import_source(IMPORT / "markdown-folder/good").bank.questions]


# ---------------------------------------------------------------- CLI, hand rubric, export

_run = run_cli


def test_cli_import_reports_skips_and_writes_the_key_points_as_a_hand_rubric(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from interviewer.content.rubric import load_rubric
    from interviewer.content.bank_rubric import rubric_for_bank

    monkeypatch.chdir(tmp_path)
    code, _, err = _run("bank", "import", str(IMPORT / "markdown-folder/broken"), "--id", "llm")
    assert code == 0, err
    assert "imported 2 questions (markdown-folder), skipped 4" in err
    assert "002-no-answer.md:5: no answer" in err
    assert "wrote rubrics/llm.yaml" in err or "rubrics/llm.yaml" in err
    rubric_file = tmp_path / "rubrics" / "llm.yaml"
    text = rubric_file.read_text(encoding="utf-8")
    assert "source: hand" in text
    bank = load_bank(tmp_path / "bank" / "llm.md")
    # grading uses the author's points
    loaded = rubric_for_bank(bank)
    assert [p.text for p in loaded.rubric.question("llm-001").points] == \
        ["冻结原权重", "低秩分解 ΔW = BA", "只训练 A、B，优化器状态小"]
    assert loaded.warnings == []
    # rubric build keeps them; the extracted points are written beside them on request
    code, _, err = _run("rubric", "build", str(tmp_path / "bank" / "llm.md"))
    assert code == 0, err
    assert "kept hand-edited points of llm-001" in err
    assert load_rubric(rubric_file).question("llm-001").source == "hand"
    code, _, err = _run("rubric", "build", str(tmp_path / "bank" / "llm.md"), "--extracted")
    assert code == 0, err
    extracted = load_rubric(tmp_path / "rubrics" / "llm.extracted.yaml")
    assert extracted.question("llm-001").source == "extracted"
    assert [p.text for p in extracted.question("llm-001").points] != \
        [p.text for p in loaded.rubric.question("llm-001").points]
    code, _, err = _run("rubric", "build", str(tmp_path / "bank" / "llm.md"), "--extracted",
                        "-o", str(rubric_file))
    assert code == 2 and "hand-written points; not overwriting" in err
    # importing again refuses to overwrite either file
    code, _, err = _run("bank", "import", str(IMPORT / "markdown-folder/broken"), "--id", "llm")
    assert code == 2 and "file exists" in err


def test_cli_import_format_and_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "q.csv"
    src.write_text("题干,解析,出处\n什么是 MoE？,稀疏激活的专家混合。,书\n", encoding="utf-8")
    code, _, err = _run("bank", "import", str(src), "-o", "-")
    assert code == 2 and "q.csv: no answer field among: 题干, 解析, 出处" in err
    code, out, err = _run("bank", "import", str(src), "--columns", "question=题干,answer=解析",
                          "-o", "-")
    assert code == 0 and "什么是 MoE？" in out and "not mapped: field '出处'" in err
    code, _, err = _run("bank", "import", str(src), "--columns", "question=nope,answer=解析")
    assert code == 2 and "--columns: no field 'nope'" in err
    code, _, err = _run("bank", "import", str(IMPORT / "tsv/good.tsv"), "--format", "json")
    assert code == 2 and "not valid JSON" in err and "Traceback" not in err


def test_cli_export_markdown_and_anki(tmp_path: Path) -> None:
    code, out, _ = _run("bank", "export", "llm-systems-en")
    assert code == 0 and parse_bank(out).questions == load_bank(
        ROOT / "bank" / "llm-systems-en.md").questions
    target = tmp_path / "deck.txt"
    code, _, err = _run("bank", "export", "llm-systems-en", "--format", "anki", "-o", str(target))
    assert code == 0 and f"wrote {target}" in err
    assert target.read_text(encoding="utf-8").startswith("#separator:tab\n#html:true\n")
    back = import_source(target).bank
    assert [q.id for q in back.questions] == [q.id for q in parse_bank(out).questions]
    code, _, err = _run("bank", "export", "llm-systems-en", "--format", "anki", "-o", str(target))
    assert code == 2 and "file exists" in err
    code, _, err = _run("bank", "export", "llm-systems-en", "--missed")
    assert code == 2 and "no missed points" in err


def test_rubric_source_field_is_optional_and_checked(tmp_path: Path) -> None:
    from interviewer.errors import RubricError
    from interviewer.content.rubric import load_rubric

    base = ("bank: b\nquestions:\n  - id: q1\n    question: Q?\n    source_sha256: x\n{src}"
            "    points:\n      - id: q1.a\n        text: a point\n")
    old = tmp_path / "old.yaml"
    old.write_text(base.format(src=""), encoding="utf-8")
    rubric = load_rubric(old)
    assert rubric.question("q1").source == "extracted" and rubric.is_hand_edited("q1")
    hand = tmp_path / "hand.yaml"
    hand.write_text(base.format(src="    source: hand\n"), encoding="utf-8")
    assert load_rubric(hand).question("q1").source == "hand"
    bad = tmp_path / "bad.yaml"
    bad.write_text(base.format(src="    source: robot\n"), encoding="utf-8")
    with pytest.raises(RubricError, match="'source' must be one of extracted, hand"):
        load_rubric(bad)


def test_export_missed_puts_the_points_last_missed_on_the_card(isolated_home: Path,
                                                                tmp_path: Path) -> None:
    from interviewer.config import discover_settings
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.sessions.store import Store

    settings = discover_settings()
    bank = load_bank(ROOT / "bank" / "llm-systems-en.md")
    q = rubric_for_bank(bank).rubric.questions[1]
    first, second = q.points[0], q.points[1]
    store = Store.open(settings.data_dir)
    store.record_reviews("s1", 1, bank.id, q.id, [(first.id, first.text, "good"),
                                                  (second.id, second.text, "lapse")],
                         at="2026-01-01T00:00:00+00:00")
    store.record_reviews("s2", 1, bank.id, q.id, [(first.id, first.text, "lapse"),
                                                  (second.id, second.text, "good")],
                         at="2026-01-02T00:00:00+00:00")
    store.close()
    code, out, err = _run("bank", "export", bank.id, "--format", "anki", "--missed")
    assert code == 0, err
    rows = out.strip().split("\n")[4:]
    assert len(rows) == 1 and rows[0].startswith(q.id + "\t")
    assert "Missed points" in rows[0] and first.text.split()[0] in rows[0]
    deck = tmp_path / "missed.txt"
    deck.write_text(out, encoding="utf-8")
    back = import_source(deck).bank.questions[0].answer
    assert back.split("\n\n", 1)[0] == "Missed points\n- " + first.text


def test_untrusted_text_in_the_report_has_no_control_bytes(tmp_path: Path) -> None:
    src = tmp_path / "q.csv"
    src.write_text("question,answer,\x1b[2Jcol\nWhat is \x1b]0;pwned\x07?,,x\nWhat is ok?,fine,x\n",
                   encoding="utf-8")
    code, _, err = _run("bank", "import", str(src), "-o", "-")
    assert code == 0 and "skipped" in err and "not mapped" in err
    assert "\x1b" not in err and "\x07" not in err


def test_a_yaml_alias_bomb_in_front_matter_is_not_expanded(tmp_path: Path) -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x]"] + [
        f"{c}: &{c} [{', '.join('*' + p for _ in range(9))}]"
        for p, c in zip("abcdefgh", "bcdefghi")]
    (tmp_path / "q.md").write_text("---\n" + "\n".join(levels) + "\ntitle: *i\ntags: *i\n---\n"
                                   "## Question\nWhat is a bomb?\n## Answer\nNot expanded.\n",
                                   encoding="utf-8")
    result = import_source(tmp_path, "markdown-folder")
    assert [(q.text, q.tags) for q in result.bank.questions] == [("What is a bomb?", ())]


def test_deeply_nested_json_is_a_bad_line_not_a_crash(tmp_path: Path) -> None:
    src = tmp_path / "q.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    mid = "[" * 900 + '"x"' + "]" * 900
    src.write_text(f'{{"question": {deep}, "answer": "a"}}\n'
                   f'{{"question": {mid}, "answer": "a"}}\n'
                   '{"question": "What is ok?", "answer": "fine"}\n', encoding="utf-8")
    result = import_source(src)
    assert [q.text for q in result.bank.questions] == ["What is ok?"]
    assert [s.line for s in result.skipped] == [1, 2]


def test_a_new_style_apkg_is_refused_not_read_as_its_stub(tmp_path: Path) -> None:
    """Recent Anki writes the real collection compressed (collection.anki21b) beside a stub
    collection.anki2 whose one note says to update Anki: that note is not a question."""
    import zipfile

    stub = write_deck(tmp_path / "stub.apkg", [("s", ["Please update to the latest Anki "
                                                      "version, then import the .colpkg/.apkg "
                                                      "file again.", "x"], "")])
    new = tmp_path / "new.apkg"
    with zipfile.ZipFile(stub) as src, zipfile.ZipFile(new, "w") as dst:
        dst.writestr("collection.anki2", src.read("collection.anki2"))
        dst.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd compressed")
        dst.writestr("media", b"")
    with pytest.raises(BankError, match="newer compressed format.*Support older Anki versions"):
        import_source(new)


def test_a_csv_separated_by_semicolons_is_read(tmp_path: Path) -> None:
    src = tmp_path / "q.csv"
    src.write_text("问题;答案\n什么是 RoPE？;旋转位置编码, 用旋转矩阵表示相对位置。\n",
                   encoding="utf-8")
    result = import_source(src)
    assert [(q.text, q.answer) for q in result.bank.questions] == \
        [("什么是 RoPE？", "旋转位置编码, 用旋转矩阵表示相对位置。")]


def test_a_combined_bank_is_exported_one_bank_at_a_time() -> None:
    code, _, err = _run("bank", "export", "ai-infra-zh+llm-systems-en")
    assert code == 2 and "one bank at a time" in err


def test_overrides_apply_to_a_file_already_in_the_bank_format(tmp_path: Path) -> None:
    bank_file = ROOT / "bank" / "llm-systems-en.md"
    code, out, err = _run("bank", "import", str(bank_file), "--id", "mine", "--title", "Mine",
                          "-o", "-")
    assert code == 0, err
    again = parse_bank(out)
    assert (again.id, again.title) == ("mine", "Mine")
    assert again.questions == load_bank(bank_file).questions


@pytest.mark.parametrize("content, name", [
    ('"head\ner\x1b[2J",other\n1,2\n', "q.csv"),
    ('{"question": "What is \\u001b[2J\\nthis?"}\n', "q.jsonl"),
])
def test_errors_and_skips_naming_untrusted_text_are_one_printable_line(
        tmp_path: Path, content: str, name: str) -> None:
    src = tmp_path / name
    src.write_text(content, encoding="utf-8")
    code, _, err = _run("bank", "import", str(src), "-o", "-")
    assert code == 2
    assert err.count("\n") == 1 and "\x1b" not in err, err


def test_mutated_files_import_or_fail_in_one_line_and_read_back(tmp_path: Path) -> None:
    """A seeded fuzz over the data files: every outcome is a bank that reads back the same,
    or one printable line."""
    import random

    rng = random.Random(7)
    files = sorted(p for p in IMPORT.glob("*/*") if p.is_file()
                   and p.suffix in (".md", ".csv", ".tsv", ".json", ".jsonl", ".txt"))
    snippets = ["\n", "```", "## ", "# ", "**", "答案：", "Answer:", "---\n", "\t", '"', ",",
                "\x00", "\r", "\ufeff", "[", "{", "> ", "  A：", "### Key points\n- x\n", "\x1b"]
    for i in range(300):
        src = rng.choice(files)
        text = src.read_text(encoding="utf-8-sig", errors="replace")
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(text) + 1)
            if rng.random() < 0.6:
                text = text[:pos] + rng.choice(snippets) + text[pos:]
            else:
                text = text[:pos] + text[pos + rng.randint(1, 30):]
        path = tmp_path / f"f{i}{src.suffix}"
        path.write_text(text, encoding="utf-8")
        try:
            result = import_source(path)
        except BankError as exc:
            assert "\n" not in str(exc) and "\x1b" not in str(exc)
            continue
        again = parse_bank(render_bank(result.bank))
        assert [(q.id, q.text, q.answer) for q in again.questions] == \
            [(q.id, q.text, q.answer) for q in result.bank.questions]
        assert not any("\x1b" in line or "\n" in line for line in result.summary())


def test_a_section_that_is_mostly_links_is_skipped(tmp_path: Path) -> None:
    src = tmp_path / "q.md"
    src.write_text("# Links\n\n## What is ZeRO?\n\nIt shards optimizer states.\n\n"
                   "## Questions and answers\n\n"
                   "* [Some collection](https://example.com/a) - 100 questions with answers\n"
                   "* [Another](https://example.com/b) by someone\n"
                   "* See also [this](https://example.com/c)\n", encoding="utf-8")
    result = import_source(src)
    assert [q.text for q in result.bank.questions] == ["What is ZeRO?"]
    assert [s.why for s in result.skipped] == ["no answer, only links"]
