"""A SelectionList that marks ticked boxes; only the setup screen needs it."""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import SelectionList


class CheckList(SelectionList):
    """A SelectionList whose boxes show a ✓ when ticked: state not by colour alone."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except Exception:  # past the last option: nothing to mark
            return strip
        if len(segments) < 3:
            return strip
        inner = segments[1]
        mark = "✓" if option.value in self.selected else " "
        segments[1] = Segment(mark, inner.style, inner.control)
        return Strip(segments, strip.cell_length)
