  // --- Talking to the server: the hello, the actions, the live stream and its reconnects ----
  // (play_server.js; publishes act, hello and listen)
  {
    function say(message) {
      element("status").textContent = message;
    }

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
      play.draw();
      const version = state.version;
      try {
        const body = { action, version, id: pending.id, ...extra };
        const [answer, data] = await post(CONFIG.act, body, { Authorization: `Bearer ${key}` });
        pending = null;
        busy = false;
        if (!answer.ok) {
          say(typeof data.error === "string" ? data.error : `${answer.status}`);
          if (answer.status === 409) reload(); // refused as out of date: show the match now
        }
        else if (data.state) return accept(data.state);
        else {
          done = version; // the controls wait for the state it made (the stream, or else ask)
          setTimeout(async () => {
            if (done !== state.version) return;
            await reload();
            done = null; // still nothing new: free the controls again
            play.draw();
          }, 3000);
        }
      } catch (error) {
        say(TEXTS.unreachable); // the same action again goes with the same id
        busy = false;
      }
      play.draw();
    }

    function accept(next) {
      // Never back: a late answer of /state must not replace what the stream sent since.
      if (!next || typeof next.version !== "number" || next.version <= state.version) return;
      state = next;
      received = performance.now();
      path = [];
      picked = null;
      resignLevel = null;
      buttons.resign.setAttribute("aria-expanded", "false");
      play.draw();
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
      play.draw();
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
        if (state.finished) source.close(); // the match is over: nothing more will come
      });
      source.addEventListener("open", () => {
        note.textContent = "";
      });
      source.addEventListener("error", () => {
        if (state.finished) return source.close();
        note.textContent = TEXTS.reconnecting;
        if (source.readyState === EventSource.CLOSED) {
          setTimeout(() => {
            reload();
            listen();
          }, 5000);
        }
      });
    }

    Object.assign(play, { act, hello, listen });
  }
