// Naruto: Ninja Arena in the replay viewer (web/static/viewer.js): one public view drawn as SVG.
// Registered under the game's id; `ui` holds the viewer's helpers (el, die, card, caption, colour, who).
"use strict";
(window.TourneyViewers = window.TourneyViewers || {})["ninja-arena"] = {
  draw(g, v, ui) {
    const {el, die, card, caption, colour, who} = ui;
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

    ninjaArena(g, v);
  },
};
