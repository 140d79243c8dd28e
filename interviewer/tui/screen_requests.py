"""What the screens ask the app for, as messages (start, submit, skip, next, retake,
export, ...): each handled by the app's method that does it."""

from __future__ import annotations

from textual.screen import Screen

from interviewer.tui.screens.feedback_panel import FeedbackPanel
from interviewer.tui.screens.followup_panel import FollowUpPanel
from interviewer.tui.screens.question_panel import QuestionPanel


class ScreenRequests:
    """Mixed into :class:`~interviewer.tui.app.InterviewApp`."""

    def on_setup_screen_start_requested(self, message) -> None:
        self.start_interview(message.plan, message.choices)

    # ------------------------------------------------------------ the interview screen's panels

    def on_question_panel_submitted(self, message: QuestionPanel.Submitted) -> None:
        self.submit_answer(message.index, message.text)

    def on_question_panel_settled(self, message: QuestionPanel.Settled) -> None:
        self.grade_ahead(message.index, message.text)

    def on_question_panel_skipped(self, message: QuestionPanel.Skipped) -> None:
        self.skip_question(message.index)

    def on_follow_up_panel_submitted(self, message: FollowUpPanel.Submitted) -> None:
        self.submit_followup(message.index, message.text, message.time_used)

    def on_follow_up_panel_skipped(self, message: FollowUpPanel.Skipped) -> None:
        self.skip_followup(message.index)

    def on_feedback_panel_next_requested(self, _: FeedbackPanel.NextRequested) -> None:
        self.next_question()

    def on_feedback_panel_retake_requested(self, message: FeedbackPanel.RetakeRequested) -> None:
        self.retry_question(message.index)

    # ------------------------------------------------------------ summary

    def on_summary_screen_export_requested(self, message) -> None:
        self._export_to(self.screen)

    def on_summary_screen_feedback_requested(self, message) -> None:
        self.review_feedback(message.index)

    def on_summary_screen_retake_requested(self, message) -> None:
        self.retry_question(message.index)

    def on_summary_screen_new_interview_requested(self, _) -> None:
        self.new_interview()

    def _export_to(self, screen: Screen) -> None:
        """Export, and tell the summary screen where the reports went."""
        from interviewer.tui.screens.summary import SummaryScreen

        paths = self.export_report()
        if paths and isinstance(screen, SummaryScreen):
            screen.exported = tuple(paths)
