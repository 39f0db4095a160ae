"""The rules of k-in-a-row: what makes a winning line, and which moves are forbidden.

Three rules, numbered as the Gomocup protocol numbers them (``INFO rule``):

* :attr:`Rule.FREESTYLE` (0) - k *or more* stones in a row win;
* :attr:`Rule.STANDARD` (1) - exactly k stones win: an overline (more than k) does not;
* :attr:`Rule.RENJU` (4) - gomoku (k = 5) for the first player (X, black): exactly five
  wins, and a move that makes a double-three, a double-four or an overline is forbidden
  (unless it makes five); the second player (O, white) wins with five or more and has no
  forbidden moves.

>>> parse_rule("renju") is Rule.RENJU
True
>>> parse_rule("1").label
'standard'
"""

from __future__ import annotations

import difflib
import enum

from plyground.errors import InvalidInputError

__all__ = ["Rule", "parse_rule"]


class Rule(enum.IntEnum):
    """A rule of k-in-a-row; the value is the Gomocup ``INFO rule`` number."""

    FREESTYLE = 0
    STANDARD = 1
    RENJU = 4

    @property
    def label(self) -> str:
        """The rule's name in lower case: ``freestyle``, ``standard`` or ``renju``."""
        return self.name.lower()

    def exact(self, player: int) -> bool:
        """Whether ``player`` (1 for X, 2 for O) wins only with exactly k in a row (no overline)."""
        return self is Rule.STANDARD or (self is Rule.RENJU and player == 1)


_NAMES = {
    "freestyle": Rule.FREESTYLE,
    "free-style": Rule.FREESTYLE,
    "standard": Rule.STANDARD,
    "exact": Rule.STANDARD,
    "renju": Rule.RENJU,
}


def parse_rule(text: str | int | Rule) -> Rule:
    """A rule from its name (``freestyle``, ``standard``, ``renju``) or Gomocup number (0, 1, 4).

    Raises:
        InvalidInputError: anything else (the message lists the rules, with a "did you mean").
    """
    if isinstance(text, Rule):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise InvalidInputError(f"a rule is a name or a number, got {type(text).__name__}")
    key = text.strip().lower()
    if key in _NAMES:
        return _NAMES[key]
    if key.isdigit() and int(key) in {rule.value for rule in Rule}:
        return Rule(int(key))
    known = "freestyle (0), standard (1), renju (4)"
    close = difflib.get_close_matches(key, list(_NAMES), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise InvalidInputError(f"unknown rule {text!r}: the rules are {known}{hint}")
