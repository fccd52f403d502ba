"""Reading a card's colour from its own pixels, white-balanced on the card's white print.

Hues are compared with the deck profile's colours, so a Seinfeld purple is never called blue
when the deck is Seinfeld, and an orange never red::

    >>> import numpy as np
    >>> patch = np.zeros((20, 20, 3), np.uint8); patch[:] = (40, 30, 215)   # BGR red
    >>> read_colour(patch, ("red", "yellow", "green", "blue"))[0]
    'red'
"""
from __future__ import annotations

import cv2
import numpy as np

# OpenCV hue (0..180) of each printed colour: (centre, half-width). A hue belongs to the colour it is
# fewest half-widths from, so each boundary falls where two colours' real ranges meet. Measured on
# real photos (`models/hue_survey.py` on the Roboflow UNO photos' white-balanced corner indices):
# red 0-3, yellow 18-24, green 29-45 (a camera sees the classic UNO green olive, nearer yellow than
# a pure green: every index seen at hue 29-34 there is an olive green card), blue 108-119; the
# recent decks print a teal green (#00A651 is hue 75) and a blue near hue 102. So green is wide:
# yellow|green falls at 28.1, green|blue at 85, red|orange at 6, orange|yellow at 17, blue|purple
# at 120.5, purple|red at 164.2, red|yellow at 13.2. Blue|purple lies midway between the bluest
# blue seen (no real photo's passes 119; rendered blues' parts at most 112) and the bluest purple
# print (122): a Seinfeld purple is printed at hue 141, but its bluer prints under a lamp read
# 124-125, and the generator's bluest inks 122 (piles 9,580,174 and 9,610,033, read blue with the
# boundary at 122.5; purple's "centre" here is 131, which places that boundary; its
# purples reach 157, well short of red).
HUES = {"red": (179, 8), "orange": (11, 6), "yellow": (22, 5), "green": (55, 22), "blue": (110, 18),
        "purple": (131, 18)}
# the hues a yellow and an olive green share, told apart by brightness (see `saturated_hues`)
YG_BAND = (26, 36)
YELLOW_BRIGHT = 0.77     # midway between the real olives (0.57-0.68) and yellows (0.86-1.0)
# ... such a bright pixel is given this hue: a yellow's in a classic deck (yellow is nearest), but
# still the band's in a deck without yellow, where the band is all green's (`nearest_colours`)
BAND_YELLOW = YG_BAND[0] - 0.5
# ... at the band's yellow end a pixel needs less: from YELLOW_RAMP[0] at hue 26 up to YELLOW_BRIGHT
# at hue YELLOW_RAMP[1]. A yellow's shaded or bevelled print, or one beside a glare brighter than
# its white, stays at hue 26-28 however dark; the olives sit at 29-36 (real and rendered)
YELLOW_RAMP = (0.65, 29)
# ... and below the band (hue 20-25), an olive green printed or lit towards ochre (the generator's
# ink jitter and a warm light: fresh piles 9,410,761, 9,420,387, read yellow) is told from a yellow
# by being dark and dull: a pixel under OCHRE_BRIGHT of its white and under saturation OCHRE_SAT
# is green. Those olives' parts: 0.50-0.73 as bright as their white, saturation 131-200; rendered
# yellows' parts 0.76 or brighter (1st percentile), saturation 193 or more (5th); the Roboflow
# photos' yellows 0.89 or brighter (1st percentile; their saturation 112-162)
OCHRE_BAND, OCHRE_BRIGHT, OCHRE_SAT = (20, 26), 0.75, 200
# ... and whatever its saturation, a pixel there under OCHRE_DARK of its white (olives
# rendered ochre, saturated 199-224 and 0.52-0.62 as bright as their white, read yellow or, in a
# Seinfeld deck, orange: piles 9,950,905, 9,931,036 and the held-out 9,550,290, mended, none lost
# on 17,000 piles; 0.7 mended one more, 9,920,646, but a yellow's shaded print can be 0.69 as
# bright; the rendered yellows are 0.76 or brighter, the Roboflow photos' 0.89, and read the same)
OCHRE_DARK = 0.65
# ... but not where a hand's skin (hues under OCHRE_SKIN_GAP below the band: an ochre's own spread
# reaches skin's top hues) is OCHRE_SKIN or more of the saturated pixels: a hand's shaded edge is as
# dark and dull (pile 9,410,005: a hand over a yellow 4 read as a green face)
OCHRE_SKIN, OCHRE_SKIN_GAP = 0.1, 3
# ... and a pixel's white is the white print near it (`white_near`: within LOCAL_WHITE of the
# patch's side, unsaturated and at least WHITE_LEAST of the patch's white), not the patch's
# brightest: a shadow across a card darkens its ink and its white alike (a yellow 8 under a hand's
# shadow, pile 9,300,495, was read green). The Roboflow photos' yellows and olives read the same
LOCAL_WHITE, WHITE_LEAST = 0.2, 0.35
# ... a disc of at most this radius (pixels) is taken at full resolution (`_disc_max`): a patch up
# to 200 pixels a side, larger than any at 1600x1200
MAX_DISC = 40
# ... but an overexposed photo clips the white and brightens an olive to it: there a yellow's red
# and green clip together (hue 30) while an olive's green stays ahead (hue 30-36, median 35 on the
# Roboflow photos exposed 1.6x). A bright pixel is yellow only up to this hue (yellows as taken:
# 26-32 on those photos; some rendered yellows reach 34)
YELLOW_TOP = 34
# ... and where a pixel is clipped (its brightest channel at CLIP_V or more), its brightness says
# nothing: an olive exposed 1.6x is as bright as the clipped white. There a yellow's red and green
# clip together (hue 30, or under it where only the red clips) and an olive's green alone (30-36,
# median 35): a clipped pixel is yellow only up to CLIP_HUE (31: a lemon yellow whose green
# leads its red by a hair stays yellow; 30 would turn 2 more real olives green, and one rendered
# lemon yellow too)
CLIP_V, CLIP_HUE = 250, 31
# an ink pixel is at least this bright (OpenCV value), or in a dim room this share of the patch's
# white print: a very dim photo's white is at 60 and its green ink at 35-50
MIN_INK_V, DIM_INK, MIN_CHROMA = 50, 0.45, 16
# an ink pixel's saturation (OpenCV, 0-255) is above INK_SAT; a pale print's (`saturated_hues`)
# above Otsu's split of the patch's lower saturations and PALE_SAT, counted when they are
# PALE_RATIO times those above INK_SAT or more (or those are too few) and PALE_MIN_SHARE of the
# patch (a white card's noise and a lamp's faint tint are not). PALE_SAT 0: no pale look
INK_SAT = 90
PALE_SAT, PALE_RATIO, PALE_MIN_SHARE = 35, 2.0, 0.03
# skin (hands over a card), as OpenCV hue and saturation: printed inks are far more saturated
# than skin, whose saturation stays under SKIN_MAX_SAT
SKIN_HUES, SKIN_MAX_SAT = (4, 20), 165


def skin_like(h: np.ndarray, s: np.ndarray, least: int = 0, most: int = SKIN_MAX_SAT) -> np.ndarray:
    """Which pixels (OpenCV hue `h` and saturation `s`) may be a hand's skin: an orange of
    middling saturation, above `least` (a white print under grey light sits below 40) and under
    `most`."""
    return (h >= SKIN_HUES[0]) & (h <= SKIN_HUES[1]) & (s < most) & (s > least)


def white_balance(patch: np.ndarray) -> np.ndarray:
    """Scale channels so the brightest low-saturation pixels (the card's white) are grey."""
    f = patch.reshape(-1, 3).astype(np.float32)
    b, g, r = f[:, 0], f[:, 1], f[:, 2]
    lum = (b + g + r) / 3
    spread = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    cand = f[(lum >= quantile(lum, 0.8)) & (spread < 0.35 * lum + 25)]
    if len(cand) < 5:
        return patch
    ref = cand.mean(0)
    gains = np.clip(ref.mean() / np.maximum(ref, 1), 0.6, 1.7)
    return cv2.multiply(patch, (float(gains[0]), float(gains[1]), float(gains[2]), 0.0), dtype=cv2.CV_8U)


def quantile(a: np.ndarray, q: float) -> float:
    """`np.percentile(a, 100 * q)` (linear between the two nearest values) by partial sorting: a
    tenth of its cost on the few thousand pixels of a crop."""
    a = np.ravel(a)
    pos = q * (len(a) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(a) - 1)
    part = np.partition(a, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


# the strongest lamp's cast undone: no channel is raised more (`illuminant_gains`)
MAX_GAIN = 2.2


def illuminant_gains(image: np.ndarray, boxes, *, top: float = 0.1, min_pixels: int = 20) -> np.ndarray:
    """Per-channel gains (1 or more) that make the light's colour grey, from the cards' white print: the
    brightest `top` share of the pixels inside the cards' boxes (`boxes`, frame pixels). A warm
    lamp that turns the white orange and a blue card purple is undone before any colour is read;
    a patch's own white balance (`white_balance`) cannot see so strong a cast as white. Where
    those pixels' median has its strongest channel more than `MAX_GAIN` times its weakest, they
    are an ink, not the white: the share brightest in its weakest channel is taken instead (an ink takes most of one channel,
    the white under any lamp none; pile 9,850,926: a yellow skip's ink, brighter than its shaded
    white, taken for the light, raised the blue 2.2x and its centre was read blue). Green is
    raised no more than the lesser of blue and red: a lamp's light is never less green than
    both, a purple table brighter than a shaded card is (the game bench's pile 9,000,253). Ones
    when the boxes hold too few pixels."""
    h, w = image.shape[:2]
    chunks = []
    for x1, y1, x2, y2 in boxes:
        x1, y1, x2, y2 = int(max(0, x1)), int(max(0, y1)), int(min(w, x2)), int(min(h, y2))
        if x2 > x1 and y2 > y1:
            step = max(1, int(((x2 - x1) * (y2 - y1) / 4000) ** 0.5))     # about 4,000 pixels a box
            chunks.append(image[y1:y2:step, x1:x2:step].reshape(-1, 3))
    if not chunks:
        return np.ones(3, np.float32)
    f = np.concatenate(chunks).astype(np.float32)
    ref = _brightest(f, f.mean(1), top, min_pixels)
    if ref is None:
        return np.ones(3, np.float32)
    if ref.max() / ref.min() > MAX_GAIN:
        # more coloured than any lamp undone here: an ink, not the white (a bright yellow beside a
        # shaded white): the pixels brightest in their weakest channel are the white
        ref = _brightest(f, f.min(1), top, min_pixels)
    # a lamp's light lies on the warm-cool line (a bulb's orange to daylight's blue): its green
    # is never below both its blue and its red. A reference less green than both is a purple or
    # magenta surface brighter than the cards' white (a purple table round a small card in a
    # hand's shadow): its green is not raised beyond the lesser of the two. (A greener one is
    # no such sign: the white seen through a yellow ink's glow is greener than both)
    ref[1] = max(ref[1], min(ref[0], ref[2]))
    # raise the weaker channels to the strongest: the white and the inks keep their brightness
    # (a yellow is told from an olive green by how near the white it is)
    return np.clip(ref.max() / ref, 1.0, MAX_GAIN).astype(np.float32)


def _brightest(f: np.ndarray, lum: np.ndarray, top: float, min_pixels: int) -> np.ndarray | None:
    """The median colour of the pixels `f` (N x 3) in the `top` share by `lum`; None if too few."""
    bright = f[lum >= quantile(lum, 1 - top)]
    if len(bright) < min_pixels:
        return None
    return np.maximum(np.median(bright, 0), 1)


def balance(image: np.ndarray, gains: np.ndarray, *, least: float = 0.03) -> np.ndarray:
    """`image` with each channel scaled by `gains` (the image itself when no gain differs from
    1 by `least` or more)."""
    if np.abs(np.asarray(gains) - 1).max() < least:
        return image
    g = [float(v) for v in gains]
    return cv2.multiply(image, (g[0], g[1], g[2], 0.0), dtype=cv2.CV_8U)       # rounds and saturates


def saturated_hues(patch: np.ndarray, min_pixels: int = 12, *, skin: bool = True,
                   skin_sat: int = SKIN_MAX_SAT, mask: np.ndarray | None = None,
                   ochre: bool = True) -> np.ndarray | None:
    """OpenCV hues of the patch's saturated pixels after white balance (None if too few).

    Yellow and an olive green can share a hue (26-36), but a yellow ink is nearly as bright as the
    card's white and an olive green far darker: in that band a pixel at least `YELLOW_BRIGHT` times
    as bright as the patch's white (less at the band's yellow end: `YELLOW_RAMP`) is given yellow's
    hue, a darker one green's lower edge. Below the band, a dark and dull pixel, or a darker one
    however saturated, is an olive turned ochre and is given green's lower edge too (`OCHRE_BAND`,
    `OCHRE_DARK`), unless a hand shows in the patch
    or ``ochre=False`` (counting the colours a patch shows: a dark yellow's edge would add a green).
    ``skin=False`` leaves out skin-like pixels (a hand over a card's middle), those under
    saturation ``skin_sat``. ``mask`` (the patch's shape, boolean): only its pixels
    are read (the whole patch still sets the white balance and the white)."""
    if patch is None or patch.size == 0:
        return None
    hsv = cv2.cvtColor(white_balance(patch), cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0].ravel().astype(np.float32), hsv[..., 1].ravel(), hsv[..., 2].ravel()
    # an ink is saturated and not black; in a dim room the whole card is dark, so "not black" is
    # judged against the patch's brightest pixels (its white print), and a dark pixel's saturation
    # must stand above the sensor's noise (its channels' spread, `MIN_CHROMA`)
    lit = v > MIN_INK_V
    dim = (v > DIM_INK * quantile(v, 0.95)) & (s.astype(np.float32) * v >= MIN_CHROMA * 255)
    inked = lit | dim
    if mask is not None:
        inked &= mask.ravel()
    saturated = inked & (s > INK_SAT)       # a hand's pixels still in (`OCHRE_SKIN`)
    if not skin:     # leave out a hand's pixels: skin is an orange of middling saturation
        inked &= ~skin_like(h, s, most=skin_sat)
    keep = saturated & inked
    if PALE_SAT and inked.sum() >= min_pixels:
        # a pale print (a faded deck, a washed-out photo): its inks fall under INK_SAT, and a
        # card beneath more saturated, or nothing, would be read instead. Below INK_SAT, where
        # the saturation parts the white from a pale ink (Otsu's threshold), the pixels above it
        # count (down to PALE_SAT) when they are a share of the patch and at least PALE_RATIO
        # times those above INK_SAT (a well-printed card's are its ink's soft edges: far fewer)
        low = s[inked & (s <= INK_SAT)]
        if len(low) >= min_pixels:
            split, _ = cv2.threshold(low.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            pale = (s > max(PALE_SAT, split)) & inked
            n = int(pale.sum())
            if n >= max(min_pixels, PALE_MIN_SHARE * len(s)) and n >= PALE_RATIO * keep.sum():
                keep = pale
    if keep.sum() < min_pixels:
        return None
    greys = v[s < 60]            # the card's white print (none: brightness cannot tell)
    # an olive turned ochre: dull or dark pixels just under the band (turned green below),
    # unless a hand's skin shows (hues well under the band's, so an ochre's own spread is no skin)
    ochred = keep & (h >= OCHRE_BAND[0]) & (h < YG_BAND[0]) if ochre else None
    if ochred is not None and ochred.any() and saturated.any() and \
            (skin_like(h, s, most=skin_sat) & (h < OCHRE_BAND[0] - OCHRE_SKIN_GAP))[saturated].mean() >= OCHRE_SKIN:
        ochred = None
    h, v, sat = h[keep], v[keep].astype(np.float32), s[keep]
    ochred = np.zeros(len(h), bool) if ochred is None else ochred[keep]
    band = (h >= YG_BAND[0]) & (h <= YG_BAND[1])
    if (band.any() or ochred.any()) and len(greys) >= min_pixels:
        white = white_near(hsv[..., 2], hsv[..., 1], quantile(greys, 0.9)).ravel()[keep]
        h[ochred & (((v < OCHRE_BRIGHT * white) & (sat < OCHRE_SAT)) | (v < OCHRE_DARK * white))] = YG_BAND[1] - 2
        least = np.interp(h, (YG_BAND[0], YELLOW_RAMP[1]), (YELLOW_RAMP[0], YELLOW_BRIGHT))
        bright = (v >= least * white) & (h <= YELLOW_TOP)
        bright &= (v < CLIP_V) | (h <= CLIP_HUE)
        h[band & bright] = BAND_YELLOW
        h[band & ~bright] = np.maximum(h[band & ~bright], YG_BAND[1] - 2)
    return h


def white_near(v: np.ndarray, s: np.ndarray, white: float) -> np.ndarray:
    """Each pixel's nearby white print's brightness (OpenCV value planes `v`, `s` of a patch):
    the brightest white within `LOCAL_WHITE` of the patch's side (its mean over 3 x 3 pixels,
    against noise), where white is unsaturated and at least `WHITE_LEAST` of the patch's `white`
    (its 90th percentile); never above `white` (a glare beside a pixel does not darken it), and
    `white` where no white lies near. A shadow across a card darkens its ink and its white
    alike: a yellow in the shade of a hand is as bright as its shaded white, not as the white in
    the light."""
    m = ((s < 60) & (v >= WHITE_LEAST * white)).astype(np.float32)
    vf = v.astype(np.float32)
    num = cv2.GaussianBlur(vf * m, (3, 3), 0)
    den = cv2.GaussianBlur(m, (3, 3), 0)
    mean = np.where(den > 0.3, num / np.maximum(den, 1e-6), 0).astype(np.float32)
    r = max(1, int(round(LOCAL_WHITE * max(v.shape))))
    near = _disc_max(mean, r)
    return np.where(near > 0, np.minimum(near, white), white)


def _disc_max(a: np.ndarray, r: int) -> np.ndarray:
    """Each pixel's largest value of `a` within a disc of radius `r`. A disc wider than
    `MAX_DISC` (a patch of a 12-megapixel photo: a disc 600 pixels wide took seconds) is taken on
    `a` first reduced to its blocks' maxima, `r / MAX_DISC` pixels a side, then spread back: the
    disc grows by at most a block's diagonal, a few hundredths of the patch's side."""
    if r <= MAX_DISC:
        return cv2.dilate(a, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    k = int(np.ceil(r / MAX_DISC))
    h, w = a.shape
    ph, pw = -h % k, -w % k
    blocks = np.pad(a, ((0, ph), (0, pw)), mode="edge").reshape((h + ph) // k, k, (w + pw) // k, k).max((1, 3))
    rs = max(1, int(round(r / k)))
    small = cv2.dilate(blocks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rs + 1, 2 * rs + 1)))
    return np.repeat(np.repeat(small, k, 0), k, 1)[:h, :w]


def _distances(h: np.ndarray, colours) -> np.ndarray:
    """(pixels, colours): how many of each colour's hue widths each hue lies from it."""
    refs = np.float32([HUES[c][0] for c in colours])
    widths = np.float32([HUES[c][1] for c in colours])
    d = np.abs(h[:, None] - refs[None])
    return np.minimum(d, 180 - d) / widths[None]


def read_colour(patch: np.ndarray, colours, *, min_pixels: int = 12) -> tuple[str | None, float]:
    """The deck colour that most saturated pixels of `patch` are nearest to, and its share."""
    return colour_of_hues(saturated_hues(patch, min_pixels), colours)


def colour_of_hues(h: np.ndarray | None, colours) -> tuple[str | None, float]:
    """`read_colour` on hues already taken by `saturated_hues` (None: no colour)."""
    if h is None:
        return None, 0.0
    shares = colour_shares(h, colours)
    k = int(shares.argmax())
    return colours[k], float(shares[k])


def colour_shares(h: np.ndarray | None, colours) -> np.ndarray:
    """The share of the hues nearest each colour (all zero when there is no colour)."""
    if h is None or len(h) == 0:
        return np.zeros(len(colours), np.float32)
    return np.bincount(nearest_colours(h, colours), minlength=len(colours)).astype(np.float32) / len(h)


def nearest_colours(h: np.ndarray, colours) -> np.ndarray:
    """Each hue's nearest colour, as an index into `colours`. In a palette with an orange and no
    yellow (Seinfeld's), a hue under the yellow-green band that a yellow would take is the
    orange's: an orange lit warm or under a glare reads hue 21-25, where green is nearer by hue
    widths, but no green ink reads there (an olive does only dark and dull, and `saturated_hues`
    gives it green's hue); the band itself, bright or dark, is green's (an olive lit brightly: no
    yellow to tell it from)::

        >>> [("orange", "green")[k] for k in nearest_colours(np.float32([12, 22, 25, BAND_YELLOW, 34, 60]), ("orange", "green"))]
        ['orange', 'orange', 'orange', 'green', 'green', 'green']
    """
    if "orange" not in colours or "yellow" in colours:
        return _distances(h, colours).argmin(1)
    d = _distances(h, tuple(colours) + ("yellow",))       # yellow last
    k = d[:, :-1].argmin(1)
    k[(d.argmin(1) == len(colours)) & (h < BAND_YELLOW)] = list(colours).index("orange")
    return k
