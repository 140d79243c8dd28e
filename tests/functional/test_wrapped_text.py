"""WrappedText draws the lines on screen in one call per frame, without breaking them again;
what it shows is what Textual's own drawing of each line alone shows."""

from __future__ import annotations

from textual.app import App
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Region
from textual.visual import Visual

from interviewer.tui.widgets import WrappedText

TEXT = ("训练加速：混合精度训练（FP16/BF16），梯度累积减少通信频率。推理加速：KV Cache，"
        "PagedAttention，量化 INT8，投机解码。 ") * 12


class One(App):
    CSS = "#text { padding: 1 2; }"

    def compose(self):
        with VerticalScroll():
            yield WrappedText(Content(TEXT).stylize("underline", 10, 40), id="text")


async def test_lines_drawn_together_are_the_lines_drawn_one_by_one(monkeypatch) -> None:
    calls = []
    draw = WrappedText._draw
    monkeypatch.setattr(WrappedText, "_draw", lambda *a, **k: (calls.append(1), draw(*a, **k))[1])
    app = One()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        view = app.query_one(WrappedText)
        wrapped = view._lines(view.content_size.width)
        assert wrapped is not None and len(wrapped.lines) > 12
        view.refresh()
        top = view.styles.gutter.top
        calls.clear()
        view.render_lines(Region(0, 0, view.size.width, 12))
        assert len(calls) == 1
        drawn = dict(view._strips)
        assert set(drawn) == set(range(0, 12 - top))  # the lines the crop covers, at once
        for y, strip in drawn.items():
            alone = Visual.to_strips(view, wrapped.lines[y], view.size.width, None,
                                     view.visual_style)[0]
            assert looks(strip) == looks(alone), y


def looks(strip) -> list[tuple[str, object]]:
    """What a strip shows: its text and styles, without the offsets kept for selection."""
    return [(seg.text, seg.style.clear_meta_and_links() if seg.style else None)
            for seg in strip]
