"""The old recogniser's tunables, every one in one place, each with what it trades and where it
was measured (tests and `recipe bench-piles --set NAME=VALUE` change them here, by name)."""
from __future__ import annotations

import numpy as np

from .classes import SYMBOLS

# a face's middle symbol, as shares of its upright box's longer side, each read (the surer reading
# counts): a centre symbol is 0.31-0.47 of the card's height, a tilted card's box up to 1.2 times it
MIDDLE_OF_BOX = (0.36, 0.46)

# a face found this surely with no part found inside it has its middle read as a centre symbol
# (`Recognizer._middle_readings`), which counts when read this surely: fresh pile 9,501,145, a
# Seinfeld orange 9 under two hands' fingers, its face found at 0.67, its middle read a 9 at 0.94.
# On 2,400 look-alike tables (seeds 9,570,000.. to 9,600,000..) such middles read 0.74 at most
ALONE_FACE, ALONE_READ = 0.65, 0.9

ALONE = frozenset(SYMBOLS) - {"none"}      # what such a middle may read

# one weak reading (under `symbol_conf`) alone in a face is a card only when the face is found this
# surely, the reading is this sure and of the colour the face's middle shows (a card in a dim
# corner, or under a finger, whose centre symbol is not read: its one index read at 0.65; a small
# blurred card under a finger, its face found at 0.57, its centre 9 read at 0.67 and its index not)
LONE_FACE_SCORE, LONE_FACE_CONF = 0.55, 0.6

# an index no face took, whose crop runs off the frame, is a card only when read this surely (a
# card mostly off a leaning phone's frame: its one corner read at 0.86-0.88; 0.9 lost two of 152
# such photos, and 0.85 reports no more false cards on the real backgrounds). A fan running off
# the frame leaves its outer cards' corners there: two read at 0.82 and 0.83 (benchmark fans
# 9,920,014 and 9,920,095; their crops' padding runs off by a pixel or two). At 0.8 the look-alike
# tables (3,600, seeds 9,570,000.. to 9,600,000..) and the Roboflow photos' backgrounds (1,013
# strips as taken, warm, dim, overexposed) report the same false cards as at 0.85 (at 0.75 and
# 0.65, 1,200 of those tables too)
EDGE_CONF = 0.8

# an index no face took starts a card of its own only when the detector is this sure of it (a
# playing card's rank scores 0.26-0.45, a real UNO index in a fan 0.6-0.8)
LONE_SCORE = 0.4

# ... but an index in the colour a playing card's red rank is read as (`_rank_red`: the deck's
# colour nearest a red ink's hue) needs this score, unless RED_RING_SURE of the ring round it is
# inked in that colour (its card round it). A red rank on white paper by a saturated table passes
# the ink test: 7 of the 10 false cards of the fresh look-alike tables 9,580,000.. were red ranks
# found alone at 0.41-0.48, most of their rings under 0.15 red (every look-alike table's under
# 0.3). Of the red indices found alone in 1,200 piles (seeds 9,200,000.. and 9,300,000..), 20 of
# 560 score 0.4-0.5, their rings 0.02-0.62 red; pile 9,945,105 by the phone: a red draw two's
# corner found at 0.46, its ring 0.67 red. Playing cards print no green, yellow or blue ranks (a
# green 4 alone under a hand scores 0.49, pile 9,301,163). A face whose symbol shows only in such
# indices needs them too (`_group_faces`): a playing card's face is found as a face, its
# red pips read as a red middle, its ranks at 0.28-0.56 (look-alike tables 9,580,000.. and
# 9,590,000..); the red corners of 39 real faces showing no centre symbol (1,200 piles) score 0.54-0.78.
# Unless the face is found this surely: playing cards' faces so found scored 0.40-0.61 (18 on those
# tables), a small card's face 0.67 (pile 9,650,078 at 640x480: a red draw two, its corner 14
# pixels wide found at 0.46, the ring at that size mostly its white border)
RED_LONE_SCORE, RED_RING_SURE, RED_FACE_SURE = 0.5, 0.4, 0.65

# an index in that colour is a UNO card's print (`_uno_print`) only with this share of the ring
# round it (`_ring_share`) inked in it: a red rank's ring is its paper and the table beyond
# (look-alike tables 9,570,105 and 9,570,292: 0.02 and 0.01, found at 0.56 and 0.52); of the 560
# red indices alone in those piles, 3 have rings under it (0.02-0.1). Unless the detector found it
# this surely: in a real fan a card's index lies on a strip between its neighbours, whose colours
# take most of its ring (Roboflow photos valid_00072, valid_00431: red corners found at 0.70 and
# 0.74, their rings 0.08 and 0.10 red); no look-alike table's red rank scores as much (0.59 at most)
RED_RING, RED_SURE = 0.1, 0.6

# ... or this sure when read surely beside a sure index of a card already made (a fan's next corner:
# fanned cards' indices score 0.32-0.4 where the next card covers part of them, a wild draw four's
# "+4" between two cards 0.28 (benchmark fan 9,920,145): down to the detector's own floor, `conf`)
FAN_SCORE = 0.25

# ... and not over another index (this share of the smaller box): a fan's corners lie side by side
FAN_OVERLAP = 0.3

# ... and a special wild's (customizable, Seinfeld, swap or shuffle hands) only when this sure: its
# corner is a plain black card's with one small white mark, and a playing card's black rank ("J",
# "5") is read as one, scoring 0.43-0.51 (look-alike tables); real ones alone in piles: 14 of the tuning
# set's 15 score 0.58-0.75
SPECIAL_LONE_SCORE = 0.55

# ... but beside a fan's sure corner (the fanned rule above), from this score: fanned special wilds
# score 0.50-0.51 (benchmark fan 9,925,140, pile 9,945,019); the look-alike tables' black ranks
# have no sure UNO corner beside them
SPECIAL_FAN_SCORE = 0.45

# ... or, with no sure corner beside it, when another corner of the same card (same symbol and
# colour, a card's diagonal apart) is found from FAN_SCORE too, and both are read this surely
# (spread hand 9,935,077: a yellow 1's corners at 0.33 and 0.39, read at 0.99). Read at 0.7, a
# playing card's two ranks made a card (look-alike table 9,570,142: 0.74 and 0.86); at 0.9 none
# of 1,800 look-alike tables does
PAIRED_CONF = 0.9

# a UNO corner index is a white symbol on the card's ink, a playing card's rank an ink symbol on
# white paper: round an index's box (a ring out to RING_GROW times it) a UNO card is more saturated
# than inside it. The ring's mean saturation over the box's: real UNO indices 0.38-1.9 (Roboflow
# validation photos, 1st percentile 0.47), rendered ones 0.41-2.3; playing cards' ranks found as
# indices: median 0.27
RING_GROW, MIN_RING_SAT = 1.35, 0.3

# ... and inside its box, a UNO index's white symbol leaves the middle (the box less a fifth each
# side) no more inked than the edge, where a printed rank or number on paper inks the middle more.
# The middle's share of ink pixels less that of the edge's two most inked sides (a fifth of the
# box deep): Roboflow validation indices at most 0.25 (99th percentile 0.11); of the 15 look-alike
# ranks and numbers that pass the ring (tuning seeds 9,561,000..), five reach 0.3-0.63
MAX_INK_RISE = 0.28

# a frame whose light needs a gain this strong (a warm bulb) is detected again after balancing
RELOOK_GAIN = 1.3

# zoom: a cluster of cards whose card is under ZOOM_CARD of the close-up's side is looked at again
# through a close-up, unless the close-up would be over ZOOM_MAX of the frame; at most MAX_ZOOMS.
ZOOM_CARD, ZOOM_MAX, MAX_ZOOMS = 0.45, 0.6, 3

# a first-look part that no close-up part of its kind covers this much of (of the smaller box) was
# not found again (a fan's index found again a little off is found again)
FOUND_AGAIN = 0.3

# a part's size as a share of its card's (the rendered designs: an index box 0.13-0.17 of the
# card's height, a centre symbol 0.31-0.47)
PART_OF_CARD = {"card": 1.0, "index": 0.16, "centre": 0.4}

# when the whole frame shows nothing, each of its four corners (TILE of its width and height) is
# looked at
TILE = 0.6

# when nothing is read, the frame is looked at again drawn at these shares of the detector's input
# (a card close to the camera, larger than the frame)
ZOOM_OUT = (0.5, 0.33)

# a frame whose pixels are BRIGHT_SHARE or more clipped (brightest channel CLIPPED or more) is also
# looked at through DARKEN (brightness squared: contrast moved into the highlights)
CLIPPED, BRIGHT_SHARE = 250, 0.15

DARKEN = np.uint8([round(255 * (v / 255) ** 2) for v in range(256)])

# a frame whose sharpness (`_sharpness`) is under SOFT is also looked at sharpened (`_sharpened`):
# of the first 150 Roboflow validation photos, 95 in 100 are 0.194 or more as taken, 0.099 or
# less blurred (sigma 2), under 0.2 with a 9-pixel streak of camera shake (median 0.154); the
# synthetic frames of small cards at 1600x1200, 0.29 or more (both measured and sharpened with
# the frame shrunk to SOFT_SIDE pixels at most, the detector's scale)
SOFT, SOFT_SIDE = 0.17, 320

SHARPEN_SIGMA, SHARPEN_AMOUNT = 1.5, 1.0

# where no top card is read and the outline finder sees an uncovered card from TURNED_LOOK, the
# frame is looked at again turned half a turn (`recognize`; AGREE_OUTLINE's level, where an outline
# counts for the card reader when no card is read). Measured: held-out 18 -> 17 misses, the 18
# dev sets 9,910,000.. 59 -> 58, the fresh sets 8,090,000.. 9 -> 8, the game bench 4 -> 3, none
# lost; 0.3 mended one more dev pile (a yellow 3 10% in view, its outline found at 0.38) but read
# a playing card's king as a red 1 on a look-alike table (9,733,691, found at 0.48). A first
# version looked turned wherever the detector found anything and took any card read: a polka-dot
# table's dots read as a blue skip (negative 9,500,190), two playing cards read as UNO cards
TURNED_LOOK = 0.5

# the patches a symbol's colour is read from (`Recognizer.part_hues`), as multiples of its box:
# tight, and wider when the tight one shows too little colour
_GROW = {"index": (1.1, 1.8), "centre": (0.85, 1.3)}

# ... and an index's skin is left out where this share of its tight patch is skin-like, when that
# leaves fewer red and orange hues
PART_SKIN = 0.25

# a face whose middle shows three or more colours, each at least this share, and a wild symbol
# inside its box, is a wild
WILD_FACE, WILD_SHARE = "wild", 0.12

# a face whose middle's commonest colour holds less than this share of its coloured pixels tells
# no colour (a themed deck's picture: 0.45-0.58 on the misread themed cards); the corners decide.
# On the 1,200-scene tuning set (seeds 9,200,000..) this changes no card read right
MIDDLE_SHARE = 0.6

# ... and a middle whose commonest colour holds under WILD_EVEN of it (four colours in near even
# shares: 0.28 on a wild whose corners sit at its box's edge) is a wild's oval with no wild symbol
# seen inside; a themed deck's picture is less even (0.45-0.58 on the themed cards misread)
WILD_EVEN = 0.34

# a face whose middle's commonest colour holds at least this share of its coloured pixels is a
# coloured card's: a wild's corner index inside its box is a card's beneath (`_under_coloured_face`;
# the misread faces: 0.83 and 0.98; fresh piles 9,420,854 and 9,430,590: a yellow 5 and a purple 8
# over a wild, their middles 0.78 and 0.79 of their colour, a hand over each)
ONE_COLOUR = 0.7

# corner indices read at least this surely, two agreeing, outweigh a wild centre in a many-coloured
# middle (`_wild_inside`)
WILD_CORNERS_P = 0.8

# how much better (summed palette misfit) another deck's palette must fit than the classic one
CLASSIC_PRIOR = 0.6

# a card's two corner indices lie at least this many index sizes apart (their centres; a size is
# the longer side of the detected box). A tight box of an upright index: over 5; the upright box of
# a turned index is wider, and the stage-8 detector draws a fan's front corners looser still: 2.2-2.5
# on 9 Roboflow photos, whose front card is small. Two fanned twins' indices side by side: about 1-2
CORNERS_APART = 2.2

# where a card's corner index sits, from the card's centre, in card widths (the index's centre; a
# card is 1 x 1.5): the rendered designs 0.29-0.32 across and 0.55-0.58 down
INDEX_AT = np.float32([-0.305, -0.56])

# a card's outline from its face's box (`_box_quad`) is kept where its width is within this factor of
# the median width of the outlines that cards' own centre symbols or two corners draw
BOX_WIDTH_AGREE = 1.3

# two uncovered faces that overlap: the one whose look (`_look`) fills the overlap is on top, when
# its look is nearer by at least ABOVE_MARGIN (L1 distance of the histograms) and the overlap is at
# least ABOVE_MIN_OVERLAP of the smaller card
ABOVE_MARGIN, ABOVE_MIN_OVERLAP = 0.15, 0.04

# the least saturation of a skin pixel left out of a card's look (the image is under grey light:
# the white print sits below it)
SKIN_LEAST = 40

# two outlines found this surely as uncovered, overlapping by OVER_MEET of the smaller and no more
# than OVER_IOU, are two cards one over the other: the one whose sides show OVER_RATIO times as
# sharply across the other lies on top (`_top_by_overlap`; set on the 29 tuning pile sets'
# overlapping pairs, 2 in 3 of them called surely so: 100 right, 1 wrong)
OVER_OUTLINE = 0.7

OVER_MEET = 0.03

OVER_IOU = 0.3

OVER_RATIO = 3.0

# the outline finder's outlines count (`_top_by_outline`) when found this surely: an uncovered
# card's, a covered one's (set before measuring; the finder's validation mAP50 0.991 and 0.697)
OUTLINE_SURE = 0.6

UNDER_SURE = 0.5

# the surest uncovered outline names the top card when found at TOP_OUTLINE and OUTLINE_MARGIN
# more surely than any outline holding the card read on top (chosen on the 25 pile sets
# 9,200,000..9,500,600: 0.8 and 0.2 mended 5 and lost none; a margin of 0.1 mended 6 and lost
# 9,460,949, whose top card's own outline was found 0.195 less surely; swept again on the 18
# pile sets 9,910,000..9,990,600: 0.7 mended 1, 9,950,062, and lost none there, but lost the game
# bench's 9,000,382; a margin of 0.1 changed none)
TOP_OUTLINE = 0.8

OUTLINE_MARGIN = 0.2

# a part lies where an outline's card prints it (`_held`) within this share of the card's width
# of an index spot or of its middle (0.45 for the middle: once written 0.2 here, that value was
# shadowed by `MIDDLE_REACH` below, so 0.45 is what every measured figure used)
SPOT_REACH = 0.2

HELD_MIDDLE_REACH = 0.45

# a card no part of which is found is read by its outline (`Recognizer._read_outline`) when the
# outline is found this surely as uncovered, a spot read this surely: index spots read as squares
# of INDEX_SIDE of the card's width, its middle of CENTRE_SIDE, each at nine places SPOT_SHIFT
# apart; and the outline printed in the colour read over OUTLINE_INK of it (look-alike tables
# 9,560,028 and 9,710,309..: playing cards taken for cards, their ranks read at 0.92, inked
# 0.035-0.135; the top cards read so on the piles 0.17-0.31)
OUTLINE_READ = 0.6

OUTLINE_READ_P = 0.9

INDEX_SIDE = 0.26

CENTRE_SIDE = 0.55

SPOT_SHIFT = 0.06

OUTLINE_INK = 0.15

# an outline found at READ_SURE_OUTLINE is a card's beyond doubt: its index spots count from
# OUTLINE_READ_P_SURE (a corner half under a hand reads 0.6-0.7). Its middle still counts from
# OUTLINE_READ_P: counted from 0.6 it mended one pile (9,420,279) and lost one (9,490,237, a
# yellow reverse whose middle, read at 0.86, voted green)
READ_SURE_OUTLINE = 0.8

OUTLINE_READ_P_SURE = 0.6

# a top card read less surely than this is read again by its outline (`Recognizer._reread`)
REREAD_BELOW = 0.7

# the card reader (`Recognizer._read_card`, where recognizer.json names one) reads the outlines
# found this surely as uncovered, and names the top card where it reads the surest one's symbol
# at READER_SURE (0.7 lost 3 clear views on the held-out pile sets, 0.9 mended 3 there; with
# READER_KEEP, 0.8 mended 1 more on the tuning sets, 2 on the held-out sets and 2 on the fresh
# sets 9,570,000.., and lost none)
READER_OUTLINE = 0.7

READER_SURE = 0.8

# ... and from READER_AGREE, or where no card is read on an outline found from AGREE_OUTLINE, where
# a centre symbol found at the outline's middle reads the same, however unsurely (pile
# 9,890,585, a purple skip under hands, its outline read skip at 0.52 and its centre at 0.56;
# pile 9,850,441, a small wild beside a card back, its outline found at 0.52 and read at 0.98, its
# centre found at 0.37 and read at 0.96: nothing was read). READER_AGREE is 0.25 rather than 0.5:
# the reader's own argmax is a second witness however unsure, where a centre agrees. A blue
# 9 held close and cut by the frame, its outline found at 0.91 and read 9 at 0.30, its centre read 9
# at 0.51 (under `LONE_FACE_CONF`); a blue reverse under a finger, read 0.32 and 0.56 (the
# singles 9,990,591 and 9,930,807: nothing was read). On the 18 sets 9,910,000.. 2 mended, none lost
# (0.15: the same two); held-out 1 mended (a red 1 washed out by a glare), none lost
READER_AGREE, AGREE_OUTLINE = 0.25, 0.5

# ... and where no card is read at all, from SPOT_AGREE_READER on an outline found from
# SPOT_AGREE_OUTLINE (HELD_OUTLINE's level: 0.5 mended 4 piles of the 18 sets 9,910,000.., 0.4 two
# more), where a corner index spot of the outline (`_spot_readings`) reads the same at SPOT_AGREE
# on ink of the card's colour covering SPOT_INK of what no hand covers round it (its colour is that
# ink's); also where the whole outline is inked under OUTLINE_INK, a hand over most of it (found
# on the misses of those sets: a blue 7 18% in view read at 0.97 on an outline inked
# 0.08, a yellow 4 read at 0.54, their spots read 0.99 and 0.86 on ink covering 0.27 and 0.37; an
# UNO card prints its corner indices on its colour's ink, a playing card on white paper; SPOT_INK
# set before reading the look-alike tables). Under OpenCV 5.1 (whose scenes differ a little from
# 5.0's), on the same sets: also where a top card is read that the outline does not hold, or
# holds read under REREAD_BELOW, a wild too (no ink asked: 6 piles mended, none lost, a card beneath
# the top card read surely in 3); SPOT_AGREE_READER 0.4 (from 0.5) mended 2 more, 0.3 none more,
# 0.2 lost one; SPOT_AGREE 0.6 (from 0.7) 3 more, 0.5 lost one. No pile of the held-out sets
# changed, under either OpenCV; on the fresh sets 8,060,000.. 2 mended and 2 lost, then 1 lost with
# `_read_elsewhere` (found on the other); the look-alike tables read as before
SPOT_AGREE, SPOT_AGREE_READER, SPOT_AGREE_OUTLINE = 0.6, 0.4, 0.4

# ... and where a top card is read, a spot from SPOT_OVER (at 0.6, the tuning pile 9,460,949 was
# lost: a wild over a green 6, the 6's outline found at 0.89 and read 6 at 0.59, its spot at 0.68)
SPOT_OVER = 0.7

SPOT_INK = 0.25

# ... and where a top card is read and no outline is found from READER_OUTLINE, the surest one found
# from HELD_OUTLINE, read at READER_SURE, names the top card where a card read with that symbol has
# its parts inside it: the reader and the detector's parts agree (pile 9,950,544, a red
# skip under a hand, its outline found at 0.47 and read skip at 0.85, its corner read skip at 0.99:
# the red 4 beneath was read as the top; pile 9,961,028, a green 9 over a green 5, found at 0.59)
HELD_OUTLINE = 0.4

# a top card read at READER_KEEP whose parts the surest outline holds, or one of whose parts lies
# SHOWN_DEPTH inside it, stands whatever the reader reads there (a rough outline of a
# clearly read green 8 read as a 4, a red draw two's "+2" as a 2: 3 losses on the tuning sets at
# 0.9, none at READER_KEEP; a blue 6 under a red 7 and a hand called uncovered, the 7's
# corner 0.13 of a width inside it: lost on a fresh set, mended by the part inside)
READER_KEEP = 0.97

# two cards called uncovered, each read surely as itself: the one lying over PILE_MARGIN more of
# the covered cards (their outlines' shares it overlaps, summed) is the pile's top (set before
# measuring: half a covered card; piles 9,530,617 and 9,620,449, a green 9 and a wild on the
# pile, a green 5 and a blue 8 beside it read on top: 1.08 and 1.23 against 0.04 and 0.08)
PILE_MARGIN = 0.5

# a corner index no face took lies over the top face (`_uppermost`) only when read this surely:
# the top face's own corner misread, inside its outline, was read at 0.57 and 0.67 (piles
# 9,300,528, 9,410,934); the cards found lying over it at 0.93-1.0
OVER_SURE = 0.85

# ... and not within this share of the face's width of where its own corner indices are printed
# (`_index_spots`): a misread own corner lies there, give or take the outline's error
OWN_SPOT = 0.15

# ... or, where its outline is not known, this deep inside its box (`_depth`; the middle of a 1 x
# 1.5 box lies 0.33 deep): of 26 sure faceless corners inside such faces on 1,800 piles (seeds
# 9,200,000.. and 9,300,000..), none lying over them, the deepest lay 0.18 deep
BOX_MIDDLE = 0.25

# a face's unseen corner shows another card when this share of its coloured pixels is of one other colour
BURIED_SHARE = 0.7

# ... and a wild's when its coloured pixels fill this share of the square round it. A wild's own
# corner, round its index (244 read surely on piles 9,200,000.., 9,300,000.., 9,400,000..): at
# most 0.52 of it coloured, and where 0.2 or more, at most 0.63 of those of one colour (0.41 where
# 0.45 or more); a wild draw four's corner under a blue 4 (pile 9,460,470): 0.50, 0.95 blue
WILD_BURIED_INK = 0.45

# a card's unseen corner is under a hand where this share of the pixels round it is skin-like
HIDDEN_SKIN = 0.3

# ... and under another card's face where it lies this deep inside that card's outline (a share of
# its width) or upright box (a share of the box's longer side)
COVER_DEPTH = 0.05

# a card's corner index seen this deep inside another card's outline (drawn from that card's own
# centre symbol or two corners: a share of its width) shows the card lies over the other there.
# Outlines so drawn err by a twentieth of a card's width and more (pile 9,430,058: a green 6's
# corner, beside a red 2 lying over the 6, 0.05 inside the 2's outline; the 2's corner 0.15 inside
# the 6's; fresh pile 9,430,005: a blue 7's corner 0.34 inside the blue 9 it lies over)
SHOWN_DEPTH = 0.1

# a 1 x 1.5 card's upright box is 1-1.8 of its width on each side, whatever its turn
BOX_FITS = (0.9, 1.9)

# how near a card's centre (a share of its width) another card's centre symbol covers its middle
MIDDLE_REACH = 0.45

# ... that centre symbol may be read this unsurely (under `weak_symbol_conf`: a finger across it)
# when a corner index inside the face shows its symbol surely (a green 0 over a green 7, pile
# 9,301,105: the 0's centre read at 0.3)
FAINT_CENTRE = 0.2

# ... and a corner index read this unsurely (under `weak_symbol_conf`) vouches for one weak reading
# of its symbol in a surely found face of the reading's colour (`LONE_FACE_SCORE`): pile 9,960,219,
# a blue 3 held close under two hands' fingers, its centre read 3 at 0.41, its corner 3 at 0.36
FAINT_INDEX = 0.2

# a face's middle whose colour has under this share of its coloured pixels is mixed: a sure corner
# of another colour inside the face names its colour, where a faint centre within CENTRE_NEAR of
# the face's longer side of its middle shows the corner's symbol and no part of the middle's
# colour does (a green 1 under a hand, its middle read yellow from the yellow 9 beside it: 0.65)
WEAK_MIDDLE, CENTRE_NEAR = 0.7, 0.15

# an ordinary deck's red ink (OpenCV hue; `render.render_playing_card` prints hue 0-3)
RED_INK_HUE = 0

# the wild corner ovals of the Roboflow validation photos (148 read as wild): in the box's middle
# 0.6, the third commonest colour 0.18 or more of the coloured pixels (in the whole box, 0.05: a
# red card or table beside it, or an overexposed photo's reddish black card, takes most; but in a
# nearly dark photo, x0.2, the middle's 30-40 coloured pixels show two colours, the box three); the
# black ranks of look-alike tables read as wild (fresh seeds 9,570,000..): three colours in neither
WILD_INDEX_MIDDLE, WILD_INDEX_SHARE = 0.6, 0.03

# a card's own corner index lies at most this share of its face box's longer side from the box's
# middle: 0.35-0.42 for a whole card's box (at any turn); the detector's face boxes on the tuning
# piles (9,200,000.., 300 scenes): 491 own corners in full view at most 0.49, while 53 of the 153
# corners of other cards inside a face's box lie farther
FAR_CORNER = 0.5

# two faces read as the same card, the smaller this much inside the other, are one card's face
# found twice: two uncovered faces cannot lie over each other (upright boxes of tilted cards side
# by side overlap at their corners)
ONE_FACE = 0.5

# a middle this deep inside an uncovered face's box (a share of its longer side) is covered by it
COVERED_DEPTH = 0.1

# the part of the line between two corner indices where another card's index shows they are two cards
BETWEEN = (0.15, 0.85)

# an index no face took, found under ROW_SCORE, with another index beside it (`_in_a_row`) is a
# digit of a number, no card: a score sheet's green digits, found at 0.41-0.46, each beside the
# next digit's box (look-alike tables 9,620,081 and 9,620,225). A fan's corners lie as near each
# other, but are found surely: no card of the Roboflow photos, the fans, spread hands or piles is
# lost. Its like: width and height each ROW_SIZES of its own, its centre ROW_GAP of its size away
# (the next digit of "80" at 0.9; a box round both digits is larger, a card's far corner further)
ROW_SCORE = 0.5

ROW_SIZES, ROW_GAP = (0.7, 1.4), (0.3, 1.3)

# a corner index is about a seventh of its card's height: one whose box is longer than this share
# of the frame's shorter side would need a card three times the frame's size. Such "indices" are a
# notepad's or a playing card's whole outline (look-alike table 9,640,516: a box 410 x 400 pixels
# round a notepad, read as a draw two)
GIANT_INDEX = 0.5

# a face whose upright box spans FILLS_FRAME of the frame's width and of its height is a card only
# where a corner index of its symbol is read surely (`symbol_conf`): a cloth in a card's colour is
# found as a face the size of the frame, and a shape on it (a few playing cards, a card back, a
# notepad) is read as its centre symbol. The six look-alike tables that showed it (9,570,309 to
# 9,630,605) all did so in the look at the frame shrunk (`_zoomed_out`), the first look having read
# nothing; the rule holds in every look. A close-up of a real card read by its centre alone spans
# less (pile 9,300,587: 0.91 x 0.81, lost at 0.8)
FILLS_FRAME = 0.95

# a card's two corners' midpoint lies at its face's box's middle within this share of its longer
# side (a face's box as found is off by a tenth; pile 9,480,752: 0.09), and another card's centre
# symbol this far from it (a card's own centre symbol lies at its middle; 9,480,752: 0.43)
PAIR_AT_MIDDLE, CENTRE_AWAY = 0.15, 0.25
