// The board page: draws what the server's view of this tab's board holds, and turns clicks
// and keys into requests. The server judges everything (moves, set-up pegs, files); the page
// only draws, and polls while the bot thinks or the analysis runs.
(function () {
  "use strict";
  var geom = JSON.parse(document.getElementById("geometry").textContent);
  var svg = document.getElementById("board");
  var NS = svg.namespaceURI;
  var POLL_MS = 200;
  var state = { id: null, view: null, setup: null, analysedVersion: -1, timer: null };
  // What other scripts of the page (graph.js) draw from each view.
  var hooks = [];

  function $(id) { return document.getElementById(id); }

  // "E5" -> [4, 4] (column, row from 0).
  function at(cell) { return [cell.charCodeAt(0) - 65, parseInt(cell.slice(1), 10) - 1]; }
  function centre(a) { return [geom.margin + a[0] * geom.step, geom.margin + a[1] * geom.step]; }
  function name(x, y) { return String.fromCharCode(65 + x) + (y + 1); }

  function add(parent, tag, attrs) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    parent.appendChild(e);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function segment(parent, a, b, cls) {
    var p = centre(a), q = centre(b);
    add(parent, "line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], "class": cls });
  }

  // ---- requests ----
  function request(method, path, body, type) {
    var init = { method: method, headers: {} };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      init.headers["Content-Type"] = type || "application/json";
    }
    return fetch(path, init).then(function (r) {
      return r.text().then(function (text) {
        var json = null;
        try { json = JSON.parse(text); } catch (e) { json = null; }
        if (!r.ok) {
          var err = new Error(json && json.error ? json.error : r.status + " " + text);
          err.status = r.status;
          throw err;
        }
        return json === null ? text : json;
      });
    });
  }
  function api(method, path, body, type) {
    return request(method, "/api/boards/" + state.id + path, body, type);
  }
  function fail(e) { $("error").textContent = e.message; }
  // A request whose answer is the board's view.
  function act(method, path, body) { return api(method, path, body).then(show).catch(fail); }

  // ---- drawing ----
  function drawPieces(v) {
    var g = $("pieces");
    clear(g);
    v.drawn.chain.forEach(function (l) { segment(g, l[0].at, l[1].at, "glow"); });
    v.drawn.links.forEach(function (l) { segment(g, l.a.at, l.b.at, "link p" + l.p); });
    v.drawn.pegs.forEach(function (p) {
      var c = centre(p.at);
      var e = add(g, "circle", { cx: c[0], cy: c[1], r: 9, "class": "peg p" + p.p, "data-cell": p.cell });
      add(e, "title", {}).textContent = p.cell;
    });
    if (v.drawn.last) {
      var r = centre(v.drawn.last.at);
      add(g, "circle", { cx: r[0], cy: r[1], r: 14, "class": "ring" });
    }
  }

  function drawAnalysis(v) {
    var heat = $("heat"), line = $("line");
    clear(heat);
    clear(line);
    var a = v.analysis;
    if (!a || !a.heat.length) return;
    var top = Math.max.apply(null, a.heat.map(function (h) { return h[1]; })) || 1;
    // Only the moves the search visited; the square root keeps the lesser ones visible.
    a.heat.forEach(function (h) {
      if (h[1] <= 0) return;
      var c = centre(at(h[0]));
      var opacity = 0.15 + 0.75 * Math.sqrt(Math.min(1, h[1] / top));
      var e = add(heat, "circle", { cx: c[0], cy: c[1], r: 17, "class": "heat", "fill-opacity": opacity.toFixed(3), "data-cell": h[0] });
      add(e, "title", {}).textContent = h[0] + " " + (100 * h[1]).toFixed(1) + "%";
    });
    if (!a.lines.length) return;
    a.lines[0].line.forEach(function (mv, i) {
      if (mv === "SWAP") return;
      var p = (v.to_move + i) % 2;
      var c = centre(at(mv));
      add(line, "circle", { cx: c[0], cy: c[1], r: 10, "class": "pv p" + p, "data-cell": mv });
      add(line, "text", { x: c[0], y: c[1] + 4, "class": "pvnum p" + p }).textContent = String(i + 1);
    });
  }

  function makeSpots() {
    var g = $("spots");
    for (var y = 0; y < 12; y++) {
      for (var x = 0; x < 12; x++) {
        if ((x === 0 || x === 11) && (y === 0 || y === 11)) continue;
        var c = centre([x, y]);
        var e = add(g, "circle", { cx: c[0], cy: c[1], r: 17, "class": "spot", "data-cell": name(x, y) });
        e.addEventListener("click", onHole);
      }
    }
  }

  function markSpots(v) {
    var legal = {};
    v.legal.forEach(function (c) { legal[c] = true; });
    document.querySelectorAll("#spots .spot").forEach(function (e) {
      e.classList.toggle("legal", !!legal[e.dataset.cell] || !!state.setup);
    });
    svg.classList.toggle("thinking", v.thinking);
  }

  function drawMoves(v) {
    window.TwixtMoves.draw($("moves"), v, gotoNode);
    $("ply-label").textContent = "move " + v.ply + " / " + v.length;
    $("delete").disabled = v.thinking || v.node === "" || v.mode === "setup";
    $("promote").disabled = v.thinking || /^[0.]*$/.test(v.node) || v.mode === "setup";
  }

  var SIDES = ["red (player 0, rows)", "blue (player 1, columns)"];

  function statusText(v) {
    if (v.mode === "setup") return "Set-up position, " + SIDES[v.to_move] + " to move: analysis only";
    if (v.over) {
      var who = v.over.winner === null ? "Draw" : "Player " + v.over.winner + " wins";
      return who + " (" + v.over.reason + "): " + v.over.text;
    }
    if (v.thinking) return "The bot is thinking…";
    var text = SIDES[v.to_move] + " to move";
    if (v.seat !== null) text += v.seat === v.to_move ? ": your move" : ": the bot's move (Bot, play here)";
    if (v.swap_allowed) text += "; SWAP is allowed";
    return text;
  }

  function drawLines(a) {
    var body = $("lines").tBodies[0];
    clear(body);
    if (!a) { $("analysis-info").textContent = ""; return; }
    a.lines.forEach(function (l) {
      var tr = document.createElement("tr");
      [l.mv, l.visits, (100 * l.share).toFixed(1) + "%", (100 * l.value).toFixed(1) + "%",
        (100 * l.prior).toFixed(1) + "%", l.line.join(" ")].forEach(function (t) {
        var td = document.createElement("td");
        td.textContent = t;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    var info = (a.running ? "searching: " : "searched: ") + a.iterations + " iterations in " +
      (a.ms / 1000).toFixed(1) + " s of at most " + (a.limit_ms / 1000).toFixed(0) + " s";
    if (a.ended) info += " (" + a.ended + ")";
    if (a.note) info += ". " + a.note;
    $("analysis-info").textContent = info;
  }

  function show(v) {
    // A poll sent before a change can answer after it: an older view of this board is not
    // drawn over the newer one (the version counts the board's changes).
    var shown = state.view;
    if (shown && state.viewOf === state.id && v.version < shown.version) return;
    state.view = v;
    state.viewOf = state.id;
    $("error").textContent = v.bot_note || "";
    drawPieces(v);
    drawAnalysis(v);
    markSpots(v);
    drawMoves(v);
    drawLines(v.analysis);
    $("status").textContent = statusText(v);
    $("bot-name").textContent = "The bot: " + v.bot;
    $("swap").disabled = !v.swap_allowed || v.thinking;
    $("takeback").disabled = v.thinking || v.ply === 0 || v.mode === "setup";
    $("botmove").disabled = v.thinking || !!v.over || v.mode === "setup";
    $("stop").disabled = !(v.analysis && v.analysis.running);
    $("turn-link").href = "/api/boards/" + state.id + "/turn";
    $("record-link").href = "/api/boards/" + state.id + "/record";
    $("tree-link").href = "/api/boards/" + state.id + "/tree";
    if (v.mode !== "setup") state.setup = null;
    hooks.forEach(function (h) { h(v); });
    follow(v);
    schedule(v);
  }

  // With "follow", a new position is analysed as soon as it is shown.
  function follow(v) {
    if (!$("follow").checked || state.analysedVersion < 0 || v.version === state.analysedVersion) return;
    if (v.thinking || v.over) return;
    analyse();
  }

  function schedule(v) {
    if (state.timer) return;
    if (v.thinking || (v.analysis && v.analysis.running) || (v.graph && v.graph.running)) {
      state.timer = setTimeout(function () {
        state.timer = null;
        api("GET", "").then(show).catch(fail);
      }, POLL_MS);
    }
  }

  // ---- actions ----
  function goto(ply) {
    var v = state.view;
    if (!v || v.thinking) return;
    ply = Math.max(0, Math.min(ply, v.length));
    if (ply === v.ply && v.mode === "game") return;
    act("POST", "/goto", { ply: ply });
  }

  // Goes to a node of the tree ("0.1.0"; an array of indices is what the route takes).
  function nodePath(node) { return node === "" ? [] : node.split(".").map(Number); }
  function gotoNode(node) {
    var v = state.view;
    if (!v || v.thinking || (node === v.node && v.mode === "game")) return;
    act("POST", "/node", { node: nodePath(node) });
  }

  function onHole(e) {
    var cell = e.currentTarget.dataset.cell;
    if (state.setup) {
      var colour = Number(document.querySelector("input[name=colour]:checked").value);
      var kept = state.setup.filter(function (p) { return p[0] !== cell; });
      if (kept.length === state.setup.length) kept.push([cell, colour]);
      postSetup(kept);
    } else {
      act("POST", "/play", { move: cell });
    }
  }

  function postSetup(pegs) {
    var toMove = Number($("setup-to-move").value);
    api("POST", "/setup", { pegs: pegs, to_move: toMove }).then(function (v) {
      state.setup = pegs;
      show(v);
      state.setup = pegs;
      markSpots(v);
    }).catch(fail);
  }

  // The pegs of the game shown, in the order they were placed (a swap puts player 0's first
  // peg, mirrored, down for player 1): setting them up again gives the same links.
  function placedSoFar(v) {
    var pegs = [];
    v.moves.slice(0, v.ply).forEach(function (m, i) {
      if (m.mv === "SWAP") {
        var first = at(pegs[0][0]);
        pegs = [[name(first[1], first[0]), 1]];
      } else {
        pegs.push([m.mv, i % 2]);
      }
    });
    return pegs;
  }

  function analyse() {
    var s = Number($("analysis-s").value) || 30;
    var version = state.view ? state.view.version : -1;
    state.analysedVersion = version;
    act("POST", "/analysis", { ms: Math.round(s * 1000) });
  }

  function seatAndClock() {
    var seat = document.querySelector("input[name=seat]:checked").value;
    var body = { seat: seat === "" ? null : Number(seat) };
    if (document.querySelector("input[name=clock]:checked").value === "ms") body.ms = Number($("clock-ms").value);
    return body;
  }

  function loadGames(answer) {
    var list = $("gamelist");
    clear(list);
    answer.games.forEach(function (g) {
      var o = document.createElement("option");
      o.value = g.n;
      o.textContent = g.n + ". " + g.title + ": " + g.moves + " moves" + (g.end ? ", " + g.end : "");
      list.appendChild(o);
    });
    if (list.options.length) list.options[0].selected = true;
    var left = $("left-out");
    clear(left);
    var more = answer.left_out_more ? ["and " + answer.left_out_more + " more lines"] : [];
    answer.left_out.concat(more).forEach(function (why) {
      var li = document.createElement("li");
      li.textContent = "left out: " + why;
      left.appendChild(li);
    });
    show(answer.view);
  }

  function wire() {
    $("first").addEventListener("click", function () { goto(0); });
    $("prev").addEventListener("click", function () { goto(state.view.ply - 1); });
    $("next").addEventListener("click", function () { goto(state.view.ply + 1); });
    $("last").addEventListener("click", function () { goto(Infinity); });
    document.addEventListener("keydown", function (e) {
      var tag = e.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !state.view) return;
      var keys = { ArrowRight: 1, ArrowLeft: -1 };
      var sibling = { ArrowUp: state.view.up, ArrowDown: state.view.down }[e.key];
      if (e.key in keys) goto(state.view.ply + keys[e.key]);
      else if (e.key === "ArrowUp" || e.key === "ArrowDown") { if (sibling) act("POST", "/node", { node: sibling }); }
      else if (e.key === "Home") goto(0);
      else if (e.key === "End") goto(Infinity);
      else return;
      e.preventDefault();
    });
    $("new").addEventListener("click", function () { act("POST", "/new", seatAndClock()); });
    $("promote").addEventListener("click", function () { act("POST", "/promote", { node: nodePath(state.view.node) }); });
    $("delete").addEventListener("click", function () { act("POST", "/delete", { node: nodePath(state.view.node) }); });
    $("takeback").addEventListener("click", function () { act("POST", "/takeback"); });
    $("swap").addEventListener("click", function () { act("POST", "/play", { move: "SWAP" }); });
    $("botmove").addEventListener("click", function () { act("POST", "/bot"); });
    $("go").addEventListener("click", analyse);
    $("stop").addEventListener("click", function () {
      state.analysedVersion = -1;
      act("DELETE", "/analysis");
    });
    $("open-moves").addEventListener("click", function () {
      act("POST", "/moves", { moves: $("movelist").value });
    });
    $("file").addEventListener("change", function () {
      var f = $("file").files[0];
      if (!f) return;
      f.text().then(function (text) {
        return api("POST", "/upload", text, "text/plain");
      }).then(loadGames).catch(fail);
    });
    $("gamelist").addEventListener("change", function () {
      act("POST", "/open", { game: Number($("gamelist").value) });
    });
    $("setup-start").addEventListener("click", function () {
      var v = state.view;
      $("setup-to-move").value = String(v.to_move);
      postSetup(v.mode === "setup" ? state.setup || [] : placedSoFar(v));
    });
    $("setup-clear").addEventListener("click", function () { postSetup([]); });
    $("setup-to-move").addEventListener("change", function () { if (state.setup) postSetup(state.setup); });
    $("setup-end").addEventListener("click", function () {
      state.setup = null;
      act("POST", "/goto", { ply: state.view.ply });
    });
    $("show-turn").addEventListener("click", function () {
      api("GET", "/turn").then(function (text) { $("turn").textContent = text; }).catch(fail);
    });
  }

  // #moves=E5,F7,SWAP&ply=2 (the match report's links) opens that game at that move.
  function fromHash() {
    var args = {};
    location.hash.slice(1).split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) args[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    });
    if (!args.moves) return Promise.resolve(false);
    return api("POST", "/moves", { moves: args.moves.replace(/,/g, " ") }).then(function (v) {
      var ply = Number(args.ply);
      if (ply >= 0 && ply <= v.length) return api("POST", "/goto", { ply: ply });
      return v;
    }).then(function (v) { show(v); return true; });
  }

  function start() {
    makeSpots();
    wire();
    var kept = sessionStorage.getItem("twixt-board-id");
    var opened = kept
      ? request("GET", "/api/boards/" + kept).then(function (v) { state.id = kept; return v; })
      : Promise.reject(new Error("no board yet"));
    opened.catch(function () {
      return request("POST", "/api/boards").then(function (made) {
        state.id = made.id;
        sessionStorage.setItem("twixt-board-id", made.id);
        return made.view;
      });
    }).then(function (v) {
      show(v);
      return fromHash();
    }).catch(fail);
  }

  // For the page's other scripts: draw with each view, go to a ply, send a request; and the
  // page's own helpers (an element by id, a new SVG element, emptying an element).
  window.twixtBoard = {
    byId: $,
    svg: add,
    clear: clear,
    onShow: function (h) { hooks.push(h); },
    view: function () { return state.view; },
    goto: goto,
    api: api,
    show: show,
    fail: fail
  };

  start();
})();
