"""Checking a file the user asked us to write, before any work that would be lost.

A batch that grades for minutes, or a calibration fit, must not end in a traceback because
``--out`` names a directory, a missing directory or a read-only place.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from interviewer.errors import InputError

ELSEWHERE = "write it elsewhere, in a folder you can write to"


def check_writable(path: Path, *, make_parents: bool = False) -> Path:
    """Raise one :class:`InputError` line unless ``path`` can be written as a file.

    ``make_parents`` creates a missing parent directory (for default locations); a path the
    user typed must name an existing directory.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError("is a directory, expected a file to write", path=path,
                         hint="give a file name")
    parent = path.parent
    if make_parents:
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the directory {parent}: {exc.strerror}",
                             path=path) from None
    if not parent.is_dir():
        raise InputError(f"the directory {parent} does not exist", path=path,
                         hint="create it first or write elsewhere")
    try:  # the only check that sees read-only mounts, ACLs and full disks alike
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise InputError(f"cannot be written: {exc.strerror or exc}", path=path,
                         hint=ELSEWHERE) from None
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError("cannot be written: permission denied", path=path, hint=ELSEWHERE)
    return path
