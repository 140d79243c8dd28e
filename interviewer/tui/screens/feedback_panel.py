"""The feedback panel of the interview screen: the score, the answer with its credited spans
underlined, the change since the last attempt and every point with its verdict."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import ContentSwitcher, Static

from interviewer.tui.feedback_view import MARKS, highlighted_answer, points_view, retake_line
from interviewer.tui.widgets import score_bar


# the panel's layout, part of the screen's DEFAULT_CSS
FEEDBACK_CSS = """
#feedback-question {
    text-style: bold;
    padding: 0 1;
    height: auto;
    max-height: 6;
}
#score-bar {
    height: 1;
    padding: 0 1;
}
#score {
    width: auto;
    text-style: bold;
    padding: 0 1 0 1;
}
#counts {
    width: 1fr;
    padding-left: 2;
}
#answer-view {
    height: auto;
    max-height: 30%;
    margin: 1 1 0 1;
    padding: 0 1;
    border: round $primary 50%;
}
#points {
    height: 1fr;
    padding: 1 1 0 1;
}
#retake-diff {
    padding: 0 1;
    height: auto;
    color: $accent;
}
"""

class FeedbackPanel:
    """Mixed into :class:`~interviewer.tui.screens.interview.InterviewScreen`."""

    def show_feedback(self, index: int) -> None:
        self.index = index
        attempt = self.attempt
        grade = attempt.grade
        assert grade is not None
        counts = {v: sum(1 for p in grade.points if p.verdict == v) for v in MARKS}
        counts["missed"] = len(grade.points) - counts["covered"] - counts["partial"]
        self.query_one("#feedback-question", Static).update(attempt.question.text)
        probed = attempt.probed_verdicts()
        with_followups = (f" · with follow-up {attempt.score_with_followups:.0%}"
                        if attempt.followups else "")
        self.query_one("#score", Static).update(
            f"Score {grade.score:4.0%}  {score_bar(grade.score)}{with_followups}")
        self.query_one("#counts", Static).update(
            f"✓ {counts['covered']}   ~ {counts['partial']}   ✗ {counts['missed']}"
            + (f"   ≠ {counts['contradicted']}" if counts["contradicted"] else "")
            + ("   (time ran out)" if attempt.auto_submitted else "")
            + (f"\n{grade.note}" if grade.note else ""))
        self.query_one("#answer-text", Static).update(highlighted_answer(grade))
        diff_line = self.query_one("#retake-diff", Static)
        previous = self.controller.previous_grade(index)
        diff_line.display = previous is not None
        if previous is not None:
            from interviewer.practice.drill import retake_diff  # not needed for the first frame

            diff_line.update(retake_line(retake_diff(previous, grade)))
        self.query_one("#points-text", Static).update(
            points_view(grade, self.numbers, probed, self._sources()))
        self.waiting = False
        self.mode = "feedback"
        self.query_one(ContentSwitcher).current = "feedback-panel"
        self.query_one("#points", VerticalScroll).scroll_home(animate=False)
        self.query_one("#points", VerticalScroll).focus()

    def _sources(self) -> dict[str, str]:
        """Point id -> the reference answer's sentence for it."""
        return self.interview.reference_sentences(self.index)

    def action_toggle_numbers(self) -> None:
        self.numbers = not self.numbers
        grade = self.attempt.grade
        if grade is not None:
            self.query_one("#points-text", Static).update(
                points_view(grade, self.numbers, self.attempt.probed_verdicts(), self._sources()))

    def action_next(self) -> None:
        self.post_message(self.NextRequested())

    def action_retry(self) -> None:
        self.post_message(self.RetakeRequested(self.index))
