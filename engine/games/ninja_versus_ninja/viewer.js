// Ninja Versus Ninja in the replay viewer (web/static/viewer.js): one public view drawn as SVG.
// Registered under the game's id; `ui` holds the viewer's helpers (el, die, card, caption, colour, who).
"use strict";
(window.TourneyViewers = window.TourneyViewers || {})["ninja-versus-ninja"] = {
  // A live view names no game: a board of ninjas is this game's.
  claims: v => Boolean(v.ninjas),
  draw(g, v, ui) {
    const {el, die, card, caption, colour, who} = ui;
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

    ninjaVersusNinja(g, v);
  },
};
