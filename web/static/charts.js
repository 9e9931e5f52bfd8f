// Line charts drawn as SVG: the SPRT's LLR over the run, a bot's rating over tournaments.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  function el(parent, name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }
  // points: [[x, y]...]; bands: [{y, label}] horizontal lines; returns nothing, draws into svg.
  function lineChart(svg, points, bands, yLabel) {
    const w = +svg.getAttribute("width"), h = +svg.getAttribute("height"), pad = 40;
    const ys = points.map(p => p[1]).concat(bands.map(b => b.y));
    const xs = points.map(p => p[0]);
    if (!points.length) { el(svg, "text", {x: pad, y: h / 2}, "no data yet"); return; }
    let y0 = Math.min(...ys), y1 = Math.max(...ys); if (y0 === y1) { y0 -= 1; y1 += 1; }
    let x0 = Math.min(...xs), x1 = Math.max(...xs); if (x0 === x1) { x0 -= 1; x1 += 1; }
    const X = x => pad + (x - x0) / (x1 - x0) * (w - 2 * pad);
    const Y = y => h - pad + (y0 - y) / (y1 - y0) * (h - 2 * pad);
    el(svg, "line", {x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, stroke: "#888"});
    el(svg, "line", {x1: pad, y1: pad, x2: pad, y2: h - pad, stroke: "#888"});
    for (const b of bands) {
      el(svg, "line", {x1: pad, y1: Y(b.y), x2: w - pad, y2: Y(b.y), stroke: "#c44", "stroke-dasharray": "4 3"});
      el(svg, "text", {x: w - pad + 2, y: Y(b.y) + 4, "font-size": 10}, b.label);
    }
    el(svg, "polyline", {points: points.map(p => X(p[0]) + "," + Y(p[1])).join(" "), fill: "none",
                         stroke: "#246", "stroke-width": 2, "data-points": points.length});
    for (const p of points) el(svg, "circle", {cx: X(p[0]), cy: Y(p[1]), r: 2.5, fill: "#246"});
    el(svg, "text", {x: 4, y: pad - 10, "font-size": 11}, yLabel);
    el(svg, "text", {x: pad, y: h - pad + 14, "font-size": 10}, String(x0));
    el(svg, "text", {x: w - pad - 20, y: h - pad + 14, "font-size": 10}, String(x1));
    el(svg, "text", {x: 2, y: Y(y1) + 4, "font-size": 10}, y1.toFixed(1));
    el(svg, "text", {x: 2, y: Y(y0) + 4, "font-size": 10}, y0.toFixed(1));
  }
  const llr = document.getElementById("llr-data");
  if (llr) {
    const s = JSON.parse(llr.textContent);
    lineChart(document.getElementById("llr-chart"), s.curve.map(c => [c.matches, c.llr]),
              [{y: s.lower, label: "H0"}, {y: s.upper, label: "H1"}], "LLR by matches played");
  }
  const rating = document.getElementById("rating-data");
  if (rating) {
    const rows = JSON.parse(rating.textContent);
    lineChart(document.getElementById("rating-chart"), rows.map((r, i) => [i + 1, r.rating]),
              [], "Elo by tournament (1 = first rated)");
  }
})();
