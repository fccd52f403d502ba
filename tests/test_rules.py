import json

import pytest

from companion.rules import OPTIONS, Rules, RulesError


def test_defaults_are_the_official_rules():
    r = Rules()
    assert (r.stacking, r.draw, r.uno_penalty, r.illegal_play_penalty, r.target_score) == ("off", "one", 2, 2, 500)
    assert r.wd4_challenge is True and r.jump_in is False and r.changed() == {}
    for o in OPTIONS:
        assert getattr(r, o.name) == o.default
        if o.values is not None:
            assert o.values[0] == o.default, f"{o.name}: the official default is listed first"


def test_unknown_key_is_an_error_naming_it():
    with pytest.raises(RulesError, match="rules.stackin"):
        Rules.from_dict({"stackin": "same"})


@pytest.mark.parametrize("data, msg", [({"stacking": "yes"}, "rules.stacking"), ({"uno_penalty": -1}, "rules.uno_penalty"),
                                       ({"uno_penalty": "2"}, "rules.uno_penalty"), ({"jump_in": "maybe"}, "rules.jump_in"),
                                       ({"target_score": 0}, "rules.target_score")])
def test_bad_values_name_the_key(data, msg):
    with pytest.raises(RulesError, match=msg):
        Rules.from_dict(data)


def test_on_off_words_and_edition_defaults():
    assert Rules.from_dict({"wd4_challenge": "off"}).wd4_challenge is False
    s = Rules.from_dict({}, deck="seinfeld")
    assert s.first_card_action == "ignore" and s.wd4_wilds_match is True
    assert Rules.from_dict({"first_card_action": "apply"}, deck="seinfeld").first_card_action == "apply"


def test_load_toml_and_json(tmp_path):
    t = tmp_path / "r.toml"
    t.write_text('[rules]\nstacking = "cross"\nuno_penalty = 4\n')
    assert Rules.load(t).stacking == "cross" and Rules.load(t).uno_penalty == 4
    j = tmp_path / "r.json"
    j.write_text(json.dumps({"scoring": "elimination", "bogus": 1}))
    with pytest.raises(RulesError, match="rules.bogus"):
        Rules.load(j)
    assert Rules.from_dict(Rules(stacking="same").to_dict()) == Rules(stacking="same")
