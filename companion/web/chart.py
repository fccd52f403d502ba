"""An SVG line chart of every player's total after each round, drawn on the Pi.

Lines differ by dash pattern and marker as well as colour, and each line ends in the player's
name, so the chart reads without telling colours apart.

    >>> svg = totals_chart(["Ann", "Ben"], [{"winner": "Ann", "points": 40}], target=500)
    >>> svg.startswith("<svg") and "Ann" in svg
    True
"""
from __future__ import annotations

from markupsafe import escape

PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#b8860b", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22"]
DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "12 3 3 3", "3 6", "6 2 2 2"]
MARKERS = ["circle", "square", "diamond", "triangle"]


def totals(players: list[str], rounds: list[dict]) -> list[dict[str, int]]:
    """Totals after each round (the first entry is the start: all zero).

    A round may carry its own ``totals``/``scores`` (trusted as is); otherwise the winner gains
    its ``points`` and ``penalties`` ({player: points}, or a list of {player, points}) apply.
    """
    run = {p: 0 for p in players}
    out = [dict(run)]
    for r in rounds or []:
        if not isinstance(r, dict):
            continue
        given = r.get("totals") or r.get("scores")
        if isinstance(given, dict):
            run = {p: _num(given.get(p, run.get(p, 0))) for p in players}
        else:
            w = r.get("winner")
            if w in run:
                run[w] += _num(r.get("points"))
            pen = r.get("penalties")
            if isinstance(pen, dict):
                for p, v in pen.items():
                    if p in run:
                        run[p] += _num(v)
            elif isinstance(pen, list):
                for item in pen:
                    if isinstance(item, dict) and item.get("player") in run:
                        run[item["player"]] += _num(item.get("points"))
        out.append(dict(run))
    return out


def _num(v) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


def _marker(kind: str, x: float, y: float, color: str) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}"/>'
    if kind == "square":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{color}"/>'
    if kind == "diamond":
        return (f'<path d="M{x:.1f} {y - 4.5:.1f}L{x + 4.5:.1f} {y:.1f}L{x:.1f} {y + 4.5:.1f}'
                f'L{x - 4.5:.1f} {y:.1f}Z" fill="{color}"/>')
    return (f'<path d="M{x:.1f} {y - 4.5:.1f}L{x + 4.5:.1f} {y + 3.5:.1f}L{x - 4.5:.1f} {y + 3.5:.1f}Z" '
            f'fill="{color}"/>')


def totals_chart(players: list[str], rounds: list[dict], *, target: int | None = 500,
                 width: int = 360, height: int = 220) -> str:
    """The chart as an ``<svg>`` element (names escaped), sized by its viewBox."""
    players = [str(p) for p in (players or [])][:10]
    series = totals(players, rounds)
    left, right, top, bottom = 36, 70, 12, 26
    w, h = width - left - right, height - top - bottom
    peak = max([target or 0] + [v for row in series for v in row.values()] + [10])
    low = min([0] + [v for row in series for v in row.values()])
    n = max(len(series) - 1, 1)

    def X(i: int) -> float:
        return left + w * i / n

    def Y(v: float) -> float:
        return top + h * (1 - (v - low) / (peak - low or 1))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'class="chart" role="img" aria-labelledby="chart-title">',
             '<title id="chart-title">Total points after each round</title>',
             f'<g class="axes" stroke="currentColor" stroke-opacity="0.4" fill="none">'
             f'<path d="M{left} {top}V{top + h}H{left + w}"/></g>']
    ticks = _ticks(low, peak)
    for t in ticks:
        parts.append(f'<text x="{left - 4}" y="{Y(t) + 3:.1f}" text-anchor="end" class="tick">{t}</text>'
                     f'<path d="M{left} {Y(t):.1f}H{left + w}" stroke="currentColor" '
                     f'stroke-opacity="0.12"/>')
    for i in range(len(series)):
        if n <= 12 or i % ((n + 11) // 12) == 0 or i == n:
            parts.append(f'<text x="{X(i):.1f}" y="{top + h + 14}" text-anchor="middle" '
                         f'class="tick">{i}</text>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 1}" text-anchor="middle" '
                 f'class="tick">round</text>')
    if target:
        parts.append(f'<path d="M{left} {Y(target):.1f}H{left + w}" stroke="currentColor" '
                     f'stroke-dasharray="2 4"/><text x="{left + w + 3}" y="{Y(target) + 3:.1f}" '
                     f'class="tick">goal {int(target)}</text>')
    ends = []
    for k, p in enumerate(players):
        color, dash, marker = PALETTE[k % 10], DASHES[k % 10], MARKERS[k % 4]
        pts = [(X(i), Y(row.get(p, 0))) for i, row in enumerate(series)]
        d = "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in pts)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<g class="series"><path d="{d}" fill="none" stroke="{color}" '
                     f'stroke-width="2"{dash_attr}/>')
        if len(pts) <= 40:
            parts.extend(_marker(marker, x, y, color) for x, y in pts)
        parts.append("</g>")
        ends.append([pts[-1][1], p, color, series[-1].get(p, 0)])
    # Spread the end labels so names never overlap.
    ends.sort()
    for i in range(1, len(ends)):
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + 11)
    for y, p, color, total in ends:
        parts.append(f'<text x="{left + w + 4}" y="{y + 3:.1f}" fill="{color}" class="label">'
                     f'{escape(p[:12])} {total}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _ticks(low: int, high: int) -> list[int]:
    span = max(high - low, 1)
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000,
                            10**9) if span / s <= 5)
    first = (low // step) * step
    return [v for v in range(first, high + step, step) if low <= v <= high]
