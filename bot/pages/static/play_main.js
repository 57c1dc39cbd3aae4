  // --- Wiring: the last file, which closes the function play_state.js opened and calls it -----
  play.bindInput();
  play.draw();
  setInterval(play.drawClocks, 250);
  play.hello();
  play.listen();
})();
