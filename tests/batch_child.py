"""``interviewer`` as a real process with a fast fake model that can be slowed down.

``python tests/batch_child.py grade …``; ``BATCH_DELAY`` seconds pass at every encoder
call, so a batch lasts long enough to be interrupted, raced or killed; with ``BATCH_LOG``
every call appends a line to that file, so a test can count the work done after a signal.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fakes import BigramEmbedder  # noqa: E402

from interviewer import cli, factory  # noqa: E402
from interviewer.grading.calibration import Scorer  # noqa: E402
from interviewer.grading.grader import Grader  # noqa: E402

DELAY = float(os.environ.get("BATCH_DELAY", "0"))
# a test that gives up waiting asks for every thread's stack (SIGUSR1) before it kills
faulthandler.register(signal.SIGUSR1, all_threads=True)
LOG = os.environ.get("BATCH_LOG")


class SlowEmbedder(BigramEmbedder):
    def embed(self, texts):
        if LOG:
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(f"{os.getpid()}\n")
        time.sleep(DELAY)
        return super().embed(texts)


def make_grader(settings):
    return Grader(SlowEmbedder(), Scorer(0.6, 0.3, source="test"))


factory.make_grader = make_grader  # workers are forked: they see this one too

if __name__ == "__main__":
    sys.exit(cli.main(sys.argv[1:]))
