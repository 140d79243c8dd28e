"""The names of the formats ``bank import`` reads: a constant, so that the command line can
offer them without loading the importers."""

from __future__ import annotations

FORMATS = ("bank", "markdown", "markdown-folder", "csv", "tsv", "json", "jsonl", "anki-text",
           "anki-apkg", "plain")
