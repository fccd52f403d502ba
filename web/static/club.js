// The club page, kept live: Server-Sent Events first, polling /api/club (with its ETag) when
// they fail or too many pages are open. Everything is set with textContent.
(function () {
  "use strict";
  var SYMBOLS = {"skip": "⊘", "reverse": "⇄", "draw two": "+2", "wild": "W", "wild draw four": "+4",
    "wild swap hands": "⇆", "wild shuffle hands": "⤨", "wild customizable": "✎", "wild seinfeld": "S"};
  var version = -1, tag = null, pollTimer = null;
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function drawCard(text) {
    var d = el("div", "card c-none");
    if (!text) { d.appendChild(el("span", "sym", "?")); d.appendChild(el("span", "words", "no card yet")); return d; }
    var words = String(text).split(" "), wild = words[0] === "wild", kind = wild ? text : words.slice(1).join(" ");
    d.className = "card " + (wild ? "c-wild" : "c-" + words[0]);
    d.setAttribute("role", "img"); d.setAttribute("aria-label", text);
    d.appendChild(el("span", "sym", SYMBOLS[kind] || kind)); d.appendChild(el("span", "words", text));
    return d;
  }
  function render(c) {
    if (!c || typeof c.version !== "number" || c.version <= version) return;
    version = c.version;
    var box = $("tables"); box.textContent = "";
    (c.tables || []).forEach(function (t) {
      var a = el("article", "club-table");
      a.appendChild(el("h3", "", t.table + (t.paused ? " (paused)" : "")));
      var pile = el("div", "pile"); pile.appendChild(drawCard(t.top));
      var facts = el("div", "facts");
      var col = el("p", "", "Colour: "); col.appendChild(el("span", t.color ? "chip c-" + t.color : "chip", t.color || "none"));
      facts.appendChild(col);
      var turn = el("p", "", "Turn: "); turn.appendChild(el("strong", "", t.current || "—"));
      if (t.round) turn.appendChild(document.createTextNode(" · round " + t.round));
      facts.appendChild(turn);
      if (t.winner) facts.appendChild(el("p", "winner", t.winner + " wins the game!"));
      pile.appendChild(facts); a.appendChild(pile);
      var ol = el("ol", "players");
      (t.players || []).forEach(function (p) {
        var li = el("li", p === t.current ? "turn" : "");
        li.appendChild(el("span", "name", p));
        li.appendChild(el("span", "count", ((t.hand_counts || {})[p] === undefined ? "?" : t.hand_counts[p]) + " cards"));
        li.appendChild(el("span", "score", ((t.scores || {})[p] || 0) + " pts"));
        ol.appendChild(li);
      });
      a.appendChild(ol); box.appendChild(a);
    });
    if (!(c.tables || []).length) box.appendChild(el("p", "empty", "No table has reported yet."));
    var tb = $("standings"); tb.textContent = "";
    (c.standings || []).forEach(function (s, i) {
      var tr = el("tr");
      [i + 1, s.player, s.points, s.games_won, s.rounds_won, s.games].forEach(function (v) { tr.appendChild(el("td", "", v)); });
      tb.appendChild(tr);
    });
    var rs = $("results"); rs.textContent = "";
    (c.results || []).forEach(function (r) {
      var li = el("li", "", r.table + ": ");
      li.appendChild(el("strong", "", r.winner));
      li.appendChild(document.createTextNode(" wins after " + r.rounds + " rounds (" +
        Object.keys(r.scores || {}).map(function (p) { return p + " " + r.scores[p]; }).join(", ") + ")"));
      rs.appendChild(li);
    });
    var tour = c.tournament, ts = $("tournament");
    ts.hidden = !tour;
    if (tour) {
      var st = $("tour-state") || ts.appendChild(el("p")), seat = $("tour-seating") || ts.appendChild(el("ul")),
          tst = $("tour-standings") || ts.appendChild(el("ol"));
      st.id = "tour-state"; seat.id = "tour-seating"; tst.id = "tour-standings";
      st.textContent = (tour.kind === "partners4" ? "Partners, 4 players" : "Partners, 8 players at 2 tables") + ": " +
        (tour.done ? "over." : "set " + tour.set + " of " + tour.sets + ", " + tour.hands_per_set + " hands each.");
      seat.textContent = "";
      Object.keys(tour.seating || {}).forEach(function (t) {
        var s = tour.seating[t];
        seat.appendChild(el("li", "", t + ": " + s[0] + " & " + s[2] + " against " + s[1] + " & " + s[3] + " (" +
          ((tour.hands || {})[t] || 0) + " of " + tour.hands_per_set + " hands)"));
      });
      tst.textContent = "";
      (tour.standings || []).forEach(function (s) {
        var parts = Object.keys(s["with"] || {}).map(function (p) { return "with " + p + " " + s["with"][p]; });
        tst.appendChild(el("li", "", s.player + ": " + s.points + " points" + (parts.length ? " (" + parts.join(", ") + ")" : "")));
      });
    }
    $("counts").textContent = c.events + " events from the tables" + (c.ignored ? "; " + c.ignored + " messages ignored" : "") + ".";
  }
  function status(text, on) { var l = $("live"); l.textContent = text; l.className = "live " + (on ? "on" : "off"); }
  function poll() {
    var h = {"Accept": "application/json"}; if (tag) h["If-None-Match"] = tag;
    fetch("/api/club", {cache: "no-store", headers: h}).then(function (r) {
      if (r.status === 304) { status("polling", true); return null; }
      tag = r.headers.get("ETag"); return r.ok ? r.json() : null;
    }).then(function (c) { if (c) { render(c); status("polling", true); } }).catch(function () { status("offline", false); });
  }
  function startPolling() { if (!pollTimer) { poll(); pollTimer = setInterval(poll, 2000); } }
  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    var es = new EventSource("/events"), failures = 0;
    es.addEventListener("open", function () { failures = 0; if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } status("live", true); });
    es.addEventListener("club", function (ev) { try { render(JSON.parse(ev.data)); } catch (e) {} });
    es.addEventListener("error", function () {
      failures += 1; status("reconnecting…", false);
      if (failures >= 2) startPolling();
      if (es.readyState === 2) { es.close(); setTimeout(connect, 5000); }
    });
  }
  try { render(JSON.parse($("club-data").textContent)); } catch (e) {}
  connect();
})();
