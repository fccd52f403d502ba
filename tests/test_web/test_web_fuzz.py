"""Bad input against every form and JSON endpoint: always an answer, never a 5xx."""
import json

from web_helpers import PIN, make_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.web import create_app
from companion.web.views import CORRECTIONS

INPUT_KEYS = ["start", "play", "color", "draw", "pass", "uno", "catch", "challenge", "accept",
              "verdict", "points", "undo", "pause", "resume", "setup", "players", "dealer", "deck",
              "rules", "player", "target_score", "episode", "stacking", "uno_penalty"]
WORDS = ["red 7", "wild", "wild draw four", "blue", "green", "Ann", "Ben", "Cat", "guilty",
         "classic", "seinfeld", "same", "true", "", "0", "-1", "99999999999", "\x00", "\ud800",
         "<script>", "Ann\nBen", "red\u00a07"]

# JSON may carry lone surrogates ("\ud800"); a form, a query or a header cannot (bytes on the wire).
text = st.one_of(st.sampled_from(WORDS), st.text(st.characters(exclude_categories=()), max_size=30))
wire_text = st.one_of(st.sampled_from([w for w in WORDS if w != "\ud800"]), st.text(max_size=30))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True), text)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(INPUT_KEYS), text), inner, max_size=4)), max_leaves=12)
bodies = st.one_of(values, st.dictionaries(st.sampled_from(INPUT_KEYS), values, min_size=1, max_size=3))
forms = st.dictionaries(st.one_of(st.sampled_from(INPUT_KEYS + ["action", "card", "count", "verdict"]),
                                  wire_text),
                        st.one_of(wire_text, st.sampled_from(CORRECTIONS)), max_size=6)

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _host():
    app = create_app(make_table(), config={"HOST_PIN": PIN, "TESTING": False,
                                           "PIN_MAX_FAILURES": 10**6, "PIN_GLOBAL_FAILURES": 10**6})
    c = app.test_client()
    tok = c.get("/api/session").get_json()["csrf"]
    assert c.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok}).status_code == 200
    c.csrf = c.get("/api/session").get_json()["csrf"]
    return c


HOST = _host()


def _check(r):
    assert r.status_code < 500, r.get_data(as_text=True)[:500]
    if r.status_code >= 400:
        body = r.get_data(as_text=True)
        assert "Traceback" not in body
        if r.mimetype == "application/json":
            assert r.get_json()["message"]


@SETTINGS
@given(path=st.sampled_from(["/api/input", "/api/setup", "/api/login"]), body=bodies)
def test_json_endpoints(path, body):
    r = HOST.post(path, data=json.dumps(body), headers={"X-CSRF-Token": HOST.csrf,
                                                         "Content-Type": "application/json"})
    _check(r)
    if path == "/api/login" and r.status_code == 200:   # a lucky PIN logs in again: keep the token
        HOST.csrf = r.get_json()["csrf"]


@SETTINGS
@given(path=st.sampled_from(["/api/input", "/api/setup", "/api/login", "/login", "/setup",
                             "/corrections", "/logout"]),
       raw=st.binary(max_size=200), ctype=st.sampled_from(["application/json", "text/plain",
                                                           "application/x-www-form-urlencoded",
                                                           "multipart/form-data"]))
def test_raw_bodies(path, raw, ctype):
    r = HOST.post(path, data=raw, headers={"X-CSRF-Token": HOST.csrf, "Content-Type": ctype})
    _check(r)
    if path in ("/logout", "/login") and r.status_code in (200, 303):
        _relogin()


def _relogin():
    tok = HOST.get("/api/session").get_json()["csrf"]
    HOST.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok})
    HOST.csrf = HOST.get("/api/session").get_json()["csrf"]


@SETTINGS
@given(path=st.sampled_from(["/corrections", "/setup", "/login"]), form=forms)
def test_forms(path, form):
    form = dict(form)
    form["csrf_token"] = HOST.csrf
    r = HOST.post(path, data=form)
    _check(r)
    if path == "/login":
        _relogin()


@SETTINGS
@given(path=st.sampled_from(["/api/history", "/login", "/", "/scores", "/events"]),
       query=st.dictionaries(st.sampled_from(["since", "next", "x"]), wire_text, max_size=2))
def test_queries(path, query):
    if path == "/events":
        return  # a stream: covered in test_web_live
    r = HOST.get(path, query_string=query)
    _check(r)


@SETTINGS
@given(token=st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"), max_size=60))
def test_wrong_csrf_is_403(token):
    r = HOST.post("/api/input", json={"undo": True}, headers={"X-CSRF-Token": token})
    assert r.status_code == 403 or token == HOST.csrf
