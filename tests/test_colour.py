"""Reading a colour off a card's pixels (companion.vision.colour): the deck's palette, the lamp's
colour, pale, shaded, olive and overexposed inks."""
import cv2
import numpy as np
import pytest

from companion.vision.colour import (balance, illuminant_gains, quantile, read_colour, saturated_hues,
                                     white_balance)
from companion.vision.render import fade

CLASSIC = ("red", "yellow", "green", "blue")
SEINFELD = ("blue", "green", "orange", "purple")


@pytest.mark.parametrize("bgr,palette,want", [
    ((40, 30, 215), CLASSIC, "red"), ((10, 205, 250), CLASSIC, "yellow"), ((60, 160, 40), CLASSIC, "green"),
    ((200, 100, 0), CLASSIC, "blue"), ((30, 95, 240), SEINFELD, "orange"), ((150, 50, 120), SEINFELD, "purple"),
    ((30, 95, 240), CLASSIC, "red"),
    # as cameras see real cards (models/hue_survey.py on real photos): an olive UNO green (hue 39)
    # is green, not yellow; a real red (hue 1) is red even when orange is a choice
    ((40, 140, 110), CLASSIC, "green"), ((30, 35, 200), CLASSIC + ("orange", "purple"), "red"),
    # the olive greens seen there reach down to hue 29-30 (a yellow never above 24); a yellow and a
    # green of one hue (31) are told apart by brightness: a yellow is nearly as bright as the white
    ((30, 150, 150), CLASSIC, "green"), ((20, 180, 230), CLASSIC, "yellow"),
    ((20, 245, 235), CLASSIC, "yellow"), ((12, 150, 144), CLASSIC, "green"),
    # the recent decks' teal green (#00A651, hue 75) is green, their blue (#0072BC, hue 102) blue
    ((81, 166, 0), CLASSIC, "green"), ((81, 166, 0), SEINFELD, "green"), ((188, 114, 0), CLASSIC, "blue"),
    # a Seinfeld purple printed bluer (hue 127, as on the game bench's pile 9,000,332) is purple,
    # a blue at hue 116 still blue
    ((180, 50, 80), SEINFELD, "purple"), ((200, 60, 40), SEINFELD, "blue"),
    # ... and under a lamp down to hue 124 (fresh pile 9,300,039, a purple reverse read blue); the
    # bluest blue on a real photo (hue 119) stays blue
    ((200, 50, 70), SEINFELD, "purple"), ((200, 50, 44), SEINFELD, "blue"),
    # ... and as the generator's bluest purple inks print, hue 122 (piles 9,580,174, 9,610,033)
    ((200, 50, 60), SEINFELD, "purple"),
    # a Seinfeld orange lit warm or under a glare (hue 22, piles 9,870,187 and 9,791,079) is orange
    # in a deck without yellow, though green is nearer by hue widths, and the classic deck reads
    # that hue yellow; the yellow-green band stays green there, dark or bright (pile 9,880,022: a
    # brightly lit olive, which a classic deck reads yellow)
    ((30, 185, 240), SEINFELD, "orange"), ((30, 185, 240), CLASSIC, "yellow"),
    ((30, 150, 150), SEINFELD, "green"), ((40, 190, 200), SEINFELD, "green"), ((40, 190, 200), CLASSIC, "yellow"),
])
def test_read_colour_picks_the_nearest_colour_of_the_deck(bgr, palette, want):
    patch = np.zeros((30, 30, 3), np.uint8)
    patch[:] = bgr
    patch[:5] = 245          # the card's white
    assert read_colour(patch, palette)[0] == want


@pytest.mark.parametrize("n", [1, 2, 7, 2304])
def test_quantile_is_numpys_percentile(n):
    a = np.random.default_rng(n).integers(0, 256, n).astype(np.uint8)
    for q in (0.0, 0.1, 0.8, 0.9, 0.95, 1.0):
        assert quantile(a, q) == pytest.approx(float(np.percentile(a, 100 * q)))


def test_white_balance_removes_a_warm_cast():
    patch = np.zeros((30, 30, 3), np.uint8)
    patch[:] = (200, 100, 0)     # blue card
    patch[:8] = 250
    warm = np.clip(patch * np.float32([0.7, 0.9, 1.25]), 0, 255).astype(np.uint8)
    fixed = white_balance(warm)
    assert abs(int(fixed[0, 0, 0]) - int(fixed[0, 0, 2])) < 12      # the white is grey again
    assert read_colour(warm, CLASSIC)[0] == "blue"


def test_the_cards_white_tells_the_lamps_colour():
    # a blue card (white border, blue middle) on a brown table, under a warm bulb exposed for its red
    img = np.zeros((200, 300, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[40:160, 100:180] = 245
    img[60:140, 112:168] = (200, 100, 0)
    warm = (img * np.float32([0.5, 0.72, 1.0])).astype(np.uint8)
    gains = illuminant_gains(warm, [(95, 35, 185, 165)])
    assert np.allclose(gains, [2.0, 1.39, 1.0], atol=0.06)
    fixed = balance(warm, gains)
    assert abs(int(fixed[50, 140, 0]) - int(fixed[50, 140, 2])) < 8                  # the white is grey again
    assert read_colour(fixed[55:145, 105:175], CLASSIC)[0] == "blue"
    assert balance(img, illuminant_gains(img, [(95, 35, 185, 165)])) is img           # white light: untouched
    assert (illuminant_gains(img, []) == 1).all()


def test_a_bright_yellow_ink_beside_a_shaded_white_is_not_taken_for_the_light():
    # a yellow card in a white light whose white oval lies in a shadow: the yellow ink is brighter
    # on the mean than the white, but its blue is nearly nil; the white, dim, is grey
    img = np.zeros((200, 300, 3), np.uint8)
    img[:] = (20, 45, 70)                          # a dark wood table
    img[40:160, 100:180] = (10, 200, 225)          # the yellow card
    img[70:130, 115:165] = (95, 98, 100)           # its white oval, shaded
    img[85:115, 130:150] = (10, 120, 135)          # the yellow symbol in the oval, shaded
    gains = illuminant_gains(img, [(95, 35, 185, 165)])
    assert np.abs(gains - 1).max() < 0.1           # the light is white: no channel raised
    # the brightest on the mean (the yellow ink) would have raised the blue 2.2x and turned the
    # white oval blue
    lum = img[35:165, 95:185].reshape(-1, 3).astype(np.float32)
    yellow_light = np.median(lum[lum.mean(1) >= np.percentile(lum.mean(1), 90)], 0)
    assert yellow_light.max() / yellow_light[0] > 2.2


def test_a_purple_table_brighter_than_a_shaded_card_is_not_taken_for_the_light():
    # a small card in a hand's shadow, its white dimmer than the purple table round its corner
    # index: the table's pixels are the brightest in the index's grown box. A lamp's green is
    # never below both its blue and red: green is raised no more than the lesser of the two
    img = np.zeros((200, 300, 3), np.uint8)
    img[:] = (150, 80, 150)                        # a bright purple table (BGR)
    img[80:120, 130:160] = (118, 120, 122)         # the card's shaded white
    img[90:110, 138:152] = (30, 30, 170)           # a red index
    gains = illuminant_gains(img, [(110, 60, 180, 140)])
    assert np.abs(gains - 1).max() < 0.05          # the table is as bright in its blue as its red
    # a warm lamp's own cast is still undone as before
    warm = np.zeros((200, 300, 3), np.uint8)
    warm[:] = (108, 144, 180)                      # a white table under a warm lamp
    warm[80:120, 130:160] = (70, 94, 118)          # the card's shaded white under it
    assert np.allclose(illuminant_gains(warm, [(110, 60, 180, 140)]), [1.67, 1.25, 1.0], atol=0.03)


def test_grey_patch_has_no_colour():
    assert read_colour(np.full((20, 20, 3), 128, np.uint8), CLASSIC) == (None, 0.0)


@pytest.mark.parametrize("pale", [True, False])
def test_a_pale_print_is_read_by_its_own_ink(monkeypatch, pale):
    # a faded lavender card (saturation about 80, under the usual 90) over a blue card beneath
    # (saturated) that shows in a corner of the patch: the lavender fills the patch, so purple
    if not pale:
        monkeypatch.setattr("companion.vision.colour.PALE_SAT", 0)
    patch = np.zeros((40, 40, 3), np.uint8)
    patch[:] = fade((150, 50, 120), 0.45)
    patch[:14] = 245                      # the card's white print
    patch[30:, 32:] = (200, 100, 0)      # a corner of a blue card beneath
    assert read_colour(patch, SEINFELD)[0] == ("purple" if pale else "blue")


@pytest.mark.parametrize("pale", [True, False])
def test_a_pale_olive_green_has_a_colour(monkeypatch, pale):
    # the classic olive printed pale, its middle mostly a white oval: no pixel reaches 90
    if not pale:
        monkeypatch.setattr("companion.vision.colour.PALE_SAT", 0)
    patch = np.full((40, 40, 3), 240, np.uint8)
    patch[:, :14] = fade((45, 150, 115), 0.45)
    assert read_colour(patch, CLASSIC)[0] == ("green" if pale else None)


def test_a_white_patch_with_a_faint_tint_or_noise_has_no_colour():
    # the pale look must not make a colour of a white card's noise or a lamp's faint tint
    rng = np.random.default_rng(3)
    noisy = np.clip(rng.normal(225, 6, (40, 40, 3)), 0, 255).astype(np.uint8)
    tinted = np.full((40, 40, 3), (205, 215, 232), np.uint8)      # a warm tint on white, a third of it
    tinted[:, 27:] = 245
    assert read_colour(noisy, CLASSIC) == (None, 0.0)
    assert read_colour(tinted, CLASSIC) == (None, 0.0)


@pytest.mark.parametrize("bgr,white,want", [
    ((30, 150, 130), 160, "green"), ((20, 200, 235), 160, "yellow"), ((40, 140, 110), 160, "green"),
    # under a white print at 235 an olive's green clips, its red not quite (hue 32, as bright as
    # the clipped white): a clipped pixel's brightness does not make it yellow
    ((40, 160, 150), 235, "green"), ((30, 215, 235), 235, "yellow"), ((45, 190, 200), 235, "yellow")])
def test_overexposed_olive_stays_green_and_yellow_yellow(bgr, white, want):
    # a photo exposed 1.6 times too long: the white clips at 255 and an olive green comes near it
    # in brightness; its green channel stays ahead of its red (hue 32-35), a yellow's both clip (hue 30)
    patch = np.zeros((30, 30, 3), np.uint8)
    patch[:] = bgr
    patch[:6] = white
    over = np.clip(patch * np.float32(1.6), 0, 255).astype(np.uint8)
    assert read_colour(patch, CLASSIC)[0] == want
    assert read_colour(over, CLASSIC)[0] == want


@pytest.mark.parametrize("bgr,want", [((20, 158, 175), "yellow"), ((20, 175, 168), "green")])
def test_a_shaded_yellow_keeps_its_hue_and_its_colour(bgr, want):
    # a yellow's shaded print (or one beside a glare brighter than its white) is 0.71 as bright as
    # the white, under YELLOW_BRIGHT, but stays at hue 27, the band's yellow end; an olive as dark
    # sits at hue 31 and is green
    patch = np.zeros((30, 30, 3), np.uint8)
    patch[:] = bgr
    patch[:5] = 245
    assert read_colour(patch, CLASSIC)[0] == want


@pytest.mark.parametrize("bgr,want", [
    ((59, 137, 160), "green"),    # hue 23, 0.65 as bright as its white, saturation 161: an olive turned ochre
    ((40, 120, 150), "green"),    # hue 22, 0.61 as bright, saturation 187
    ((87, 201, 235), "yellow"),   # hue 23, nearly as bright as its white (0.96): a yellow, however dull
    ((17, 134, 170), "yellow"),   # hue 23 and as dark, but saturated (230): a yellow's shaded print
    ((20, 110, 147), "green"),    # hue 21, saturated (220) but 0.6 as bright (`OCHRE_DARK`): pile 9,950,905
])
def test_an_olive_turned_ochre_is_told_from_a_yellow_by_being_dark_and_dull(bgr, want):
    # the generator's ink jitter and a warm light turn a classic olive green to hue 20-25, a
    # yellow's hues (fresh piles 9,410,761 and 9,420,387, read yellow): there it is far darker
    # than its white and duller than a yellow printed or shaded
    patch = np.zeros((30, 30, 3), np.uint8)
    patch[:] = bgr
    patch[:6] = 245
    assert read_colour(patch, CLASSIC)[0] == want


def test_a_hands_shaded_skin_by_a_card_is_no_ochre():
    # a hand over a yellow 4 (pile 9,410,005): its shaded edge is as dark and dull as an olive
    # turned ochre, and made the face's middle green. Where a hand's skin shows, hues 20-25 stay
    patch = np.zeros((40, 40, 3), np.uint8)
    patch[:] = (59, 137, 160)
    patch[:6] = 245
    assert np.median(saturated_hues(patch)) > 30            # green's side
    patch[6:20] = (90, 140, 200)                             # skin: hue 14, saturation 140
    assert np.median(saturated_hues(patch, skin=False)) == pytest.approx(23, abs=1)


@pytest.mark.parametrize("ink,want", [((20, 230, 235), "yellow"), ((40, 150, 135), "green")])
def test_a_shadow_across_a_card_darkens_its_white_too(ink, want):
    # a hand's shadow over most of a card (pile 9,300,495): the shaded yellow is 0.54 as bright as
    # the white in the light, but as bright as the white beside it in the shade (`white_near`);
    # an olive green stays green in the light and in the shade
    patch = np.zeros((40, 40, 3), np.uint8)
    patch[:] = ink
    patch[0:4] = patch[14:18] = patch[28:32] = 240      # the white print in stripes
    patch[:, 12:] = (patch[:, 12:] * np.float32(0.55)).astype(np.uint8)
    assert read_colour(patch, CLASSIC)[0] == want
    assert read_colour(patch[:, 12:], CLASSIC)[0] == want


@pytest.mark.parametrize("ink,want", [((20, 230, 235), "yellow"), ((40, 150, 135), "green")])
def test_a_patch_of_a_twelve_megapixel_photo_reads_as_the_same_patch_small(ink, want):
    # a card filling a phone's 12-megapixel photo gives patches a thousand pixels a side: the
    # white near each pixel is then found on blocks of pixels (a disc 600 pixels wide took
    # seconds per patch, up to 52 s a photo), and reads as the patch at its usual size
    patch = np.zeros((40, 40, 3), np.uint8)
    patch[:] = ink
    patch[0:4] = patch[14:18] = patch[28:32] = 240
    patch[:, 12:] = (patch[:, 12:] * np.float32(0.55)).astype(np.uint8)
    big = cv2.resize(patch, None, fx=25, fy=25, interpolation=cv2.INTER_NEAREST)
    assert read_colour(big, CLASSIC)[0] == read_colour(patch, CLASSIC)[0] == want
    assert read_colour(big[:, 300:], CLASSIC)[0] == want


def test_the_white_near_a_pixel_is_found_in_a_disc_whatever_its_width():
    from companion.vision.colour import MAX_DISC, _disc_max
    a = np.zeros((500, 700), np.float32)
    a[100, 150] = 1.0
    a[400, 500] = 2.0
    for r in (MAX_DISC // 2, MAX_DISC, 3 * MAX_DISC):
        full = cv2.dilate(a, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        near = _disc_max(a, r)
        assert near.shape == a.shape
        if r <= MAX_DISC:
            assert np.array_equal(near, full)
        else:   # on blocks: the same values, in discs of about the same size and place
            assert set(np.unique(near)) == {0.0, 1.0, 2.0}
            for v in (1.0, 2.0):
                assert abs(int((near == v).sum()) / int((full == v).sum()) - 1) < 0.15
                assert near[full == v].mean() > 0.9 * v


def test_olive_patch_without_white_is_not_called_yellow_by_its_brightness():
    # no white print in the patch to compare with: the hue alone decides (an olive at hue 31 is
    # green), the patch's own brightness is not taken for a yellow's
    patch = np.zeros((30, 30, 3), np.uint8)
    patch[:] = (12, 150, 144)
    assert read_colour(patch, CLASSIC)[0] == "green"


@pytest.mark.parametrize("bgr,want", [((20, 45, 5), "green"), ((45, 8, 5), "blue"), ((5, 8, 48), "red")])
def test_a_card_in_a_very_dim_room_keeps_its_colour(bgr, want):
    # a nearly dark room: the card's white print is at 60 and its ink at 45-50, under the
    # brightness an ink needs in ordinary light; the table around is darker still and grey
    patch = np.full((40, 40, 3), 14, np.uint8)
    patch[5:35, 5:35] = bgr
    patch[15:25, 15:25] = 60            # the glyph's white print
    assert read_colour(patch, CLASSIC)[0] == want
    # a dark grey table alone has no colour
    table = np.random.default_rng(0).normal(20, 3, (40, 40, 3)).clip(0, 255).astype(np.uint8)
    assert read_colour(table, CLASSIC)[0] is None


def test_a_lamp_casts_along_the_warm_cool_line_and_the_frame_light_undoes_it():
    from companion.vision.camera_look import lamp
    from companion.vision.colour import balance, illuminant_gains
    card = np.full((60, 40, 3), 235, np.uint8)
    card[20:40, 10:30] = (200, 60, 20)           # a blue ink on the white print
    spreads = []
    for seed in range(6):
        lit = lamp(card, np.random.default_rng(seed))
        b, g, r = lit[0, 0].astype(int)
        assert min(b, r) <= g <= max(b, r)
        spreads.append(max(b, r) - min(b, r))
        undone = balance(lit, illuminant_gains(lit, [(0, 0, 40, 60)]))
        assert np.abs(undone[0, 0].astype(int) - 235).max() <= 6
    assert max(spreads) >= 60
