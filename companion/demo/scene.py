"""The overhead camera of the demo table: frames of the discard pile as a card is dropped on it.

One print style and one table top per game, a fixed camera (the same light in every frame), the
pile roughly centred with cards about 40% of the frame height. Each change of the pile is a
short clip: a hand reaching in with the card, dropping it, leaving, then still frames, so the
motion gate sees motion and then a settled pile::

    >>> scene = TableScene("classic", seed=3)
    >>> clip = scene.drop(Card.parse("red 7"))
    >>> [f.truth for f in clip.motion], clip.still.image.shape
    ([None, Card(color='red', symbol='7')], (480, 640, 3))

``truth`` is the card on top as a camera would see it (None while the card is still in the hand);
the demo uses it to score the recogniser, never to feed the referee.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.cards import Card
from companion.vision.render import Face, Style, render_card
from companion.vision.camera_look import camera_effects
from companion.vision.hands import add_hand
from companion.vision.synth import Canvas, card_quad
from companion.vision.tables import table_surface

W, H = 640, 480
CENTRE = (W / 2, H / 2)
ROI = (150, 60, 490, 420)          # the pile area the motion gate watches (x1, y1, x2, y2)
DESIGNS = {"classic": "classic", "classic112": "modern", "seinfeld": "flat"}


MAX_SPREAD = 18                    # the most cards a spread hand shows readably (3 rows of 6)


@dataclass(frozen=True)
class Shot:
    """One rendered camera frame and the card a perfect eye would read as the top; for a hand
    spread under the camera, ``hand`` holds every card shown with its box (and ``truth`` is None)."""

    image: np.ndarray
    truth: Card | None
    box: tuple | None = None
    hand: tuple | None = None          # ((card, box), ...) of a spread hand


@dataclass(frozen=True)
class Clip:
    """The frames of one change of the pile: ``motion`` frames, then the ``still`` frame repeated."""

    motion: list
    still: Shot


class TableScene:
    """Renders the pile. ``drop(card)`` puts a card on it, ``take_back()`` lifts the top card
    off again (an illegal card, a first card going back into the deck), ``clear()`` gathers the
    pile for a new round."""

    def __init__(self, deck_name: str = "classic", *, seed: int = 0, size: tuple[int, int] = (W, H),
                 card_height: float = 0.4, effects: float = 0.3):
        self.rng = np.random.default_rng(seed)
        self.w, self.h = size
        self.card_h = card_height * self.h
        self.effects = effects
        self.style = Style.random(self.rng, DESIGNS.get(deck_name, "classic"))
        self.background = table_surface(self.rng, self.h, self.w).astype(np.float32)
        self.camera_seed = self._pick_camera()
        self._faces: dict[Card, Face] = {}
        self._pile = Canvas(self.background)
        self._under: list[np.ndarray] = []     # the pile image before each card still on it
        self._cards: list[tuple[Card, tuple]] = []   # (card, box) of the cards on the pile
        self._spread = None                # (the table before, the cards laid) while a hand is spread

    # -- the camera ---------------------------------------------------------------------------------
    def _pick_camera(self) -> int:
        """A fixed room light for the game: the first camera seed that keeps the table neither
        dim nor washed out (camera_effects draws the light from its rng)."""
        flat = np.full((60, 80, 3), 128, np.uint8)
        for seed in range(1000):
            out = camera_effects(flat, np.random.default_rng(seed), self.effects)
            if 0.85 <= out.mean() / 128 <= 1.1 and out.std() < 12:
                return seed
        return 0

    def _shoot(self, canvas: Canvas) -> np.ndarray:
        img = np.clip(canvas.img, 0, 255).astype(np.uint8)
        return camera_effects(img, np.random.default_rng(self.camera_seed), self.effects)

    def _face(self, card: Card) -> Face:
        if card not in self._faces:
            self._faces[card] = render_card(card, self.style)
        return self._faces[card]

    # -- what is on the pile --------------------------------------------------------------------------
    @property
    def top(self) -> Card | None:
        return self._cards[-1][0] if self._cards else None

    def still(self) -> Shot:
        """The pile as it lies now."""
        top = self._cards[-1] if self._cards else (None, None)
        return Shot(self._shoot(self._pile), top[0], top[1])

    def _quad(self) -> np.ndarray:
        r = self.rng
        cx, cy = CENTRE[0] + r.normal(0, 14), CENTRE[1] + r.normal(0, 10)
        angle = r.uniform(-30, 30) + (180 if r.random() < 0.5 else 0)
        return card_quad(cx, cy, self.card_h * r.uniform(0.92, 1.08), angle, r, persp=0.015)

    def _with_hand(self, base: np.ndarray, target) -> Canvas:
        c = Canvas(base)
        add_hand(c, self.rng, target)
        return c

    def drop(self, card: Card) -> Clip:
        """A hand brings ``card`` in from the side and drops it on the pile."""
        quad = self._quad()
        centre = quad.mean(0)
        edge = np.float32([self.rng.choice([-1, 1]) * self.w * 0.45, self.rng.uniform(-0.3, 0.3) * self.h])
        before = self._pile.img.copy()
        motion = []
        held = Canvas(before)                     # the card in the hand, about to be dropped
        held.place(self._face(card), quad + edge * 0.3, shadow=0.45)
        motion.append(Shot(self._shoot(self._with_hand(held.img, centre + edge * 0.3)), None))
        self._under.append(before)
        self._pile.place(self._face(card), quad, shadow=0.25)
        x1, y1 = quad.min(0)
        x2, y2 = quad.max(0)
        self._cards.append((card, (float(x1), float(y1), float(x2), float(y2))))
        leaving = self._with_hand(self._pile.img, centre + edge * 0.9)     # the hand goes away
        motion.append(Shot(self._shoot(leaving), card))
        return Clip(motion, self.still())

    def take_back(self) -> Clip:
        """A hand takes the top card back off the pile."""
        if not self._cards:
            return Clip([], self.still())
        card, box = self._cards.pop()
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        reach = self._with_hand(self._pile.img, centre)
        self._pile = Canvas(self._under.pop())
        return Clip([Shot(self._shoot(reach), None)], self.still())

    def clear(self) -> Clip:
        """The pile is gathered up (a new round): the table is empty again."""
        reach = self._with_hand(self._pile.img, CENTRE)
        self._pile = Canvas(self.background)
        self._under, self._cards = [], []
        return Clip([Shot(self._shoot(reach), None)], self.still())

    # -- a hand spread under the camera (scoring at the end of a round) ---------------------------
    def spread(self, cards: list[Card]) -> Clip:
        """A player spreads ``cards`` face up on the (gathered) table, in rows of up to six, for
        a hand scan; `pick_up` takes them back. At most `MAX_SPREAD` cards."""
        if not 0 < len(cards) <= MAX_SPREAD:
            raise ValueError(f"a spread shows 1 to {MAX_SPREAD} cards, not {len(cards)}")
        rows = -(-len(cards) // 6)
        cols = -(-len(cards) // rows)
        card_h = min(150.0, 0.85 * (self.h - 40) / rows)
        step_x, step_y = card_h * 2 / 3 * 1.15, card_h * 1.12
        base = Canvas(self._pile.img)
        laid: list[tuple[Card, tuple]] = []
        for k, card in enumerate(cards):
            r, c = divmod(k, cols)
            n_row = min(cols, len(cards) - r * cols)
            cx = self.w / 2 + (c - (n_row - 1) / 2) * step_x + self.rng.normal(0, 2)
            cy = self.h / 2 + (r - (rows - 1) / 2) * step_y + self.rng.normal(0, 2)
            quad = card_quad(cx, cy, card_h, self.rng.normal(0, 3), self.rng, persp=0.01)
            base.place(self._face(card), quad, shadow=0.2)
            x1, y1 = quad.min(0)
            x2, y2 = quad.max(0)
            laid.append((card, (float(x1), float(y1), float(x2), float(y2))))
        self._spread = (self._pile, tuple(laid))
        self._pile = base
        reach = self._with_hand(base.img, (self.w / 2, self.h * 0.8))
        return Clip([Shot(self._shoot(reach), None)], Shot(self._shoot(base), None, None, tuple(laid)))

    def pick_up(self) -> Clip:
        """The player takes the spread cards back into the hand."""
        under, laid = getattr(self, "_spread", None) or (self._pile, ())
        reach = self._with_hand(self._pile.img, (self.w / 2, self.h / 2))
        self._pile, self._spread = under, None
        return Clip([Shot(self._shoot(reach), None)], self.still())

    @property
    def empty(self) -> bool:
        return not self._cards

    def save(self, path: str) -> None:
        """Write the current still frame (for a look at what the camera sees)."""
        import cv2
        cv2.imwrite(path, self.still().image)
