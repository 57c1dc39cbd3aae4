  // --- The board: points, bars, trays and the strip with the dice and the cube -----------
  // (play_board.js, inside the function play_state.js opens; publishes drawBoard and cube)
  {
    const VISIBLE = 5; // checkers drawn on a point; a taller stack shows its count
    const PIPS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

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
      const active = document.activeElement;
      const focused = board.contains(active) ? active.dataset.point : undefined;
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

    Object.assign(play, { drawBoard, cube });
  }
