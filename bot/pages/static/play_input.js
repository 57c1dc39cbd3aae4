  // --- The viewer's hand: taps and keys on the board, the buttons, the resign menu ---------
  // (play_input.js; publishes bindInput, which play_main.js calls once)
  {
    function step(edge) {
      path.push(edge);
      picked = null;
      play.draw();
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
        return play.draw();
      }
      const reaching = choices.filter(([, to]) => to === point);
      if (reaching.length && reaching.every(([from]) => from === reaching[0][0])) return step(reaching[0]);
      picked = null;
      play.draw();
    }

    function undo() {
      if (blocked() || path.length === 0) return;
      path.pop();
      picked = null;
      play.draw();
    }

    function arrow(event) {
      // the arrow keys move the focus along a row of the board and between the rows
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
    }

    function shortcut(event) {
      // U anywhere takes a step back, Escape drops the picked checker
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "u" || event.key === "U") {
        event.preventDefault();
        undo();
      } else if (event.key === "Escape" && picked !== null) {
        picked = null;
        play.draw();
      }
    }

    function closeResign() {
      resignLevel = null;
      buttons.resign.setAttribute("aria-expanded", "false");
      play.drawControls();
    }

    function bindResign() {
      buttons.resign.addEventListener("click", () => {
        const open = buttons.resign.getAttribute("aria-expanded") === "true";
        buttons.resign.setAttribute("aria-expanded", open ? "false" : "true");
        resignLevel = null;
        play.drawControls();
      });
      for (const choice of element("resign-menu").querySelectorAll("[data-level]")) {
        choice.addEventListener("click", () => {
          resignLevel = Number(choice.dataset.level);
          buttons.resign.setAttribute("aria-expanded", "false");
          const level = TEXTS[`level_${resignLevel}`];
          element("resign-question").textContent = fill(TEXTS.confirm_resign, { level });
          play.drawControls();
          element("resign-no").focus();
        });
      }
      element("resign-cancel").addEventListener("click", closeResign);
      element("resign-no").addEventListener("click", closeResign);
      element("resign-yes").addEventListener("click", () => {
        const level = resignLevel;
        closeResign();
        if (level !== null) play.act("resign", { level });
      });
    }

    function bindInput() {
      board.addEventListener("click", (event) => {
        const cell = event.target.closest("[data-point]");
        if (cell) tap(Number(cell.dataset.point));
      });
      board.addEventListener("keydown", arrow);
      document.addEventListener("keydown", shortcut);
      const simple = { roll: "roll", double: "double", take: "take", drop: "drop", beaver: "beaver" };
      for (const [id, action] of Object.entries(simple)) {
        buttons[id].addEventListener("click", () => play.act(action, {}));
      }
      buttons.accept.addEventListener("click", () => play.act("accept_resignation", {}));
      buttons.reject.addEventListener("click", () => play.act("reject_resignation", {}));
      buttons.undo.addEventListener("click", undo);
      buttons.done.addEventListener("click", () => {
        const chosen = tree() && tree().nodes[node()].play;
        if (chosen) play.act("play", { play: chosen });
      });
      bindResign();
    }

    Object.assign(play, { bindInput });
  }
