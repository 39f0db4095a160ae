// plyground lab: the page's behaviour. Plain JavaScript, no build step, no outside requests.
//
// Each tab of the browser has its own games: the server hands out an id when a game is
// created, and the page keeps it in memory only. Every answer of the API is the whole new
// state of a game, so the page redraws from it. ?seed=N in the address seeds new games.
// When the server has an n-tuple network, a selector lets Hint and Autoplay search with it
// (on boards of the network's size) instead of the heuristic. When the server has endgame tables,
// a hint or an autoplay move that comes from a table says so, with its exact probability.
"use strict";

(() => {
  const DIRECTIONS = ["up", "right", "down", "left"];
  const ARROWS = { up: "↑", right: "→", down: "↓", left: "←" };
  const KEYS = {
    ArrowUp: "up", ArrowRight: "right", ArrowDown: "down", ArrowLeft: "left",
    w: "up", d: "right", s: "down", a: "left", W: "up", D: "right", S: "down", A: "left",
  };
  const params = new URLSearchParams(location.search);
  const seed = /^\d{1,18}$/.test(params.get("seed") || "") ? Number(params.get("seed")) : null;

  const $ = (id) => document.getElementById(id);

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, (data && data.error) || `${response.status} ${response.statusText}`);
    }
    return data;
  }

  function clamp(input) {
    const low = Number(input.min), high = Number(input.max);
    let value = Math.round(Number(input.value));
    if (!Number.isFinite(value)) value = Number(input.defaultValue);
    value = Math.min(high, Math.max(low, value));
    input.value = String(value);
    return value;
  }

  // The whole number in a number field when it is within the field's range; else null, and the field's note
  // (the element "<id>-error") says what is wrong: a value out of range is refused, never changed.
  function readWhole(input, what) {
    const text = input.value.trim();
    const value = Number(text);
    const low = Number(input.min), high = Number(input.max);
    const ok = text !== "" && Number.isInteger(value) && value >= low && value <= high;
    input.setAttribute("aria-invalid", String(!ok));
    const note = $(`${input.id}-error`);
    note.hidden = ok;
    note.textContent = ok ? "" : `${what} is a whole number from ${low} to ${high}, not ${text || "nothing"}.`;
    return ok ? value : null;
  }

  function formatNumber(value, digits = 1) {
    if (value === null || value === undefined) return "–";
    return Number(value).toLocaleString("en-US", { maximumFractionDigits: digits });
  }

  // Where bars of these values start: zero, unless all are positive and close beside their size; then a quarter
  // of their spread below the smallest (a tenth below, when they are all equal), so that differences show.
  function barBase(values) {
    const low = Math.min(...values);
    const high = Math.max(...values);
    if (!(low > 0)) return 0;
    const base = high > low ? low - (high - low) / 4 : low * 0.9;
    return Math.max(0, base);
  }

  // An endgame table as the page names it: its formation (rows separated by "/") and the tile it builds.
  function tableName(table) {
    return `${table.formation} for ${table.target}`;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // -- tabs ------------------------------------------------------------------------

  const tabs = { "2048": $("tab-2048"), kinrow: $("tab-kinrow") };
  let activeTab = "2048";

  function showTab(name) {
    activeTab = name;
    for (const [key, tab] of Object.entries(tabs)) {
      const selected = key === name;
      tab.setAttribute("aria-selected", String(selected));
      $(tab.getAttribute("aria-controls")).hidden = !selected;
    }
    if (name === "kinrow" && !kinrow.state) kinrow.newGame();
  }

  for (const [key, tab] of Object.entries(tabs)) tab.addEventListener("click", () => showTab(key));

  // -- 2048 --------------------------------------------------------------------------

  const g2048 = {
    state: null,
    queue: Promise.resolve(),
    socket: null,
    hint: null,
    stats: null,
    network: null, // the server's network: {kind, name, label, unit, rows, cols, file, tuples, games}, or null
    tablebases: [], // the server's endgame tables: {formation, target, p_four} each
    preferred: "heuristic", // the evaluator chosen (the server's default at first), used on boards it can play

    // Which evaluators the server has; the selector shows only when it has a network.
    async loadEvaluators() {
      try {
        const answer = await api("GET", "/api/2048/evaluators");
        this.network = answer.network;
        this.preferred = answer.default;
        this.tablebases = answer.tablebases || [];
      } catch (_) {
        this.network = null; // the heuristic alone
        this.tablebases = [];
      }
      $("evaluator-control").hidden = !this.network;
      const tables = this.tablebases.length;
      $("tables-note").hidden = tables === 0;
      $("tables-note").textContent = tables === 0 ? "" : `The AI plays by ${tables} endgame ` +
        `table${tables === 1 ? "" : "s"} where one advises (${this.tablebases.map(tableName).join(", ")}).`;
      if (this.network) {
        const { rows, cols, file } = this.network;
        $("evaluator").querySelector('option[value="network"]').textContent =
          `n-tuple network (${file ? `${file}, ` : ""}${rows}x${cols})`;
      }
    },

    // The network plays boards of its own size only: elsewhere the selector falls back to the heuristic.
    showEvaluator(state) {
      const network = this.network;
      if (!network) return;
      const fits = state.rows === network.rows && state.cols === network.cols;
      const select = $("evaluator");
      select.querySelector('option[value="network"]').disabled = !fits;
      select.disabled = !fits;
      select.value = fits ? this.preferred : "heuristic";
      const note = $("evaluator-note");
      note.hidden = fits;
      note.textContent = fits ? "" : `The network plays ${network.rows}x${network.cols} boards only: ` +
        `the AI uses the heuristic on this ${state.rows}x${state.cols} board.`;
    },

    evaluator() {
      const select = $("evaluator");
      return this.network && !select.disabled ? select.value : "heuristic";
    },

    chooseEvaluator() {
      this.preferred = $("evaluator").value;
      $("evaluator").blur(); // the arrow keys play again
      this.sendSettings();
    },

    // Requests on the game run one after the other, in the order the player made them.
    enqueue(task) {
      this.queue = this.queue.then(task).catch((error) => this.status(error.message, true));
      return this.queue;
    },

    status(text, error = false) {
      const node = $("status-2048");
      node.textContent = text;
      node.classList.toggle("error", error);
    },

    bestKey(state) {
      return `plyground.2048.best.${state.rows}x${state.cols}`;
    },

    newGame() {
      this.stopAutoplay();
      const rows = Number($("rows").value), cols = Number($("cols").value);
      return this.enqueue(async () => {
        this.render(await api("POST", "/api/2048/games", { rows, cols, seed }));
        this.status("");
      });
    },

    render(state) {
      this.state = state;
      const board = $("board-2048");
      board.style.gridTemplateColumns = `repeat(${state.cols}, var(--cell))`;
      board.replaceChildren();
      state.board.forEach((row, r) => row.forEach((value, c) => {
        const tile = element("div", `tile v${value}`, value ? String(value) : "");
        if (value) tile.classList.add(`digits-${String(value).length}`);
        tile.dataset.row = String(r);
        tile.dataset.col = String(c);
        board.append(tile);
      }));
      $("score").textContent = String(state.score);
      let best = Number(localStorage.getItem(this.bestKey(state)) || 0);
      if (state.score > best) {
        best = state.score;
        localStorage.setItem(this.bestKey(state), String(best));
      }
      $("best").textContent = String(best);
      $("undo").disabled = !state.can_undo || this.socket !== null;
      this.showEvaluator(state);
      if (state.over) this.status(`Game over: ${state.score} points, best tile ${state.max_tile}.`);
      else if (state.won) this.status(`You made ${state.max_tile}! Play on.`);
      else this.status("");
      if (this.hint && JSON.stringify(this.hint.board) !== JSON.stringify(state.board)) {
        $("hint-panel").hidden = true;
        this.hint = null;
      }
    },

    move(direction) {
      if (!this.state || this.socket) return;
      const id = this.state.id;
      this.enqueue(async () => {
        try {
          this.render(await api("POST", `/api/2048/games/${id}/move`, { direction }));
        } catch (error) {
          if (error.status !== 409) throw error; // an illegal move just does nothing
        }
      });
    },

    undo() {
      if (!this.state || this.socket) return;
      const id = this.state.id;
      this.enqueue(async () => this.render(await api("POST", `/api/2048/games/${id}/undo`, {})));
    },

    askHint() {
      if (!this.state) return;
      const id = this.state.id;
      $("hint").disabled = true;
      this.enqueue(async () => {
        try {
          this.showHint(await api("POST", `/api/2048/games/${id}/hint`, { evaluator: this.evaluator() }));
        } finally {
          $("hint").disabled = false;
        }
      });
    },

    showHint(hint) {
      this.hint = hint;
      $("hint-panel").hidden = false;
      const searched = `searched to depth ${hint.depth} ` +
        `(${formatNumber(hint.nodes, 0)} nodes in ${formatNumber(hint.seconds * 1000, 0)} ms).`;
      $("hint-note").textContent = hint.afterstates
        ? "Expected future score of each move, in points: the points the move scores plus those still to " +
          `come after it (n-tuple network at the leaves), ${searched}` +
          (hint.searched ? " The board was searched with the tiles above the largest missing one halved " +
            "(tile-downgrading: the same moves are legal)." : "")
        : `Expected heuristic value of each move, in heuristic units (not points), ${searched}`;
      const list = $("hint-values");
      list.replaceChildren();
      for (const direction of DIRECTIONS) {
        const legal = direction in hint.values;
        const item = element("li", legal ? "hint-value" : "hint-illegal");
        item.dataset.direction = direction;
        if (direction === hint.best) item.classList.add("best");
        item.append(
          element("span", "arrow", ARROWS[direction]),
          element("span", "direction", direction),
          element("span", "value", legal ? formatNumber(hint.values[direction]) : "illegal"),
        );
        list.append(item);
      }
      const table = $("hint-table");
      table.hidden = !hint.table;
      table.textContent = hint.table ? `Endgame table ${tableName(hint.table)}: ${ARROWS[hint.best]} ${hint.best}, ` +
        `which builds the ${hint.table.target} with probability ${hint.table.probability.toFixed(6)} (exact), ` +
        `to merge into ${hint.table.chain}. ` +
        "The search's values:" : "";
      if (hint.afterstates) this.showAfterstates(hint.afterstates);
      else this.showEvaluation(hint.evaluation);
    },

    // The heuristic value of the board, feature by feature.
    showEvaluation(evaluation) {
      $("hint-chart-title").textContent = "Heuristic of the board";
      const chart = $("hint-chart");
      chart.replaceChildren();
      chart.classList.remove("from-base"); // contributions of both signs: bars from a zero in the middle
      chart.dataset.base = "0";
      const parts = Object.entries(evaluation.contributions);
      const scale = Math.max(1e-9, ...parts.map(([, value]) => Math.abs(value || 0)));
      for (const [name, value] of parts) {
        const track = element("div", "track");
        const bar = element("div", `bar ${value >= 0 ? "positive" : "negative"}`);
        bar.style.width = `${(50 * Math.abs(value || 0)) / scale}%`;
        bar.dataset.feature = name;
        bar.title = `${name}: ${formatNumber(value)}`;
        track.append(bar);
        chart.append(element("span", "label", name.replace("_", " ")), track, element("span", "value", formatNumber(value)));
      }
      chart.append(element("span", "label total", "total"), element("span"),
        element("span", "value total", formatNumber(evaluation.total)));
    },

    // The network's value of each legal move: the points it scores + V of the board it leaves. Values of one sign
    // that are close (176k against 179k) are drawn from an axis a bit below the smallest, labelled under the bars:
    // from zero they would look the same.
    showAfterstates(afterstates) {
      $("hint-chart-title").textContent = "Network: points + value of the board each move leaves";
      const chart = $("hint-chart");
      chart.replaceChildren();
      const moves = DIRECTIONS.filter((direction) => direction in afterstates);
      const totals = moves.map((direction) => afterstates[direction].total || 0);
      const base = barBase(totals);
      const high = Math.max(...totals);
      const scale = Math.max(1e-9, ...totals.map(Math.abs));
      chart.classList.toggle("from-base", base > 0);
      chart.dataset.base = String(base);
      for (const direction of moves) {
        const { points, value, total } = afterstates[direction];
        const track = element("div", "track");
        const bar = element("div", `bar ${total >= 0 ? "positive" : "negative"}`);
        const share = base > 0 ? (100 * (total - base)) / Math.max(1e-9, high - base) : (50 * Math.abs(total)) / scale;
        bar.style.width = `${share}%`;
        bar.dataset.direction = direction;
        bar.title = `${direction}: ${formatNumber(points, 0)} points + V ${formatNumber(value)}`;
        track.append(bar);
        chart.append(element("span", "label", `${ARROWS[direction]} ${direction}`), track,
          element("span", "value", formatNumber(total)));
      }
      if (base > 0) {
        const axis = element("div", "axis");
        axis.append(element("span", "axis-low", formatNumber(base, 0)), element("span", "axis-high",
          formatNumber(high, 0)));
        chart.append(element("span", "label axis-label", "axis"), axis, element("span"));
      }
    },

    toggleAutoplay() {
      if (this.socket) this.stopAutoplay();
      else this.startAutoplay();
    },

    // The autoplay settings; null while the budget is not a valid number (its note says why).
    settings() {
      const timeMs = readWhole($("budget"), "The budget (ms per move)");
      if (timeMs === null) return null;
      return { time_ms: timeMs, delay_ms: clamp($("delay")), evaluator: this.evaluator() };
    },

    startAutoplay() {
      if (!this.state || this.state.over) return;
      const settings = this.settings();
      if (settings === null) return;
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/ws/2048/games/${this.state.id}/autoplay`);
      this.socket = socket;
      $("autoplay").textContent = "Stop autoplay";
      $("autoplay").classList.add("active");
      $("undo").disabled = true;
      socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "start", ...settings })));
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.game && this.state && message.game.id !== this.state.id) return; // a game left behind
        if (message.type === "move" || message.type === "done") this.render(message.game);
        if (message.type === "move") {
          this.stats = message.stats;
          $("stat-depth").textContent = String(message.stats.depth);
          $("stat-nodes").textContent = formatNumber(message.stats.nodes, 0);
          $("stat-rate").textContent = formatNumber(message.stats.moves_per_second);
          const table = message.stats.table;
          $("stat-table").textContent = table ? `${tableName(table)}, p ${table.probability.toFixed(4)}` : "–";
        } else if (message.type === "error") {
          this.status(message.error, true);
        }
      });
      socket.addEventListener("close", () => {
        if (this.socket === socket) this.autoplayStopped();
      });
    },

    // The server answers a stop with the final state and closes; the page waits for the close.
    stopAutoplay() {
      const socket = this.socket;
      if (!socket) return;
      $("autoplay").disabled = true;
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "stop" }));
      else socket.close();
    },

    autoplayStopped() {
      this.socket = null;
      $("autoplay").disabled = false;
      $("autoplay").textContent = "Start autoplay";
      $("autoplay").classList.remove("active");
      if (this.state) $("undo").disabled = !this.state.can_undo;
    },

    sendSettings() {
      $("delay-value").textContent = `${$("delay").value} ms`;
      const settings = this.settings(); // a bad budget is said, and not sent: the autoplay keeps the last one
      if (settings !== null && this.socket && this.socket.readyState === WebSocket.OPEN) {
        this.socket.send(JSON.stringify({ type: "settings", ...settings }));
      }
    },
  };

  $("new-2048").addEventListener("click", () => g2048.newGame());
  $("rows").addEventListener("change", () => g2048.newGame());
  $("cols").addEventListener("change", () => g2048.newGame());
  $("undo").addEventListener("click", () => g2048.undo());
  $("hint").addEventListener("click", () => g2048.askHint());
  $("autoplay").addEventListener("click", () => g2048.toggleAutoplay());
  $("budget").addEventListener("change", () => g2048.sendSettings());
  $("delay").addEventListener("input", () => g2048.sendSettings());
  $("evaluator").addEventListener("change", () => g2048.chooseEvaluator());

  document.addEventListener("keydown", (event) => {
    if (activeTab !== "2048" || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    if (event.key in KEYS) {
      event.preventDefault();
      g2048.move(KEYS[event.key]);
    } else if (event.key === "u" || event.key === "U") {
      g2048.undo();
    } else if (event.key === "h" || event.key === "H") {
      g2048.askHint();
    }
  });

  let touchStart = null;
  const board2048 = $("board-2048");
  board2048.addEventListener("touchstart", (event) => {
    const touch = event.changedTouches[0];
    touchStart = { x: touch.clientX, y: touch.clientY };
  }, { passive: true });
  board2048.addEventListener("touchend", (event) => {
    if (!touchStart) return;
    const touch = event.changedTouches[0];
    const dx = touch.clientX - touchStart.x, dy = touch.clientY - touchStart.y;
    touchStart = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 30) return;
    if (Math.abs(dx) > Math.abs(dy)) g2048.move(dx > 0 ? "right" : "left");
    else g2048.move(dy > 0 ? "down" : "up");
  });

  // -- k-in-a-row -----------------------------------------------------------------------

  const kinrow = {
    state: null,
    busy: false,

    status(text, error = false) {
      const node = $("status-kinrow");
      node.textContent = text;
      node.classList.toggle("error", error);
    },

    async request(task) {
      this.busy = true;
      let failure = null;
      try {
        this.state = await task();
      } catch (error) {
        failure = error;
        if (this.state) {
          try {
            this.state = await api("GET", `/api/kinrow/games/${this.state.id}`); // undo what was shown early
          } catch (_) {
            this.state = null;
          }
        }
      } finally {
        this.busy = false;
      }
      if (this.state) this.render(this.state);
      if (failure) this.status(failure.message, true);
    },

    newGame() {
      const n = clamp($("kinrow-n"));
      $("kinrow-k").max = String(n);
      const k = clamp($("kinrow-k"));
      const body = {
        n, k,
        opponent: $("opponent").value,
        rule: $("rule").value,
        human_first: $("first").value === "human",
        time_ms: clamp($("ai-ms")),
        seed,
      };
      if (!body.human_first) this.status("The AI is thinking…");
      return this.request(() => api("POST", "/api/kinrow/games", body));
    },

    play(row, col) {
      const state = this.state;
      if (!state || this.busy || state.result || state.board[row][col]) return;
      state.board[row][col] = state.human; // shown at once; the answer redraws it
      state.heatmap = null;
      state.line = [];
      state.forbidden = [];
      this.render(state);
      $("undo-kinrow").disabled = true;
      this.status("The AI is thinking…");
      return this.request(() => api("POST", `/api/kinrow/games/${state.id}/play`, { row, col }));
    },

    undo() {
      const state = this.state;
      if (!state || this.busy || !state.can_undo) return;
      return this.request(() => api("POST", `/api/kinrow/games/${state.id}/undo`, {}));
    },

    render(state) {
      this.state = state;
      const board = $("board-kinrow");
      board.style.setProperty("--n", String(state.n));
      board.replaceChildren();
      const heat = $("show-heat").checked ? state.heatmap : null;
      const peak = heat ? Math.max(1, ...heat.visits.flat()) : 1;
      // The engine's line: the cell of each of its moves, numbered from 1 (the AI's move just played).
      const line = new Map();
      if ($("show-heat").checked) (state.line || []).forEach(([r, c], i) => line.set(`${r},${c}`, i));
      const aiSide = state.human === "X" ? "O" : "X";
      const forbidden = new Set((state.forbidden || []).map(([r, c]) => `${r},${c}`));
      state.board.forEach((row, r) => row.forEach((stone, c) => {
        const cell = element("button", "cell");
        cell.type = "button";
        cell.dataset.row = String(r);
        cell.dataset.col = String(c);
        cell.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}${stone ? `: ${stone}` : ""}`);
        if (stone) cell.classList.add(stone.toLowerCase());
        if (state.last_move && state.last_move[0] === r && state.last_move[1] === c) cell.classList.add("last");
        if (heat) {
          const visits = heat.visits[r][c];
          cell.dataset.visits = String(visits);
          if (visits > 0) {
            const shade = element("span", "heat");
            shade.style.opacity = String(0.06 + (0.64 * visits) / peak);
            cell.append(shade);
            const share = (100 * visits) / Math.max(1, heat.total);
            cell.title = `${visits.toLocaleString("en-US")} visits (${share.toFixed(1)}% of the search)`;
          }
        }
        if (stone) cell.append(element("span", "stone", stone));
        const step = line.get(`${r},${c}`);
        if (step !== undefined) {
          const side = step % 2 === 0 ? aiSide : state.human;
          const mark = element("span", `pv ${side.toLowerCase()}${stone ? " on-stone" : ""}`, String(step + 1));
          cell.dataset.pv = String(step + 1);
          cell.append(mark);
          if (!stone) cell.title = `move ${step + 1} of the line the engine expects (${side})`;
        }
        if (!stone && forbidden.has(`${r},${c}`)) {
          cell.classList.add("forbidden");
          cell.title = "forbidden to X under renju";
        }
        cell.disabled = Boolean(stone) || Boolean(state.result) || this.busy;
        cell.addEventListener("click", () => this.play(r, c));
        board.append(cell);
      }));
      $("undo-kinrow").disabled = this.busy || !state.can_undo;
      if (this.busy) return;
      const messages = {
        human: "You win!",
        ai: `The AI (${state.opponent}) wins.`,
        draw: "Draw.",
      };
      this.status(state.winner ? messages[state.winner] : `Your move: you play ${state.human}, ${state.k} in a row wins.`);
      $("ai-kinrow").textContent = this.describeAi(state);
    },

    describeAi(state) {
      const ai = state.ai;
      if (!ai) return "";
      const cell = `row ${ai.move[0] + 1}, column ${ai.move[1] + 1}`;
      if (ai.kind !== undefined) return this.describeEngine(state, cell);
      if (ai.forced) return `The AI played ${cell}: a forced move (a win or a block), no search.`;
      if (ai.iterations !== undefined) {
        return `The AI played ${cell} after ${formatNumber(ai.iterations, 0)} MCTS iterations ` +
          `in ${formatNumber(ai.seconds * 1000, 0)} ms.`;
      }
      if (ai.depth !== undefined) {
        return `The AI played ${cell}: alpha-beta to depth ${ai.depth}, ${formatNumber(ai.nodes, 0)} positions ` +
          `in ${formatNumber(ai.seconds * 1000, 0)} ms.`;
      }
      return `The AI played ${cell}.`;
    },

    describeEngine(state, cell) {
      const ai = state.ai;
      const how = {
        forced: "a forced move (a win or a block)",
        vcf: "a win by continuous fours (VCF)",
        vct: "a win by threes and fours (VCT)",
        search: `search to depth ${ai.depth}`,
      }[ai.kind] || ai.kind;
      let value = `score ${formatNumber(ai.value, 0)}`;
      if (ai.win_in !== null && ai.win_in !== undefined) value = `win in ${ai.win_in} plies`;
      else if (ai.loss_in !== null && ai.loss_in !== undefined) value = `loss in ${ai.loss_in} plies`;
      const figures = ai.kind === "forced" ? "" : `, ${value}`;
      const line = (state.line || []).length > 1 ? `; its line is numbered on the board (${state.line.length} moves)` : "";
      return `The engine played ${cell}: ${how}${figures}, ${formatNumber(ai.nodes, 0)} positions ` +
        `in ${formatNumber(ai.seconds * 1000, 0)} ms${line}.`;
    },
  };

  $("new-kinrow").addEventListener("click", () => kinrow.newGame());
  $("undo-kinrow").addEventListener("click", () => kinrow.undo());
  document.addEventListener("keydown", (event) => {
    if (activeTab !== "kinrow" || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    if (event.key === "u" || event.key === "U") kinrow.undo();
  });
  $("show-heat").addEventListener("change", () => kinrow.state && kinrow.render(kinrow.state));
  $("kinrow-n").addEventListener("change", () => { $("kinrow-k").max = String(clamp($("kinrow-n"))); });

  // For tests and the curious: the page's current games.
  window.plygroundLab = { g2048, kinrow };

  g2048.enqueue(() => g2048.loadEvaluators());
  g2048.newGame();
})();
