// The replay viewer: draws one public view per ply as SVG, for each of the four games.
// Frames come from /api/matches/ID/frames (a stored match) or a live SSE stream.
// Everything shown is set with textContent or attributes: no markup from data is ever parsed.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("board");
  const cfg = JSON.parse(document.getElementById("viewer-config").textContent);
  const $ = id => document.getElementById(id);
  let frames = [], ply = 0, timer = null, follow = true, seatNames = cfg.seats || [];

  function el(parent, name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = String(text);
    parent.appendChild(node);
    return node;
  }
  const PALETTE = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"];
  const colour = i => PALETTE[i % PALETTE.length];
  const who = i => (i === null || i === undefined || i < 0 ? "—" : seatNames[i] !== undefined ? seatNames[i] : "seat " + i);

  function die(g, x, y, face, size, label) {
    el(g, "rect", {x, y, width: size, height: size, rx: 5, fill: "#fff", stroke: "#333"});
    el(g, "text", {x: x + size / 2, y: y + size * 0.66, "text-anchor": "middle", "font-size": size * 0.5,
                   "font-weight": 700}, label !== undefined ? label : face);
  }
  function card(g, x, y, w, h, text, fill, key) {
    el(g, "rect", {x, y, width: w, height: h, rx: 6, fill: fill || "#fff", stroke: "#444"});
    if (text) el(g, "text", {x: x + w / 2, y: y + h / 2 + 4, "text-anchor": "middle", "font-size": 11,
                             "data-k": key || "card"}, text);
  }
  function caption(g, x, y, text, attrs) { return el(g, "text", Object.assign({x, y, "font-size": 13}, attrs), text); }

  // ------------------------------------------------------------------ Tiny Ninjas
  function tinyNinjas(g, v) {
    const end = (v.events || []).find(e => e && e.type === "end");
    const phase = end ? `over: ${tinyResult(end)}` : v.phase;
    caption(g, 20, 24, `round ${v.round} · ${phase} · attacker ${who(v.attacker)} · draw pile ${v.draw_pile_size}`,
            {"data-k": "phase"});
    const n = (v.health || []).length;
    for (let s = 0; s < n; s++) {
      const y = 50 + s * 230, hp = v.health[s], max = (v.max_health || [])[s] || 10;
      caption(g, 20, y, who(s), {"font-weight": 700, fill: colour(s)});
      el(g, "rect", {x: 20, y: y + 10, width: 300, height: 18, fill: "#eee", stroke: "#999"});
      el(g, "rect", {x: 20, y: y + 10, width: 300 * Math.max(0, hp) / max, height: 18, fill: colour(s)});
      caption(g, 330, y + 24, hp, {"data-k": "health-" + s, "font-weight": 700});
      caption(g, 360, y + 24, "/ " + max + " health");
      const hand = (v.hand_sizes || [])[s] || 0;
      const shown = (v.revealed_hands || {})[s] || (v.revealed_hands || {})[String(s)] || [];
      caption(g, 20, y + 50, "hand", {"data-k": "hand-" + s, "data-n": hand});
      for (let i = 0; i < hand; i++) card(g, 60 + i * 44, y + 38, 40, 58, shown[i] || "", shown[i] ? "#fff" : "#556");
      const tokens = (v.tokens || [])[s] || [];
      caption(g, 20, y + 120, "tokens: " + tokens.join(" "), {"data-k": "tokens-" + s});
      const known = (v.known_cards || [])[s] || [];
      if (known.length) caption(g, 20, y + 140, "known: " + known.join(", "));
    }
    const c = el(g, "g", {transform: "translate(560,50)"});
    if (v.pending_attack) {
      caption(c, 0, 0, "attack");
      card(c, 0, 10, 90, 120, v.pending_attack.card, "#fde");
      caption(c, 0, 150, `${v.pending_attack.colour} ${v.pending_attack.amount}`, {"data-k": "attack"});
    }
    if (v.last_dice) {
      caption(c, 130, 0, "dice of " + who(v.last_dice.seat));
      (v.last_dice.faces || []).forEach((f, i) => die(c, 130 + i * 50, 10, f, 44));
      el(c, "text", {x: 130, y: 70, "font-size": 1, "data-k": "dice", fill: "none"}, (v.last_dice.faces || []).join(","));
    }
    const discard = v.discard_pile || [];
    caption(c, 0, 200, `discard pile (${discard.length})`, {"data-k": "discard", "data-n": discard.length});
    if (discard.length) card(c, 0, 210, 90, 120, discard[discard.length - 1], "#ffe");
  }

  // The match's end event (ranking: tiers of seats, best first) in words.
  function tinyResult(end) {
    const first = (end.ranking || [])[0] || [];
    return (first.length === 1 ? `${who(first[0])} wins` : "a draw") + (end.reason ? ` (${end.reason})` : "");
  }

  // ------------------------------------------------------------------ Ninja Versus Ninja
  function squareOf(name) {
    const m = /^([a-z])(\d+)$/.exec(name || "");
    return m ? {col: m[1].charCodeAt(0) - 97, row: +m[2] - 1} : null;
  }
  // Each side is drawn in the colour its label names (seat 0 is Black), and the board is
  // oriented as `tourney match --verbose` prints it: files a-d left to right, rank 11 at the top.
  const NVN_COLOURS = {Black: "#1b1b1b", Red: "#c0392b"};
  const sideColour = (v, p) => NVN_COLOURS[(v.colors || [])[p]] || colour(p);
  function ninjaVersusNinja(g, v) {
    const seen = [].concat(...(v.ninjas || [])).map(squareOf).filter(Boolean);
    const cols = Math.max(4, ...seen.map(s => s.col + 1)), rows = Math.max(11, ...seen.map(s => s.row + 1));
    const size = 38, ox = 40, oy = 56;
    const centre = s => [ox + s.col * size + size / 2, oy + (rows - 1 - s.row) * size + size / 2];
    const side = ox + cols * size + 60;  // the text column right of the board
    caption(g, 20, 24, `turn ${v.turn_number + 1} · to move ${who(v.to_move)} · roll ${(v.roll || []).join("+")}`,
            {"data-k": "turn"});
    for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++)
      el(g, "rect", {x: ox + c * size, y: oy + (rows - 1 - r) * size, width: size, height: size,
                     fill: (r + c) % 2 ? "#e8dcc0" : "#f6eedb", stroke: "#b9a"});
    for (let c = 0; c < cols; c++)
      caption(g, ox + c * size + size / 2 - 4, oy - 6, String.fromCharCode(97 + c), {"data-k": "file-" + c});
    for (let r = 0; r < rows; r++)
      caption(g, 14, oy + (rows - 1 - r) * size + size / 2 + 5, r + 1, {"font-size": 11, "data-k": "rank-label-" + r});
    const log = v.log || [];
    const last = log.length ? log[log.length - 1] : null;
    if (last) {
      const path = String(last[2] || "").match(/[a-z]\d+/g) || [];
      const pts = path.map(squareOf).filter(Boolean).map(centre);
      el(g, "polyline", {points: pts.map(p => p.join(",")).join(" "), fill: "none", stroke: sideColour(v, last[0]),
                         "stroke-width": 4, "stroke-opacity": 0.6, "data-k": "path", "data-path": last[2]});
      caption(g, side, oy + 20, `last move: ${who(last[0])} ${last[2]} ${last[3] || ""}`);
    }
    (v.ninjas || []).forEach((squares, p) => squares.forEach(sq => {
      const s = squareOf(sq); if (!s) return;
      const [x, y] = centre(s);
      el(g, "circle", {cx: x, cy: y, r: 13, fill: sideColour(v, p), stroke: "#fff", "stroke-width": 2,
                       "data-seat": p, "data-sq": sq});
    }));
    (v.mission || []).forEach((m, p) => {
      if (!m || !m.square) return;
      const s = squareOf(m.square); if (!s) return;
      const [x, y] = centre(s);
      el(g, "circle", {cx: x, cy: y, r: 17, fill: "none", stroke: "#d4ac0d", "stroke-width": 3, "data-k": "mission-" + p});
    });
    (v.score || []).forEach((sc, p) => {
      caption(g, side, oy + 60 + p * 24, `${who(p)} (${(v.colors || [])[p] || ""}): `,
              {fill: sideColour(v, p), "font-weight": 700, "data-k": "side-" + p});
      caption(g, side + 220, oy + 60 + p * 24, sc, {"data-k": "score-" + p, "font-weight": 700});
    });
    (v.roll || []).forEach((f, i) => die(g, 700 + i * 50, 10, f, 40));
    if (v.result) {
      const r = v.result;
      const said = r.winner === null || r.winner === undefined ? "a draw" : `${who(r.winner)} (${(v.colors || [])[r.winner] || ""}) wins`;
      caption(g, side, oy + 130, `game over: ${said} (${r.reason})`, {"data-k": "result", "font-weight": 700});
    }
  }

  // ------------------------------------------------------------------ Maître Ninja
  function maitreNinja(g, v) {
    const n = v.n_players || (v.ranks || []).length;
    caption(g, 20, 24, `fight ${v.fight_number} · ${v.phase} · ${who(v.attacker)} attacks ${who(v.defender)}` +
            ` · parries ${v.parries}`, {"data-k": "fight"});
    for (let s = 0; s < n; s++) {
      const x = 20 + s * 200, y = 50;
      const role = s === v.attacker ? " ⚔" : s === v.defender ? " ⛨" : "";
      caption(g, x, y, who(s) + role, {"font-weight": 700, fill: colour(s)});
      caption(g, x, y + 18, (v.elements || [])[s] || "");
      caption(g, x, y + 38, "rank");
      caption(g, x + 40, y + 38, (v.ranks || [])[s], {"data-k": "rank-" + s, "font-weight": 700});
      for (let r = 0; r < 5; r++) el(g, "rect", {x: x + r * 22, y: y + 46, width: 18, height: 10,
                                                  fill: r < (v.ranks || [])[s] ? colour(s) : "#eee", stroke: "#999"});
    }
    const supply = v.parry_supply || {};
    caption(g, 20, 150, "parry supply: " + Object.entries(supply).map(([k, c]) => `${k}×${c}`).join("  "));
    const hist = v.history || [];
    // A fight still being parried card by card, under whichever key the view gives it, is drawn
    // before the last finished one.
    const live = Object.values(v).find(x => x && typeof x === "object" && !Array.isArray(x) && Array.isArray(x.row));
    const fight = live || (hist.length ? hist[hist.length - 1] : null);
    if (!fight) { caption(g, 20, 200, "no fight finished yet"); return; }
    const outcome = fight.winner ? ` — ${fight.winner} wins` : " — in progress";
    caption(g, 20, 190, `fight ${fight.fight !== undefined ? fight.fight : v.fight_number}: ${who(fight.attacker)}` +
            ` (rank ${fight.attacker_rank}) against ${who(fight.defender)}${outcome}`, {"data-k": "last-fight"});
    caption(g, 20, 220, "attack line");
    const attack = fight.attack || [];
    attack.forEach((c, i) => card(g, 110 + i * 54, 200, 50, 70, c, "#fde", "attack-" + i));
    for (let i = 0; i < (fight.face_down || 0); i++) card(g, 110 + (attack.length + i) * 54, 200, 50, 70, "", "#556");
    caption(g, 20, 320, "parry row");
    const burned = new Set(fight.burned || []), unused = new Set(fight.unused || []);
    const parried = new Set((fight.parried || []).map(p => p[1] !== undefined ? p[1] : p));
    (fight.row || []).forEach((c, i) => {
      const state = parried.has(i) ? "parried" : burned.has(i) ? "burned" : unused.has(i) ? "unused" : "flipped";
      const fill = {parried: "#cfe8cf", burned: "#f3c6a8", unused: "#eee", flipped: "#fff"}[state];
      const faceDown = c === null || c === undefined || c === "" || c === "?";  // not flipped yet
      card(g, 110 + i * 54, 300, 50, 70, faceDown ? "" : c, faceDown ? "#556" : fill, "parry-" + i);
      el(g, "text", {x: 135 + i * 54, y: 386, "text-anchor": "middle", "font-size": 10, "data-k": "parry-state-" + i},
         state);
    });
    caption(g, 20, 420, (fight.new_rank !== undefined ? `new rank ${fight.new_rank}` : "") + (v.first_master !== null && v.first_master !== undefined ?
            ` · first master ${who(v.first_master)}` : ""));
  }

  // ------------------------------------------------------------------ Naruto: Ninja Arena
  function ninjaArena(g, v) {
    caption(g, 20, 24, `tick ${v.tick} / ${v.tick_cap} · ${v.mode}` + (v.over ? " · over" : ""), {"data-k": "tick"});
    const players = v.players || [];
    const cx = 450, cy = 280, rad = 190;
    el(g, "ellipse", {cx, cy, rx: 420, ry: 230, fill: "#e9f2e4", stroke: "#8a8"});
    players.forEach((p, i) => {
      const a = -Math.PI / 2 + 2 * Math.PI * i / Math.max(players.length, 1);
      const x = cx + rad * 1.7 * Math.cos(a) - 110, y = cy + rad * 0.9 * Math.sin(a) - 40;
      const box = el(g, "g", {transform: `translate(${x},${y})`, "data-seat": p.seat, opacity: p.eliminated ? 0.4 : 1});
      el(box, "rect", {width: 220, height: 96, rx: 8, fill: "#fff", stroke: colour(i), "stroke-width": 2});
      caption(box, 8, 16, `${who(p.seat)}: ${p.character}` + (p.bottom ? " / " + p.bottom : ""),
              {"font-weight": 700, fill: colour(i)});
      caption(box, 8, 32, `${p.side}${p.power_active ? " · power" : ""}${p.eliminated ? " · out" : ""}`);
      caption(box, 8, 50, "track");
      for (let t = 0; t < Math.max(8, p.cube || 0); t++) el(box, "rect", {x: 50 + t * 14, y: 40, width: 12, height: 12,
                                                    fill: t < p.cube ? colour(i) : "#eee", stroke: "#999"});
      caption(box, 170, 50, p.cube, {"data-k": "cube-" + p.seat});
      caption(box, 8, 68, "pool");
      caption(box, 50, 68, p.pool, {"data-k": "pool-" + p.seat});
      const dice = String(p.dice || "");
      [...dice].forEach((f, d) => die(box, 8 + d * 26, 72, f, 22, f === "." ? "" : f));
      el(box, "text", {x: 150, y: 90, "font-size": 10, "data-k": "dice-" + p.seat}, dice);
    });
    const events = v.last_events || [];
    events.slice(-6).forEach((e, i) => caption(g, 330, 240 + i * 16, arenaEvent(e), {"font-size": 11, "data-k": "event-" + i}));
  }

  // A Ninja Arena event ([kind, ...fields], engine/games/ninja_arena/rules.py) as a sentence.
  const ARENA_FACES = ".KSRHFLW";  // dice symbols as the table prints them (K kunai ... W spiral)
  function arenaEvent(e) {
    if (!Array.isArray(e) || !e.length) return String(e);
    const [kind, a, b, c] = e;
    const seats = xs => (Array.isArray(xs) ? xs : []).map(who).join(", ");
    switch (kind) {
      case "roll": return `${who(a)} rolls ${(b || []).map(f => ARENA_FACES[f] || "?").join(" ")}`;
      case "tokens": return `${who(a)} takes ${b} ${c} token${b === 1 ? "" : "s"}`;
      case "tally": return `${who(a)} tallies wounds: ${b} → ${c}`;
      case "activate": return `${who(a)} activates ${c}`;
      case "byakugan": return `${who(a)}'s Byakugan cancels an attack from ${who(b)}`;
      case "shield": return `${who(a)}'s sand shield absorbs ${b}`;
      case "stream": return `${who(a)}'s spiral streams an attack at ${who(b)}`;
      case "mistake": return `${who(a)} makes a mistake`;
      case "ko": return `${who(a)} is knocked out`;
      case "eliminated": return `${who(a)} is eliminated`;
      case "recovered": return `${who(a)} recovers`;
      case "power": return `${who(a)} activates their power`;
      case "power_lost": return `${who(a)} loses their power`;
      case "shadow_token": return `${who(a)} takes the shadow token`;
      case "shadow_returns": return `the shadow token returns to ${who(a)}`;
      case "stitched": return `${who(a)} is stitched until tick ${b}`;
      case "last_hitter": return `last hit by ${who(a)}`;
      case "pause": return `pause for ${a} (${who(b)}); order ${seats(c)}`;
      case "switch": return `${who(a)} switches character`;
      case "keep": return `${who(a)} keeps their character`;
      case "claim": return `${who(a)} claims ${b}`;
      case "hit": return `${who(a)} hits`;
      case "ignored": return `${who(a)}: ${b} ignored`;
      case "game_over": return `game over: ${seats(a)} left standing`;
      case "game_over_cap": return "game over: the tick cap is reached";
      default: return [kind, ...e.slice(1).map(x => JSON.stringify(x))].join(" ");
    }
  }

  function generic(g, v) {
    Object.entries(v).slice(0, 28).forEach(([k, val], i) =>
      caption(g, 20, 24 + i * 17, `${k}: ${JSON.stringify(val)}`.slice(0, 130), {"font-size": 12}));
  }

  const DRAW = {"tiny-ninjas": tinyNinjas, "ninja-versus-ninja": ninjaVersusNinja, "maitre-ninja": maitreNinja,
                "ninja-arena": ninjaArena};

  function publicOf(frame) { return cfg.full ? frame.public : frame; }
  function gameOf(view) {
    if (view.game && DRAW[view.game]) return view.game;
    if (view.ninjas) return "ninja-versus-ninja";
    return cfg.game;
  }

  function show(n) {
    if (!frames.length) return;
    ply = Math.max(0, Math.min(frames.length - 1, n));
    const view = publicOf(frames[ply]);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const g = el(svg, "g", {});
    (DRAW[gameOf(view)] || generic)(g, view);
    svg.setAttribute("data-ply", ply);
    $("ply").value = ply;
    $("ply").max = frames.length - 1;
    $("scrub").max = frames.length - 1;
    $("scrub").value = ply;
    $("plies").textContent = frames.length - 1;
    if (cfg.full) seatViews(frames[ply]);
    if (!cfg.live_url) history.replaceState(null, "", "#ply=" + ply);
  }

  function seatViews(frame) {
    const box = $("seat-views");
    box.replaceChildren();
    const acts = document.createElement("p");
    acts.textContent = "actions: " + (frame.actions || []).map(a => `${who(a.seat)}: ${a.label}`).join("; ");
    box.appendChild(acts);
    (frame.seats || []).forEach((obs, s) => {
      const h = document.createElement("h3"); h.textContent = who(s) + " sees"; box.appendChild(h);
      const pre = document.createElement("pre"); pre.textContent = JSON.stringify(obs); box.appendChild(pre);
    });
  }

  function stop() { if (timer) clearInterval(timer); timer = null; $("play").textContent = "▶ play"; }
  function play() {
    if (timer) { stop(); return; }
    if (ply >= frames.length - 1 && !cfg.live_url) show(0);
    $("play").textContent = "⏸ pause";
    timer = setInterval(() => {
      if (ply >= frames.length - 1) { if (!cfg.live_url) stop(); return; }
      show(ply + 1);
    }, 1000 / parseFloat($("speed").value));
  }
  function step(d) { stop(); follow = false; show(ply + d); }

  $("first").onclick = () => step(-frames.length);
  $("back").onclick = () => step(-1);
  $("forward").onclick = () => step(1);
  $("last").onclick = () => { stop(); follow = true; show(frames.length - 1); };
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { stop(); play(); } };
  $("ply").onchange = () => { stop(); follow = false; show(parseInt($("ply").value, 10) || 0); };
  $("scrub").oninput = () => { stop(); follow = false; show(parseInt($("scrub").value, 10) || 0); };
  document.addEventListener("keydown", e => {
    if (e.target && e.target.tagName === "INPUT" && e.target.type === "number") return;
    if (e.key === "ArrowRight") { step(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { step(-1); e.preventDefault(); }
    else if (e.key === "Home") { step(-frames.length); e.preventDefault(); }
    else if (e.key === "End") { $("last").onclick(); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });
  window.addEventListener("hashchange", () => {
    const m = /ply=(\d+)/.exec(location.hash); if (m && +m[1] !== ply) show(+m[1]);
  });

  function status(text) { $("status").textContent = text; }

  if (cfg.frames_url) {
    const headers = {};
    const token = new URLSearchParams(location.search).get("token");
    if (cfg.full && token) headers["X-Admin-Token"] = token;
    fetch(cfg.frames_url, {headers}).then(r => r.json()).then(doc => {
      frames = doc.frames || [];
      if (!frames.length) { status(doc.unavailable || "no replay (a bye)"); svg.setAttribute("data-ply", "none"); return; }
      const m = /ply=(\d+)/.exec(location.hash);
      show(m ? +m[1] : 0);
      status("ready");
    });
  } else if (cfg.live_url) {
    const source = new EventSource(cfg.live_url);
    source.addEventListener("frame", e => {
      const d = JSON.parse(e.data);
      if (frames.length && d.step <= (frames.lastStep || -1)) return;  // a reconnect repeats the latest event
      if (d.seat_names && d.seat_names.length) seatNames = d.seat_names;  // names while it runs, not "seat N"
      frames.push(d.view); frames.lastStep = d.step;
      if (follow) show(frames.length - 1); else { $("plies").textContent = frames.length - 1; $("scrub").max = frames.length - 1; }
      status("live · step " + d.step);
    });
    source.addEventListener("end", e => {
      source.close();
      const r = JSON.parse(e.data);
      seatNames = r.seat_names || seatNames;
      if (frames.length) show(follow ? frames.length - 1 : ply);
      const order = r.seat_names.map((name, s) => `${name}: rank ${r.ranks[s]}`).join(", ");
      $("live-result").textContent = `finished (${r.termination}: ${r.reason}) · ${order}`;
      $("live-result").setAttribute("data-finished", "1");
      status("finished");
    });
    let missing = 0;  // the browser retries an unknown match every second, for at most ten minutes
    source.addEventListener("missing", e => {
      missing += 1;
      if (missing > 600) { source.close(); status("no such match on the arena: check the id."); return; }
      status(JSON.parse(e.data).message + " (retrying)");
    });
    source.addEventListener("busy", e => status(JSON.parse(e.data).message));
  }
})();
