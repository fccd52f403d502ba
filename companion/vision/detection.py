"""What a recogniser reports, whichever pipeline made it: each card seen (`Detection`) and the
top card among them (`Recognition`); `to_json` is `companion recognize --json`'s contract."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card, CardError, kinds


@dataclass(frozen=True)
class Detection:
    """One face-up card seen: colour (None for wilds), symbol, confidence and pixel box; `covered`:
    a card beneath another, seen by its corner index alone (not in `to_json`'s contract)."""

    color: str | None
    symbol: str
    confidence: float
    box: tuple
    covered: bool = False

    @property
    def card(self) -> Card | None:
        try:
            return Card(None if kinds()[self.symbol].wild else self.color, self.symbol)
        except (CardError, KeyError):
            return None

    def to_json(self) -> dict:
        return {"color": self.color, "symbol": self.symbol, "confidence": round(self.confidence, 4),
                "box": [round(float(v), 1) for v in self.box]}


@dataclass
class Recognition:
    cards: list = field(default_factory=list)
    top: Detection | None = None
    # where no face reads surely (`top` None): the surest face read below the bar, for the host to
    # confirm (a card that landed is not an empty pile); None otherwise
    unsure: Detection | None = None

    def to_json(self, image: str | None = None) -> dict:
        out = {"cards": [c.to_json() for c in self.cards], "top": self.top.to_json() if self.top else None}
        if self.unsure is not None:
            out["unsure"] = self.unsure.to_json()
        return {"image": image, **out} if image is not None else out
