// Tiny Ninjas in the replay viewer (web/static/viewer.js): one public view drawn as SVG.
// Registered under the game's id; `ui` holds the viewer's helpers (el, die, card, caption, colour, who).
"use strict";
(window.TourneyViewers = window.TourneyViewers || {})["tiny-ninjas"] = {
  draw(g, v, ui) {
    const {el, die, card, caption, colour, who} = ui;
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

    tinyNinjas(g, v);
  },
};
