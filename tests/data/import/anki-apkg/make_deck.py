"""Writes deck.apkg: a small Anki package in the older schema (collection.anki2), the one
Anki exports with "Support older Anki versions". Run: python make_deck.py"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
import zipfile
from pathlib import Path

NOTES = [  # guid, fields, tags
    ("k9#Lp2", ["<div>What is <b>KV cache</b>?</div>",
                "Stores keys and values of past tokens.<br>Saves recomputing them.&nbsp;"],
     " llm inference "),
    ("m3Qx", ["什么是 <i>LoRA</i>？", "冻结原权重，<br/>只训练低秩矩阵 A、B。"], " 微调 "),
    ("z0", ["A note with an empty back", ""], ""),
    ("dup1", ["<div>What is <b>KV cache</b>?</div>", "Again."], " llm "),
]


def write_deck(target: Path, notes=NOTES, field_names=("Front", "Back")) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "collection.anki2"
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE col (id integer primary key, models text)")
        con.execute("CREATE TABLE notes (id integer primary key, guid text, mid integer, "
                    "mod integer, usn integer, tags text, flds text, sfld text, csum integer, "
                    "flags integer, data text)")
        models = {"1700000000000": {"name": "Basic",
                                    "flds": [{"name": n, "ord": i}
                                             for i, n in enumerate(field_names)]}}
        con.execute("INSERT INTO col VALUES (1, ?)", (json.dumps(models),))
        for i, (guid, fields, tags) in enumerate(notes, start=1):
            con.execute("INSERT INTO notes VALUES (?, ?, 1700000000000, 0, 0, ?, ?, ?, 0, 0, '')",
                        (i, guid, tags, "\x1f".join(fields), fields[0]))
        con.commit()
        con.close()
        with zipfile.ZipFile(target, "w") as z:
            z.write(db, "collection.anki2")
            z.writestr("media", "{}")
    return target


if __name__ == "__main__":
    write_deck(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("deck.apkg"))
