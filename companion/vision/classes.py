"""The vocabulary of the recogniser: detector classes and classifier symbols."""
from ..cards import NUMBERS

DETECTOR_CLASSES = ("index", "centre", "card")
SYMBOLS = NUMBERS + ("skip", "reverse", "draw_two", "wild", "wild_draw_four", "wild_swap_hands",
                     "wild_shuffle_hands", "wild_customizable", "wild_seinfeld", "none")
