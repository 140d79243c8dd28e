"""What saving a draft at every change of the answer costs the interface.

    python bench/draft_writes.py [--writes 300]

The interview writes the answer to the session database at every change of the text, on the
interface's thread (a kill -9 cannot be caught: what is on screen must already be on disk).
This times that write, as the app makes it (``Recorder.draft``), for an answer growing by
four characters per change up to 1,200, in a real SQLite file in a temporary directory;
p50, p95 and the slowest, against the 8.3 ms between two frames at the app's frame rate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writes", type=int, default=300)
    args = parser.parse_args()
    from interviewer.content.bank_rubric import rubric_for_bank
    from interviewer.content.catalog import BankCatalog
    from interviewer.sessions.interview import Interview
    from interviewer.sessions.plan import SetupChoices, make_plan
    from interviewer.sessions.recorder import Recorder
    from interviewer.sessions.store import Store
    from interviewer.tui import FRAME_RATE

    bank = next(b for b in BankCatalog([ROOT / "bank"]).banks() if b.id == "ai-infra-zh")
    interview = Interview.start(make_plan(bank, SetupChoices(bank=bank.id, count=1)),
                                rubric_for_bank(bank).rubric)
    with tempfile.TemporaryDirectory() as home:
        store = Store.open(Path(home))
        recorder = Recorder.start(store, interview, "bench")
        attempt, times = interview.attempts[0], []
        for i in range(args.writes):
            attempt.answer += "梯度累积"
            start = time.perf_counter()
            recorder.draft(0)
            times.append(time.perf_counter() - start)
        recorder.close()
        store.close()
    times.sort()
    frame = 1 / FRAME_RATE
    p50, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
    print(json.dumps({"writes": args.writes, "p50_ms": 1000 * p50, "p95_ms": 1000 * p95,
                      "max_ms": 1000 * times[-1], "p95_share_of_a_frame": p95 / frame},
                     indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
