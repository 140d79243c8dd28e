"""The Textual front end. The only package allowed to import textual."""

from __future__ import annotations

import os

# How often Textual may draw a frame: its TEXTUAL_FPS, read once, when textual is first
# imported. A change waits for the next frame of a fixed grid: up to 16.7 ms at Textual's 60,
# up to 8.3 ms at 120 (submit → feedback drawn p50 58-65 → 51-54 ms, bench/tui_latency.py).
# With nothing changing, no frame is drawn at either rate. A TEXTUAL_FPS the user set wins.
FRAME_RATE = 120


def prefer_frame_rate() -> None:
    """Ask for :data:`FRAME_RATE` unless the environment says otherwise; call it before
    textual is imported (the CLI does, just before it imports the app)."""
    os.environ.setdefault("TEXTUAL_FPS", str(FRAME_RATE))
