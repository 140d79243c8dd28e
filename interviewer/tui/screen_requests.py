"""What the screens ask the app for, as messages (start, submit, skip, next, retake,
export, ...): each handled by the app's method that does it."""

from __future__ import annotations

from textual.screen import Screen

from interviewer.tui.screens.interview import InterviewScreen


class ScreenRequests:
    """Mixed into :class:`~interviewer.tui.app.InterviewApp`."""

    def on_setup_screen_start_requested(self, message) -> None:
        self.start_interview(message.plan, message.choices)

    # ------------------------------------------------------------ interview screen

    def on_interview_screen_submitted(self, message: InterviewScreen.Submitted) -> None:
        self.submit_answer(message.index, message.text)

    def on_interview_screen_skipped(self, message: InterviewScreen.Skipped) -> None:
        self.skip_question(message.index)

    def on_interview_screen_follow_up_submitted(
            self, message: InterviewScreen.FollowUpSubmitted) -> None:
        self.submit_followup(message.index, message.text, message.time_used)

    def on_interview_screen_follow_up_skipped(self, message: InterviewScreen.FollowUpSkipped) -> None:
        self.skip_followup(message.index)

    def on_interview_screen_next_requested(self, _: InterviewScreen.NextRequested) -> None:
        self.next_question()

    def on_interview_screen_retake_requested(self, message: InterviewScreen.RetakeRequested) -> None:
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
