// The replay viewer: draws one public view per ply as SVG. Each game draws its own views: a script in
// its package (engine/games/<game>/viewer.js, Game.viewer_script, served at /games/<id>/viewer.js and
// loaded before this one) registers {draw(g, view, ui), claims(view)?} in window.TourneyViewers.
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

  function generic(g, v) {
    Object.entries(v).slice(0, 28).forEach(([k, val], i) =>
      caption(g, 20, 24 + i * 17, `${k}: ${JSON.stringify(val)}`.slice(0, 130), {"font-size": 12}));
  }

  const ui = {el, die, card, caption, colour, who};  // what a game's drawing may use
  const games = () => window.TourneyViewers || {};

  function publicOf(frame) { return cfg.full ? frame.public : frame; }
  // The game of a view: the one it names, else one whose drawing claims it (a live page knows no game), else the page's.
  function gameOf(view) {
    const known = games();
    if (view.game && known[view.game]) return view.game;
    return Object.keys(known).find(id => known[id].claims && known[id].claims(view)) || cfg.game;
  }

  function show(n) {
    if (!frames.length) return;
    ply = Math.max(0, Math.min(frames.length - 1, n));
    const view = publicOf(frames[ply]);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const g = el(svg, "g", {});
    const drawing = games()[gameOf(view)];
    if (drawing) drawing.draw(g, view, ui); else generic(g, view);
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
      if (r.seats.length) seatNames = r.seats.map(s => s.bot);
      if (frames.length) show(follow ? frames.length - 1 : ply);
      const order = r.seats.map(s => `${s.bot}: ${s.place}`).join(", ");
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
