"""Small widgets with one job each."""

from __future__ import annotations

from rich.segment import Segment
from textual.content import Content
from textual.strip import Strip
from textual.widgets import SelectionList, Static

from interviewer.linebreak import line_ranges
from interviewer.timer import format_clock

WARN_AT = 60.0
CRITICAL_AT = 10.0


class CountdownLabel(Static):
    """Shows ``mm:ss``; turns to warning colours at 1 minute and 10 seconds left."""

    def show(self, remaining: float | None, elapsed: float, paused: bool = False) -> None:
        if remaining is None:
            text = f"⏱ {format_clock(int(elapsed))}"
        else:
            text = f"⏳ {format_clock(remaining)}"
        if paused:
            text += " ⏸"
        self.update(text)
        self.set_class(remaining is not None and CRITICAL_AT < remaining <= WARN_AT, "warning")
        self.set_class(remaining is not None and remaining <= CRITICAL_AT, "critical")


def score_bar(score: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, score)) * width)
    return "█" * filled + "░" * (width - filled)


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


class WrappedText(Static):
    """Text broken into lines at the widget's width by :mod:`interviewer.linebreak`.

    Chinese breaks between characters instead of at the last space, and a closing mark
    never starts a line. Styles of the content (highlighted evidence) are kept. The lines are
    worked out once per content and width: layout asks for the height and the render for
    the lines, often several times per frame.
    """

    DEFAULT_CSS = "WrappedText { height: auto; }"

    def __init__(self, content: object = "", **kwargs) -> None:
        super().__init__(content, markup=False, **kwargs)  # type: ignore[arg-type]
        self._wrap_width = 0
        self._wrapped: tuple[object, int, Content] | None = None  # (content, width, lines)

    def get_content_height(self, container, viewport, width: int) -> int:
        if width != self._wrap_width:
            self._wrap_width = width
            self._layout_cache.pop("_render.visual", None)
        return super().get_content_height(container, viewport, width)

    def on_resize(self) -> None:
        if self.content_size.width != self._wrap_width:
            self._wrap_width = self.content_size.width
            self._layout_cache.pop("_render.visual", None)
            self.refresh(layout=True)

    def render(self):
        visual = self.visual
        width = self._wrap_width or self.content_size.width
        if not isinstance(visual, Content) or width <= 0:
            return visual
        cached = self._wrapped
        if cached is not None and cached[0] is visual and cached[1] == width:
            return cached[2]
        wrapped = wrap_lines(visual, width)
        self._wrapped = (visual, width, wrapped)
        return wrapped


def wrap_lines(content: Content, width: int) -> Content:
    """``content`` with a newline at each break :func:`line_ranges` finds, styles kept."""
    ranges = line_ranges(content.plain, width)
    cuts = sorted({offset for pair in ranges for offset in pair} - {0, len(content.plain)})
    pieces = content.divide(cuts)
    starts = {start: piece for start, piece in zip([0, *cuts], pieces)}
    return Content("\n").join(starts[s] if e > s else Content("") for s, e in ranges)
