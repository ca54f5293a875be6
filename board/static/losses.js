// A results file's lost games for one side: the sides are the file's bot commands; each lost
// game is listed with the move that lost it (the collapse `twixt-referee losses` finds, from
// the server), and a click opens it at the ply before that move with the analysis running.
(function () {
  "use strict";
  var board = window.twixtBoard;
  var $ = board.byId, clear = board.clear;
  function percent(v) { return v === null ? "?" : Math.round(100 * v) + "%"; }

  function open(l) {
    var ms = Math.round((Number($("analysis-s").value) || 30) * 1000);
    board.api("POST", "/open", { game: l.game })
      .then(function () { return board.api("POST", "/goto", { ply: l.ply }); })
      .then(function () { return board.api("POST", "/analysis", { ms: ms }); })
      .then(board.show).catch(board.fail);
  }

  function list(answer) {
    var ol = $("losses");
    clear(ol);
    $("losses-info").textContent = answer.losses.length + " lost of " + answer.games +
      " games (" + answer.won + " won, " + answer.drawn + " drawn)";
    answer.losses.forEach(function (l) {
      var li = document.createElement("li");
      li.dataset.game = l.game;
      li.textContent = "game " + l.game + " (line " + l.line + "), player " + l.seat + ": " +
        l.kind + " at ply " + l.ply + ", " + l.mv + " (" + percent(l.before) + " before, " +
        percent(l.value) + " after), " + l.phase;
      li.addEventListener("click", function () { open(l); });
      ol.appendChild(li);
    });
  }

  function sides(answer) {
    var select = $("losses-side");
    clear(select);
    ["(choose a side)"].concat(answer.sides).forEach(function (s, i) {
      var o = document.createElement("option");
      o.value = i === 0 ? "" : s;
      o.textContent = s;
      select.appendChild(o);
    });
    clear($("losses"));
    $("losses-info").textContent = "";
  }

  // A new file's games are listed: offer its sides.
  new MutationObserver(function () {
    if (!$("gamelist").options.length) return;
    board.api("POST", "/losses", {}).then(sides).catch(function () { clear($("losses-side")); });
  }).observe($("gamelist"), { childList: true });
  $("losses-side").addEventListener("change", function () {
    var ours = $("losses-side").value;
    if (!ours) return;
    board.api("POST", "/losses", { ours: ours }).then(list).catch(board.fail);
  });
})();
