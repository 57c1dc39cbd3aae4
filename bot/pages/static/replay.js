"use strict";
// The replay viewer: one board picture at a time, stepped with the buttons, the game selector
// and the keys ← → Home End. The pictures' addresses and captions are in the page's JSON block,
// with the game to show first (the match page links to each game's replay).
(() => {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const games = data.games; // [[[image address, caption], ...], ...] one list per game
  if (games.length === 0) {
    return;
  }
  const viewer = document.getElementById("viewer");
  const image = document.getElementById("frame");
  const caption = document.getElementById("caption");
  const counter = document.getElementById("counter");
  const select = document.getElementById("game");
  const button = (id) => document.getElementById(id);
  const [first, previous, next, last] = ["first", "previous", "next", "last"].map(button);
  let game = Number.isInteger(data.start) && data.start < games.length ? data.start : 0;
  let index = 0;

  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));

  function show() {
    const frames = games[game];
    const [address, text] = frames[index];
    image.src = address;
    image.alt = text;
    caption.textContent = text;
    counter.textContent = fill(data.texts.counter, { number: index + 1, count: frames.length });
    select.value = String(game);
    first.disabled = previous.disabled = index === 0;
    next.disabled = last.disabled = index === frames.length - 1;
    viewer.dataset.game = String(game);
    viewer.dataset.frame = String(index);
    if (index + 1 < frames.length) {
      new Image().src = frames[index + 1][0]; // fetched now, shown at once on the next step
    }
  }

  function go(target) {
    index = Math.max(0, Math.min(target, games[game].length - 1));
    show();
  }

  first.addEventListener("click", () => go(0));
  previous.addEventListener("click", () => go(index - 1));
  next.addEventListener("click", () => go(index + 1));
  last.addEventListener("click", () => go(Infinity));
  select.addEventListener("change", () => {
    game = Number(select.value);
    go(0);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return; // Alt+← is the browser's Back
    }
    const targets = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: Infinity };
    if (event.key in targets) {
      event.preventDefault();
      go(targets[event.key]);
    }
  });
  show();
})();
