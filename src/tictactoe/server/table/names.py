"""Display names a player chooses for their seat: what is allowed, and its one spelling."""

from __future__ import annotations

import unicodedata

from tictactoe.server.table.commands import Refused

MAX_LENGTH = 20
_PUNCTUATION = frozenset("-_.'")


def clean_name(text: str) -> str:
    """The name as kept (NFC, trimmed, inner spaces single), or `Refused` 422 `bad-name`: 1–20
    characters of letters of any script (with their combining marks), digits, spaces and `- _ . '`.

    >>> clean_name("  Ana  María ")
    'Ana María'
    >>> clean_name("Νίκος_1")
    'Νίκος_1'
    >>> clean_name("<b>x</b>")
    Traceback (most recent call last):
    ...
    tictactoe.server.table.commands.Refused: a name has letters, digits, spaces and - _ . ' only
    """
    name = " ".join(unicodedata.normalize("NFC", text).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    if not 1 <= len(name) <= MAX_LENGTH:
        raise Refused(422, f"a name has 1 to {MAX_LENGTH} characters", "bad-name")
    if not all(_allowed(character) for character in name) or not any(
        unicodedata.category(character)[0] in "LN" for character in name
    ):
        raise Refused(422, "a name has letters, digits, spaces and - _ . ' only", "bad-name")
    return name


def _allowed(character: str) -> bool:
    if character == " " or character in _PUNCTUATION:
        return True
    category = unicodedata.category(character)
    return category[0] in "LM" or category == "Nd"
