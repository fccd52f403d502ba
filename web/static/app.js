// The score page, kept live: Server-Sent Events first, polling /api/state when they fail.
// Everything shown is set with textContent (names are never parsed as HTML).
(function () {
  "use strict";
  var body = document.body;
  var page = body.dataset.page || "";
  var pollMs = parseInt(body.dataset.pollMs || "3000", 10);
  var liveEl = document.getElementById("live");
  var SYMBOLS = {"skip": "⊘", "reverse": "⇄", "draw two": "+2", "wild": "W", "wild draw four": "+4",
    "wild swap hands": "⇆", "wild shuffle hands": "⤨", "wild customizable": "✎", "wild seinfeld": "S"};
  var lastSeq = -1, lastRounds = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function setText(id, text) { var e = $(id); if (e) e.textContent = text; }
  function show(id, on) { var e = $(id); if (e) e.hidden = !on; }

  function drawCard(text) {
    var d = el("div", "card");
    if (!text) {
      d.className = "card c-none";
      d.setAttribute("aria-label", "no card yet");
      d.appendChild(el("span", "sym", "?"));
      d.appendChild(el("span", "words", "no card yet"));
      return d;
    }
    var words = String(text).split(" ");
    var wild = words[0] === "wild";
    var kind = wild ? text : words.slice(1).join(" ");
    d.className = "card " + (wild ? "c-wild" : "c-" + words[0]);
    d.setAttribute("role", "img");
    d.setAttribute("aria-label", text);
    d.appendChild(el("span", "sym", SYMBOLS[kind] || kind));
    d.appendChild(el("span", "words", text));
    return d;
  }
  function chip(c) { return el("span", c ? "chip c-" + c : "chip", c || "none"); }
  function replace(id, node) { var e = $(id); if (e) { e.textContent = ""; e.appendChild(node); } }
  function directionWords(d) {
    return (d === -1 || d === "counterclockwise" || d === "counter-clockwise" || d === "ccw")
      ? "counter-clockwise ↺" : "clockwise ↻";
  }
  function awaitingText(a) { return a ? (a.prompt || ("waiting for " + a.input)) : ""; }

  function renderCommon(s) {
    replace("top-card", drawCard(s.top));
    replace("colour", chip(s.color));
    setText("current", s.current || "—");
    setText("awaiting", awaitingText(s.awaiting));
  }

  function renderTable(s) {
    setText("direction", directionWords(s.direction));
    setText("pending-n", s.pending_draw || 0);
    show("pending", !!s.pending_draw);
    var u = s.uno || {}, warn = [];
    if (u.must_call) warn.push(u.must_call + " has one card: call UNO!");
    if (u.can_be_caught) warn.push(u.can_be_caught + " did not call UNO: catch them!");
    setText("uno-warning", warn.join(" ")); show("uno-warning", warn.length > 0);
    var w = s.game_winner ? s.game_winner + " wins the game!" : (s.round_winner ? s.round_winner + " wins the round." : "");
    setText("winner", w); show("winner", !!w);
    var ol = $("players");
    if (ol) {
      ol.textContent = "";
      var counts = s.hand_counts || {}, scores = s.scores || {};
      (s.players || []).forEach(function (p) {
        var li = el("li", (p === s.current ? "turn" : "") + (p === s.dealer ? " dealer" : ""));
        li.appendChild(el("span", "name", p));
        li.appendChild(el("span", "count", (counts[p] === undefined ? "?" : counts[p]) + " cards"));
        if (counts[p] === 1) li.appendChild(el("span", "uno", "UNO!"));
        li.appendChild(el("span", "score", (scores[p] || 0) + " pts"));
        ol.appendChild(li);
      });
      if (!(s.players || []).length) ol.appendChild(el("li", "empty", "No game yet."));
    }
    var an = $("announcements");
    if (an) {
      an.textContent = "";
      (s.announcements || []).slice(-8).reverse().forEach(function (a) {
        an.appendChild(el("li", "a-" + (a.type || ""), a.text));
      });
    }
  }

  function renderScores(s) {
    var target = s.target_score || 500;
    var ul = $("totals");
    if (ul) {
      ul.textContent = "";
      (s.players || []).forEach(function (p) {
        var pts = (s.scores || {})[p] || 0;
        var li = el("li");
        li.appendChild(el("span", "name", p));
        li.appendChild(el("span", "pts", pts));
        var pr = el("progress");
        pr.max = target; pr.value = Math.min(pts, target);
        pr.setAttribute("aria-label", p + ": " + pts + " of " + target);
        li.appendChild(pr);
        ul.appendChild(li);
      });
    }
    var rounds = JSON.stringify(s.rounds || []);
    if (rounds !== lastRounds) {
      if (lastRounds !== null) refreshChart();
      lastRounds = rounds;
      var tb = $("rounds");
      if (tb) {
        tb.textContent = "";
        (s.rounds || []).forEach(function (r, i) {
          var tr = el("tr");
          tr.appendChild(el("td", "", i + 1));
          tr.appendChild(el("td", "", r.winner || "—"));
          tr.appendChild(el("td", "", r.points || 0));
          tr.appendChild(el("td", "", penalties(r.penalties)));
          tb.appendChild(tr);
        });
        if (!(s.rounds || []).length) {
          var td = el("td", "empty", "No round finished yet."); td.colSpan = 4;
          var tr0 = el("tr"); tr0.appendChild(td); tb.appendChild(tr0);
        }
      }
    }
  }
  function penalties(p) {
    if (!p || (Array.isArray(p) && !p.length)) return "—";
    if (Array.isArray(p)) return p.map(function (x) {
      return typeof x === "object" && x ? (x.player || "?") + (x.points ? " (" + x.points + ")" : "") : String(x);
    }).join(", ");
    if (typeof p === "object") return Object.keys(p).map(function (k) { return k + ": " + p[k]; }).join(", ");
    return String(p);
  }
  function refreshChart() {
    var box = $("chart");
    if (!box) return;
    fetch("/chart.svg", {cache: "no-store"}).then(function (r) { return r.ok ? r.text() : null; })
      .then(function (t) {
        if (!t) return;
        var doc = new DOMParser().parseFromString(t, "image/svg+xml");
        var svg = doc.documentElement;
        if (svg && svg.nodeName === "svg") { box.textContent = ""; box.appendChild(document.importNode(svg, true)); }
      }).catch(function () {});
  }

  function renderCorrections(s) {
    // Keep the player lists of the forms in step with the table.
    var names = s.players || [];
    document.querySelectorAll("select[name=player]").forEach(function (sel) {
      var cur = Array.prototype.map.call(sel.options, function (o) { return o.value; });
      if (cur.join("\n") === names.join("\n")) return;
      var keep = sel.value;
      sel.textContent = "";
      names.forEach(function (n) { var o = el("option", "", n); o.value = n; sel.appendChild(o); });
      sel.value = keep;
    });
  }

  // Pause, camera faults and the camera's open question (same words as _status.html) ----------
  var lastAwaiting = null, lastCamera = null;
  function renderPaused(p) {
    setText("paused-banner", p ? "Paused" + (p.reason ? ": " + p.reason : "") +
      " — camera and buttons are ignored until the host resumes." : "");
    show("paused-banner", !!p);
    show("pause-form", !p);
    show("resume-form", !!p);
  }
  function renderCamera(c) {
    lastCamera = c || null;
    var q = c && c.question ? c.question : null;
    setText("camera-banner", (c && c.text) || "");
    show("camera-banner", !!(c && c.text));
    setText("question-text", q ? q.text : "");
    show("question-banner", !!q);
    show("question", !!q);
    renderAnswers();
  }
  function renderAnswers() {
    // One form per card the camera thought it saw: a play (or the first card) as the host's.
    var box = $("question-answers");
    if (!box) return;
    var q = lastCamera && lastCamera.question ? lastCamera.question : null;
    var action = lastAwaiting === "start" ? "start" : "play";
    var meta = document.querySelector("meta[name=csrf-token]");
    box.textContent = "";
    ((q && q.candidates) || []).forEach(function (c) {
      var f = el("form", "inline");
      f.method = "post"; f.action = "/corrections";
      [["csrf_token", meta ? meta.content : ""], ["action", action], ["card", c]].forEach(function (kv) {
        var i = el("input"); i.type = "hidden"; i.name = kv[0]; i.value = kv[1]; f.appendChild(i);
      });
      var b = el("button", "", "It was " + c); b.type = "submit"; f.appendChild(b);
      box.appendChild(f);
    });
  }
  function renderStatus(s) {
    if ("paused" in s) renderPaused(s.paused);
    var need = s.awaiting ? s.awaiting.input : null;
    if (need !== lastAwaiting) { lastAwaiting = need; renderAnswers(); }
    if ("camera" in s) renderCamera(s.camera);
  }

  function render(s) {
    if (!s || typeof s !== "object") return;
    if (typeof s.seq === "number") {
      if (s.seq < lastSeq) return;
      lastSeq = s.seq;
    }
    body.dataset.seq = String(s.seq);
    if (page === "table") { renderCommon(s); renderTable(s); renderStatus(s); }
    else if (page === "scores") renderScores(s);
    else if (page === "corrections") { renderCommon(s); renderCorrections(s); renderStatus(s); }
  }

  // Live feed ------------------------------------------------------------------------------
  var pollTimer = null, es = null, failures = 0;
  function status(text, on) {
    if (!liveEl) return;
    liveEl.textContent = text;
    liveEl.className = "live " + (on ? "on" : "off");
  }
  function poll() {
    fetch("/api/state?recent=20", {cache: "no-store", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) return;
        render(s);
        if (!es || es.readyState !== 1) { status("polling", true); speakPolled(s); }
      })
      .catch(function () { status("offline", false); });
  }
  function startPolling() {
    if (pollTimer) return;
    poll();
    pollTimer = setInterval(poll, pollMs);
  }
  function stopPolling() { if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } }
  function onMessage(ev) {
    var data;
    try { data = JSON.parse(ev.data); } catch (e) { return; }
    render(data.state || data);
    if (ev.type === "update") speakNew(data);
  }

  // Speaking the calls on this phone (off unless switched on; remembered per phone) -----------
  var SPEAK_KEY = "companion.speakCalls", spokenSeq = lastSeq;
  function speakingOn() { try { return localStorage.getItem(SPEAK_KEY) === "1"; } catch (e) { return false; } }
  function say(text) {
    var u = new SpeechSynthesisUtterance(text);
    u.lang = body.dataset.voiceLang || "en";
    window.speechSynthesis.speak(u);
  }
  function speakNew(data) {
    // Only announcements made after the page opened: an update newer than any spoken before.
    if (typeof data.seq !== "number" || data.seq <= spokenSeq) return;
    spokenSeq = data.seq;
    if (page === "table" && data.spoken && window.speechSynthesis && speakingOn()) say(data.spoken);
  }
  function speakPolled(s) {
    // Polling instead of the stream: the snapshot's recent lines newer than any spoken before.
    (s.spoken || []).forEach(function (x) {
      if (typeof x[0] === "number" && x[0] > spokenSeq) {
        if (page === "table" && window.speechSynthesis && speakingOn()) say(x[1]);
        spokenSeq = x[0];
      }
    });
    if (typeof s.seq === "number" && s.seq > spokenSeq) spokenSeq = s.seq;
  }
  function speakSwitch() {
    var box = $("speak-calls");
    if (!box || !window.speechSynthesis || !window.SpeechSynthesisUtterance) return;
    box.checked = speakingOn();
    show("speak-switch", true);
    box.addEventListener("change", function () {
      try { localStorage.setItem(SPEAK_KEY, box.checked ? "1" : "0"); } catch (e) {}
      if (box.checked) say(box.dataset.on || "Calls on");   // in the tap, so phones allow speech
      else window.speechSynthesis.cancel();
    });
  }
  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    es = new EventSource("/events");
    es.addEventListener("open", function () { failures = 0; stopPolling(); status("live", true); });
    es.addEventListener("snapshot", onMessage);
    es.addEventListener("update", onMessage);
    es.addEventListener("camera", function (ev) {
      try { renderCamera(JSON.parse(ev.data)); } catch (e) {}
    });
    es.addEventListener("error", function () {
      failures += 1;
      status("reconnecting…", false);
      if (failures >= 2) startPolling();   // the browser keeps retrying the stream meanwhile
      if (es.readyState === 2) { es.close(); setTimeout(connect, 5000); }
    });
  }

  // Camera ---------------------------------------------------------------------------------
  function camera() {
    var box = $("cam"), img = $("cam-img"), svg = $("cam-boxes");
    if (!box || !img || !svg) return;
    var NS = "http://www.w3.org/2000/svg";
    function boxes() {
      fetch(box.dataset.detections, {cache: "no-store"}).then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          if (!d || !img.naturalWidth) return;
          svg.setAttribute("viewBox", "0 0 " + img.naturalWidth + " " + img.naturalHeight);
          svg.textContent = "";
          var labels = $("cam-labels"); if (labels) labels.textContent = "";
          (d.detections || []).forEach(function (det) {
            var b = det.box, r = document.createElementNS(NS, "rect");
            r.setAttribute("x", b[0]); r.setAttribute("y", b[1]);
            r.setAttribute("width", Math.max(0, b[2] - b[0])); r.setAttribute("height", Math.max(0, b[3] - b[1]));
            svg.appendChild(r);
            var t = document.createElementNS(NS, "text");
            t.setAttribute("x", b[0]); t.setAttribute("y", Math.max(16, b[1] - 4));
            var words = det.label + (det.score !== null ? " " + Math.round(det.score * 100) + "%" : "");
            t.textContent = words; svg.appendChild(t);
            if (labels) labels.appendChild(el("li", "", words));
          });
        }).catch(function () {});
    }
    function tick() { img.src = box.dataset.frame + "?t=" + Date.now(); }
    img.addEventListener("load", function () { boxes(); setTimeout(tick, 700); });
    img.addEventListener("error", function () { setTimeout(tick, 2000); });
  }

  var initial = $("snapshot");
  if (initial) { try { render(JSON.parse(initial.textContent)); } catch (e) {} }
  spokenSeq = lastSeq;
  if (page === "table") speakSwitch();
  if (page === "table" || page === "scores" || page === "corrections") connect();
  if (page === "camera") camera();
})();
