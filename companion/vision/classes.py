"""The vocabulary of the recogniser: detector classes and classifier symbols."""
from ..cards import NUMBERS

DETECTOR_CLASSES = ("index", "centre", "card")
# the outline finder's classes (oriented boxes): a face-up card no other card covers, and one
# that other cards partly cover
OUTLINE_CLASSES = ("card", "under")
# the one-network finder's classes (oriented boxes): a face-up card no other card covers, and a
# symbol in view, of any card: a corner index (a covered card is found by the index it leaves in
# view) or a card's centre symbol (a card held close shows little else; `finder-data --centres`)
FINDER_CLASSES = ("card", "index")
# a third class a finder may be taught (`finder-data --hand-class`, `grow-classes`): a hand or arm in
# view; the find stage reports it apart (`Found.hands`), never as a face
HAND = "hand"
# the class lists a finder file may name: its own, or its own and `HAND`
FINDER_NAMINGS = (FINDER_CLASSES, FINDER_CLASSES + (HAND,))
SYMBOLS = NUMBERS + ("skip", "reverse", "draw_two", "wild", "wild_draw_four", "wild_swap_hands",
                     "wild_shuffle_hands", "wild_customizable", "wild_seinfeld", "none")
# the colours the symbol classifier names a corner index in (every deck's palette together; a
# deck's reading keeps its own colours only)
COLOURS = ("red", "yellow", "green", "blue", "orange", "purple")
