"""The stage benchmark's bookkeeping (models/recipe/bench_stages.py): which labelled card an outline holds."""
import numpy as np


def test_an_outline_holds_the_index_near_its_corner_not_the_one_of_the_card_over_it(models_script):
    bs = models_script("bench_stages")
    quad = np.float32([[0, 0], [100, 0], [100, 150], [0, 150]])          # a card 100 wide, 150 tall
    own = ("7", np.float32([12, 15]))                                        # its top-left index
    over = ("2", np.float32([60, 70]))                                       # a fanned card's index, deep inside
    assert bs.own_label(quad, [over, own], 0.6) == 1
    assert bs.own_label(quad, [over], 0.6) is None                           # far from every corner
    assert bs.own_label(quad, [("3", np.float32([120, 15]))], 0.6) is None   # outside the outline
    # the card turned upside down: its index now by the bottom-right corner
    assert bs.own_label(quad, [("9", np.float32([88, 135]))], 0.6) == 0


def test_roboflow_labels_become_symbols_at_pixel_centres(tmp_path, models_script):
    bs = models_script("bench_stages")
    f = tmp_path / "a.txt"
    f.write_text("2 0.25 0.5 0.05 0.06\n14 0.5 0.1 0.05 0.06\n\n")
    got = bs.labels_of(f, 400, 200)
    assert [s for s, _ in got] == ["wild_draw_four", "9"]
    assert np.allclose(got[0][1], [100, 100]) and np.allclose(got[1][1], [200, 20])
    assert bs.labels_of(tmp_path / "missing.txt", 400, 200) == []


def test_a_condition_that_moves_the_pixels_moves_the_labels_with_them(tmp_path, models_script):
    import cv2
    bs = models_script("bench_stages")
    bc = models_script("bench_conditions")
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    image = np.zeros((400, 600, 3), np.uint8)
    cv2.rectangle(image, (140, 90), (160, 110), (255, 255, 255), -1)     # a white square round (150, 100)
    cv2.imwrite(str(tmp_path / "images" / "a.png"), image)
    (tmp_path / "labels" / "a.txt").write_text("7 0.25 0.25 0.03 0.05\n")     # "2" at (150, 100)
    for name in ("far away", "turned a quarter"):
        full = bc.chosen([name])[0]
        img, labels = bs.labelled_frame(tmp_path / "images" / "a.png", (bc.CONDITIONS[full], bc.MOVES[full]),
                                        np.random.default_rng(0))
        (sym, (x, y)), = labels
        assert sym == "2" and img[int(round(y)), int(round(x))].min() > 200, name     # still on the square
    img, labels = bs.labelled_frame(tmp_path / "images" / "a.png")
    assert np.allclose(labels[0][1], [150, 100])
    # no condition moves the labels unless it moves the pixels; a leaning camera's cannot be followed
    assert set(bc.MOVES) < set(bc.CONDITIONS) and not any(n.startswith(bc.FOLLOWS_NOT) for n in bc.MOVES)


def test_a_label_two_found_boxes_hold_is_the_nearer_ones(models_script):
    bs = models_script("bench_stages")
    labels = [("7", np.float32([20, 20])), ("2", np.float32([300, 300]))]
    corner = (10, 10, 30, 30)              # the card's corner index, round its label
    centre = (0, 0, 160, 160)              # a neighbour's centre symbol, turned: a big box reaching over it
    assert bs.holder(centre, labels) == 0                   # each alone holds the label
    assert bs.owned([centre, corner], labels) == [None, 0]  # together the corner index keeps it
    assert bs.owned([corner, (290, 290, 310, 310), (400, 0, 420, 20)], labels) == [0, 1, None]
