"""Small widgets with one job each."""

from __future__ import annotations

from typing import NamedTuple

from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from interviewer.linebreak import line_ranges
from interviewer.sessions.timer import format_clock

WARN_AT = 60.0
CRITICAL_AT = 10.0


class CountdownLabel(Static):
    """Shows ``mm:ss``; turns to warning colours at 1 minute and 10 seconds left."""

    DEFAULT_CSS = """
    CountdownLabel {
        width: auto;
        text-style: bold;
    }
    CountdownLabel.warning {
        color: $warning;
    }
    CountdownLabel.critical {
        color: $error;
        text-style: bold reverse;
    }
    """

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


class KeyBar(Footer):
    """The footer's key bar, rebuilt only when the keys it shows change, and then relabelled
    in place when it shows as many keys as before.

    Textual's Footer removes and mounts all its keys at every change of focus or bindings,
    25-45 ms of the UI thread each time (each new key restyles itself twice as it mounts);
    moving the focus between widgets that show the same keys changes nothing on screen, and
    the question's three keys become the feedback's three by a change of their labels.
    """

    _shown: tuple | None = None  # the keys the bar shows

    def _keys(self) -> tuple:
        """What compose would show: per action its first binding (no groups in this app),
        the palette's key and whether it is shown."""
        active = self.screen.active_bindings
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        first: dict[str, tuple] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show:
                first.setdefault(binding.action, (binding, enabled, tooltip))
        entries = tuple((b.key, b.action, b.description, enabled, tooltip, b.group is None)
                        for b, enabled, tooltip in first.values())
        return entries, palette is not None and palette[2], self.show_command_palette

    def compose(self):
        self._shown = self._keys() if self._bindings_ready else None
        yield from super().compose()

    def bindings_changed(self, screen) -> None:
        """Relabel at once, so the new keys are drawn in the frame that shows the change;
        otherwise Footer's rebuild after that frame."""
        if (self._shown is not None and self.is_attached and screen is self.screen
                and screen.app.app_focus):
            keys = self._keys()
            if keys == self._shown or self._relabel(keys):
                return
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        if self._shown is not None and self.is_attached:
            keys = self._keys()
            if keys == self._shown or self._relabel(keys):
                return
        await super().recompose()

    def _relabel(self, keys: tuple) -> bool:
        """Show ``keys`` on the keys already mounted, when they are as many (False: no)."""
        entries, *rest = keys
        old_entries, *old_rest = self._shown
        widgets = [w for w in self.children
                   if isinstance(w, FooterKey) and not w.has_class("-command-palette")]
        if (rest != old_rest or len(entries) != len(old_entries) or len(widgets) != len(entries)
                or not all(entry[-1] for entry in entries)):
            return False
        bindings = {b.key: b for _, b, _, _ in self.screen.active_bindings.values()}
        for widget, (key, action, description, enabled, tooltip, _) in zip(widgets, entries):
            widget.key, widget.action, widget.description = key, action, description
            widget.key_display = self.app.get_key_display(bindings[key])
            widget._disabled = not enabled
            widget.set_class(not enabled, "-disabled")
            widget.tooltip = tooltip or None
            widget.refresh(layout=True)
        self._shown = keys
        return True


def score_bar(score: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, score)) * width)
    return "█" * filled + "░" * (width - filled)


class WrappedText(Static):
    """Text broken into lines at the widget's width by :mod:`interviewer.linebreak`.

    Chinese breaks between characters instead of at the last space, and a closing mark
    never starts a line. Styles of the content (highlighted evidence) are kept. The lines are
    worked out once per content and width (layout asks for the height and the render for
    the lines, often several times per frame), and only the lines on screen are drawn: the
    feedback's list of points runs far below the fold.
    """

    DEFAULT_CSS = "WrappedText { height: auto; }"

    def __init__(self, content: object = "", **kwargs) -> None:
        super().__init__(content, markup=False, **kwargs)  # type: ignore[arg-type]
        self._wrap_width = 0
        self._wrapped: tuple[object, int, Wrapped] | None = None  # (content, width, lines)
        self._strips: dict[int, Strip] = {}  # line -> drawn, for the lines, width and style of
        self._strips_for: tuple[Wrapped | None, int, object] = (None, 0, None)
        self._whole_stale = False  # lines were drawn one by one since the last whole render

    def get_content_height(self, container, viewport, width: int) -> int:
        if width != self._wrap_width:
            self._wrap_width = width
            self._layout_cache.pop("_render.visual", None)
        wrapped = self._lines(width)
        if wrapped is not None and wrapped.fits and self._plain_rules():
            return len(wrapped.lines)  # each line fits: what Textual's own wrap would count
        return super().get_content_height(container, viewport, width)

    def on_resize(self) -> None:
        if self.content_size.width != self._wrap_width:
            self._wrap_width = self.content_size.width
            self._layout_cache.pop("_render.visual", None)
            self.refresh(layout=True)

    def _plain_rules(self) -> bool:
        get = self.styles.get_rule
        return (get("line_pad", 0) == 0 and get("text_wrap", "wrap") == "wrap"
                and get("text_overflow", "fold") == "fold")

    def _lines(self, width: int) -> Wrapped | None:
        visual = self.visual
        if not isinstance(visual, Content) or width <= 0:
            return None
        cached = self._wrapped
        if cached is not None and cached[0] is visual and cached[1] == width:
            return cached[2]
        wrapped = wrap_lines(visual, width)
        self._wrapped = (visual, width, wrapped)
        return wrapped

    def render(self):
        wrapped = self._lines(self._wrap_width or self.content_size.width)
        return self.visual if wrapped is None else wrapped.content

    def _drawn_lines(self) -> tuple[Wrapped, dict[int, Strip]] | None:
        """The lines and the strips drawn of them so far, when lines can be drawn one by one
        (None: the whole render is needed); strips of an older content, width, style or a
        refresh are dropped."""
        width = self.size.width
        wrapped = self._lines(self._wrap_width or self.content_size.width)
        if (wrapped is None or width <= 0 or not wrapped.fits or self.text_selection is not None
                or not self._plain_rules() or self.styles.content_align != ("left", "top")):
            return None
        style = self.visual_style
        drawn_for, drawn_width, drawn_style = self._strips_for
        if self._dirty_regions or drawn_for is not wrapped or drawn_width != width \
                or drawn_style != style:  # refreshed, or other lines: draw afresh
            self._dirty_regions.clear()
            self._strips, self._strips_for, self._whole_stale = {}, (wrapped, width, style), True
        return wrapped, self._strips

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the lines in ``crop`` not drawn yet in one call, then let Textual ask for
        them line by line: one call per frame instead of one per line."""
        drawn = self._drawn_lines()
        if drawn is not None:
            wrapped, strips = drawn
            top = self.styles.gutter.top
            wanted = [y for y in range(max(0, crop.y - top),
                                       min(len(wrapped.lines), crop.bottom - top))
                      if y not in strips]
            if len(wanted) > 1:
                first, last = wanted[0], wanted[-1] + 1
                block = Visual.to_strips(self, Content("\n").join(wrapped.lines[first:last]),
                                         self.size.width, None, self.visual_style)
                if len(block) == last - first:  # one strip per line, as line by line
                    strips.update(zip(range(first, last), block))
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        drawn = self._drawn_lines()
        if drawn is None:
            if self._whole_stale:  # the whole render is older than the lines drawn since
                self._whole_stale = False
                self._dirty_regions.add(self.size.region)
            return super().render_line(y)
        wrapped, strips = drawn
        strip = strips.get(y)
        if strip is None:
            width, style = self.size.width, self.visual_style
            if y >= len(wrapped.lines):
                strip = Strip.blank(width, style.rich_style)
            else:  # the very call the whole render makes, for this line alone
                strip = Visual.to_strips(self, wrapped.lines[y], width, None, style)[0]
            strips[y] = strip
        return strip


class Wrapped(NamedTuple):
    content: Content  # the lines joined by newlines
    lines: list[Content]
    fits: bool  # every line fits the width (the overflow of a space run may not)


def wrap_lines(content: Content, width: int) -> Wrapped:
    """``content`` broken into lines where :func:`line_ranges` says, styles kept."""
    ranges = line_ranges(content.plain, width)
    cuts = sorted({offset for pair in ranges for offset in pair} - {0, len(content.plain)})
    pieces = content.divide(cuts)
    starts = {start: piece for start, piece in zip([0, *cuts], pieces)}
    lines = [starts[s] if e > s else Content("") for s, e in ranges]
    return Wrapped(Content("\n").join(lines), lines,
                   all(line.cell_length <= width for line in lines))
