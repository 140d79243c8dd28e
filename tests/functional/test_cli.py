"""Every command on good and bad input: one-line errors, exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import poll, run_cli, stored_session
from conftest import DATA, ROOT, SEED
from fakes import BigramEmbedder
from interviewer import cli, factory
from interviewer.content.bank import load_bank, parse_bank
from interviewer.grading.calibration import Scorer
from interviewer.grading.grader import Grader


REAL_MAKE_GRADER = factory.make_grader


@pytest.fixture(autouse=True)
def fake_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory, "make_grader",
                        lambda settings: Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test")))


run = run_cli


def test_bank_list_shows_both_shipped_banks() -> None:
    code, out, _ = run("bank", "list")
    assert code == 0
    assert "ai-infra-zh" in out and "llm-systems-en" in out and "9 questions" in out


def test_bank_validate_all_and_bad() -> None:
    code, out, err = run("bank", "validate")
    assert code == 0 and out.count("ok:") == 2 and err == ""
    bad = sorted((DATA / "banks" / "bad").glob("*.md"))
    code, out, err = run("bank", "validate", *map(str, bad))
    assert code == 2
    assert len(err.strip().split("\n")) == len(bad)
    assert "duplicate-id.md:13: duplicate question id" in err


def _hand_written_bank(tmp_path: Path) -> Path:
    """A bank and a rubric a coach wrote by hand, with no source_sha256."""
    bank = tmp_path / "bank" / "mq.md"
    bank.parent.mkdir()
    bank.write_text("---\nid: mq\ntitle: MQ\nlanguage: zh\n---\n\n## q01: 消息积压怎么处理？\n\n"
                    "### Answer\n\n先分析积压原因：消费者处理速度跟不上生产速度。再扩容消费者。\n",
                    encoding="utf-8")
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "rubrics" / "mq.yaml").write_text(
        "bank: mq\nquestions:\n  - id: q01\n    source: hand\n    points:\n"
        "      - id: q01.k1\n        text: 分析积压原因\n"
        "      - id: q01.k2\n        text: 消费者处理速度跟不上生产速度会导致积压\n"
        "      - id: q01.k3\n        text: 说明扩容消费者实例不能超过分区数\n", encoding="utf-8")
    return bank


def test_bank_validate_names_hand_written_points_that_state_no_claim(tmp_path: Path) -> None:
    bank = _hand_written_bank(tmp_path)
    code, out, err = run("bank", "validate", str(bank))
    assert code == 0 and "ok:" in out
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "mq.yaml" in notes[0] and "q01.k1" in notes[0]
    assert "q01.k2" not in notes[0] and "q01.k3" not in notes[0]
    # no source_sha256 written: nothing to call stale (the format says it may be left out)
    assert not [line for line in err.splitlines() if line.startswith("warning:")]


def test_rubric_build_keeps_a_hand_written_rubric_with_no_source_sha256(tmp_path: Path) -> None:
    bank = _hand_written_bank(tmp_path)
    code, _, err = run("rubric", "build", str(bank))
    assert code == 0 and "kept hand-edited points of q01" in err
    text = (tmp_path / "rubrics" / "mq.yaml").read_text(encoding="utf-8")
    assert "分析积压原因" in text and "说明扩容消费者实例不能超过分区数" in text
    # ... and from now on a change of the reference answer is seen
    bank.write_text(bank.read_text(encoding="utf-8").replace("再扩容消费者", "再加机器"),
                    encoding="utf-8")
    code, _, err = run("rubric", "build", str(bank))
    assert code == 2 and "hand-edited points would be lost for q01" in err


def test_bank_import_writes_a_valid_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "seed.txt"
    src.write_text("My set\nQ: What is ZeRO?\nIt shards optimizer states.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run("bank", "import", str(src), "--id", "mine")
    assert code == 0 and "bank/mine.md" in err
    code, out, _ = run("bank", "validate", "bank/mine.md")
    assert code == 0
    code, _, err = run("bank", "import", str(src), "--id", "mine")
    assert code == 2 and "file exists" in err and "--force" in err


def test_bank_import_of_the_seed_to_stdout() -> None:
    code, out, _ = run("bank", "import", str(SEED), "--id", "ai-infra-zh", "-o", "-")
    assert code == 0
    imported = parse_bank(out)
    shipped = load_bank(ROOT / "bank" / "ai-infra-zh.md")
    assert (imported.id, imported.title) == (shipped.id, shipped.title)
    assert [(q.id, q.text, q.answer) for q in imported.questions] == \
        [(q.id, q.text, q.answer) for q in shipped.questions]


def test_rubric_build_writes_and_respects_hand_edits(tmp_path: Path) -> None:
    bank_dir = tmp_path / "bank"
    bank_dir.mkdir()
    bank = bank_dir / "b.md"
    bank.write_text("---\nid: b\ntitle: B\nlanguage: en\n---\n\n## q1: Why?\n\n### Answer\n\n"
                    "Reasons: speed, memory, and cost.\n", encoding="utf-8")
    code, _, err = run("rubric", "build", str(bank))
    target = tmp_path / "rubrics" / "b.yaml"
    assert code == 0 and str(target) in err and "3 points" in err
    target.write_text(target.read_text(encoding="utf-8").replace("text: cost", "text: total cost"),
                      encoding="utf-8")
    bank.write_text(bank.read_text(encoding="utf-8").replace("cost", "price"), encoding="utf-8")
    code, _, err = run("rubric", "build", str(bank))
    assert code == 2 and "hand-edited" in err and "--force" in err
    assert "total cost" in target.read_text(encoding="utf-8")
    code, _, err = run("rubric", "build", str(bank), "--force")
    assert code == 0 and "overwrote hand-edited points of q1" in err


def test_rubric_build_refuses_to_overwrite_a_broken_file(tmp_path: Path) -> None:
    out = tmp_path / "r.yaml"
    out.write_text("bank: [broken\n", encoding="utf-8")
    code, _, err = run("rubric", "build", "llm-systems-en", "-o", str(out))
    assert code == 2 and "not valid YAML" in err
    assert out.read_text(encoding="utf-8") == "bank: [broken\n"


def test_grade_batch_reports_bad_lines_and_goes_on(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    lines = [
        {"id": "ok1", "question_id": "q07", "answer": "梯度累积把大batch拆成micro-batch，累积后再更新参数。"},
        "not json",
        {"id": "bad-q", "question_id": "q99", "answer": "x"},
        {"id": "empty", "question_id": "q01", "answer": "  "},
        ["a", "list"],
        {"id": "ok2", "question_id": "q01", "answer": "混合精度训练（FP16/BF16）、Flash Attention"},
    ]
    answers.write_text("\n".join(l if isinstance(l, str) else json.dumps(l, ensure_ascii=False)
                                 for l in lines) + "\n", encoding="utf-8")
    out_path = tmp_path / "o.jsonl"
    code, _, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                       "--out", str(out_path))
    assert code == 1
    results = [json.loads(l) for l in out_path.read_text(encoding="utf-8").splitlines()]
    assert len(results) == len(lines)
    assert [r.get("error") is None for r in results] == [True, False, False, False, False, True]
    assert results[0]["id"] == "ok1" and results[0]["question_id"] == "q07"
    assert all(p["verdict"] in ("covered", "partial", "missed") for p in results[0]["points"])
    assert f"{answers}:2: malformed JSON" in err
    assert f"{answers}:3: unknown question_id 'q99'" in err
    assert f"{answers}:4: empty or missing 'answer'" in err


def test_grade_batch_accepts_a_rubric_file(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": 1, "question_id": "kv-cache",
                                   "answer": "The KV cache stores keys and values."}) + "\n")
    code, out, _ = run("grade", "--rubric", str(ROOT / "rubrics" / "llm-systems-en.yaml"),
                       "--answers", str(answers))
    assert code == 0 and json.loads(out)["question_id"] == "kv-cache"


def test_grade_one_prints_a_readable_report(tmp_path: Path) -> None:
    f = tmp_path / "answer.txt"
    f.write_text("学习率过大会导致震荡。batch size太小梯度方差大。", encoding="utf-8")
    code, out, _ = run("grade", "--bank", "ai-infra-zh", "--question", "q09", "--answer-file", str(f))
    assert code == 0
    assert "Score:" in out and "✓" in out and "✗" in out and "学习率过大" in out
    code, out, _ = run("grade", "--bank", "ai-infra-zh", "--question", "q09",
                       "--answer-file", str(f), "--json")
    assert code == 0 and json.loads(out)["question_id"] == "q09"


def _bad_cases(tmp_path: Path) -> list[tuple[list[str], str]]:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"id": "caf\xe9"}\n')
    answer = tmp_path / "a.txt"
    answer.write_text("x", encoding="utf-8")
    return [
        (["bank", "validate", str(tmp_path / "missing.md")], "missing.md: file not found"),
        (["bank", "import", str(tmp_path / "missing.txt")], "missing.txt: file not found"),
        (["bank", "import", str(empty)], "no questions found"),
        (["rubric", "build", "no-such-bank"], "no bank with id 'no-such-bank'"),
        (["rubric", "build", str(tmp_path)], "is a directory"),
        (["grade", "--answers", str(answer)], "--answers needs --rubric"),
        (["grade", "--rubric", "ai-infra-zh", "--answers", str(latin)], "latin.jsonl:1: not valid UTF-8"),
        (["grade", "--rubric", str(tmp_path / "r.yaml"), "--answers", str(answer)], "r.yaml: file not found"),
        (["grade", "--bank", "ai-infra-zh", "--question", "q42", "--answer-file", str(answer)], "no question 'q42'"),
        (["grade", "--bank", "ai-infra-zh", "--question", "q01", "--answer-file", str(empty)], "the answer is empty"),
        (["grade", "--bank", "ai-infra-zh"], "missing --question, --answer-file"),
        (["calibrate", "--labels", str(tmp_path / "none.jsonl")], "none.jsonl: file not found"),
        (["run", "--bank", "nope"], "no bank with id 'nope'"),
        (["run", "--tag", "no-such-tag"], "has tag no-such-tag"),
        (["run", "--time-limit", "soon"], "is not a duration"),
        (["frobnicate"], "invalid choice"),
    ]


def test_every_command_fails_cleanly_on_bad_input(tmp_path: Path) -> None:
    for argv, fragment in _bad_cases(tmp_path):
        code, out, err = run(*argv)
        assert code == 2, argv
        assert fragment in err, (argv, err)
        assert len(err.strip().splitlines()) == 1, (argv, err)
        assert "Traceback" not in err


def test_bad_config_is_reported_by_every_command(isolated_home: Path) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text("bank = \n", encoding="utf-8")
    code, _, err = run("bank", "list")
    assert code == 2 and "config.toml:1: invalid TOML" in err


def test_errors_from_a_real_process_have_no_traceback(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "interviewer", "bank", "validate",
                           str(DATA / "banks" / "bad" / "latin1.md")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith("not valid UTF-8 text (save the file as UTF-8)")
    assert "Traceback" not in proc.stderr


def test_calibrate_fits_and_saves_thresholds_for_the_model(tmp_path: Path,
                                                           isolated_home: Path) -> None:
    from interviewer.content.bank import load_bank
    from interviewer.content.bank_rubric import rubric_for_bank

    rubric = rubric_for_bank(load_bank(ROOT / "bank" / "llm-systems-en.md")).rubric
    q = rubric.question("mixed-precision")
    labels = tmp_path / "l.jsonl"
    rows = []
    for n, point in enumerate(q.points):
        rows.append({"id": f"a{n}", "bank": "llm-systems-en", "question_id": q.id,
                     "answer": point.text, "labels": {p.id: 1 if p is point else 0 for p in q.points}})
    labels.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    code, out, err = run("calibrate", "--labels", str(labels))
    assert code == 0, err
    assert "test/bigram: covered if p >=" in out
    saved = json.loads((isolated_home / "calibration.json").read_text(encoding="utf-8"))
    entry = saved["test/bigram"]
    assert entry["metrics"]["n_points"] == len(q.points) ** 2
    assert entry["covered"] >= entry["partial"]
    assert len(entry["weights"]) == len(entry["features"])


def test_calibrate_rejects_labels_for_unknown_points(tmp_path: Path) -> None:
    labels = tmp_path / "l.jsonl"
    labels.write_text(json.dumps({"id": "x", "bank": "llm-systems-en", "question_id": "kv-cache",
                                  "answer": "a", "labels": {"kv-cache.nope": 1}}) + "\n")
    code, _, err = run("calibrate", "--labels", str(labels))
    assert code == 2
    assert "points not in the rubric" in err and "no usable labeled answers" in err


@pytest.mark.parametrize("line, fragment", [
    ("{oops", "l.jsonl:1: malformed JSON"),
    ('{"id": 1}', "l.jsonl:1: missing bank, question_id, answer, labels"),
    ('{"id": 1, "bank": "b", "question_id": "q", "answer": "a", "labels": {"p": 2}}',
     "label of 'p' must be 0, 0.5 or 1"),
])
def test_calibrate_bad_label_files(tmp_path: Path, line: str, fragment: str) -> None:
    labels = tmp_path / "l.jsonl"
    labels.write_text(line + "\n", encoding="utf-8")
    code, _, err = run("calibrate", "--labels", str(labels))
    assert code == 2 and fragment in err


def _stored_session(home: Path) -> str:
    """A finished session with two graded answers (one with markup in it)."""
    return stored_session(home, ("混合精度训练（FP16/BF16）。<b>粗</b>",
                                 "DeepSpeed是微软开发的分布式训练优化库。"), times=(30.0, 31.0))[0]


def test_history_lists_sessions_and_points(isolated_home: Path) -> None:
    code, out, _ = run("history")
    assert code == 0 and "No sessions yet" in out
    sid = _stored_session(isolated_home)
    code, out, _ = run("history")
    assert code == 0 and sid in out and "2/2 graded" in out and "finished" in out
    code, out, _ = run("history", "--points")
    assert code == 0 and "Points missed most often" in out and "ai-infra-zh" in out
    assert "Trend per bank" in out


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_report_of_the_latest_session(isolated_home: Path, tmp_path: Path, fmt: str) -> None:
    sid = _stored_session(isolated_home)
    target = tmp_path / f"r.{fmt}"
    code, _, err = run("report", "-o", str(target))
    assert code == 0 and str(target) in err
    text = target.read_text(encoding="utf-8")
    assert "大模型训练和推理如何加速" in text
    if fmt == "json":
        assert json.loads(text)["session"]["id"] == sid
    if fmt == "html":
        assert "&lt;b&gt;粗&lt;/b&gt;" in text
    code, out, _ = run("report", sid, "--format", "json")
    assert code == 0 and json.loads(out)["questions"][0]["score"] is not None


def test_report_and_resume_errors(isolated_home: Path) -> None:
    code, _, err = run("report")
    assert code == 2 and "no sessions yet" in err
    code, _, err = run("resume")
    assert code == 2 and "no interrupted interview" in err
    _stored_session(isolated_home)
    code, _, err = run("report", "nope")
    assert code == 2 and "no session 'nope'" in err


def test_grade_batch_writes_a_report(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [
        {"id": 1, "question_id": "q07", "answer": "梯度累积把大batch拆成micro-batch。</table>"},
        {"id": 2, "question_id": "q09", "answer": "学习率过大导致震荡。"}]) + "\n", encoding="utf-8")
    report = tmp_path / "cohort.html"
    code, _, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                       "--report", str(report))
    assert code == 0 and str(report) in err
    page = report.read_text(encoding="utf-8")
    assert "梯度累积的原理是什么" in page and "&lt;/table&gt;" in page and page.count("<table>") == 2


def test_followup_command_against_a_real_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from llm_server import ChatServer, Reply

    answer = tmp_path / "a.txt"
    answer.write_text("梯度累积就是把梯度加起来。", encoding="utf-8")
    with ChatServer() as server:
        from interviewer.content.bank import load_bank
        from interviewer.content.bank_rubric import rubric_for_bank
        pid = rubric_for_bank(load_bank(ROOT / "bank" / "ai-infra-zh.md")).rubric.question("q07").points[2].id
        server.script = [Reply(json.dumps({"followup": "显存峰值由什么决定？", "targets": [pid]},
                                          ensure_ascii=False))]
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("INTERVIEWER_LLM_MODEL", "test-model")
        monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
        code, out, err = run("followup", "--bank", "ai-infra-zh", "--question", "q07",
                             "--answer-file", str(answer), "--json")
        assert server.requests[0]["body"]["model"] == "test-model"
    assert code == 0, err
    assert json.loads(out) == {"followup": "显存峰值由什么决定？", "targets": [pid], "source": "llm",
                               "notice": None}
    assert "sk-secret" not in out + err


def test_followup_without_an_llm_uses_a_template_and_says_why(tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("学习率过大会震荡。", encoding="utf-8")
    code, out, err = run("followup", "--bank", "ai-infra-zh", "--question", "q09",
                         "--answer-file", str(answer))
    assert code == 0 and "no LLM configured" in err and "「" in out


@pytest.mark.integration
def test_rubric_build_with_an_llm_keeps_only_grounded_points(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The real default encoder checks grounding; the LLM is a real server on 127.0.0.1."""
    from llm_server import ChatServer, Reply

    bank_dir = tmp_path / "bank"
    bank_dir.mkdir()
    (bank_dir / "b.md").write_text(
        "---\nid: b\ntitle: B\nlanguage: zh\n---\n\n## q1: 梯度累积的原理？\n\n### Answer\n\n"
        "梯度累积把大batch拆成多个micro-batch，累加梯度后再更新参数。峰值显存只需一个micro-batch。\n"
        "\n## q2: 什么是KV Cache？\n\n### Answer\n\nKV Cache缓存历史token的K和V，避免重复计算。\n",
        encoding="utf-8")
    points_q1 = {"points": [{"text": "把大batch拆成多个micro-batch并累加梯度后再更新", "group": None},
                            {"text": "峰值显存只需要一个micro-batch", "group": None},
                            {"text": "使用量子计算机可以让训练快一万倍", "group": None}]}
    with ChatServer() as server:
        server.script = [Reply(json.dumps(points_q1, ensure_ascii=False), stream=False),
                         Reply("not json at all", stream=False)]
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("INTERVIEWER_LLM_MODEL", "m")
        code, _, err = run("rubric", "build", str(bank_dir / "b.md"), "--llm")
    assert code == 0, err
    assert "dropped q1: 使用量子计算机" in err and "q2: the LLM's reply was unusable" in err
    from interviewer.content.rubric import load_rubric
    rubric = load_rubric(tmp_path / "rubrics" / "b.yaml")
    texts = [p.text for p in rubric.question("q1").points]
    assert texts == ["把大batch拆成多个micro-batch并累加梯度后再更新", "峰值显存只需要一个micro-batch"]
    assert [p.text for p in rubric.question("q2").points] == ["KV Cache缓存历史token的K和V，避免重复计算"]


def test_rubric_build_llm_without_an_llm_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = run("rubric", "build", "llm-systems-en", "-o", str(tmp_path / "r.yaml"), "--llm")
    assert code == 2 and "--llm needs an LLM" in err


def test_grade_batch_resume_skips_what_is_done(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join(json.dumps({"id": i, "question_id": "q07", "answer": f"梯度累积{i}"},
                                            ensure_ascii=False) for i in range(5)) + "\n")
    out = tmp_path / "o.jsonl"
    full = [json.loads(l) for l in (run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers))[1]).splitlines()]
    # a batch killed after two answers, the second line cut mid-write
    out.write_text(json.dumps(full[0]) + "\n" + json.dumps(full[1])[:20], encoding="utf-8")
    code, _, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers),
                       "--out", str(out), "--resume")
    assert code == 0 and "skipped 1 answers" in err
    rows = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [0, 1, 2, 3, 4]
    code, _, err = run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers), "--resume")
    assert code == 2 and "--resume needs --out" in err


@pytest.mark.integration
def test_grade_batch_in_worker_processes_matches_one_process(tmp_path: Path, monkeypatch) -> None:
    """Real default model in two worker processes; results equal the single-process ones."""
    monkeypatch.setattr(factory, "make_grader", REAL_MAKE_GRADER)  # the real grader here too
    texts = ["梯度累积把大batch拆成micro-batch，累积后更新。", "学习率过大导致震荡。", "KV Cache缓存K和V。"]
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join(json.dumps({"id": i, "question_id": ("q07", "q09", "q01")[i % 3],
                                             "answer": texts[i % 3]}, ensure_ascii=False)
                                 for i in range(40)) + "\n", encoding="utf-8")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers), "--out", str(one))[0] == 0
    assert run("grade", "--rubric", "ai-infra-zh", "--answers", str(answers), "--out", str(two),
               "--jobs", "2")[0] == 0
    by_id = lambda p: {r["id"]: r["score"] for r in map(json.loads, p.read_text().splitlines())}
    assert by_id(one) == by_id(two) and len(by_id(two)) == 40


def test_report_skips_a_later_session_with_no_answer_and_says_which(isolated_home: Path) -> None:
    from datetime import datetime, timezone

    from interviewer.sessions.store import Store

    sid = _stored_session(isolated_home)
    store = Store.open(isolated_home)
    started = store.session(sid).started_at  # to the second: the next session starts later
    poll(lambda: datetime.now(timezone.utc).isoformat(timespec="seconds") > started, 5,
         "the next second")
    store.start_session("99999999-empty", "ai-infra-zh", "AI Infra", {"question_ids": ["q01"]}, "m")
    store.ensure_attempt("99999999-empty", 0, "q01", "大模型训练和推理如何加速？")
    store.finish_session("99999999-empty", status="abandoned")
    store.close()
    code, out, err = run("report", "--format", "json")
    assert code == 0 and json.loads(out)["session"]["id"] == sid
    assert sid in err and "latest session with an answer" in err


def test_report_into_a_missing_directory_is_refused(tmp_path: Path, isolated_home: Path) -> None:
    _stored_session(isolated_home)
    target = tmp_path / "no" / "such" / "dir" / "x.html"
    code, _, err = run("report", "-o", str(target))
    assert code == 2 and "no/such/dir" in err and err.count("\n") == 1
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("command", [["run", "--bank", "ai-infra-zh", "--count", "1"], ["drill"]])
def test_the_interview_without_a_terminal_is_refused(isolated_home: Path, command) -> None:
    import sqlite3

    _stored_session(isolated_home)  # something to drill
    proc = subprocess.run([sys.executable, "-m", "interviewer", *command],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                         "INTERVIEWER_HOME": str(isolated_home)})
    assert proc.returncode == 2 and "terminal" in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    with sqlite3.connect(isolated_home / "interviewer.db") as db:
        assert db.execute("SELECT count(*) FROM sessions WHERE status = 'active'").fetchone()[0] == 0


@pytest.mark.parametrize("argv, fragment", [
    (["run", "--count", "0"], "--count"), (["run", "--count", "-1"], "--count"),
    (["drill", "--count", "0"], "--count"), (["--count", "0"], "--count"),
    (["run", "--time-limit", "10"], "unit"), (["drill", "--time-limit", "10"], "unit"),
    (["run", "--total-time", "30"], "unit"), (["run", "--total-time", "0m"], "more than 0")])
def test_counts_and_durations_are_checked_alike(argv, fragment) -> None:
    code, _, err = run(*argv)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_every_option_has_a_help_line() -> None:
    import argparse

    def parsers(p):
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action.choices.values():
                    yield from parsers(choice)
                names = {a.dest for a in action._choices_actions}
                assert names == set(action.choices), f"{p.prog}: a subcommand without help"

    for p in parsers(cli.build_parser()):
        for action in p._actions:
            assert action.help, f"{p.prog} {action.option_strings or action.dest} has no help"


def test_report_with_reference_answers(isolated_home: Path) -> None:
    _stored_session(isolated_home)
    code, out, _ = run("report", "--format", "json", "--with-reference")
    data = json.loads(out)
    assert code == 0 and data["questions"][0]["reference_answer"].startswith("训练加速")
    assert any(p["reference"] for p in data["questions"][0]["points"])
    code, out, _ = run("report")
    assert code == 0 and "**Reference answer**" not in out
    assert "What the reference answer says for the points not covered" in out
