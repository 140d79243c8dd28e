"""SIGTERM and SIGHUP (the terminal closed) end the app the way Ctrl+Q does.

The default action of either signal kills the process on the spot: the draft typed in the
last second is lost and the terminal is left in the alternate screen with mouse tracking
on and the cursor hidden. Instead the draft is written at once and the app quits through
Textual, which restores the terminal.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable

from textual.app import App

EXIT_GRACE = 3.0  # seconds a signalled app gets to restore the terminal before it just ends


def quit_cleanly_on_signals(app: App, flush: Callable[[], None]) -> None:
    """From now on SIGTERM and SIGHUP call ``flush``, then quit ``app`` with 128 + signal."""
    if app.is_headless:
        return

    def terminate(sig: int) -> None:
        flush()
        # With the terminal gone, Textual's shutdown can block for ever writing to it; the
        # draft is on disk by now, so after a grace period the process just ends.
        watchdog = threading.Timer(EXIT_GRACE, os._exit, (128 + sig,))
        watchdog.daemon = True
        watchdog.start()
        app.exit(128 + sig)

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            loop.add_signal_handler(sig, terminate, sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not on this platform or not the main thread: the default action stays
