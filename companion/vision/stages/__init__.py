"""The recogniser as five named stages, each a small module with a typed value passed on::

    found = find(image)              # find.py:   Found: faces no card covers, corner indices in view
    found = fit(image, found)        # fit.py:    each face's outline drawn again at the frame's resolution
    crops = warp(image, found)       # warp.py:   each face upright (64x96), each index square (48x48)
    readings = read(crops)           # read.py:   Reading: symbol probabilities and colour (palette)
    cards, top, unsure = decide(readings)   # decide.py: every card seen, the uncovered one on top
                                            #   (or, where no face reads surely, the surest unsure one)

`companion.vision.Recognizer` is those five calls, with one network (the finder), a small fitter
and two small readers. Each stage is measured alone by `python models/recipe bench-stages`, the whole by
`python models/recipe bench`.
"""
from .decide import Decision, Seen, decide
from .find import Face, Finder, Found, Index
from .fit import Fitter
from .read import Reader, Reading, Readings
from .warp import Crop, Crops, IndexCrop, warp

__all__ = ["Crop", "Crops", "Decision", "Face", "Finder", "Fitter", "Found", "Index", "IndexCrop", "Reader", "Reading",
           "Readings", "Seen", "decide", "warp"]
