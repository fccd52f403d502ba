"""Camera status, the camera's open question and pause: on the pages, in the API, live, and answered by the host."""
from __future__ import annotations

import pytest
from web_helpers import PIN, FakeCamera, form_csrf, login, parse

from companion.web import create_app
from companion.web.camera import camera_status, question_json, status_text


QUESTION = {"candidates": ["red 7", "red 1"], "reason": "the readings disagree"}


@pytest.fixture
def cam():
    return FakeCamera()


@pytest.fixture
def app(table, cam):
    return create_app(table, config={"HOST_PIN": PIN, "TESTING": True, "SSE_KEEPALIVE": 0.2, "CAMERA": cam})


def host_of(client):
    r = login(client)
    assert r.status_code == 200
    client.csrf = r.get_json()["csrf"]
    return client


def test_status_words():
    assert status_text("failed", "unplugged", 4.0) == "Camera unplugged — retrying in 4 s"
    assert status_text("failed", "", 0) == "Camera failed — retrying"
    assert status_text("ok", "", 0) == "" and status_text("off", "", 0) == ""
    assert question_json(QUESTION)["text"] == "Not sure of the card: red 7 or red 1? Host: confirm it."
    assert "could not be read (blurred)" in question_json({"candidates": [], "reason": "blurred"})["text"]
    assert question_json(None) is None
    twin = question_json({"candidates": ["red 7"], "reason": "the same card again?",
                          "text": "Was another red 7 played?"})
    assert twin["text"] == "Was another red 7 played? Host: confirm it, or say no card was played."
    assert camera_status(object()) is None


def test_a_camera_that_cannot_say_is_reported_not_a_500():
    class Broken:
        def status(self):
            raise RuntimeError("boom")
    assert camera_status(Broken())["state"] == "failed"


def test_api_state_has_the_camera(client, cam):
    assert client.get("/api/state").get_json()["camera"]["state"] == "ok"
    cam.change(state="failed", error="unplugged", retry_in=4.0)
    c = client.get("/api/state?recent=5").get_json()["camera"]
    assert c == {"state": "failed", "error": "unplugged", "retry_in": 4.0, "question": None,
                 "text": "Camera unplugged — retrying in 4 s"}


def test_no_camera_object_no_camera_key(table):
    app = create_app(table, config={"HOST_PIN": PIN, "TESTING": True})
    snap = app.test_client().get("/api/state").get_json()
    assert "camera" not in snap and snap["paused"] is None


def test_table_page_shows_the_camera_fault_and_the_question(client, cam):
    html = client.get("/").get_data(as_text=True)
    assert 'id="camera-banner"' in html and 'id="question-banner"' in html
    cam.change(state="failed", error="unplugged", retry_in=4.0, question=QUESTION)
    html = client.get("/").get_data(as_text=True)
    assert "Camera unplugged — retrying in 4 s" in html
    assert "Not sure of the card: red 7 or red 1? Host: confirm it." in html
    assert "Answer it" not in html                        # only the host gets the link
    assert "Answer it" in host_of(client).get("/").get_data(as_text=True)


def test_host_answers_the_question_from_the_corrections_page(client, cam, table):
    host = host_of(client)
    cam.change(question=QUESTION)
    html = host.get("/corrections").get_data(as_text=True)
    assert "It was red 7" in html and "It was red 1" in html
    assert 'name="action" value="start"' in html             # the round waits for its first card
    r = host.post("/corrections", data={"csrf_token": form_csrf(html), "action": "start", "card": "red 7"})
    assert r.status_code == 303
    assert table.snapshot()["top"] == "red 7"
    assert table.history()[-1]["source"] == "page"
    cam.change(question={"candidates": ["red 3"], "reason": "unsure"})
    html = host.get("/corrections").get_data(as_text=True)
    assert 'name="action" value="play"' in html and "It was red 3" in html
    r = host.post("/corrections", data={"csrf_token": form_csrf(html), "action": "dismiss"})
    assert r.status_code == 303 and cam.dismissed == 1
    assert "Question closed" in host.get("/corrections").get_data(as_text=True)
    assert 'id="question" class="question" hidden' in host.get("/corrections").get_data(as_text=True)


def test_dismiss_needs_the_host(client, cam):
    tok = client.get("/api/session").get_json()["csrf"]
    r = client.post("/corrections", data={"csrf_token": tok, "action": "dismiss"})
    assert r.status_code in (302, 303, 401, 403) and cam.dismissed == 0


def test_camera_changes_go_out_live_once(app, cam, table):
    b = app.extensions["companion.live"]
    gen = b.stream(keepalive=0.05)
    event, snap = parse(next(gen))
    assert event == "snapshot" and snap["camera"]["state"] == "ok"
    cam.change(state="failed", error="unplugged", retry_in=4.0)
    cam.change(fps=12.0)                                     # nothing the page shows: no event
    event, data = parse(next(gen))
    assert event == "camera" and data["text"] == "Camera unplugged — retrying in 4 s"
    cam.change(question=QUESTION)
    event, data = parse(next(gen))
    assert event == "camera" and data["question"]["candidates"] == ["red 7", "red 1"]
    table.submit({"start": "red 7"})                         # a camera event never hides an update
    event, data = parse(next(gen))
    assert event == "update" and data["state"]["top"] == "red 7"
    assert next(gen) == b": keepalive\n\n"
    gen.close()
    b.close()
    assert cam.listeners == []


def test_pause_and_resume_from_the_corrections_page(client, table):
    host = host_of(client)
    html = host.get("/corrections").get_data(as_text=True)
    assert 'id="resume-form" hidden' in html and 'id="pause-form" hidden' not in html
    tok = form_csrf(html)
    r = host.post("/corrections", data={"csrf_token": tok, "action": "pause", "reason": "  pizza  "})
    assert r.status_code == 303 and table.paused["reason"] == "pizza"
    assert types_of(table.submit({"start": "red 7"}, source="camera")) == ["rejected"]
    html = host.get("/corrections").get_data(as_text=True)
    assert 'id="pause-form" hidden' in html and "Paused: pizza" in html
    assert "Paused: pizza" in client.get("/").get_data(as_text=True)
    assert "start" in types_of(table.submit({"start": "red 7"}, source="page"))   # the host still plays
    r = host.post("/corrections", data={"csrf_token": tok, "action": "resume"})
    assert r.status_code == 303 and table.paused is None
    r = host.post("/corrections", data={"csrf_token": tok, "action": "pause", "reason": ""})
    assert r.status_code == 303 and table.paused == {"reason": "", "seq": table.snapshot()["seq"]}


def test_pause_through_the_api(client, table):
    host = host_of(client)
    h = {"X-CSRF-Token": host.csrf}
    r = host.post("/api/input", json={"pause": "phone call"}, headers=h)
    assert r.status_code == 200 and r.get_json()["state"]["paused"]["reason"] == "phone call"
    assert r.get_json()["announcements"][0]["type"] == "paused"
    for bad in ({"pause": 5}, {"pause": ""}, {"pause": "x" * 81}, {"resume": "now"}, {"pause": True, "undo": True}):
        assert host.post("/api/input", json=bad, headers=h).status_code == 400
    r = host.post("/api/input", json={"resume": True}, headers=h)
    assert r.get_json()["state"]["paused"] is None
    assert client.post("/api/input", json={"pause": True}).status_code in (401, 403)


def types_of(out):
    return [a["type"] for a in out]


def test_mjpeg_stream_sends_frames_after_the_request(table):
    class Cam(FakeCamera):
        def latest_jpeg(self):
            return b"\xff\xd8frame"
    app = create_app(table, config={"HOST_PIN": PIN, "TESTING": True, "CAMERA": Cam()})
    c = host_of(app.test_client())
    r = c.get("/camera/stream.mjpg", buffered=False)
    first = next(iter(r.response))
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg") and b"\xff\xd8frame" in first
    r.close()
