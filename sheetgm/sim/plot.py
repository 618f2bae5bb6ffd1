"""The simulation drawn as one PNG with Pillow: how games end per map, each role's win rate, nights to the end.

Labels come from the templates in the director's language; without a CJK
font on the machine, Chinese labels fall back to English (as the map does).
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from sheetgm.core.texts import render
from sheetgm.render.fonts import find_font
from sheetgm.sim.summary import OUTCOMES, Summary

WIDTH = 960
PAD = 24
ROW = 26
BAR_LEFT = 220
BAR_RIGHT = WIDTH - 190
COLOURS = {"survivors": (66, 133, 244), "hunters": (219, 68, 55), "draw": (160, 160, 160),
           "unfinished": (220, 220, 220), "survivor": (66, 133, 244), "hunter": (219, 68, 55)}
INK = (33, 33, 33)
GRID = (230, 230, 230)


def plot_png(summary: Summary, title: str, lang: str) -> tuple[bytes, bool]:
    """(PNG bytes, whether a CJK font drew the labels)."""
    font = find_font()
    if lang == "zh" and not font.cjk:
        lang = "en"
    small, big = font.get(15), font.get(20)
    roles = summary.roles
    hist = summary.nights
    height = PAD * 2 + 40 + (len(summary.maps) + 2) * ROW + 30 + (len(roles) + 1) * ROW + 30 + 220 + 40
    img = Image.new("RGB", (WIDTH, height), "white")
    d = ImageDraw.Draw(img)
    y = PAD
    d.text((PAD, y), title, fill=INK, font=big)
    y += 40

    # 1. how games ended, per map
    d.text((PAD, y), render(lang, "sim.plot.outcomes"), fill=INK, font=small)
    y += ROW
    x = BAR_LEFT
    for outcome in OUTCOMES:
        d.rectangle((x, y + 4, x + 14, y + 18), fill=COLOURS[outcome])
        label = render(lang, f"sim.outcome.{outcome}")
        d.text((x + 20, y + 2), label, fill=INK, font=small)
        x += 40 + int(d.textlength(label, font=small))
    y += ROW
    for name, t in summary.maps:
        d.text((PAD, y + 2), f"{name} ({t.games})", fill=INK, font=small)
        x0 = BAR_LEFT
        for outcome in OUTCOMES:
            w = round(t.share(outcome) * (BAR_RIGHT - BAR_LEFT))
            if w:
                d.rectangle((x0, y + 2, x0 + w, y + ROW - 4), fill=COLOURS[outcome])
                if w > 44:
                    d.text((x0 + 4, y + 4), f"{t.share(outcome):.0%}", fill="white", font=small)
            x0 += w
        y += ROW
    y += 30

    # 2. each role's camp win rate
    d.text((PAD, y), render(lang, "sim.plot.roles"), fill=INK, font=small)
    y += ROW
    span = BAR_RIGHT - BAR_LEFT
    for r in roles:
        d.text((PAD, y + 2), f"{render(lang, f'role.{r.role}')} ({r.games})", fill=INK, font=small)
        d.rectangle((BAR_LEFT, y + 2, BAR_RIGHT, y + ROW - 4), fill=GRID)
        d.rectangle((BAR_LEFT, y + 2, BAR_LEFT + round(r.win_rate * span), y + ROW - 4), fill=COLOURS[r.camp])
        label = f"{r.win_rate:.0%}"
        if r.camp == "survivor":
            label += render(lang, "sim.plot.escaped", share=r.escaped / r.games)
        d.text((BAR_RIGHT + 8, y + 4), label, fill=INK, font=small)
        y += ROW
    mid = BAR_LEFT + span // 2
    d.line((mid, y - len(roles) * ROW, mid, y), fill=INK, width=1)  # 50%
    y += 30

    # 3. nights to the end (ended games)
    d.text((PAD, y), render(lang, "sim.plot.nights", median=summary.nights_median), fill=INK, font=small)
    y += ROW
    top = max((k for _, k in hist), default=1)
    if hist:
        first, last = hist[0][0], hist[-1][0]
        counts = dict(hist)
        slots = last - first + 1
        w = max(6, min(60, (BAR_RIGHT - BAR_LEFT) // slots))
        base = y + 190
        for i, n in enumerate(range(first, last + 1)):
            h = round(counts.get(n, 0) / top * 150)
            x0 = BAR_LEFT + i * w
            d.rectangle((x0 + 1, base - h, x0 + w - 2, base), fill=(120, 120, 120))
            d.text((x0 + 2, base + 4), str(n), fill=INK, font=small)
            if counts.get(n) and w >= 24:
                d.text((x0 + 2, base - h - 18), str(counts[n]), fill=INK, font=small)
        d.line((BAR_LEFT, base, BAR_LEFT + slots * w, base), fill=INK)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue(), font.cjk and lang == "zh"
