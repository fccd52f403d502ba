"""The pages: table and scores for all, setup/corrections/camera for the host."""
import re

from web_helpers import PIN, form_csrf

from companion.web import create_app


def test_table_page(client):
    html = client.get("/").get_data(as_text=True)
    assert "Ann" in html and "Ben" in html and "Cat" in html
    assert 'id="top-card"' in html and 'id="snapshot"' in html
    assert "/static/app.js" in html and "/static/style.css" in html
    assert "http://" not in re.sub(r'xmlns="http://www.w3.org/2000/svg"', "", html)  # nothing external


def test_top_card_is_drawn_with_its_words(host, table):
    host.post("/api/input", json={"start": "blue 5"}, headers={"X-CSRF-Token": host.csrf})
    html = host.get("/").get_data(as_text=True)
    assert 'class="card c-blue"' in html
    assert '<span class="words">blue 5</span>' in html
    assert 'class="chip c-blue">blue</span>' in html


def test_names_are_escaped(host, table):
    r = host.post("/api/setup", json={"players": ["<script>x</script>", "B&B"]},
                  headers={"X-CSRF-Token": host.csrf})
    assert r.status_code == 200
    for path in ("/", "/scores", "/corrections", "/chart.svg"):
        html = host.get(path).get_data(as_text=True)
        assert "<script>x" not in html, path


def test_scores_page_has_chart_and_rounds(client):
    html = client.get("/scores").get_data(as_text=True)
    assert "<svg" in html and "Total points after each round" in html
    assert "Rounds" in html


def test_join_page_and_qr(client):
    html = client.get("/join").get_data(as_text=True)
    assert "<svg" in html and "http://" in html
    r = client.get("/qr.svg")
    assert r.mimetype == "image/svg+xml" and r.data.startswith(b"<svg")


def test_qr_uses_public_url(table):
    app = create_app(table, config={"HOST_PIN": PIN, "PUBLIC_URL": "http://10.1.2.3:8080/"})
    html = app.test_client().get("/join").get_data(as_text=True)
    assert "http://10.1.2.3:8080/" in html


def test_setup_form(host, table):
    html = host.get("/setup").get_data(as_text=True)
    assert "★" in html and "seinfeld episode" in html and "stacking" in html
    r = host.post("/setup", data={"csrf_token": form_csrf(html), "players": "Dee\nEve\nFay",
                                  "dealer": "Fay", "deck": "classic", "stacking": "same",
                                  "uno_penalty": "4", "target_score": "300"})
    assert r.status_code == 303, r.get_data(as_text=True)
    assert table.snapshot()["players"] == ["Dee", "Eve", "Fay"]


def test_setup_form_error_is_shown(host):
    html = host.get("/setup").get_data(as_text=True)
    r = host.post("/setup", data={"csrf_token": form_csrf(html), "players": "Solo"})
    assert r.status_code == 400
    assert "from 2 to" in r.get_data(as_text=True)


def test_corrections_forms(host, table):
    html = host.get("/corrections").get_data(as_text=True)
    tok = form_csrf(html)
    for action in ("undo", "fix", "play", "color", "draw", "uno", "catch", "points", "new_round"):
        assert f'value="{action}"' in html
    r = host.post("/corrections", data={"csrf_token": tok, "action": "start", "card": "green 3"})
    assert r.status_code == 303
    assert table.snapshot()["top"] == "green 3"
    r = host.post("/corrections", data={"csrf_token": tok, "action": "fix", "card": "green 4"})
    assert r.status_code == 303, r.get_data(as_text=True)
    assert table.snapshot()["top"] == "green 4"
    r = host.post("/corrections", data={"csrf_token": tok, "action": "play", "card": "mauve 3"})
    assert r.status_code == 400 and "cannot read card" in r.get_data(as_text=True)
    r = host.post("/corrections", data={"csrf_token": tok, "action": "explode"})
    assert r.status_code == 400


class FakeCamera:
    def latest_jpeg(self):
        return b"\xff\xd8\xff\xe0fake\xff\xd9"

    def latest_detections(self):
        return [{"box": (10, 20, 110, 170), "label": "red 7", "score": 0.93},
                type("D", (), {"bbox": (1, 2, 3, 4), "card": "wild", "confidence": 0.5})(),
                {"nonsense": True}]


def test_camera_page_with_camera(table):
    app = create_app(table, config={"HOST_PIN": PIN, "CAMERA": FakeCamera()})
    c = app.test_client()
    assert c.get("/camera/frame.jpg").status_code == 302
    tok = c.get("/api/session").get_json()["csrf"]
    c.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok})
    assert 'id="cam-img"' in c.get("/camera").get_data(as_text=True)
    r = c.get("/camera/frame.jpg")
    assert r.mimetype == "image/jpeg" and r.data.startswith(b"\xff\xd8")
    d = c.get("/camera/detections").get_json()
    assert d["detections"] == [{"box": [10.0, 20.0, 110.0, 170.0], "label": "red 7", "score": 0.93},
                               {"box": [1.0, 2.0, 3.0, 4.0], "label": "wild", "score": 0.5}]


def test_camera_page_without_camera(host):
    assert "No camera" in host.get("/camera").get_data(as_text=True)
    assert host.get("/camera/frame.jpg").status_code == 404
    assert host.get("/camera/detections").get_json() == {"camera": False, "detections": []}


def test_html_errors_have_no_traceback(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404
    text = r.get_data(as_text=True)
    assert "Not Found" in text and "Traceback" not in text


def test_static_files_are_local(client):
    for name in ("style.css", "app.js", "icon.svg"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200
        assert b"https://" not in r.data and b"@import" not in r.data
    assert b"prefers-color-scheme: dark" in client.get("/static/style.css").data
