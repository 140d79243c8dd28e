"""Small widgets with one job each."""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len

from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import RenderOptions
from textual.widget import Widget
from textual.widgets import Static

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


class KeyBar(Widget, can_focus=False):
    """The interview's key bar: the screen's keys drawn as one line of one widget.

    Textual's Footer is a row of widgets, one per key: laying them out and drawing them took
    about 14 ms of each feedback frame (submit → feedback drawn p50 99 ms with it, 85 ms with
    the bar hidden). This bar keeps the keys as text, redrawn when the bindings change, in
    the frame that shows the change. A click on a key presses it, as on Footer.
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        # (key, how it is shown, description, enabled), in order; the palette's key last
        self._keys: tuple[tuple[str, str, str, bool], ...] = ()
        self._palette: tuple[str, str, str, bool] | None = None
        self._spans: list[tuple[int, int, str, bool]] = []  # (x from, x to, key, enabled)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    @property
    def descriptions(self) -> list[str]:
        """What the keys shown are for, left to right, the palette's last."""
        return [d for _, _, d, _ in (*self._keys, *filter(None, [self._palette]))]

    def key_offsets(self) -> dict[str, int]:
        """The x of each key shown (its middle), for a click."""
        return {key: (x0 + x1) // 2 for x0, x1, key, _ in self._spans}

    def _bindings_changed(self, screen) -> None:
        if screen is not self.screen:
            return
        active = screen.active_bindings
        first: dict[str, tuple[str, str, str, bool]] = {}
        palette = None
        for key, (_, binding, enabled, _tooltip) in active.items():
            entry = (binding.key, self.app.get_key_display(binding), binding.description,
                     enabled)
            if key == self.app.COMMAND_PALETTE_BINDING:
                palette = entry if self.app.ENABLE_COMMAND_PALETTE else None
            elif binding.show:
                first.setdefault(binding.action, entry)  # per action its first binding
        keys = tuple(first.values())
        if (keys, palette) != (self._keys, self._palette):
            self._keys, self._palette = keys, palette
            self.refresh()

    def render(self) -> Content:
        key_style = self.get_visual_style("keybar--key", partial=True)
        text_style = self.get_visual_style("keybar--description", partial=True)
        dim = VisualStyle(dim=True)  # a key that does nothing here
        parts: list = []
        spans, x = [], 0
        for key, shown, description, enabled in self._keys:
            label, text = f" {shown} ", f"{description} " if description else ""
            parts += [(label, key_style if enabled else key_style + dim),
                      (text, text_style if enabled else text_style + dim)]
            width = cell_len(label + text)
            spans.append((x, x + width, key, enabled))
            x += width
        if self._palette is not None:
            key, shown, description, enabled = self._palette
            tail = [("▏", dim), (f" {shown} ", key_style), (f"{description} ", text_style)]
            width = sum(cell_len(t) for t, _ in tail)
            start = max(x + 1, self.size.width - width)
            parts += [" " * (start - x), *tail]
            spans.append((start, start + width, key, enabled))
        self._spans = spans
        return Content.assemble(*parts)

    def on_mouse_down(self, event) -> None:
        for x0, x1, key, enabled in self._spans:
            if x0 <= event.x < x1:
                if enabled:
                    self.app.simulate_key(key)
                else:
                    self.app.bell()
                return


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

    def _draw(self, lines: Content) -> list[Strip]:
        """Strips of lines already broken to the width: what ``Visual.to_strips`` gives for
        them, without breaking them again (Textual re-wraps every line it draws: a quarter
        of the time of drawing the feedback's points)."""
        strips = lines.render_strips(self.size.width, None, self.visual_style,
                                     RenderOptions(self._get_style, _UNWRAPPED))
        if self.auto_links and not self.screen._selecting:
            strips = [strip._apply_link_style(self.link_style) for strip in strips]
        return strips

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
                block = self._draw(Content("\n").join(wrapped.lines[first:last]))
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
            else:
                strip = self._draw(wrapped.lines[y])[0]
            strips[y] = strip
        return strip


# the rules Content.render_strips reads, for lines that already fit: drawn, not re-broken
_UNWRAPPED = {"text_align": "left", "text_overflow": "fold", "text_wrap": "nowrap",
              "line_pad": 0}


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
