"""What past sessions say, read from a real store through the grade type."""

from __future__ import annotations

from pathlib import Path

from interviewer.practice.history import missed_points, trend
from interviewer.sessions.store import Store
from helpers import stored_session


def test_missed_points_and_trend_from_stored_grades(tmp_path: Path) -> None:
    session_id, _, grade = stored_session(tmp_path)
    rows = Store.open(tmp_path).sessions()
    missed = missed_points(rows, limit=100)
    expected = [p.text for p in grade.points if p.verdict in ("missed", "contradicted")]
    assert sorted(text for _b, _q, text, _m, _s in missed) == sorted(expected)
    assert all((bank, qid, n, seen) == ("ai-infra-zh", grade.question_id, 1, 1)
               for bank, qid, _t, n, seen in missed)
    assert trend(rows) == {"ai-infra-zh": [rows[0].score]}


def test_a_point_stored_without_its_text_is_named_by_its_id(tmp_path: Path) -> None:
    import json
    import sqlite3

    stored_session(tmp_path)
    conn = sqlite3.connect(tmp_path / "interviewer.db")
    (raw,) = conn.execute("SELECT grade_json FROM attempts").fetchone()
    data = json.loads(raw)
    for p in data["points"]:
        del p["text"]
    with conn:
        conn.execute("UPDATE attempts SET grade_json = ?", (json.dumps(data),))
    conn.close()
    missed = missed_points(Store.open(tmp_path).sessions(), limit=100)
    ids = {p["id"] for p in data["points"] if p["verdict"] in ("missed", "contradicted")}
    assert {text for _b, _q, text, _m, _s in missed} == ids
