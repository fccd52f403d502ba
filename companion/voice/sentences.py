"""What the referee says aloud: the announcements of one input as one short spoken line.

The sentences live in a TOML file per language (``companion/data/voice/en.toml``); this module
only fills them in and decides what is worth saying::

    >>> s = Sentences.load("en")
    >>> s.line([{"type": "played", "text": "Ann plays red 7", "player": "Ann", "card": "red 7"},
    ...         {"type": "turn", "text": "Ben's turn", "player": "Ben"}])
    Line(text='Red 7. Ben, your turn.', keep=False, types=('played', 'turn'))
    >>> s.line([{"type": "played", "player": "Ann", "card": "wild draw four"},
    ...         {"type": "color_named", "player": "Ann", "color": "blue"},
    ...         {"type": "penalty", "player": "Cat", "cards": 4, "reason": "caught without calling UNO"}]).text
    'Wild Draw Four. Colour blue. Cat, draw 4: you did not call Uno.'

``speak = "calls"`` keeps only what someone must act on: UNO, penalties, challenges, questions,
the end of a round, and "your turn" after an action card.
"""
from __future__ import annotations

import logging
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from companion.referee.legality import REASONS

log = logging.getLogger(__name__)

SENTENCES_DIR = Path(__file__).resolve().parent.parent / "data" / "voice"
DEFAULT_LANGUAGE = "en"

# Lines holding one of these are never dropped by a newer line (see `speaker.Speaker`).
KEEP = frozenset({"uno_needed", "uno_called", "caught", "false_uno", "penalty", "challenge", "went_out",
                  "round_over", "game_over", "eliminated", "storage"})
DRAW_CARD_REASONS = frozenset(REASONS.values()) | {"stacked draw cards"}   # the cards of a draw card
# What someone has to act on: the announcements spoken with ``speak = "calls"``.
CALLS = KEEP | {"draw_pending", "question", "illegal_play", "color_named", "skipped", "reversed", "stacked",
                "accepted", "hands_swapped", "hands_passed", "hands_shuffled", "reshuffled", "deal",
                "redraw", "jump_in", "head_to_head", "rule_started", "dare_done", "card_given", "paused",
                "storage_ok", "voice_on", "start"}
# Never said: the host's own bookkeeping, shown on the page.
SILENT = frozenset({"setup", "undone", "hand_counted", "accepted"})     # accepted: its penalty says it
SPEAK_CHOICES = ("all", "calls")
VARIANT_FIELDS = ("result", "reason", "again")    # "challenge_guilty", "penalty_draw_two", "turn_again"
_FIELD = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Line:
    """One input's announcements as one spoken line; ``keep``: never dropped for a newer one."""

    text: str
    keep: bool
    types: tuple[str, ...]


class Sentences:
    """The sentences of one language; ``speak`` is "all" or "calls"."""

    def __init__(self, say: dict[str, str], words: dict[str, str] | None = None,
                 reasons: dict[str, str] | None = None, *, speak: str = "all", language: str = DEFAULT_LANGUAGE):
        if speak not in SPEAK_CHOICES:
            raise ValueError(f"speak: one of {', '.join(SPEAK_CHOICES)}, not {speak!r}")
        self.say, self.words, self.reasons = dict(say), dict(words or {}), dict(reasons or {})
        self.speak, self.language = speak, language

    @classmethod
    def load(cls, language: str = DEFAULT_LANGUAGE, *, path: str | Path | None = None, speak: str = "all") -> "Sentences":
        """The sentences for ``language`` ("en", or "en-gb": its first part), or those in ``path``.
        A language with no file speaks English (said once in the log). Raises ValueError for a
        file that cannot be read, naming it."""
        if path is None:
            lang = (language or DEFAULT_LANGUAGE).split("-")[0].split("+")[0].lower()
            path = SENTENCES_DIR / f"{lang}.toml"
            if not path.is_file():
                log.warning("voice: no sentences for language %r (%s): speaking English", language, path)
                path = SENTENCES_DIR / f"{DEFAULT_LANGUAGE}.toml"
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ValueError(f"voice sentences {path}: {exc}") from exc
        tables = {k: data.get(k, {}) for k in ("say", "words", "reasons")}
        for name, table in tables.items():
            if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
                raise ValueError(f"voice sentences {path}: [{name}] must map names to text")
        return cls(tables["say"], tables["words"], tables["reasons"], speak=speak, language=language)

    # -- one announcement ---------------------------------------------------------------------------
    def wanted(self, a: dict, batch_types: set[str]) -> bool:
        t = a.get("type", "")
        if t in SILENT:
            return False
        if self.speak == "all":
            return True
        if t == "turn":         # "your turn" matters after an action, not after every number card
            return bool(batch_types & (CALLS - {"uno_called"}))
        return t in CALLS

    def sentence(self, a: dict) -> str:
        """One announcement as said: its template filled in, or the referee's text, tidied."""
        t = str(a.get("type", ""))
        keys = [f"{t}_{_key(a[f])}" for f in VARIANT_FIELDS if a.get(f) not in (None, False)] + [t]
        template = next((self.say[k] for k in keys if k in self.say), None)
        if template is not None:
            needed = _FIELD.findall(template)
            if all(a.get(f) is not None for f in needed):
                return _tidy(_FIELD.sub(lambda m: self.field(m.group(1), a[m.group(1)]), template))
        return _tidy(str(a.get("text") or t.replace("_", " ")))

    def field(self, name: str, value) -> str:
        if name == "card":
            return self.card(str(value))
        if name == "reason":
            return self.reasons.get(str(value), str(value))
        if isinstance(value, (list, tuple)):
            return ", ".join(self.field(name, v) for v in value)
        v = str(value)
        return self.words.get(v, v)

    def card(self, text: str) -> str:
        """ "red 7" -> "red 7"; "wild draw four" -> "Wild Draw Four" (as the [words] table says)."""
        text = " ".join(text.replace("_", " ").split())
        if text in self.words:
            return self.words[text]
        color, _, kind = text.partition(" ")
        return f"{self.words.get(color, color)} {self.words.get(kind, kind)}".strip() if kind else text

    # -- one input ----------------------------------------------------------------------------------
    def line(self, announcements: list[dict]) -> Line | None:
        """The spoken line for one input's announcements; None when nothing of it is said."""
        items = [a for a in announcements if isinstance(a, dict)]
        types = {str(a.get("type", "")) for a in items}
        said = [a for a in items if self.wanted(a, types)]
        if not said:
            return None
        parts = [self.sentence(a) for a in said]
        text = " ".join(p if p[-1:] in ".!?:" else p + "." for p in parts if p)
        kinds = tuple(str(a.get("type", "")) for a in said)
        return Line(text, keep=any(map(kept, said)), types=kinds) if text else None


def kept(a: dict) -> bool:
    """Whether a line saying ``a`` must never be dropped: UNO, a penalty for a mistake, a challenge,
    the end of a round. The cards of a Draw Two or Wild Draw Four are not a mistake: the next
    line overtakes them like any play."""
    return a.get("type") in KEEP and not (a.get("type") == "penalty" and a.get("reason") in DRAW_CARD_REASONS)


def _key(value) -> str:
    """A field's value as part of a variant's name: "Wild Draw Four" -> "wild_draw_four"."""
    return "_".join(str(value).lower().replace("-", " ").split())


def _tidy(text: str) -> str:
    """What espeak-ng would misread: underscores, runs of spaces, symbols used as words."""
    text = text.replace("_", " ").replace("+", " plus ").replace("&", " and ")
    text = re.sub(r"\s+", " ", text).strip()
    return text[:1].upper() + text[1:]
