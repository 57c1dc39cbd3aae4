"use strict";
// The tap-to-play board. It draws the state from the page's "state" block and from the live
// stream, asks the server who the viewer is (a key in the address, or Telegram's initData), and
// gives the player who must act the buttons and the tap-to-move board.
//
// One script in six files, which play_page concatenates in this order into the page's single
// inline script (one CSP hash): play_state.js, play_board.js, play_panels.js, play_input.js,
// play_server.js, play_main.js. This first file opens one arrow function, and play_main.js
// closes and calls it, so nothing the script names becomes a global. At the top of that
// function this file declares what every part shares: the page's elements and data blocks, the
// state being shown with the viewer's seat and the steps taken this turn, and the questions
// asked of them (numbering, whose turn, which steps the plays tree allows). Each later file is
// a block { ... }: its helpers stay its own, and what another file calls it puts on the
// namespace object `play` (Object.assign at its end), so every crossing is named there.
//
// Hooks (docs/board-page.md): every place a checker can stand is a button with data-point in
// player 0's numbering, whoever looks: 1..24 the points, 25 player 0's bar, 0 player 0's tray,
// 26 player 1's bar, 27 player 1's tray. A place a picked checker may go has data-dest (the
// same number).
(() => {
  const play = {}; // each later file's entry points
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const element = (id) => document.getElementById(id);
  const TEXTS = read("texts");
  const CONFIG = read("config");
  const BAR = [25, 26];
  const OFF = [0, 27];
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

  function make(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

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
