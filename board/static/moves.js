// The move list: the game's tree as lichess shows it. The main line's moves fill the list's
// columns; after a main move that has alternatives, a row holds each variation (a move's own
// variations nested in parentheses). Every move carries data-node (its path, "0.1.0": what
// the variation routes take) and data-ply; the move shown has the class "current", the moves
// of the line shown "line". Another script marks a move by adding a class to its element.
(function () {
  "use strict";

  // The text of a move: a main move as before (its time and message after it), a variation's
  // with its ply.
  function label(m, main) {
    if (!main) return m.ply + ". " + m.mv;
    return m.mv + (m.ms !== null ? "  " + m.ms + " ms" : "") + (m.msg ? "  " + m.msg : "");
  }

  // Whether the node named `node` is on the line shown up to its end (`line`, a path).
  function onLine(node, line) {
    return line === node || line.indexOf(node + ".") === 0;
  }

  function moveElement(m, v, line, go) {
    var main = m.main;
    var e = document.createElement(main ? "li" : "span");
    e.className = "mv p" + m.player + (onLine(m.node, line) ? " line" : "") + (m.node === v.node ? " current" : "");
    e.dataset.node = m.node;
    e.dataset.ply = String(m.ply);
    e.textContent = label(m, main);
    e.addEventListener("click", function () { go(m.node); });
    return e;
  }

  // The row that holds the variations after the main move last drawn.
  function variationRow(list) {
    var last = list.lastElementChild;
    if (last && last.classList.contains("vars")) return last;
    var row = document.createElement("div");
    row.className = "vars";
    list.appendChild(row);
    return row;
  }

  // Draws `v.tree` into `list`; a click on a move calls `go` with its node.
  function draw(list, v, go) {
    while (list.firstChild) list.removeChild(list.firstChild);
    var line = v.line_node;
    var stack = [list];
    v.tree.forEach(function (entry) {
      var top = stack[stack.length - 1];
      if (entry.t === "(") {
        var block = document.createElement(stack.length === 1 ? "div" : "span");
        block.className = stack.length === 1 ? "var" : "sub";
        (stack.length === 1 ? variationRow(list) : top).appendChild(block);
        stack.push(block);
      } else if (entry.t === ")") {
        stack.pop();
      } else {
        top.appendChild(moveElement(entry, v, line, go));
      }
    });
    var current = list.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  window.TwixtMoves = { draw: draw };
})();
