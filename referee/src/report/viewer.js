// The replay viewer: shows one game of the page's data at one ply (the position after that
// many moves). Every peg and link carries the plies it stands at, as the referee's reference
// rules worked them out, so stepping only shows and hides.
(function () {
  "use strict";
  var games = JSON.parse(document.getElementById("games").textContent);
  var geom = JSON.parse(document.getElementById("geometry").textContent);
  var board = document.getElementById("board");
  var pieces = document.getElementById("pieces");
  var NS = board.namespaceURI;
  var state = { game: 0, ply: 0 };

  function centre(at) {
    return [geom.margin + at[0] * geom.step, geom.margin + at[1] * geom.step];
  }

  function add(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (parent || pieces).appendChild(e);
    return e;
  }

  function segment(a, b, cls) {
    var p = centre(a), q = centre(b);
    return add("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], "class": cls });
  }

  function standing(peg, ply) {
    return peg.from <= ply && (peg.to === null || ply < peg.to);
  }

  function drawBoard(g, ply) {
    while (pieces.firstChild) pieces.removeChild(pieces.firstChild);
    var over = ply === g.steps.length;
    if (over) g.chain.forEach(function (l) { segment(l[0], l[1], "glow"); });
    g.links.forEach(function (l) {
      if (l.ply <= ply) segment(l.a, l.b, "link p" + l.p);
    });
    g.pegs.forEach(function (peg) {
      if (!standing(peg, ply)) return;
      var c = centre(peg.at);
      var e = add("circle", { cx: c[0], cy: c[1], r: 9, "class": "peg p" + peg.p, "data-cell": peg.cell });
      add("title", {}, e).textContent = peg.cell;
    });
    if (ply > 0) {
      var r = centre(g.steps[ply - 1].ring);
      add("circle", { cx: r[0], cy: r[1], r: 14, "class": "ring" });
    }
  }

  function moveText(s) {
    var time = s.ms === null ? "opening" : s.ms + " ms";
    return s.mv + "  " + time + (s.msg ? "  " + s.msg : "");
  }

  function drawMoves(g) {
    var list = document.getElementById("moves");
    list.textContent = "";
    g.steps.forEach(function (s, i) {
      var item = document.createElement("li");
      item.className = "p" + s.player + (i < g.opening ? " opening" : "");
      item.textContent = moveText(s);
      item.addEventListener("click", function () { go(state.game, i + 1); });
      list.appendChild(item);
    });
  }

  function mark(g, ply) {
    var items = document.getElementById("moves").children;
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("current", i === ply - 1);
    }
    if (ply > 0) items[ply - 1].scrollIntoView({ block: "nearest" });
    document.getElementById("ply-label").textContent = "move " + ply + " / " + g.steps.length;
    document.getElementById("ending").textContent = ply === g.steps.length ? g.end : "";
  }

  function go(game, ply) {
    var g = games[game];
    var fresh = game !== state.game || !document.getElementById("moves").children.length;
    state.game = game;
    state.ply = Math.max(0, Math.min(ply, g.steps.length));
    if (fresh) {
      drawMoves(g);
      document.getElementById("game-title").textContent = g.title;
      document.getElementById("players").textContent =
        "player 0 (red, rows): " + g.players[0] + " \u2014 player 1 (blue, columns): " + g.players[1];
      document.querySelectorAll("tr[data-game]").forEach(function (row) {
        row.classList.toggle("shown", Number(row.dataset.game) === game);
      });
    }
    drawBoard(g, state.ply);
    mark(g, state.ply);
    // twixt-board opens the game at this move from its address's #moves=...&ply=N.
    var moves = g.steps.map(function (s) { return s.mv; }).join(",");
    document.getElementById("board-link").href = geom.board + "#moves=" + moves + "&ply=" + state.ply;
    if (history.replaceState) {
      history.replaceState(null, "", "#game=" + (game + 1) + "&move=" + state.ply);
    }
  }

  function step(delta) { go(state.game, state.ply + delta); }

  document.getElementById("first").addEventListener("click", function () { go(state.game, 0); });
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("last").addEventListener("click", function () { go(state.game, Infinity); });
  document.addEventListener("keydown", function (e) {
    var keys = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, ArrowUp: -1 };
    if (e.key in keys) step(keys[e.key]);
    else if (e.key === "Home") go(state.game, 0);
    else if (e.key === "End") go(state.game, Infinity);
    else return;
    e.preventDefault();
  });
  document.querySelectorAll("tr[data-game]").forEach(function (row) {
    row.addEventListener("click", function () {
      go(Number(row.dataset.game), 0);
      document.getElementById("viewer").scrollIntoView();
    });
  });

  // #game=N&move=K opens game N (from 1) at move K.
  var hash = {};
  location.hash.slice(1).split("&").forEach(function (kv) {
    var p = kv.split("=");
    hash[p[0]] = Number(p[1]);
  });
  var first = hash.game >= 1 && hash.game <= games.length ? hash.game - 1 : 0;
  state.game = -1;
  go(first, hash.move >= 0 ? hash.move : 0);
})();
