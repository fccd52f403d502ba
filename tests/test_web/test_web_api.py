"""The JSON API: anyone reads, only the host changes the game."""
from web_helpers import PIN, csrf_of


def test_state_is_public(client, table):
    r = client.get("/api/state")
    assert r.status_code == 200
    s = r.get_json()
    assert s["players"] == ["Ann", "Ben", "Cat"]
    for key in ("current", "top", "color", "hand_counts", "scores", "awaiting", "seq"):
        assert key in s


def test_scores_and_history(client):
    s = client.get("/api/scores").get_json()
    assert set(s) >= {"players", "scores", "target_score", "rounds"}
    h = client.get("/api/history").get_json()
    assert isinstance(h["history"], list)


def test_history_since_must_be_a_number(client):
    r = client.get("/api/history?since=abc")
    assert r.status_code == 400
    assert "since" in r.get_json()["message"]


def test_input_needs_the_host(client):
    tok = csrf_of(client)
    r = client.post("/api/input", json={"start": "red 7"}, headers={"X-CSRF-Token": tok})
    assert r.status_code == 401
    assert "host" in r.get_json()["message"]


def test_input_needs_csrf_even_for_the_host(host):
    r = host.post("/api/input", json={"start": "red 7"})
    assert r.status_code == 403
    assert "token" in r.get_json()["message"]


def test_host_input_is_applied(host, table):
    r = host.post("/api/input", json={"start": "red 7"}, headers={"X-CSRF-Token": host.csrf})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["accepted"] == {"start": "red 7"}
    assert body["state"]["top"] == "red 7"
    assert table.snapshot()["top"] == "red 7"
    assert client_history_has(host, {"start": "red 7"})


def client_history_has(client, event) -> bool:
    return any(row.get("event") == event or row.get("input") == event
               for row in client.get("/api/history").get_json()["history"])


def test_bad_inputs_are_clear_400s(host):
    h = {"X-CSRF-Token": host.csrf}
    for body, word in [({"play": "purple 99"}, "card"), ({"dance": True}, "one of"),
                       ({"play": "red 7", "undo": True}, "does not take"), ({"pass": True, "undo": True}, "exactly one"),
                       ({"draw": 1000}, "draw"), ({"uno": "x" * 200}, "characters"),
                       ({"points": {"player": "Ann", "points": -5}}, "points"),
                       ([1, 2], "JSON object"), ({"color": "pink"}, "color")]:
        r = host.post("/api/input", json=body, headers=h)
        assert r.status_code == 400, (body, r.get_json())
        assert word in r.get_json()["message"], (body, r.get_json())
    r = host.post("/api/input", data="{not json", headers={**h, "Content-Type": "application/json"})
    assert r.status_code == 400


def test_referee_refusal_is_a_400(host, table, monkeypatch):
    from companion.referee import InputError

    def refuse(event, *, source="api"):
        raise InputError("play: that is not how the referee reads it")
    monkeypatch.setattr(table, "submit", refuse)
    r = host.post("/api/input", json={"play": "red 7"}, headers={"X-CSRF-Token": host.csrf})
    assert r.status_code == 400
    assert r.get_json()["message"] == "play: that is not how the referee reads it"


def test_illegal_play_is_announced_not_refused(host):
    h = {"X-CSRF-Token": host.csrf}
    host.post("/api/input", json={"start": "red 7"}, headers=h)
    r = host.post("/api/input", json={"play": "blue 3"}, headers=h)
    assert r.status_code == 200
    assert "illegal_play" in [a["type"] for a in r.get_json()["announcements"]]


def test_setup_starts_a_new_game(host, table):
    h = {"X-CSRF-Token": host.csrf}
    r = host.post("/api/setup", json={"players": ["Dee", "Eve"], "dealer": "Eve",
                                      "deck": "classic", "rules": {"uno_penalty": 4}}, headers=h)
    assert r.status_code == 200, r.get_json()
    assert table.snapshot()["players"] == ["Dee", "Eve"]


def test_setup_is_validated(host):
    h = {"X-CSRF-Token": host.csrf}
    for body, word in [({"players": ["Solo"]}, "players"),
                       ({"players": ["A", "a"]}, "different"),
                       ({"players": ["A", "B"], "dealer": "C"}, "dealer"),
                       ({"players": ["A", "B"], "deck": "tarot"}, "deck"),
                       ({"players": ["A", "B"], "rules": {"stacking": "yes"}}, "stacking"),
                       ({"players": ["A", "B"], "rules": {"bogus": 1}}, "bogus"),
                       ({"players": ["A", "B\x00"]}, "printable")]:
        r = host.post("/api/setup", json=body, headers=h)
        assert r.status_code == 400, body
        assert word in r.get_json()["message"], (body, r.get_json())


def test_session_reports_host_and_token(client):
    s = client.get("/api/session").get_json()
    assert s == {"host": False, "csrf": s["csrf"]} and len(s["csrf"]) > 20
    tok = s["csrf"]
    r = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok})
    assert r.get_json()["host"] is True
    assert client.get("/api/session").get_json()["host"] is True


def test_unknown_api_path_is_json_404(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404
    assert r.get_json()["error"] == "Not Found"


def test_wrong_method_is_405(client):
    r = client.delete("/api/state", headers={"X-CSRF-Token": csrf_of(client)})
    assert r.status_code == 405


def test_too_large_body_is_413(host):
    r = host.post("/api/input", data="x" * 100_000,
                  headers={"X-CSRF-Token": host.csrf, "Content-Type": "application/json"})
    assert r.status_code == 413
