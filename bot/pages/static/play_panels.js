  // --- Around the board: the players' panels and clocks, the score, the turn and the buttons
  // (play_panels.js; publishes draw, drawControls and drawClocks)
  {
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
        const shown = owned && state.phase !== "doubled" ? [play.cube(state.cube.value, false)] : [];
        slot.replaceChildren(...shown);
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
      play.drawBoard();
      drawPlayers();
      drawControls();
      drawClocks();
    }

    Object.assign(play, { draw, drawControls, drawClocks });
  }
