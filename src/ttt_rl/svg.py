"""The learning curve as a picture: an SVG chart, standard library only.

Top panel: exact win, draw and loss rates against a random opponent, with
the sampled rates of the progress line drawn faintly behind them. Bottom
panel: lines lost against every opponent strategy (0 means unbeatable).
One curve per run; the saved run is drawn bold, the others thin. No C
counterpart.
"""

import math
from html import escape

WIDTH, LEFT, RIGHT = 760, 70, 150          # picture width and side margins
TOP_PANEL = (30, 250)                       # y range of the rates panel
BOTTOM_PANEL = (300, 420)                   # y range of the lines-lost panel
HEIGHT = 470
COLORS = {"win": "#2a9d3a", "draw": "#3570b5", "loss": "#d1392b", "lines_lost": "#7b3fa0"}


def nice_ticks(top, count=5):
    """Return round tick values from 0 to at least `top` (about `count`)."""
    if top <= 0:
        return [0, 1]
    raw = top / count
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 5, 10) if step * m >= raw)
    return [step * k for k in range(int(math.ceil(top / step)) + 1)]


def _polyline(points, color, width, opacity, dash=""):
    if len(points) == 1:   # a single point still shows, as a dot
        x, y = points[0]
        return ('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" fill-opacity="%.2f"/>'
                % (x, y, width + 1, color, opacity))
    text = " ".join("%.1f,%.1f" % p for p in points)
    extra = ' stroke-dasharray="%s"' % dash if dash else ""
    return ('<polyline points="%s" fill="none" stroke="%s" stroke-width="%.1f" '
            'stroke-opacity="%.2f"%s/>' % (text, color, width, opacity, extra))


def chart(runs, best=None, title="Learning curve", opponent="X"):
    """Return the SVG text of a learning-curve chart.

    `runs` maps a run name (its seed) to its rows: dicts with games,
    sampled (wins, losses, ties) or None, exact (an evaluation dict) or
    None. `best` names the run to highlight. `opponent` names the random
    player in the labels.
    """
    rows = [r for run in runs.values() for r in run]
    max_games = max([r["games"] for r in rows] + [1])
    max_lost = max([r["exact"]["lines_lost"] for r in rows if r.get("exact")] + [1])
    x_ticks, lost_ticks = nice_ticks(max_games), nice_ticks(max_lost, 4)
    plot_w = WIDTH - LEFT - RIGHT

    def x(games):
        return LEFT + plot_w * games / x_ticks[-1]

    def y(value, top, panel):
        return panel[1] - (panel[1] - panel[0]) * value / top

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (WIDTH, HEIGHT),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="14">%s</text>' % (LEFT, escape(title))]
    # Axes, ticks and grid lines of both panels.
    for panel, ticks, top, label in ((TOP_PANEL, range(0, 101, 20), 100,
                                      "% of games vs random " + opponent),
                                     (BOTTOM_PANEL, lost_ticks, lost_ticks[-1],
                                      "lines lost")):
        for t in ticks:
            ty = y(t, top, panel)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
                       % (LEFT, ty, LEFT + plot_w, ty))
            out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (LEFT - 6, ty + 4, t))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                   % (LEFT, panel[0], LEFT, panel[1]))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                   % (LEFT, panel[1], LEFT + plot_w, panel[1]))
        mid = (panel[0] + panel[1]) / 2
        out.append('<text x="16" y="%.1f" text-anchor="middle" transform="rotate(-90 16 %.1f)">'
                   '%s</text>' % (mid, mid, escape(label)))
    for t in x_ticks:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                   % (x(t), BOTTOM_PANEL[1] + 16, format(int(t), ",")))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">games trained</text>'
               % (LEFT + plot_w / 2, HEIGHT - 12))
    # The curves: faint sampled rates, then exact rates and lines lost.
    for name, run in runs.items():
        bold = name == best or len(runs) == 1
        width, opacity = (2.0, 1.0) if bold else (1.0, 0.35)
        sampled = [r for r in run if r.get("sampled")]
        exact = [r for r in run if r.get("exact")]
        for k, key in enumerate(("win", "loss", "draw")):
            points = [(x(r["games"]), y(100 * r["sampled"][k] / max(sum(r["sampled"]), 1),
                                        100, TOP_PANEL)) for r in sampled]
            if points:
                out.append(_polyline(points, COLORS[key], 1.0, 0.25 * opacity, "4 3"))
        for key in ("win", "draw", "loss"):
            points = [(x(r["games"]), y(100 * r["exact"][key], 100, TOP_PANEL)) for r in exact]
            if points:
                out.append(_polyline(points, COLORS[key], width, opacity))
        points = [(x(r["games"]), y(r["exact"]["lines_lost"], lost_ticks[-1], BOTTOM_PANEL))
                  for r in exact]
        if points:
            out.append('<g class="run" data-seed="%s">%s</g>'
                       % (escape(str(name)), _polyline(points, COLORS["lines_lost"],
                                                       width, opacity)))
    # Legend.
    entries = [("exact win", COLORS["win"], ""), ("exact draw", COLORS["draw"], ""),
               ("exact loss", COLORS["loss"], ""), ("sampled (faint)", "#999", "4 3"),
               ("lines lost", COLORS["lines_lost"], "")]
    if len(runs) > 1:
        entries.append(("bold: saved run", "black", ""))
    for i, (label, color, dash) in enumerate(entries):
        ly = TOP_PANEL[0] + 10 + 20 * i
        lx = WIDTH - RIGHT + 14
        out.append(_polyline([(lx, ly), (lx + 24, ly)], color, 2.0, 1.0, dash))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 30, ly + 4, escape(label)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
