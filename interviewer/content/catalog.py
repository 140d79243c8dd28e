"""Which banks there are (shipped, the user's, files named on the command line), and banks
combined into one interview."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from interviewer.content.bank import ID_RE, Bank, load_bank
from interviewer.errors import BankError

COMBINE_SEP = "+"  # ``ai-infra-zh+llm-systems-en``: one interview over both banks
QUESTION_SEP = ":"  # a question of a combined bank is ``<bank id>:<question id>``


def combined_ids(ref: str) -> list[str] | None:
    """The bank ids in a combined reference ``a+b``; None when ``ref`` names one bank or a
    path (a path may have a ``+`` in it, an id may not)."""
    parts = ref.split(COMBINE_SEP)
    return parts if len(parts) > 1 and all(ID_RE.match(part) for part in parts) else None


def qualified_id(bank_id: str, local_id: str) -> str:
    """A question's or point's id inside a combined bank: its own, after its bank's."""
    return f"{bank_id}{QUESTION_SEP}{local_id}"


def combine_banks(banks: list[Bank]) -> Bank:
    """One bank over several, for an interview that mixes them; a single bank is itself.

    Question ids get their bank's id in front, so that ``q01`` of two banks stay apart in the
    plan, the session record and the rubric (:func:`interviewer.content.bank_rubric.rubric_for_bank`
    combines the banks' own rubric files the same way).
    """
    unique = list({b.id: b for b in banks}.values())
    if len(unique) == 1:
        return unique[0]
    if not unique:
        raise BankError("no banks to combine")
    languages = {b.language for b in unique}
    questions = tuple(replace(q, id=qualified_id(b.id, q.id))
                      for b in unique for q in b.questions)
    return Bank(id=COMBINE_SEP.join(b.id for b in unique),
                title=" + ".join(b.title for b in unique),
                language=languages.pop() if len(languages) == 1 else unique[0].language,
                questions=questions, parts=tuple(unique))


@dataclass
class BankCatalog:
    """All banks the app can see: shipped, in the user's bank dir, and extra paths.

    A bank file that cannot be read is skipped, and a bank whose id another one already has
    replaces it; both are said once each through ``warn``.
    """

    dirs: list[Path] = field(default_factory=list)
    warn: Callable[[str], None] | None = None
    _warned: set[str] = field(default_factory=set, repr=False, compare=False)
    _fixed: tuple[Bank, ...] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, banks: Sequence[Bank]) -> BankCatalog:
        """A catalog of banks already loaded (the app's), resolved like any other."""
        return cls(_fixed=tuple(banks))

    def _warning(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            if self.warn is not None:
                self.warn(message)

    def paths(self) -> list[Path]:
        found: list[Path] = []
        for d in self.dirs:
            if d.is_dir():
                found += sorted(p for p in d.glob("*.md") if p.is_file())
        return found

    def banks(self) -> list[Bank]:
        """Every readable bank; later directories override earlier ones by id."""
        if self._fixed is not None:
            return list(self._fixed)
        by_id: dict[str, Bank] = {}
        for p in self.paths():
            try:
                bank = load_bank(p)
            except BankError as exc:
                self._warning(f"skipped a bank that cannot be read: {exc}")
                continue
            if bank.id in by_id:
                self._warning(f"{p}: bank id '{bank.id}' is also the id of {by_id[bank.id].path}; "
                              f"{p.name} is used (give it another id to keep both)")
            by_id[bank.id] = bank
        return list(by_id.values())

    def resolve(self, ref: str) -> Bank:
        """A bank by path, or by id among the catalog's banks; ``a+b`` combines banks a and b."""
        parts = combined_ids(ref)
        if parts:
            return combine_banks([self.resolve(part) for part in parts])
        candidate = Path(ref).expanduser()
        if self._fixed is None and (candidate.suffix == ".md" or candidate.exists() or "/" in ref):
            return load_bank(candidate)  # a catalog of loaded banks resolves ids only
        for bank in reversed(self.banks()):
            if bank.id == ref:
                return bank
        known = ", ".join(sorted(b.id for b in self.banks())) or "none"
        raise BankError(f"no bank with id '{ref}' (known: {known})",
                        hint="give a bank id from 'interviewer bank list' or a path to a .md file")

