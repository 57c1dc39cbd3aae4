"use strict";
// The tap-to-play board. It draws the state from the page's "state" block and from the live
// stream, asks the server who the viewer is (a key in the address, or Telegram's initData), and
// gives the player who must act the buttons and the tap-to-move board.
//
// Hooks (docs/board-page.md): every place a checker can stand is a button with data-point in
// player 0's numbering, whoever looks: 1..24 the points, 25 player 0's bar, 0 player 0's tray,
// 26 player 1's bar, 27 player 1's tray. A place a picked checker may go has data-dest (the
// same number).
(() => {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const element = (id) => document.getElementById(id);
  const TEXTS = read("texts");
  const CONFIG = read("config");
  const BAR = [25, 26];
  const OFF = [0, 27];
  const VISIBLE = 5; // checkers drawn on a point; a taller stack shows its count
  const PIPS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];
  const board = element("board");
  const buttons = Object.fromEntries(
    ["roll", "double", "take", "drop", "beaver", "accept", "reject", "undo", "done", "resign"].map(
      (id) => [id, element(id)],
    ),
  );

  let state = read("state");
  let received = performance.now(); // when the state arrived: the running clock counts from it
  let seat = null; // 0 or 1 once the server has said who the viewer is
  let key = null;
  let path = []; // the edges of the plays tree taken this turn
  let picked = null; // the mover's point whose checker is picked
  let busy = false; // an action is on its way
  let done = null; // the version an accepted action was made at: wait for the next one
  let pending = null; // {signature, id} of the last action not answered: a retry keeps its id
  let resignLevel = null;
  let rows = [[], []]; // the board's cells, top and bottom row, left to right (arrow keys);
  // null where a cell is no button (long nardy's bar and empty tray corners)

  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  const isolated = (name) => `\u2068${name}\u2069`;
  const nameOf = (player) => isolated(state.names[player]);
  const nardy = () => state.variant === "long_nardy";
  const mirror = (point) => (nardy() ? ((point + 11) % 24) + 1 : 25 - point);
  const viewer = () => (seat === null ? 0 : seat);
  const colour = (player) => (player === state.light ? "light" : "dark");

  // --- Numbering -------------------------------------------------------------------------
  function hook(player, point) {
    // player's own point 0..25 -> data-point
    if (point === 25) return BAR[player];
    if (point === 0) return OFF[player];
    return player === 0 ? point : mirror(point);
  }
  function ownPoint(player, place) {
    // data-point -> player's own point, or null for the other side's bar or tray
    if (BAR.includes(place)) return place === BAR[player] ? 25 : null;
    if (OFF.includes(place)) return place === OFF[player] ? 0 : null;
    return player === 0 ? place : mirror(place);
  }

  // --- The turn being played locally --------------------------------------------------
  const tree = () => (state.phase === "moving" && state.plays ? state.plays : null);
  const node = () => (path.length ? path[path.length - 1][3] : 0);
  const edges = () => (tree() ? tree().nodes[node()].edges : []);
  const finished = () => state.phase === "finished";
  const myTurn = () => seat !== null && !finished() && state.turn === seat;
  const blocked = () => busy || done === state.version;
  const moving = () => myTurn() && tree() !== null && !blocked();

  function sides() {
    const local = state.sides.map((side) => side.slice());
    const mover = state.turn;
    for (const [from, to, hit] of path) {
      local[mover][from] -= 1;
      local[mover][to] += 1;
      if (hit) {
        local[1 - mover][mirror(to)] -= 1;
        local[1 - mover][25] += 1;
      }
    }
    return local;
  }

  function dice() {
    // [[value, used], ...]: a double's four dice, those the steps so far have used dimmed
    if (!state.dice) return [];
    const [first, second] = state.dice;
    const values = first === second ? [first, first, first, first] : [first, second];
    const used = values.map(() => false);
    for (const [from, to] of path) {
      const free = values.map((value, index) => (used[index] ? 0 : value));
      let index = to > 0 ? free.indexOf(from - to) : free.indexOf(from);
      if (index < 0) {
        const larger = free.filter((value) => value > from);
        index = larger.length ? free.indexOf(Math.min(...larger)) : -1;
      }
      if (index >= 0) used[index] = true;
    }
    return values.map((value, index) => [value, used[index]]);
  }

  // --- Drawing ---------------------------------------------------------------------------
  function make(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function checker(player, label) {
    return make("span", `checker ${colour(player)}`, label);
  }

  function stack(cell, player, count) {
    const shown = Math.min(count, VISIBLE);
    for (let index = 0; index < shown; index += 1) {
      const last = index === shown - 1 && count > VISIBLE;
      cell.append(checker(player, last ? String(count) : undefined));
    }
  }

  function place(cell, number, destinations) {
    cell.dataset.point = String(number);
    if (destinations.has(number)) {
      cell.dataset.dest = String(number);
      cell.classList.add("dest");
    }
    if (picked !== null && hook(state.turn, picked) === number) cell.classList.add("picked");
    cell.setAttribute("aria-disabled", moving() ? "false" : "true");
    return cell;
  }

  function pointCell(local, number, top, shade, destinations) {
    const kind = `point ${top ? "top" : "bottom"} shade-${shade}`;
    const cell = place(make("button", kind), number, destinations);
    cell.type = "button";
    const shownNumber = viewer() === 0 ? number : mirror(number);
    cell.append(make("span", "num", String(shownNumber)));
    const first = local[0][number];
    const second = local[1][mirror(number)];
    const player = first ? 0 : 1;
    const count = first || second;
    stack(cell, player, count);
    const label = count
      ? fill(TEXTS.point, { number: shownNumber, count, name: nameOf(player) })
      : fill(TEXTS.empty_point, { number: shownNumber });
    cell.setAttribute("aria-label", label);
    return cell;
  }

  function barCell(local, player, top, destinations) {
    if (nardy()) return make("div", `bar ${top ? "top" : "bottom"}`);
    const cell = place(make("button", `bar ${top ? "top" : "bottom"}`), BAR[player], destinations);
    cell.type = "button";
    stack(cell, player, local[player][25]);
    cell.setAttribute("aria-label", fill(TEXTS.bar, { count: local[player][25], name: nameOf(player) }));
    return cell;
  }

  function trayCell(local, player, top, destinations) {
    if (player === null) return make("div", `tray ${top ? "top" : "bottom"}`);
    const cell = place(make("button", `tray ${top ? "top" : "bottom"}`), OFF[player], destinations);
    cell.type = "button";
    const count = local[player][0];
    for (let index = 0; index < count; index += 1) cell.append(make("span", `slab ${colour(player)}`));
    if (count) cell.append(make("span", "count", String(count)));
    cell.setAttribute("aria-label", fill(TEXTS.off, { count, name: nameOf(player) }));
    return cell;
  }

  function die(player, value, used) {
    const drawn = make("span", `die ${colour(player)}${used ? " used" : ""}`);
    drawn.setAttribute("role", "img");
    drawn.setAttribute("aria-label", String(value));
    for (let index = 0; index < 9; index += 1) {
      drawn.append(make("span", PIPS[value].includes(index) ? "pip on" : "pip"));
    }
    return drawn;
  }

  function cube(value, offered) {
    const drawn = make("span", offered ? "cube offered" : "cube", String(value));
    drawn.setAttribute("role", "img");
    drawn.setAttribute("aria-label", fill(offered ? TEXTS.offered : TEXTS.cube, { value }));
    return drawn;
  }

  function strip() {
    // the middle of the board: the dice (or an offered cube) on each side's half, a centred cube
    const me = viewer();
    const halves = [make("div", "strip half"), make("div", "strip middle"), make("div", "strip half")];
    const half = (player) => (player === me ? halves[2] : halves[0]);
    if (state.opening_dice) {
      for (const player of [0, 1]) half(player).append(die(player, state.opening_dice[player], false));
    } else if (state.dice && state.on_roll !== null && state.on_roll !== undefined) {
      for (const [value, used] of dice()) half(state.on_roll).append(die(state.on_roll, value, used));
    }
    const shown = state.cube && state.cube.visible;
    if (shown && state.phase === "doubled" && state.turn !== null) {
      half(1 - state.turn).append(cube(state.cube.value * 2, true));
    }
    if (shown && state.cube.owner === null && state.phase !== "doubled") {
      halves[1].append(cube(state.cube.value === 1 ? 64 : state.cube.value, false));
    }
    return halves;
  }

  function destinations() {
    const found = new Set();
    if (picked === null) return found;
    for (const [from, to] of edges()) if (from === picked) found.add(hook(state.turn, to));
    return found;
  }

  function drawBoard() {
    const focused = board.contains(document.activeElement) ? document.activeElement.dataset.point : undefined;
    const local = sides();
    const me = viewer();
    const other = 1 - me;
    const targets = destinations();
    const number = (viewed) => (me === 0 ? viewed : mirror(viewed));
    const top = [];
    const bottom = [];
    if (nardy()) {
      top.push(trayCell(local, other, true, targets));
      bottom.push(trayCell(local, null, false, targets));
    }
    for (let column = 0; column < 12; column += 1) {
      if (column === 6) {
        top.push(barCell(local, me, true, targets));
        bottom.push(barCell(local, other, false, targets));
      }
      const shade = column % 2;
      top.push(pointCell(local, number(13 + column), true, shade, targets));
      bottom.push(pointCell(local, number(12 - column), false, 1 - shade, targets));
    }
    top.push(trayCell(local, nardy() ? null : other, true, targets));
    bottom.push(trayCell(local, me, false, targets));
    const middle = strip();
    const edgeCells = nardy() ? [make("div", "strip edge")] : [];
    board.classList.toggle("nardy", nardy());
    board.classList.toggle("active", moving());
    board.dataset.version = String(state.version);
    const right = make("div", "strip edge");
    board.replaceChildren(...top, ...edgeCells, ...middle, right, ...bottom);
    rows = [top, bottom].map((row) => row.map((cell) => (cell.tagName === "BUTTON" ? cell : null)));
    if (focused !== undefined) {
      const again = board.querySelector(`[data-point="${focused}"]`);
      if (again) again.focus();
    }
  }

  function twoDigits(value) {
    return String(value).padStart(2, "0");
  }

  function clockText(ms) {
    const seconds = Math.ceil(Math.max(0, ms) / 1000);
    return `${Math.floor(seconds / 60)}:${twoDigits(seconds % 60)}`;
  }

  function drawClocks() {
    const clock = state.clock;
    for (const player of [0, 1]) {
      const shown = element(`clock-${player}`);
      if (!clock) {
        shown.hidden = true;
        continue;
      }
      shown.hidden = false;
      const reserve = clock.reserve_ms[player];
      const running = clock.running === player && !finished();
      shown.classList.toggle("running", running);
      if (!running) {
        shown.textContent = clockText(reserve);
        continue;
      }
      const left = Math.max(0, clock.left_ms - (performance.now() - received));
      shown.textContent = clockText(Math.min(reserve, left));
      const delay = Math.max(0, left - reserve);
      if (clock.delay_ms > 0) {
        shown.append(make("span", "delay", fill(TEXTS.delay, { seconds: Math.ceil(delay / 1000) })));
      }
    }
  }

  function pips(local) {
    return [0, 1].map((player) => {
      let moved = 0;
      for (let point = 1; point <= 25; point += 1) {
        moved += point * (local[player][point] - state.sides[player][point]);
      }
      return (state.pips || [0, 0])[player] + moved;
    });
  }

  function drawPlayers() {
    const counts = pips(sides());
    for (const player of [0, 1]) {
      const panel = element(`player-${player}`);
      panel.classList.toggle("bottom", player === viewer());
      panel.classList.toggle("top", player !== viewer());
      panel.classList.toggle("active", !finished() && state.turn === player);
      panel.querySelector(".swatch").className = `swatch ${colour(player)}`;
      element(`pips-${player}`).textContent = fill(TEXTS.pips, { pips: counts[player] });
      const slot = panel.querySelector(".cube-slot");
      const owned = state.cube && state.cube.visible && state.cube.owner === player;
      slot.replaceChildren(...(owned && state.phase !== "doubled" ? [cube(state.cube.value, false)] : []));
    }
    const [a, b] = state.score || [0, 0];
    let score = fill(TEXTS.score, { first: nameOf(0), a, b, second: nameOf(1) });
    if (state.crawford) score += ` · ${TEXTS.crawford}`;
    element("score").textContent = score;
  }

  function turnLine() {
    const who = state.turn === null || state.turn === undefined ? null : nameOf(state.turn);
    switch (state.phase) {
      case "opening":
        return TEXTS.opening;
      case "rolling":
        return fill(TEXTS.to_roll, { name: who });
      case "moving":
        return fill(TEXTS.to_play, { name: who, roll: (state.dice || []).join("-") });
      case "doubled":
        return fill(TEXTS.doubled, { name: nameOf(1 - state.turn), value: state.cube.value * 2 });
      case "resigning": {
        const offer = state.resignation;
        return fill(TEXTS.resigning, { name: nameOf(offer.by), level: TEXTS[`level_${offer.level}`] });
      }
      case "finished":
        if (state.winner === null || state.winner === undefined) return TEXTS.over;
        return fill(TEXTS.won, { name: nameOf(state.winner) });
      default:
        return "";
    }
  }

  function drawControls() {
    const mine = myTurn();
    const phase = state.phase;
    const show = {
      roll: mine && (phase === "rolling" || phase === "opening"),
      double: mine && phase === "rolling" && Boolean(state.can_double),
      take: mine && phase === "doubled",
      drop: mine && phase === "doubled",
      beaver: mine && phase === "doubled" && Boolean(state.beavers),
      accept: mine && phase === "resigning",
      reject: mine && phase === "resigning",
      undo: mine && tree() !== null,
      done: mine && tree() !== null,
      resign: mine && (phase === "rolling" || phase === "moving"),
    };
    for (const [id, button] of Object.entries(buttons)) {
      button.hidden = !show[id];
      button.disabled = blocked();
    }
    buttons.undo.disabled = blocked() || path.length === 0;
    buttons.done.disabled = blocked() || !tree() || tree().nodes[node()].play === null;
    if (!show.resign) resignLevel = null;
    element("resign-menu").hidden = !show.resign || buttons.resign.getAttribute("aria-expanded") !== "true";
    element("resign-confirm").hidden = !show.resign || resignLevel === null;
    for (const choice of element("resign-menu").querySelectorAll("[data-level]")) {
      choice.hidden = nardy() && choice.dataset.level === "3";
      choice.disabled = blocked();
    }
    element("resign-yes").disabled = blocked();
    element("turn").textContent = turnLine();
    element("seat").textContent =
      seat === null ? TEXTS.watching : fill(TEXTS.you_play, { name: nameOf(seat) });
  }

  function draw() {
    drawBoard();
    drawPlayers();
    drawControls();
    drawClocks();
  }

  function say(message) {
    element("status").textContent = message;
  }

  // --- Tapping ---------------------------------------------------------------------------
  function step(edge) {
    path.push(edge);
    picked = null;
    draw();
    if (tree().nodes[node()].play !== null && board.contains(document.activeElement)) {
      buttons.done.focus(); // the play is complete: Enter sends it
    }
  }

  function tap(place) {
    if (!moving()) return;
    const point = ownPoint(state.turn, place);
    if (point === null) return;
    const choices = edges();
    if (picked !== null) {
      const chosen = choices.find(([from, to]) => from === picked && to === point);
      if (chosen) return step(chosen);
    }
    if (choices.some(([from]) => from === point)) {
      picked = picked === point ? null : point;
      return draw();
    }
    const reaching = choices.filter(([, to]) => to === point);
    if (reaching.length && reaching.every(([from]) => from === reaching[0][0])) return step(reaching[0]);
    picked = null;
    draw();
  }

  function undo() {
    if (blocked() || path.length === 0) return;
    path.pop();
    picked = null;
    draw();
  }

  // --- Talking to the server -------------------------------------------------------------
  function freshId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function post(url, body, headers) {
    const answer = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = await answer.json().catch(() => ({}));
    return [answer, data];
  }

  async function act(action, extra) {
    if (blocked() || key === null) return;
    const signature = JSON.stringify([action, extra, state.version]);
    if (!pending || pending.signature !== signature) pending = { signature, id: freshId() };
    busy = true;
    say("");
    draw();
    const version = state.version;
    try {
      const body = { action, version, id: pending.id, ...extra };
      const [answer, data] = await post(CONFIG.act, body, { Authorization: `Bearer ${key}` });
      pending = null;
      busy = false;
      if (!answer.ok) say(typeof data.error === "string" ? data.error : `${answer.status}`);
      else if (data.state) return accept(data.state);
      else {
        done = version; // the controls wait for the state it made (the stream, or else ask)
        setTimeout(async () => {
          if (done !== state.version) return;
          await reload();
          done = null; // still nothing new: free the controls again
          draw();
        }, 3000);
      }
    } catch (error) {
      say(TEXTS.unreachable); // the same action again goes with the same id
      busy = false;
    }
    draw();
  }

  function accept(next) {
    if (!next || typeof next.version !== "number" || next.version === state.version) return;
    state = next;
    received = performance.now();
    path = [];
    picked = null;
    resignLevel = null;
    buttons.resign.setAttribute("aria-expanded", "false");
    draw();
  }

  const storageKey = () => `gammonbot-play:${location.pathname}`;
  function remembered() {
    try {
      return sessionStorage.getItem(storageKey());
    } catch (error) {
      return null;
    }
  }
  function remember(value) {
    try {
      if (value === null) sessionStorage.removeItem(storageKey());
      else sessionStorage.setItem(storageKey(), value);
    } catch (error) {
      // no storage (a private window's file page): the key lives in memory only
    }
  }

  async function hello() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    let body = null;
    if (fragment.get("tgWebAppData")) body = { init_data: fragment.get("tgWebAppData") };
    else if (fragment.get("key")) body = { key: fragment.get("key") };
    else if (remembered()) body = { key: remembered() };
    if (body === null) return;
    try {
      const [answer, data] = await post(CONFIG.hello, body, {});
      if (answer.ok && typeof data.key === "string" && (data.seat === 0 || data.seat === 1)) {
        key = data.key;
        seat = data.seat;
        remember(key);
        if (fragment.get("key")) history.replaceState(null, "", location.pathname + location.search);
      } else {
        remember(null);
        say(typeof data.error === "string" ? data.error : `${answer.status}`);
      }
    } catch (error) {
      say(TEXTS.unreachable);
    }
    draw();
  }

  async function reload() {
    try {
      const answer = await fetch(CONFIG.state, { credentials: "same-origin" });
      if (answer.ok) accept(await answer.json());
    } catch (error) {
      // the stream's next try brings it
    }
  }

  function listen() {
    const source = new EventSource(CONFIG.live);
    const note = element("connection");
    source.addEventListener("state", (event) => {
      try {
        accept(JSON.parse(event.data));
      } catch (error) {
        // a broken event: the next one replaces it
      }
    });
    source.addEventListener("open", () => {
      note.textContent = "";
    });
    source.addEventListener("error", () => {
      note.textContent = TEXTS.reconnecting;
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(() => {
          reload();
          listen();
        }, 5000);
      }
    });
  }

  // --- Wiring ----------------------------------------------------------------------------
  board.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-point]");
    if (cell) tap(Number(cell.dataset.point));
  });
  board.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const cell = event.target.closest("[data-point]");
    if (!(event.key in moves) || !cell || event.altKey || event.ctrlKey || event.metaKey) return;
    const row = rows[0].includes(cell) ? 0 : 1;
    const [down, across] = moves[event.key];
    const target = rows[Math.max(0, Math.min(1, row + down))];
    let index = rows[row].indexOf(cell) + across;
    while (index >= 0 && index < target.length && target[index] === null) index += across || 1;
    event.preventDefault();
    if (target[index]) target[index].focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "u" || event.key === "U") {
      event.preventDefault();
      undo();
    } else if (event.key === "Escape" && picked !== null) {
      picked = null;
      draw();
    }
  });
  const simple = { roll: "roll", double: "double", take: "take", drop: "drop", beaver: "beaver" };
  for (const [id, action] of Object.entries(simple)) {
    buttons[id].addEventListener("click", () => act(action, {}));
  }
  buttons.accept.addEventListener("click", () => act("accept_resignation", {}));
  buttons.reject.addEventListener("click", () => act("reject_resignation", {}));
  buttons.undo.addEventListener("click", undo);
  buttons.done.addEventListener("click", () => {
    const play = tree() && tree().nodes[node()].play;
    if (play) act("play", { play });
  });
  buttons.resign.addEventListener("click", () => {
    const open = buttons.resign.getAttribute("aria-expanded") === "true";
    buttons.resign.setAttribute("aria-expanded", open ? "false" : "true");
    resignLevel = null;
    drawControls();
  });
  for (const choice of element("resign-menu").querySelectorAll("[data-level]")) {
    choice.addEventListener("click", () => {
      resignLevel = Number(choice.dataset.level);
      buttons.resign.setAttribute("aria-expanded", "false");
      const level = TEXTS[`level_${resignLevel}`];
      element("resign-question").textContent = fill(TEXTS.confirm_resign, { level });
      drawControls();
      element("resign-no").focus();
    });
  }
  const closeResign = () => {
    resignLevel = null;
    buttons.resign.setAttribute("aria-expanded", "false");
    drawControls();
  };
  element("resign-cancel").addEventListener("click", closeResign);
  element("resign-no").addEventListener("click", closeResign);
  element("resign-yes").addEventListener("click", () => {
    const level = resignLevel;
    closeResign();
    if (level !== null) act("resign", { level });
  });

  draw();
  setInterval(drawClocks, 250);
  hello();
  listen();
})();
