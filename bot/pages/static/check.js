"use strict";
// The dice check, BGPF-1: the revealed server seed against its commitment, then every roll
// recomputed with WebCrypto and compared with the recorded dice. Everything it needs is in the
// JSON block of the page; nothing is fetched.
(() => {
  const data = JSON.parse(document.getElementById("check-data").textContent);
  const texts = data.texts;
  const summary = document.getElementById("summary");
  const BATCH = 2000; // signatures in flight at once: enough to keep WebCrypto busy
  const ACCEPT_BELOW = 252; // the largest multiple of 6 below 256: every face equally likely

  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  const say = (status, message) => {
    summary.textContent = message;
    summary.dataset.status = status;
    summary.dataset.doneMs = performance.now().toFixed(1);
  };
  const toHex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  const fromHex = (hex) => Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));

  if (data.serverSeed === null) {
    return; // still secret: the page already says when it will be revealed
  }
  const subtle = window.isSecureContext && window.crypto ? window.crypto.subtle : undefined;
  if (!subtle) {
    say("unavailable", texts.unavailable);
    return;
  }
  const encoder = new TextEncoder();

  async function dice(key, clientSeed, nonce) {
    const faces = [];
    for (let round = 0; faces.length < 2; round += 1) {
      const message = encoder.encode(`${clientSeed}:${nonce}:${round}`);
      const mac = new Uint8Array(await subtle.sign("HMAC", key, message));
      for (const byte of mac) {
        if (byte < ACCEPT_BELOW) {
          faces.push((byte % 6) + 1);
          if (faces.length === 2) break;
        }
      }
    }
    return faces;
  }

  async function check() {
    if (!/^[0-9a-fA-F]{64}$/.test(data.serverSeed)) {
      say("bad", texts.bad_hex);
      return;
    }
    const seed = fromHex(data.serverSeed);
    const digest = toHex(new Uint8Array(await subtle.digest("SHA-256", seed)));
    const seedOk = digest === data.commitment.trim().toLowerCase();
    const digestField = document.getElementById("seed-digest");
    digestField.textContent = digest;
    digestField.dataset.status = seedOk ? "ok" : "bad";
    const key = await subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    const clientSeed = data.clientSeed;
    const rows = document.querySelectorAll("#rolls tr[data-nonce]");
    const count = data.rolls.length;
    let bad = 0;
    let first = null;
    for (let start = 0; start < count; start += BATCH) {
      const batch = data.rolls.slice(start, start + BATCH);
      const computed = await Promise.all(batch.map(([nonce]) => dice(key, clientSeed, nonce)));
      batch.forEach(([nonce, one, two], offset) => {
        const [gotOne, gotTwo] = computed[offset];
        const ok = gotOne === one && gotTwo === two;
        const row = rows[start + offset];
        row.cells[4].textContent = `${gotOne}-${gotTwo}`;
        row.cells[5].textContent = ok ? "✓" : "✗";
        row.dataset.status = ok ? "ok" : "bad";
        if (!ok) {
          bad += 1;
          first = first ?? { nonce, recorded: `${one}-${two}`, computed: `${gotOne}-${gotTwo}` };
        }
      });
      if (start + BATCH < count) {
        say("pending", fill(texts.progress, { done: start + batch.length, count }));
      }
    }
    if (!seedOk) {
      say("bad", texts.bad_seed);
    } else if (first === null) {
      say("ok", fill(texts.ok, { count }));
    } else {
      const where = { count: bad, number: first.nonce + 1, ...first };
      say("bad", fill(bad === 1 ? texts.bad_one : texts.bad_many, where));
    }
  }

  check().catch((error) => say("error", fill(texts.error, { error: String(error) })));
})();
