"""The interview keeps responding while another process holds the database's write lock."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from textual.widgets import Static, TextArea

from interviewer.sessions.store import DB_NAME
from interviewer.sessions.timer import ManualClock
from interviewer.tui.widgets import CountdownLabel
from helpers import asking, build, stored_answer, wait_for

# Holds the write lock until told to let go, or on its own after a while (so that an app
# whose saves wait on the lock is not stuck for ever); it says which of the two happened.
HOLDER = textwrap.dedent("""
    import select, sqlite3, sys
    from pathlib import Path
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO suspended_points VALUES ('bank', 'held', 'now')")
    print("LOCKED", flush=True)
    told = select.select([sys.stdin], [], [], 30)[0]
    Path(sys.argv[2]).write_text("told" if told else "gave up")
    conn.execute("COMMIT")
""")


def _status(app) -> str:
    return str(app.screen.query_one("#save-status", Static).content)


async def test_typing_and_the_clock_go_on_while_the_database_is_locked(settings) -> None:
    clock = ManualClock()
    app = build(settings, clock=clock)
    released = settings.data_dir / "released"
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        holder = subprocess.Popen([sys.executable, "-c", HOLDER,
                                   str(settings.data_dir / DB_NAME), str(released)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "LOCKED"
            screen = app.screen
            screen.query_one(TextArea).insert("锁住时写的")
            screen.save_now()  # a draft save while the lock is held
            for ch in "abc":
                await pilot.press(ch)
            await wait_for(pilot, lambda: screen.query_one(TextArea).text.endswith("abc"))
            label = screen.query_one(CountdownLabel)
            before = str(label.content)
            clock.advance(7)
            await wait_for(pilot, lambda: str(label.content) != before)
            screen.save_now()
            # all of that happened while the other process still held the lock
            assert not released.exists()
            assert "busy" in _status(app)
            assert stored_answer(app, 0) == ""
            aside = list((settings.data_dir / "drafts").glob("*.json"))
            assert len(aside) == 1 and "锁住时写的abc" in aside[0].read_text(encoding="utf-8")
            holder.stdin.write("go\n")
            holder.stdin.flush()
            assert holder.wait(timeout=60) == 0
            # nothing more is typed: the kept draft reaches the database by itself
            await wait_for(pilot, lambda: stored_answer(app, 0) == "锁住时写的abc", timeout=20)
            await wait_for(pilot, lambda: _status(app) == "✓ draft saved")
            assert not list((settings.data_dir / "drafts").glob("*.json"))
            assert released.read_text() == "told"
        finally:
            if holder.poll() is None:
                holder.kill()
                holder.wait()


async def test_a_save_that_fails_for_another_reason_says_not_saved(settings) -> None:
    app = build(settings)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: asking(app))
        app.store.conn.execute("PRAGMA query_only=1")  # every write now fails, not for a lock
        app.screen.query_one(TextArea).insert("写不进去")
        app.screen.save_now()
        assert _status(app) == "⚠ not saved"
        assert app.store.last_error and "readonly" in app.store.last_error
