// Maître Ninja in the replay viewer (web/static/viewer.js): one public view drawn as SVG.
// Registered under the game's id; `ui` holds the viewer's helpers (el, die, card, caption, colour, who).
"use strict";
(window.TourneyViewers = window.TourneyViewers || {})["maitre-ninja"] = {
  draw(g, v, ui) {
    const {el, die, card, caption, colour, who} = ui;
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

    maitreNinja(g, v);
  },
};
