"""The recogniser as four named stages, each a small module with a typed value passed on::

    faces = find(image)              # find.py:   Face: a card's outline, and whether a card covers it
    crops = warp(image, faces)       # warp.py:   each face cut out and turned upright (64x96)
    readings = read(image, crops)    # read.py:   Reading: the symbol (card reader) and colour (palette)
    cards, top = decide(readings)    # decide.py: every card seen, and the uncovered one on top

`FacePipeline` (pipeline.py) is those four calls. Each stage is measured alone by
`python models/recipe bench-stages` and the whole by `python models/recipe bench-faces`.
"""
from .decide import decide
from .find import Face, Finder
from .pipeline import FacePipeline
from .read import Reader, Reading
from .warp import Crop, warp

__all__ = ["Crop", "Face", "FacePipeline", "Finder", "Reader", "Reading", "decide", "warp"]
