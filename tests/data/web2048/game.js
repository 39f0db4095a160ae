// A small 2048 written for the browser-driver tests.
//
// It keeps its board, score and saved state the way the original web game does (localStorage
// "gameState" and "bestScore", the .tile-position-X-Y classes, .score-container ...), so that a
// driver written for the original can play it; the code is our own.
//
// Query switches:
//   ?size=N       board N x N, N = 2, 3 or 4 (default 4)
//   ?seed=N       seed of the page's PRNG (default: from Math.random())
//   ?start=ROWS   start board, rows split by "/", cells by "," (0 = empty); no start tiles added
//   ?score=N      starting score (default 0)
//   ?spawn=V      every spawned tile has value V (instead of 2, or 4 one time in ten)
//   ?storage=off  never read or write localStorage
//   ?fresh=1      ignore a saved "gameState" at load
//   ?keepsave=off "keep playing" does not save the game (the next move does), as in the original
(function () {
  "use strict";

  var params = new URLSearchParams(window.location.search);
  var STORAGE = params.get("storage") !== "off";
  var SAVE_ON_KEEP = params.get("keepsave") !== "off";
  var KEYS = ["ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"];

  var gameContainer = document.querySelector(".game-container");
  var gridContainer = document.querySelector(".grid-container");
  var tileContainer = document.querySelector(".tile-container");
  var scoreContainer = document.querySelector(".score-container");
  var bestContainer = document.querySelector(".best-container");
  var messageBox = document.querySelector(".game-message");

  // A bad switch is shown on the page and stops the script: a test must not play a wrong game.
  function fail(message) {
    var box = document.querySelector(".page-error");
    box.textContent = "Bad query: " + message;
    box.hidden = false;
    throw new Error(message);
  }

  function isPowerOfTwo(value) {
    return value >= 2 && (value & (value - 1)) === 0;
  }

  function integerParam(name) {
    var text = params.get(name);
    if (text === null) return null;
    if (!/^\d+$/.test(text)) fail(name + "=" + text + " is not a non-negative integer");
    return Number(text);
  }

  // mulberry32: a tiny 32-bit seeded PRNG giving floats in [0, 1).
  function makeRandom(seed) {
    var state = seed >>> 0;
    return function () {
      state = (state + 0x6d2b79f5) | 0;
      var t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // ---- switches ----
  var size = integerParam("size");
  if (size !== null && (size < 2 || size > 4)) fail("size must be 2, 3 or 4");
  var startRows = null;
  if (params.has("start")) {
    startRows = params.get("start").split("/").map(function (row) {
      return row.split(",").map(function (cell) {
        var text = cell.trim();
        if (!/^\d+$/.test(text) || (Number(text) !== 0 && !isPowerOfTwo(Number(text)))) {
          fail("start cell " + JSON.stringify(cell) + " is not 0 or a power of two");
        }
        return Number(text);
      });
    });
    if (size === null) size = startRows.length;
    if (startRows.length !== size || size < 2 || size > 4) fail("start must have 2, 3 or 4 rows (and match size)");
    startRows.forEach(function (row) {
      if (row.length !== size) fail("every start row must have " + size + " cells");
    });
  }
  if (size === null) size = 4;
  var seed = integerParam("seed");
  var random = makeRandom(seed === null ? Math.floor(Math.random() * 4294967296) : seed);
  var spawnValue = integerParam("spawn");
  if (spawnValue !== null && !isPowerOfTwo(spawnValue)) fail("spawn must be a power of two");

  // ---- the game: cells[x][y] is null or {value, isNew, mergedFrom: null or [a, b]} ----
  var game = { cells: null, score: 0, best: 0, over: false, won: false, keepPlaying: false };

  function emptyGrid() {
    var cells = [];
    for (var x = 0; x < size; x++) {
      cells.push([]);
      for (var y = 0; y < size; y++) cells[x].push(null);
    }
    return cells;
  }

  function tile(value) {
    return { value: value, isNew: false, mergedFrom: null };
  }

  // One new tile on a uniformly random empty cell: 2 (p = 0.9) or 4, or the ?spawn value.
  function spawnTile() {
    var empty = [];
    for (var y = 0; y < size; y++) {
      for (var x = 0; x < size; x++) if (!game.cells[x][y]) empty.push([x, y]);
    }
    if (!empty.length) return;
    var cell = empty[Math.floor(random() * empty.length)];
    var value = spawnValue !== null ? spawnValue : random() < 0.9 ? 2 : 4;
    var fresh = tile(value);
    fresh.isNew = true;
    game.cells[cell[0]][cell[1]] = fresh;
  }

  function canMove() {
    for (var x = 0; x < size; x++) {
      for (var y = 0; y < size; y++) {
        var here = game.cells[x][y];
        if (!here) return true;
        if (x + 1 < size && game.cells[x + 1][y] && game.cells[x + 1][y].value === here.value) return true;
        if (y + 1 < size && game.cells[x][y + 1] && game.cells[x][y + 1].value === here.value) return true;
      }
    }
    return false;
  }

  // The cells of line k for a move, starting at the wall the tiles move towards.
  function line(key, k) {
    var cells = [];
    for (var i = 0; i < size; i++) {
      var j = key === "ArrowRight" || key === "ArrowDown" ? size - 1 - i : i;
      cells.push(key === "ArrowLeft" || key === "ArrowRight" ? [j, k] : [k, j]);
    }
    return cells;
  }

  // Slide and merge; returns the points scored, or -1 when nothing changed.
  function slide(key) {
    var next = emptyGrid();
    var points = 0;
    var changed = false;
    for (var k = 0; k < size; k++) {
      var cells = line(key, k);
      var tiles = cells
        .map(function (c) {
          return game.cells[c[0]][c[1]];
        })
        .filter(Boolean);
      var out = [];
      for (var i = 0; i < tiles.length; i++) {
        var value = tiles[i].value;
        if (i + 1 < tiles.length && tiles[i + 1].value === value) {
          var merged = tile(2 * value); // the pair nearest the wall merges first, once
          merged.mergedFrom = [value, value];
          out.push(merged);
          points += 2 * value;
          if (2 * value === 2048) game.won = true;
          i++;
        } else {
          out.push(tile(value));
        }
      }
      cells.forEach(function (c, n) {
        var before = game.cells[c[0]][c[1]];
        var after = out[n] || null;
        if ((before ? before.value : 0) !== (after ? after.value : 0)) changed = true;
        next[c[0]][c[1]] = after;
      });
    }
    if (!changed) return -1;
    game.cells = next;
    return points;
  }

  // ---- saved state, in the original game's format ----
  function serialize() {
    return {
      grid: {
        size: size,
        cells: game.cells.map(function (column, x) {
          return column.map(function (cell, y) {
            return cell ? { position: { x: x, y: y }, value: cell.value } : null;
          });
        }),
      },
      score: game.score,
      over: game.over,
      won: game.won,
      keepPlaying: game.keepPlaying,
    };
  }

  function save() {
    if (game.score > game.best) {
      game.best = game.score;
      if (STORAGE) localStorage.setItem("bestScore", String(game.best));
    }
    if (!STORAGE) return;
    if (game.over) localStorage.removeItem("gameState");
    else localStorage.setItem("gameState", JSON.stringify(serialize()));
  }

  // The saved game, if it is one of this size and well formed; else null.
  function savedGame() {
    var state;
    try {
      state = JSON.parse(localStorage.getItem("gameState"));
    } catch (error) {
      return null;
    }
    if (!state || !state.grid || state.grid.size !== size || !Array.isArray(state.grid.cells)) return null;
    var cells = emptyGrid();
    for (var x = 0; x < size; x++) {
      var column = state.grid.cells[x];
      if (!Array.isArray(column) || column.length !== size) return null;
      for (var y = 0; y < size; y++) {
        if (column[y] === null) continue;
        if (!column[y] || !isPowerOfTwo(column[y].value)) return null;
        cells[x][y] = tile(column[y].value);
      }
    }
    return {
      cells: cells,
      score: Number(state.score) || 0,
      over: !!state.over,
      won: !!state.won,
      keepPlaying: !!state.keepPlaying,
    };
  }

  // ---- rendering, one animation frame after the state changed ----
  function render(points) {
    var snapshot = {
      tiles: [],
      score: game.score,
      best: game.best,
      points: points,
      over: game.over,
      won: game.won && !game.keepPlaying,
    };
    for (var x = 0; x < size; x++) {
      for (var y = 0; y < size; y++) {
        var cell = game.cells[x][y];
        if (cell) snapshot.tiles.push({ x: x, y: y, value: cell.value, isNew: cell.isNew, mergedFrom: cell.mergedFrom });
      }
    }
    window.requestAnimationFrame(function () {
      draw(snapshot);
    });
  }

  function addTile(x, y, value, extra) {
    var element = document.createElement("div");
    var classes = ["tile", "tile-" + value, "tile-position-" + (x + 1) + "-" + (y + 1)];
    if (value > 2048) classes.push("tile-super");
    if (extra) classes.push(extra);
    element.className = classes.join(" ");
    element.style.setProperty("--x", x);
    element.style.setProperty("--y", y);
    var inner = document.createElement("div");
    inner.className = "tile-inner";
    inner.textContent = value;
    element.appendChild(inner);
    tileContainer.appendChild(element);
  }

  function draw(snapshot) {
    tileContainer.textContent = "";
    snapshot.tiles.forEach(function (t) {
      if (t.mergedFrom) {
        // the two source tiles, under the merged one, as the original's merge animation has them
        addTile(t.x, t.y, t.mergedFrom[0], "");
        addTile(t.x, t.y, t.mergedFrom[1], "");
        addTile(t.x, t.y, t.value, "tile-merged");
      } else {
        addTile(t.x, t.y, t.value, t.isNew ? "tile-new" : "");
      }
    });
    scoreContainer.textContent = snapshot.score;
    if (snapshot.points > 0) {
      var addition = document.createElement("div");
      addition.className = "score-addition";
      addition.textContent = "+" + snapshot.points;
      scoreContainer.appendChild(addition);
    }
    bestContainer.textContent = snapshot.best;
    messageBox.classList.toggle("game-over", snapshot.over);
    messageBox.classList.toggle("game-won", !snapshot.over && snapshot.won);
    messageBox.querySelector("p").textContent = snapshot.over ? "Game over!" : snapshot.won ? "You win!" : "";
  }

  // ---- set-up and input ----
  function newGame() {
    game.cells = emptyGrid();
    game.score = 0;
    game.over = game.won = game.keepPlaying = false;
    spawnTile();
    spawnTile();
  }

  function restart() {
    if (STORAGE) localStorage.removeItem("gameState");
    newGame();
    save();
    render(0);
  }

  function terminated() {
    return game.over || (game.won && !game.keepPlaying);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    if (KEYS.indexOf(event.key) < 0) return;
    event.preventDefault();
    if (terminated()) return;
    var points = slide(event.key);
    if (points < 0) return; // nothing moved: no spawn, no save
    game.score += points;
    spawnTile();
    if (!canMove()) game.over = true;
    save(); // synchronously, before the frame that draws the move
    render(points);
  });

  document.querySelector(".keep-playing-button").addEventListener("click", function () {
    if (!game.won || game.keepPlaying) return;
    game.keepPlaying = true;
    if (SAVE_ON_KEEP) save();
    render(0);
  });
  document.querySelector(".retry-button").addEventListener("click", restart);
  document.querySelector(".restart-button").addEventListener("click", restart);

  // The empty grid behind the tiles.
  gameContainer.style.setProperty("--size", size);
  for (var row = 0; row < size; row++) {
    var gridRow = document.createElement("div");
    gridRow.className = "grid-row";
    for (var column = 0; column < size; column++) {
      var gridCell = document.createElement("div");
      gridCell.className = "grid-cell";
      gridRow.appendChild(gridCell);
    }
    gridContainer.appendChild(gridRow);
  }

  if (STORAGE) game.best = Number(localStorage.getItem("bestScore")) || 0;
  var saved = startRows === null && STORAGE && params.get("fresh") !== "1" ? savedGame() : null;
  if (startRows !== null) {
    game.cells = emptyGrid();
    startRows.forEach(function (values, y) {
      values.forEach(function (value, x) {
        if (value) game.cells[x][y] = tile(value);
      });
    });
    game.score = integerParam("score") || 0;
  } else if (saved) {
    Object.assign(game, saved);
  } else {
    newGame();
    game.score = integerParam("score") || 0;
  }
  if (!canMove()) game.over = true;
  save();
  render(0);

  // Read-only helpers for the page's own tests; a driver must not use them.
  window.__test2048 = Object.freeze({
    board: function () {
      var rows = [];
      for (var y = 0; y < size; y++) {
        rows.push(
          game.cells.map(function (column) {
            return column[y] ? column[y].value : 0;
          })
        );
      }
      return rows;
    },
    score: function () {
      return game.score;
    },
  });
})();
