"""The learning curve as an SVG picture (the C draws none): rates and lines lost by games trained
on a log scale, and heat maps of the net's move probabilities on telling positions. It draws the
rows of lab.curve.Reporter(..., curve=True); bench/curve.py puts two charts side by side for the
README's docs/curve.svg (`make curve`)."""

import math
from html import escape

from ttt_rl.game import O, opponent
from ttt_rl.lab.curve import TELLING_POSITIONS, one_two_five
from ttt_rl.lab.exact import correct_moves
from ttt_rl.nn import best_move

WIDTH, LEFT, RIGHT = 800, 70, 150       # picture width and side margins
RATES, LOST = (40, 230), (270, 370)     # y ranges of the rates and lines-lost panels
MAPS_TOP, CELL, MAP_GAP = 465, 24, 30   # heat maps: top, cell size, gap
PLOT = WIDTH - LEFT - RIGHT             # width of the plots
HEIGHT = MAPS_TOP + 40 + len(TELLING_POSITIONS[O]) * (3 * CELL + MAP_GAP)   # X has as many
ZERO_GAP = 30                           # room between x = 0 and x = 1 games
HEAT_COLUMNS = 5                        # moments of training shown as heat maps
COLORS = {"win": "#2a9d3a", "draw": "#3570b5", "loss": "#d1392b", "lines_lost": "#7b3fa0"}
MIN_SAMPLE = 50                         # games a sampled point needs to be drawn


def _polyline(points, color, width, opacity, dash=""):
    if len(points) == 1:   # a single point still shows, as a dot
        return ('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" fill-opacity="%.2f"/>'
                % (points[0] + (width + 1, color, opacity)))
    dash = ' stroke-dasharray="%s"' % dash if dash else ""
    return ('<polyline points="%s" fill="none" stroke="%s" stroke-width="%.1f" stroke-opacity='
            '"%.2f"%s/>' % (" ".join("%.1f,%.1f" % p for p in points), color, width, opacity,
                            dash))


def _text(x, y, text, anchor="middle", extra=""):
    return '<text x="%.1f" y="%.1f" text-anchor="%s"%s>%s</text>' % (x, y, anchor, extra,
                                                                  escape(text))


def chart(runs, side, best=None, heading=None):
    """Return the SVG text of a chart of `runs` (seed -> curve.measure rows) for `side`; the run
    `best` (default: the first) is bold and gives the heat maps; `heading` replaces the title."""
    best = best if best in runs else next(iter(runs))
    max_games = max([r["games"] for rows in runs.values() for r in rows] + [1])
    max_lost = max([r["exact"]["lines_lost"] for rows in runs.values() for r in rows] + [1])
    lost_step = next(n for n in one_two_five(10 * max_lost) if n >= max_lost / 4)
    lost_top = lost_step * int(math.ceil(max_lost / lost_step))
    decades = max(math.log10(max_games), 1.0)

    def x(games):
        return LEFT + ZERO_GAP + (PLOT - ZERO_GAP) * math.log10(games) / decades if games else LEFT

    def y(value, top=100, panel=RATES):
        return panel[1] - (panel[1] - panel[0]) * value / top

    title = heading or "How the net learns to play %s against a random %s" % (side, opponent(side))
    if len(runs) > 1 and not heading:
        title += " (%d runs; bold: seed %s, saved)" % (len(runs), best)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (WIDTH, HEIGHT),
           '<rect width="100%" height="100%" fill="white"/>',
           _text(LEFT, 20, title, "start", ' font-size="15"')]
    # Axes, grid lines and labels of both panels, then the games axis.
    for panel, step, top, label in ((RATES, 25, 100, "% of games"),
                                    (LOST, lost_step, lost_top, "lines lost")):
        for t in range(0, top + 1, step):
            ty = y(t, top, panel)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
                       % (LEFT, ty, LEFT + PLOT, ty))
            out.append(_text(LEFT - 6, ty + 4, "%g" % t, "end"))
        out.append('<path d="M%d %d V%d H%d" fill="none" stroke="black"/>'
                   % (LEFT, panel[0], panel[1], LEFT + PLOT))
        mid = (panel[0] + panel[1]) / 2
        out.append(_text(16, mid, label, extra=' transform="rotate(-90 16 %.1f)"' % mid))
    for t in [0] + [10 ** k for k in range(int(math.log10(max_games)) + 1)]:
        size, suffix = (10 ** 6, "M") if t >= 10 ** 6 else (1000, "k") if t >= 1000 else (1, "")
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                   % (x(t), RATES[0], x(t), LOST[1]))
        out.append(_text(x(t), LOST[1] + 16, "%g%s" % (t / size, suffix)))   # 0, 1, ..., 1k, 1M
    out.append(_text(LEFT + PLOT / 2, LOST[1] + 34,
                     "games trained (log scale; 0 = the untrained net)"))
    # The curves: faint sampled rates (of the bold run only), then exact rates and lines lost.
    for seed, rows in runs.items():
        width, opacity = (2.0, 1.0) if seed == best else (1.0, 0.35)
        sampled = [(r["games"], [100 * n / sum(r["sampled"]) for n in r["sampled"]]) for r in rows
                   if seed == best and r.get("sampled") and sum(r["sampled"]) >= MIN_SAMPLE]
        for k, key in enumerate(("win", "loss", "draw")):   # the order of a row's sampled
            points = [(x(games), y(rates[k])) for games, rates in sampled]
            if points:
                out.append(_polyline(points, COLORS[key], 1.0, 0.3, "4 3"))
        for key in ("win", "draw", "loss"):
            points = [(x(r["games"]), y(100 * r["exact"][key])) for r in rows]
            out.append(_polyline(points, COLORS[key], width, opacity))
        points = [(x(r["games"]), y(r["exact"]["lines_lost"], lost_top, LOST)) for r in rows]
        out.append('<g class="run" data-seed="%s">%s</g>' % (
            escape(str(seed)), _polyline(points, COLORS["lines_lost"], width, opacity)))
    legend = [("exact " + key, COLORS[key], "") for key in ("win", "draw", "loss")]
    legend += [("sampled", "#999", "4 3"), ("lines lost", COLORS["lines_lost"], "")]
    for i, (label, color, dash) in enumerate(legend):
        ly, lx = RATES[0] + 10 + 20 * i, WIDTH - RIGHT + 14
        out.append(_polyline([(lx, ly), (lx + 24, ly)], color, 2.0, 1.0, dash))
        out.append(_text(lx + 30, ly + 4, label, "start"))
    # The heat maps of the bold run: a row per telling position, a column per moment.
    columns = [(LEFT + 110 + c * (3 * CELL + 40), row)   # (x, row) of each moment
               for c, row in enumerate(heat_columns(runs[best]))]
    out.append(_text(LEFT, MAPS_TOP - 24, "The net's move probabilities (darker = more likely; "
                     "outlined: the move it plays; dot: a correct move)", "start",
                     ' font-size="13"'))
    for x0, row in columns:
        out.append(_text(x0 + 1.5 * CELL, MAPS_TOP - 6, "{:,} games".format(row["games"])))
    for p, (label, position) in enumerate(TELLING_POSITIONS[side]):
        top = MAPS_TOP + p * (3 * CELL + MAP_GAP)
        out.append(_text(LEFT, top + 1.5 * CELL + 4, label, "start"))
        for x0, row in columns:
            out += _grid(x0, top, position, row["probs"][p])
    return "\n".join(out + ["</svg>"]) + "\n"


def heat_columns(rows):
    """Return up to HEAT_COLUMNS `rows`: the first, the last, those nearest to log-even points."""
    chosen = [rows[0]]
    for k in range(1, HEAT_COLUMNS - 1 if len(rows) > 1 else 1):
        goal = rows[-1]["games"] ** (k / (HEAT_COLUMNS - 1))
        chosen.append(min(rows[1:], key=lambda r: abs(math.log(max(r["games"], 1) / goal))))
    chosen.append(rows[-1])
    return [row for i, row in enumerate(chosen) if row not in chosen[:i]]   # each row once


def _grid(x0, y0, position, probs):
    """One 3x3 heat map at (x0, y0): the move it plays outlined, correct moves dotted."""
    played, good = best_move(probs, position), correct_moves(position)   # played: as in play
    out = ['<g class="heatmap" data-position="%s">' % position]
    for cell, p in enumerate(probs):
        cx, cy = x0 + CELL * (cell % 3), y0 + CELL * (cell // 3)
        shade = int(255 - 200 * p)
        notes = ["the move it plays"] * (cell == played) + ["a correct move"] * (cell in good)
        tip = "cell %d: %.1f%%%s" % (cell, 100 * p, "; " + ", ".join(notes) if notes else "")
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="rgb(%d,%d,255)" '
                   'stroke="#999" data-p="%.6f"><title>%s</title></rect>'
                   % (cx, cy, CELL, CELL, shade, shade, p, tip))
        ink = "white" if p > 0.5 else "black"
        label = position[cell] if position[cell] in "XO" else "%d" % round(100 * p)
        out.append(_text(cx + CELL / 2, cy + CELL / 2 + 4, label,
                         extra=' font-size="%d" fill="%s"' % (13 if label in "XO" else 9, ink)))
        if cell in good:
            out.append('<circle cx="%d" cy="%d" r="2.5" fill="#2a9d3a"/>' % (cx + 4, cy + 4))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#e07b00" '
               'stroke-width="2.5"/>' % (x0 + CELL * (played % 3), y0 + CELL * (played // 3),
                                         CELL, CELL))
    return out + ["</g>"]
