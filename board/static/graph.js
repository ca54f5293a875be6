// The evaluation graph: red's value at every ply of the game as the server's background
// search fills it in (view.graph), its progress, the marked moves (in the list and on the
// graph) with the engine's better move and line, one click to play that line from the ply
// before. The server does the searching; this only draws and asks.
(function () {
  "use strict";
  var board = window.twixtBoard;
  var $ = board.byId, add = board.svg, clear = board.clear;
  var svg = $("graph-svg");
  var W = 360, H = 120;
  // A pasted game's graph is made at once, a results file's on request (the button): the
  // version of the board when moves were pasted, asking for the graph of the next game shown
  // (-1: the game of a report's link).
  var wanted = /(^#|&)moves=/.test(location.hash) ? -1 : null;


  // Red's value at ply p, from the value for the player to move (player p % 2).
  function red(values, p) { return p % 2 === 0 ? values[p].value : 1 - values[p].value; }
  function x(p, n) { return n === 0 ? 0 : (p / n) * W; }
  function y(v) { return (1 - v) * H; }

  // Whether the graph is of the game shown: its marks name the list's moves.
  function sameGame(g, v) {
    return g.moves.length <= v.moves.length &&
      g.moves.every(function (mv, i) { return v.moves[i].mv === mv; });
  }

  function drawGraph(g, v) {
    clear(svg);
    var n = g.moves.length;
    add(svg, "line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, "class": "mid" });
    if (g.values.length) {
      var points = g.values.map(function (_, p) {
        return x(p, n).toFixed(1) + "," + y(red(g.values, p)).toFixed(1);
      });
      var last = x(g.values.length - 1, n).toFixed(1);
      add(svg, "polygon", { points: "0," + H + " " + points.join(" ") + " " + last + "," + H, "class": "area" });
      add(svg, "polyline", { points: points.join(" "), "class": "curve" });
    }
    g.marks.forEach(function (m) {
      if (m.ply + 1 >= g.values.length) return;
      var e = add(svg, "circle", { cx: x(m.ply + 1, n), cy: y(red(g.values, m.ply + 1)), r: 4, "class": "mark " + m.kind, "data-ply": m.ply });
      add(e, "title", {}).textContent = (m.ply + 1) + ". " + g.moves[m.ply] + ": " + m.kind;
    });
    if (v.mode === "game" && sameGame(g, v)) {
      var cx = x(v.ply, n);
      add(svg, "line", { x1: cx, y1: 0, x2: cx, y2: H, "class": "now" });
    }
  }

  function progress(g) {
    var total = g.moves.length + 1;
    var text = g.values.length + " of " + total + " plies valued, " + g.playouts + " playouts each";
    if (g.running) return "searching: " + text;
    return text + (g.ended && g.ended !== "done" ? " (" + g.ended + ")" : "");
  }

  // Goes to the ply before the marked move, then plays the engine's line from there.
  function playLine(m) {
    var steps = m.line.reduce(function (p, mv) {
      return p.then(function () { return board.api("POST", "/play", { move: mv }); });
    }, board.api("POST", "/goto", { ply: m.ply }));
    steps.then(board.show).catch(board.fail);
  }

  function listMarks(g, v) {
    var list = $("graph-marks");
    clear(list);
    document.querySelectorAll("#moves [data-ply]").forEach(function (li) {
      li.classList.remove("inaccuracy", "mistake", "blunder");
    });
    if (!sameGame(g, v)) return;
    g.marks.forEach(function (m) {
      // The main line's move played at ply m.ply (the list numbers moves from 1).
      var li = document.querySelector('#moves li[data-ply="' + (m.ply + 1) + '"]');
      if (li) {
        li.classList.add(m.kind);
        li.title = m.kind + ": " + m.better + " was better";
      }
      var item = document.createElement("li");
      item.className = m.kind;
      item.dataset.ply = m.ply;
      item.textContent = (m.ply + 1) + ". " + g.moves[m.ply] + " " + m.kind + " (-" +
        Math.round(100 * m.fall) + "): better " + m.better + ", line " + m.line.join(" ") + " ";
      var play = document.createElement("button");
      play.textContent = "Play it";
      play.addEventListener("click", function () { playLine(m); });
      item.appendChild(play);
      list.appendChild(item);
    });
  }

  function draw(v) {
    var g = v.graph;
    if (wanted !== null && v.version !== wanted && v.mode === "game" && v.length > 0) {
      wanted = null;
      if (!g) board.api("POST", "/evaluation").then(board.show).catch(board.fail);
    }
    $("graph-stop").disabled = !(g && g.running);
    svg.classList.toggle("none", !g);
    if (!g) {
      clear(svg);
      clear($("graph-marks"));
      $("graph-info").textContent = "";
      return;
    }
    drawGraph(g, v);
    listMarks(g, v);
    $("graph-info").textContent = progress(g);
  }

  svg.addEventListener("click", function (e) {
    var g = board.view && board.view();
    if (!g || !g.graph) return;
    var box = svg.getBoundingClientRect();
    var n = g.graph.moves.length;
    board.goto(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  $("graph-go").addEventListener("click", function () {
    board.api("POST", "/evaluation").then(board.show).catch(board.fail);
  });
  $("graph-stop").addEventListener("click", function () {
    board.api("DELETE", "/evaluation").then(board.show).catch(board.fail);
  });
  $("open-moves").addEventListener("click", function () {
    wanted = board.view() ? board.view().version : -1;
  });
  board.onShow(draw);
})();
