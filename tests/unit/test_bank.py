from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DATA, ROOT, SEED
from interviewer.content.catalog import BankCatalog
from interviewer.content.bank import import_plaintext, load_bank, parse_bank, render_bank
from interviewer.errors import BankError
from interviewer.content.language import language_of

BANKS = DATA / "banks"


@pytest.mark.parametrize("path", sorted((BANKS / "good").glob("*.md")), ids=lambda p: p.name)
def test_good_banks_parse_and_round_trip(path: Path) -> None:
    bank = load_bank(path)
    again = parse_bank(render_bank(bank))
    assert [(q.id, q.text, q.answer, q.tags, q.difficulty) for q in again.questions] == \
        [(q.id, q.text, q.answer, q.tags, q.difficulty) for q in bank.questions]


def test_multiline_question_tags_and_code_fence() -> None:
    bank = load_bank(BANKS / "good" / "multiline-and-code.md")
    assert bank.title == "Multi-line question: with a colon"
    assert [q.id for q in bank.questions] == ["a-1", "b.2"]
    first = bank.questions[0]
    assert first.text == "第一行问题\n问题的第二行。"
    assert first.tags == ("训练", "memory")
    assert first.difficulty == "hard"
    assert "## not a heading inside a code fence" in first.answer


BAD = {
    "duplicate-id.md": (13, "duplicate question id 'q1'"),
    "empty-question.md": (7, "has no text"),
    "empty-answer.md": (9, "has an empty answer"),
    "no-questions.md": (None, "no questions found"),
    "no-answer-heading.md": (7, "no '### Answer' section"),
    "no-front-matter.md": (1, "missing front matter"),
    "missing-language.md": (1, "no 'language'"),
    "unknown-language.md": (1, "language 'fr'"),
    "heading-without-id.md": (7, "'## <id>: <question>'"),
    "bad-difficulty.md": (9, "difficulty 'impossible'"),
    "bad-yaml.md": (3, "not valid YAML"),
    "latin1.md": (7, "not valid UTF-8"),
    "empty-file.md": (None, "file is empty"),
}


def test_every_bad_file_has_an_expectation() -> None:
    assert sorted(p.name for p in (BANKS / "bad").glob("*.md")) == sorted(BAD)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_banks_give_one_line_errors_with_file_and_line(name: str) -> None:
    line, fragment = BAD[name]
    path = BANKS / "bad" / name
    with pytest.raises(BankError) as info:
        load_bank(path)
    message = str(info.value)
    assert "\n" not in message
    assert fragment in message
    assert info.value.path == path
    assert info.value.line == line
    prefix = f"{path}:{line}: " if line else f"{path}: "
    assert message.startswith(prefix)


def test_unreadable_paths() -> None:
    with pytest.raises(BankError, match="file not found"):
        load_bank(BANKS / "nope.md")
    with pytest.raises(BankError, match="is a directory"):
        load_bank(BANKS)


def test_seed_import_keeps_all_nine_answers_verbatim() -> None:
    text = SEED.read_text(encoding="utf-8")
    bank = import_plaintext(text, path=SEED, bank_id="ai-infra-zh")
    assert bank.title == "AI Infra 综合面经题库"  # not the " (7)" a download left behind
    assert bank.language == "zh"
    assert len(bank.questions) == 9
    assert [q.id for q in bank.questions] == [f"q{i:02d}" for i in range(1, 10)]
    blocks = text.split("\nQ: ")[1:]
    for q, block in zip(bank.questions, blocks):
        question, _, answer = block.partition("\n")
        assert q.text == question.strip()
        assert q.answer == answer.strip()


def test_shipped_bank_matches_the_seed_verbatim(zh_bank) -> None:
    seed = import_plaintext(SEED.read_text(encoding="utf-8"), bank_id="ai-infra-zh")
    assert [(q.id, q.text, q.answer) for q in zh_bank.questions] == \
        [(q.id, q.text, q.answer) for q in seed.questions]
    assert zh_bank.title == seed.title


@pytest.mark.parametrize("header, title", [
    ("Interview notes (7)\n", "Interview notes"), ("Notes (v2)\n", "Notes (v2)"),
    ("", "notes")])
def test_a_copy_counter_is_not_part_of_an_imported_title(tmp_path, header, title) -> None:
    path = tmp_path / "notes (3).txt"
    bank = import_plaintext(header + "Q: What?\nThat.\n", path=path)
    assert bank.title == title


def test_import_round_trips_through_markdown() -> None:
    text = "My Bank\nQ: What?\nline one\n- bullet: two\n\nQ：第二题？\n答案。\n"
    bank = import_plaintext(text)
    assert bank.id == "my-bank"
    again = parse_bank(render_bank(bank))
    assert [(q.text, q.answer) for q in again.questions] == \
        [("What?", "line one\n- bullet: two"), ("第二题？", "答案。")]


@pytest.mark.parametrize("text, fragment, line", [
    ("Title only\nno questions here\n", "no questions found", None),
    ("T\nQ: \nanswer\n", "question text is empty", 2),
    ("T\nQ: one?\nQ: two?\nanswer\n", "has no answer lines", 2),
    ("T\nQ: one?\n## heading\n", "looks like a Markdown heading", 3),
])
def test_import_errors(text: str, fragment: str, line: int | None) -> None:
    with pytest.raises(BankError) as info:
        import_plaintext(text, path=Path("in.txt"))
    assert fragment in str(info.value)
    assert info.value.line == line


@pytest.mark.parametrize("text, lang", [
    ("梯度累积的原理是什么", "zh"), ("What is gradient accumulation", "en"),
    ("用ZeRO-3切分参数 and optimizer states", "zh"), ("", "en")])
def test_an_imported_bank_s_language_is_the_grader_s_rule(text: str, lang: str) -> None:
    assert language_of(text) == lang


def test_catalog_resolves_ids_and_paths(tmp_path: Path) -> None:
    catalog = BankCatalog([ROOT / "bank"])
    assert {b.id for b in catalog.banks()} == {"ai-infra-zh", "llm-systems-en"}
    assert catalog.resolve("llm-systems-en").language == "en"
    assert catalog.resolve(str(ROOT / "bank" / "ai-infra-zh.md")).id == "ai-infra-zh"
    with pytest.raises(BankError, match="no bank with id 'nope'.*ai-infra-zh"):
        catalog.resolve("nope")


def test_one_interview_over_several_banks_keeps_their_questions_apart() -> None:
    from interviewer.content.catalog import BankCatalog, combine_banks
    from interviewer.content.bank_rubric import rubric_for_bank

    catalog = BankCatalog([ROOT / "bank"])
    zh, en = catalog.resolve("ai-infra-zh"), catalog.resolve("llm-systems-en")
    assert combine_banks([zh]) is zh and combine_banks([zh, zh]) is zh
    both = catalog.resolve("ai-infra-zh+llm-systems-en")
    assert both.id == "ai-infra-zh+llm-systems-en" and both.parts == (zh, en)
    assert len(both.questions) == len(zh.questions) + len(en.questions)
    assert both.questions[0].id == f"ai-infra-zh:{zh.questions[0].id}"
    assert both.question(f"llm-systems-en:{en.questions[0].id}").text == en.questions[0].text
    # the rubric is the banks' own rubric files, with the same prefixes
    loaded = rubric_for_bank(both)
    own = rubric_for_bank(en).rubric.questions[0]
    mixed = loaded.rubric.question(f"llm-systems-en:{own.id}")
    assert [p.text for p in mixed.points] == [p.text for p in own.points]
    assert [p.id for p in mixed.points] == [f"llm-systems-en:{p.id}" for p in own.points]
    assert loaded.warnings == []
    with pytest.raises(BankError, match="no bank with id 'nope'"):
        catalog.resolve("ai-infra-zh+nope")


def test_a_path_with_a_plus_in_it_is_a_path(tmp_path: Path) -> None:
    from interviewer.content.catalog import BankCatalog

    src = (ROOT / "bank" / "llm-systems-en.md").read_text(encoding="utf-8")
    (tmp_path / "c++.md").write_text(src, encoding="utf-8")
    catalog = BankCatalog([ROOT / "bank"])
    assert catalog.resolve(str(tmp_path / "c++.md")).id == "llm-systems-en"
    with pytest.raises(BankError, match="file not found"):
        catalog.resolve(str(tmp_path / "missing+bank.md"))


def test_import_with_an_unclosed_code_fence_keeps_the_next_question() -> None:
    text = "T\nQ: one?\n```python\nx = 1\nQ: two?\nanswer two\n"
    bank = import_plaintext(text)
    again = parse_bank(render_bank(bank))
    assert [q.text for q in again.questions] == [q.text for q in bank.questions] == \
        ["one?", "two?"]
    assert [q.answer for q in again.questions] == [q.answer for q in bank.questions]


def test_an_indented_heading_line_keeps_its_indent_through_import_and_rereading() -> None:
    # the importer's own error says to indent a line that looks like a heading
    text = "T\nQ: one?\n  ## not a heading\nmore\nQ: two?\nanswer\n"
    bank = import_plaintext(text)
    assert bank.questions[0].answer == "  ## not a heading\nmore"
    again = parse_bank(render_bank(bank))
    assert [(q.text, q.answer) for q in again.questions] == \
        [(q.text, q.answer) for q in bank.questions]
    third = parse_bank(render_bank(again))
    assert len(third.questions) == 2 and third.questions[0].answer.startswith("  ## ")


def test_an_indented_answer_heading_line_is_accepted_as_the_error_suggests() -> None:
    bank = import_plaintext("T\nQ: one?\n  ### Answer\nx\n")
    assert bank.questions[0].answer == "  ### Answer\nx"
