"""Club night: tables publish their event logs through a real Mosquitto, the hub keeps every
event exactly once and its standings equal the tables' own scores, through a broker restart and
a table killed mid-game. Skipped where Debian's mosquitto is not installed."""
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from club_helpers import MOSQUITTO, MOSQUITTO_PASSWD, Broker, game_inputs, wait_for

from companion.club import messages as msg
from companion.club.hub import Hub, HubClient
from companion.club.hubstore import HubStore
from companion.club.publisher import ClubPublisher
from companion.config import ClubConfig, ConfigError, parse_config
from companion.table import Table

needs_broker = pytest.mark.skipif(MOSQUITTO is None, reason="Debian's mosquitto is not installed")
PLAYERS = ["Ann", "Ben", "Cat"]


def rows_of(table: Table, name: str, log_id: str = "ab12ab12") -> list[dict]:
    return [{"table": name, "log": log_id, **r} for r in table.log.since(0, 10**6)]


def topic_and_payload(r: dict) -> tuple[str, bytes]:
    return msg.topic("pub", r["table"], "events"), msg.event_message(r["table"], r["log"], r)


def test_the_hub_applies_events_once_in_order_and_asks_for_what_it_missed():
    t = Table(None)
    for ev in game_inputs(1, PLAYERS)[:60]:
        t.submit(ev)
    rows = rows_of(t, "t1")
    hub, asked = Hub(HubStore(None), "pub"), []
    hub.ask = lambda table, log_id, after: asked.append((table, after))
    order = rows[:10] + rows[12:20] + rows[5:12] + rows[20:] + rows[:3]       # a gap, late ones, duplicates
    for r in order:
        hub.handle(*topic_and_payload(r))
    assert asked and asked[0] == ("t1", 10)                 # it asked for what came after input 10
    assert hub.store.count("t1") == len(rows) and hub.duplicates == 8
    live = hub.tables()[0]
    assert live["scores"] == t.snapshot()["scores"] and live["top"] == t.snapshot()["top"]
    assert live["hand_counts"] == t.snapshot()["hand_counts"] and live["seq"] == rows[-1]["seq"]
    again = Hub(hub.store, "pub")                           # a restarted hub rebuilds from its database
    assert again.tables() == hub.tables()


def test_malformed_and_foreign_messages_are_ignored_and_counted():
    hub = Hub(HubStore(None), "pub")
    good = {"seq": 1, "prev": 0, "game": 1, "event": {"setup": {"players": PLAYERS}}, "source": "page", "at": "x"}
    assert hub.handle(msg.topic("pub", "t1", "events"), msg.event_message("t1", "ab12ab12", good))
    bad = [(msg.topic("pub", "t2", "events"), msg.event_message("t1", "ab12ab12", {**good, "seq": 2, "prev": 1})),
           (msg.topic("pub", "t1", "events"), b"not json"),
           (msg.topic("pub", "t1", "events"), b'{"v": 1, "table": "t1", "log": "zz", "seq": 2}'),
           (msg.topic("other", "t1", "events"), msg.event_message("t1", "ab12ab12", {**good, "seq": 2, "prev": 1})),
           (msg.topic("pub", "t1", "events"), msg.event_message("t1", "ab12ab12", {**good, "seq": 3, "prev": 5})),
           ("uno/pub/tables/t1/events/extra", b"{}"),
           (msg.topic("pub", "t1", "state"), b'{"v": 1, "table": "t1"}')]
    for topic, payload in bad:
        assert not hub.handle(topic, payload)
    assert hub.ignored == len(bad) and hub.store.count() == 1


def test_club_config_is_all_or_nothing(tmp_path):
    assert parse_config("").club is None
    cfg = parse_config('[club]\nbroker = "hub.local"\nclub = "pub"\ntable = "t1"\nusername = "t1"\npassword = "pw"\n')
    assert cfg.club == ClubConfig("hub.local", "pub", "t1", 1883, "t1", "pw", False, "")
    for bad, says in [('broker = "hub.local"', "half configured: club.club, club.table"),
                      ('broker = "h"\nclub = "a/b"\ntable = "t"', "club.club"),
                      ('broker = "h"\nclub = "a"\ntable = "t+"', "club.table"),
                      ('broker = "h"\nclub = "a"\ntable = "t"\nusername = "u"', "go together"),
                      ('broker = "h"\nclub = "a"\ntable = "t"\nca_file = "ca.pem"', "no file"),
                      ('broker = "h"\nclub = "a"\ntable = "t"\nbrokr = "x"', "club.brokr")]:
        with pytest.raises(ConfigError, match=says):
            parse_config(f"[club]\n{bad}\n", path=tmp_path / "table.toml")


def _play(table: Table, inputs: list[dict], pause: threading.Event, at: int) -> None:
    for i, ev in enumerate(inputs):
        table.submit(ev, source="sim")
        if i == at:
            pause.set()


def _check_hub(hub: Hub, tables: dict[str, Table]) -> None:
    for name, t in tables.items():
        seqs = [e["seq"] for e in hub.store.events() if e["table"] == name]
        assert seqs == list(range(1, t.log.last_seq() + 1)), name          # every event, once, in order
    live = {x["table"]: x for x in hub.tables()}
    points: dict[str, int] = {}
    for name, t in tables.items():
        assert live[name]["scores"] == t.snapshot()["scores"], name
        for p, s in t.snapshot()["scores"].items():
            points[p] = points.get(p, 0) + s
    assert {r["player"]: r["points"] for r in hub.standings()} == points
    finished = [t for t in tables.values() if t.snapshot().get("game_winner")]
    assert len(hub.results()) == len(finished)


@needs_broker
def test_three_tables_through_a_broker_restart(tmp_path):
    broker = Broker(tmp_path / "broker").start()
    hub = Hub(HubStore(tmp_path / "club.db"), "test")
    client = HubClient(hub, "127.0.0.1", broker.port).start()
    tables, pubs, threads, halfway = {}, [], [], []
    try:
        wait_for(lambda: client.connected, 10, "the hub to connect")
        for i in range(3):
            name = f"t{i + 1}"
            t = tables[name] = Table(tmp_path / f"{name}.db")
            pubs.append(ClubPublisher(t, ClubConfig("127.0.0.1", "test", name, broker.port)).start())
            inputs = game_inputs(i, PLAYERS)
            halfway.append(threading.Event())
            threads.append(threading.Thread(target=_play, args=(t, inputs, halfway[-1], len(inputs) // 3)))
        for th in threads:
            th.start()
        for h in halfway:
            assert h.wait(30)
        broker.stop()                                    # mid-game: the tables play on without it
        threads[0].join(60)
        broker.start()
        for th in threads:
            th.join(60)
        wait_for(lambda: all(hub.store.count(n) == t.log.last_seq() for n, t in tables.items())
                 and all(p.acked == t.log.last_seq() for p, t in zip(pubs, tables.values())), 60,
                 "every event at the hub")
        _check_hub(hub, tables)
        assert hub.ignored == 0
    finally:
        for p in pubs:
            p.close()
        client.close()
        broker.stop()


@needs_broker
def test_a_table_killed_mid_round_resumes_from_its_log(tmp_path):
    broker = Broker(tmp_path / "broker").start()
    hub = Hub(HubStore(tmp_path / "club.db"), "test")
    client = HubClient(hub, "127.0.0.1", broker.port).start()
    script = Path(__file__).with_name("club_table.py")
    db = tmp_path / "t1.db"
    cmd = [sys.executable, str(script), "--db", str(db), "--port", str(broker.port), "--table", "t1", "--seed", "2"]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if line.startswith("played 120"):
                break
        proc.send_signal(signal.SIGKILL)                  # mid-round, no goodbye
        proc.wait(10)
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert proc.stdout.strip().endswith("done"), proc.stderr
        t = Table(db)
        assert t.log.last_seq() == len(game_inputs(2, PLAYERS))
        wait_for(lambda: hub.store.count("t1") == t.log.last_seq(), 30, "every event at the hub")
        _check_hub(hub, {"t1": t})
        t.close()
    finally:
        client.close()
        broker.stop()


@needs_broker
@pytest.mark.skipif(MOSQUITTO_PASSWD is None, reason="mosquitto_passwd is not installed")
def test_a_table_publishes_under_its_own_topic_only(tmp_path):
    acl = (Path(__file__).resolve().parents[1] / "systemd" / "mosquitto-acl.example").read_text().replace("CLUB", "test")
    broker = Broker(tmp_path / "broker", users={"hub": "hubpw", "t1": "pw1", "t2": "pw2"}, acl=acl).start()
    hub = Hub(HubStore(None), "test")
    client = HubClient(hub, "127.0.0.1", broker.port, username="hub", password="hubpw").start()
    t1, t2 = Table(None), Table(None)
    for t in (t1, t2):
        t.submit({"setup": {"players": PLAYERS}})
    # t2 logs in with its own name but claims to be t1: the broker drops what it publishes
    rogue = ClubPublisher(t2, ClubConfig("127.0.0.1", "test", "t1", broker.port, "t2", "pw2")).start()
    honest = ClubPublisher(t1, ClubConfig("127.0.0.1", "test", "t1", broker.port, "t1", "pw1")).start()
    try:
        wait_for(lambda: hub.store.count("t1") == 1, 20, "t1's setup at the hub")
        t2.submit({"start": "red 5"})
        wait_for(lambda: rogue.published >= 2, 10, "the rogue to publish")
        t1.submit({"start": "blue 5"})
        wait_for(lambda: hub.store.count("t1") == 2, 10, "t1's start")
        assert hub.tables()[0]["top"] == "blue 5" and {e["log"] for e in hub.store.events()} == {honest.log_id}
        bad = ClubPublisher(Table(None), ClubConfig("127.0.0.1", "test", "t3", broker.port, "t3", "wrong")).start()
        wait_for(lambda: bad._warned, 10, "a refused login to be reported")
        bad.close()
    finally:
        rogue.close()
        honest.close()
        client.close()
        broker.stop()


def test_the_club_page_shows_tables_standings_and_results():
    from companion.club.page import create_club_app
    t = Table(None)
    inputs = game_inputs(0, PLAYERS)
    for ev in inputs:
        t.submit(ev)
    hub = Hub(HubStore(None), "pub")
    for r in rows_of(t, "t1"):
        hub.handle(*topic_and_payload(r))
    app = create_club_app(hub)
    c = app.test_client()
    html = c.get("/").get_data(as_text=True)
    winner = t.snapshot()["game_winner"]
    assert "UNO club: pub" in html and "t1" in html and f"<strong>{winner}</strong> wins after" in html
    r = c.get("/api/club")
    data = r.get_json()
    assert data["standings"][0]["player"] == winner and data["events"] == len(inputs)
    assert c.get("/api/club", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    hub.handle(msg.topic("pub", "t2", "events"), b"junk")      # nothing changed: still 304
    assert c.get("/api/club", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    app.extensions["companion.club"].close()


class FakeClient:
    """What the publisher uses of a paho client; acknowledgements are delivered by the test."""

    def __init__(self, *a, **kw):
        self.sent: list[tuple[int, str, dict]] = []
        self.mid = 0

    def publish(self, topic, payload, qos=0, retain=False):
        import json
        from types import SimpleNamespace
        self.mid += 1
        self.sent.append((self.mid, topic, json.loads(payload)))
        return SimpleNamespace(mid=self.mid)

    def subscribe(self, *a, **kw):
        pass


def test_acknowledgements_in_any_order_and_a_resend_leave_nothing_behind(tmp_path):
    import random
    t = Table(tmp_path / "t1.db")
    for ev in game_inputs(3, PLAYERS)[:30]:
        t.submit(ev)
    pub = ClubPublisher(t, ClubConfig("h", "pub", "t1"), client_factory=FakeClient)
    client = pub.client
    pub._on_connect(client, None, {}, 0)
    pub.step()
    events = [s for s in client.sent if s[1].endswith("/events")]
    assert [e[2]["seq"] for e in events] == list(range(1, 31)) and pub.acked == 0
    pub._on_message(client, None, type("M", (), {"payload": msg.resend_message(pub.log_id, 10)}))
    pub.step()                                      # 11..30 go out a second time
    again = [s for s in client.sent if s[1].endswith("/events")][30:]
    assert [e[2]["seq"] for e in again] == list(range(11, 31))
    mids = [s[0] for s in client.sent]
    random.Random(1).shuffle(mids)
    for mid in mids[: len(mids) // 2]:
        pub._on_publish(client, None, mid)
    pub.step()
    assert pub.acked < 30
    for mid in mids[len(mids) // 2:]:
        pub._on_publish(client, None, mid)
    pub.step()
    assert pub.acked == 30 and not pub._done and not pub._order
    assert int(t.log.mark(pub.key)) == 30           # written beside the log: a restart goes on from here
    pub2 = ClubPublisher(t, ClubConfig("h", "pub", "t1"), client_factory=FakeClient)
    assert pub2.acked == 30 and pub2.log_id == pub.log_id


@needs_broker
def test_the_club_demo_runs_a_broker_a_hub_and_three_tables(capsys):
    from companion.cli import main
    rc = main(["demo", "--club", "--fast", "--oracle", "--no-web", "--seed", "3"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "CLUB DEMO OVER" in out and "agrees with every table: every input once, the same scores" in out
    assert "0 messages ignored" in out


def _drive(table: Table, stop: threading.Event, seed: int) -> None:
    """Players at a table: play what the referee waits for, wait while paused or over."""
    import random
    import time

    from companion.demo.blind import next_input
    rng = random.Random(seed)
    while not stop.is_set():
        snap = table.snapshot()
        ev = None if snap.get("paused") or not snap.get("players") else next_input(snap, rng)
        if ev is None:
            time.sleep(0.02)
            continue
        try:
            table.submit(ev, source="button")
        except ValueError:
            pass


def _sheet_points(db: Path, seatings: list[list[str]]) -> dict[str, int]:
    """The sheet's points straight from a table's own event log: each set's game, its first 4 hands."""
    from companion.club.tournament import points
    from companion.store import EventLog
    log, hands = EventLog(db), []
    for g in log.games():
        replay = Table(None)
        for e in log.events(g):
            replay.submit(e["event"])
        snap = replay.snapshot()
        if snap.get("players") in seatings:
            hands += (snap.get("rounds") or [])[:4]
    log.close()
    return points(hands)


@needs_broker
@pytest.mark.parametrize("kind,players,tables,hands", [
    ("partners4", ["Ann", "Ben", "Cat", "Dan"], ["t1"], 12),
    ("partners8", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"], ["t1", "t2"], 28)])
def test_a_partner_tournament_seats_every_table_set_after_set(tmp_path, kind, players, tables, hands):
    broker = Broker(tmp_path / "broker").start()
    hub = Hub(HubStore(tmp_path / "club.db"), "test")
    client = HubClient(hub, "127.0.0.1", broker.port).start()
    stop, pubs, drivers, at = threading.Event(), [], [], {}
    try:
        for i, name in enumerate(tables):
            t = at[name] = Table(tmp_path / f"{name}.db")
            t.submit({"setup": {"players": ["Zoe", "Yan"]}})       # a casual game before the tournament
            pubs.append(ClubPublisher(t, ClubConfig("127.0.0.1", "test", name, broker.port)).start())
            drivers.append(threading.Thread(target=_drive, args=(t, stop, i), daemon=True))
        wait_for(lambda: client.connected and all(p.connected for p in pubs), 10, "everyone connected")
        view = hub.start_tournament(kind, players, tables)
        assert view["sets"] == {"partners4": 3, "partners8": 7}[kind]
        for d in drivers:
            d.start()
        wait_for(lambda: hub.director.view()["done"], 240, "the tournament to end")
        stop.set()
        for d in drivers:
            d.join(5)
        view = hub.director.view()
        assert view["hands_played"] == hands * len(tables)        # the sheet's 12, or 28 at each table
        sets = hub.director.t["sets"]
        pairs = [frozenset((s[a], s[a + 2])) for st in sets for s in st.values() for a in (0, 1)]
        assert len(pairs) == len(set(pairs)) == len(players) * (len(players) - 1) // 2   # everyone with everyone, once
        sheet: dict[str, int] = {}
        for name, t in at.items():
            wait_for(lambda: hub.store.count(name) == t.log.last_seq(), 30, "every event at the hub")
            for p, pts in _sheet_points(tmp_path / f"{name}.db", [st[name] for st in sets]).items():
                sheet[p] = sheet.get(p, 0) + pts
        assert {s["player"]: s["points"] for s in view["standings"]} == {p: sheet.get(p, 0) for p in players}
        for s in view["standings"]:                    # each player's points, kept per partnership
            assert sum(s["with"].values()) == s["points"] and set(s["with"]) <= set(players) - {s["player"]}
        for t in at.values():
            wait_for(lambda: not (t.snapshot().get("paused") or {}), 10, "the last pause to be lifted")
    finally:
        stop.set()
        for p in pubs:
            p.close()
        client.close()
        broker.stop()


def test_the_page_shows_the_tournament_seating_and_its_standings():
    from companion.club.page import create_club_app
    hub, sent = Hub(HubStore(None), "pub"), []
    hub.director.publish = lambda table, seating: sent.append((table, seating))
    hub.start_tournament("partners8", [f"P{i}" for i in range(8)], ["t1", "t2"])
    assert [t for t, _ in sent] == ["t1", "t2"] and sent[0][1]["setup"]["rules"]["partners"] is True
    with pytest.raises(ValueError, match="a tournament is running"):
        hub.start_tournament("partners4", ["A", "B", "C", "D"], ["t1"])
    app = create_club_app(hub)
    html = app.test_client().get("/").get_data(as_text=True)
    assert "set 1 of 7, 4 hands each" in html and "t1: P0 &amp; P1 against" in html
    again = Hub(hub.store, "pub")                       # a restarted hub carries on with the tournament
    assert again.director.view() == hub.director.view() and not again.director.view()["done"]
    hub.director.stop()
    assert sent[-1] == ("t2", None)                     # seatings cleared when it stops
    app.extensions["companion.club"].close()


def test_only_the_host_starts_or_stops_a_tournament_from_the_page():
    import re
    from companion.club.page import create_club_app
    hub = Hub(HubStore(None), "pub")
    app = create_club_app(hub, pin="2468", testing=True)
    c = app.test_client()
    token = lambda html: re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)   # noqa: E731
    html = c.get("/").get_data(as_text=True)
    form = {"action": "start", "kind": "partners4", "players": "Ann, Ben, Cat, Dan", "tables": "t1"}
    assert c.post("/tournament", data=form).status_code == 403                     # no CSRF token
    r = c.post("/tournament", data={**form, "csrf_token": token(html)})
    assert r.status_code == 401 and hub.director.view() is None                     # not the host
    assert c.post("/host", data={"pin": "1111", "csrf_token": token(html)}).status_code == 403
    r = c.post("/host", data={"pin": "2468", "csrf_token": token(html)}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "Start a partner tournament" in html
    r = c.post("/tournament", data={**form, "players": "Ann, Ben", "csrf_token": token(html)})
    assert r.status_code == 400 and "exactly 4 different players" in r.get_data(as_text=True)
    r = c.post("/tournament", data={**form, "csrf_token": token(html)}, follow_redirects=True)
    assert "set 1 of 3 seated" in r.get_data(as_text=True) and hub.director.view()["sets"] == 3
    r = c.post("/tournament", data={"action": "stop", "csrf_token": token(html)}, follow_redirects=True)
    assert hub.director.view()["done"] and "Tournament stopped" in r.get_data(as_text=True)
    app.extensions["companion.club"].close()


@needs_broker
def test_companion_run_with_a_club_section_publishes_the_table(tmp_path, monkeypatch):
    import argparse

    import companion.panel
    from companion.run import main
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(companion.panel, "_factory", None)
    broker = Broker(tmp_path / "broker").start()
    hub = Hub(HubStore(None), "pub")
    client = HubClient(hub, "127.0.0.1", broker.port).start()
    cfg = tmp_path / "table.toml"
    cfg.write_text(f"[table]\nplayers = ['Ann', 'Ben']\ndb = 'game.db'\n[club]\nbroker = '127.0.0.1'\n"
                   f"port = {broker.port}\nclub = 'pub'\ntable = 'hall'\n")
    try:
        wait_for(lambda: client.connected, 10, "the hub to connect")
        assert main(argparse.Namespace(config=str(cfg), no_camera=True, no_web=True, run_for=2.0)) == 0
        wait_for(lambda: hub.store.count("hall") == 1, 10, "the table's setup at the hub")
        assert hub.tables()[0]["players"] == ["Ann", "Ben"]
    finally:
        client.close()
        broker.stop()


def _certificates(folder: Path) -> tuple[str, str, str]:
    """A CA and a server certificate for 127.0.0.1 it signed (openssl)."""
    def run(*cmd):
        subprocess.run(cmd, check=True, capture_output=True, cwd=folder)
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=club test CA")
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName = IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
    return str(folder / "ca.pem"), str(folder / "server.pem"), str(folder / "server.key")


@needs_broker
@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_a_table_and_the_hub_over_tls(tmp_path):
    certs = tmp_path / "certs"
    certs.mkdir()
    ca, cert, key = _certificates(certs)
    broker = Broker(tmp_path / "broker", tls=(ca, cert, key)).start()
    hub = Hub(HubStore(None), "pub")
    client = HubClient(hub, "127.0.0.1", broker.port, tls=True, ca_file=ca).start()
    cfg = parse_config(f'[club]\nbroker = "127.0.0.1"\nport = {broker.port}\nclub = "pub"\ntable = "t1"\n'
                       f'tls = true\nca_file = "{ca}"\n').club
    t = Table(None)
    t.submit({"setup": {"players": PLAYERS}})
    pub = ClubPublisher(t, cfg).start()
    stranger = ClubPublisher(Table(None), ClubConfig("127.0.0.1", "pub", "t2", broker.port, tls=True)).start()
    try:
        wait_for(lambda: hub.store.count("t1") == 1, 20, "t1's setup over TLS")
        wait_for(lambda: stranger._warned, 10, "a table that does not trust the broker's certificate to say so")
        assert not stranger.connected and hub.store.count("t2") == 0
    finally:
        pub.close()
        stranger.close()
        client.close()
        broker.stop()


@needs_broker
def test_companion_club_serves_the_hub_and_refuses_bad_options(tmp_path, capsys):
    import json
    import urllib.request

    from companion.cli import main
    from companion.club.broker import free_port
    broker = Broker(tmp_path / "broker").start()
    web = free_port()
    base = ["club", "--broker", "127.0.0.1", "--port", str(broker.port), "--db", str(tmp_path / "club.db")]
    try:
        assert main(base + ["--club", "a b"]) == 2
        assert main(base + ["--club", "pub", "--pin", "12"]) == 2
        assert main(base + ["--club", "pub", "--tournament", "partners4", "--players", "Ann,Ben", "--tables", "t1"]) == 2
        rc: list[int] = []
        th = threading.Thread(target=lambda: rc.append(main(base + ["--club", "pub", "--web-port", str(web), "--host",
                                                                    "127.0.0.1", "--pin", "2468", "--run-for", "3"])))
        th.start()
        t = Table(None)
        t.submit({"setup": {"players": PLAYERS}})
        pub = ClubPublisher(t, ClubConfig("127.0.0.1", "pub", "t1", broker.port)).start()

        def seen():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web}/api/club", timeout=1) as r:
                    return json.load(r)["events"] == 1
            except OSError:
                return False
        wait_for(seen, 10, "the hub's page to show t1's setup")
        pub.close()
        th.join(10)
        assert rc == [0] and "host PIN 2468" in capsys.readouterr().out
    finally:
        broker.stop()


def test_the_club_modules_examples_hold():
    import doctest

    import companion.club.hubstore
    import companion.club.messages
    import companion.club.tournament
    for mod in (companion.club.messages, companion.club.hubstore, companion.club.tournament):
        result = doctest.testmod(mod)
        assert result.failed == 0 and result.attempted, mod.__name__
