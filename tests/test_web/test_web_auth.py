"""Host login: PIN, session cookie flags, CSRF, rate limit."""
from web_helpers import PIN, csrf_of, form_csrf, login

from companion.web import create_app
from companion.web.auth import PinLimiter


def test_login_page_and_form_login(client):
    html = client.get("/login").get_data(as_text=True)
    tok = form_csrf(html)
    r = client.post("/login", data={"pin": PIN, "csrf_token": tok, "next": "/corrections"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/corrections")
    assert client.get("/corrections").status_code == 200


def test_wrong_pin_is_refused(client):
    html = client.get("/login").get_data(as_text=True)
    r = client.post("/login", data={"pin": "000000", "csrf_token": form_csrf(html)})
    assert r.status_code == 403
    assert "Wrong PIN" in r.get_data(as_text=True)
    assert client.get("/corrections").status_code == 302


def test_session_cookie_is_httponly_and_strict(client):
    r = login(client)
    cookies = r.headers.getlist("Set-Cookie")
    assert cookies
    assert all("HttpOnly" in c and "SameSite=Strict" in c for c in cookies)


def test_post_without_csrf_is_refused(client):
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 403
    r = client.post("/login", data={"pin": PIN})
    assert r.status_code == 403
    assert "reload" in r.get_data(as_text=True)


def test_csrf_of_another_session_is_refused(app):
    a, b = app.test_client(), app.test_client()
    tok_a = csrf_of(a)
    csrf_of(b)
    r = b.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok_a})
    assert r.status_code == 403


def test_pin_attempts_are_rate_limited(client):
    for _ in range(5):
        assert login(client, "111111").status_code == 403
    r = login(client, PIN)
    assert r.status_code == 429
    assert "wait" in r.get_json()["message"]


def test_limiter_window_and_reset():
    now = [0.0]
    lim = PinLimiter(per_client=2, overall=3, window=10, clock=lambda: now[0])
    lim.failed("a"), lim.failed("a")
    assert lim.retry_after("a") == 10
    assert lim.retry_after("b") == 0
    lim.failed("b")
    assert lim.retry_after("c") > 0          # three failures overall
    now[0] = 10.5
    assert lim.retry_after("a") == 0 and lim.retry_after("c") == 0


def test_pages_for_the_host_redirect_to_login(client):
    for path in ("/setup", "/corrections", "/camera"):
        r = client.get(path)
        assert r.status_code == 302 and "/login" in r.headers["Location"]


def test_next_never_leaves_the_site(client):
    html = client.get("/login").get_data(as_text=True)
    r = client.post("/login", data={"pin": PIN, "csrf_token": form_csrf(html),
                                    "next": "//evil.example/"})
    assert r.status_code == 303 and r.headers["Location"] == "/"


def test_logout(host):
    r = host.post("/api/logout", headers={"X-CSRF-Token": host.csrf})
    assert r.get_json() == {"host": False}
    assert host.get("/corrections").status_code == 302


def test_a_new_pin_logs_the_host_out(app, host):
    app.config["HOST_PIN"] = "999999"
    assert host.get("/api/session").get_json()["host"] is False


def test_random_pin_when_none_given(table, caplog):
    app = create_app(table, config={"TESTING": True})
    pin = app.config["HOST_PIN"]
    assert len(pin) == 6 and pin.isdigit()
    assert pin in caplog.text
