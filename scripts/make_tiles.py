#!/usr/bin/env python3
"""Draw the project's own mahjong tile art as SVG files.

Usage:
    python scripts/make_tiles.py                # writes into static/
    python scripts/make_tiles.py --out-dir DIR  # writes DIR/tiles/*.svg, DIR/icons/app-*.svg
    python scripts/make_tiles.py --png          # also renders static/icons/app-*.png
                                                # with headless Chromium (optional)

Output (relative to the output dir):
    tiles/<code>.svg   42 faces (1m-9m, 1p-9p, 1s-9s, 1z-7z, 1f-8f) + tiles/back.svg
    tiles/README.md
    icons/app-192.svg, icons/app-512.svg

Python standard library only; the output is deterministic (no dates, no
randomness, fixed float formatting), so tests can check that the committed
files are exactly what this script produces.

Suits and honours use vector paths (dots, bamboo, bird, frames).  Chinese
characters are SVG <text> with a generic CJK font stack: every phone and
desktop ships a CJK font, and we cannot ship web fonts.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

W, H = 60, 80  # tile viewBox

FONT_STACK = (
    "'Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Microsoft YaHei',"
    "'WenQuanYi Zen Hei',sans-serif"
)

# Palette ------------------------------------------------------------------
INK = "#1b1f4a"        # numerals, winds (near-black navy)
BLACK = "#16181d"
RED = "#c8202b"
RED_DARK = "#8e1119"
GREEN = "#13804a"
GREEN_DARK = "#0b5430"
GREEN_LIGHT = "#5cc48a"
BLUE = "#1d4fa8"
BLUE_DARK = "#12336f"
IVORY = "#fbf6e6"
IVORY_EDGE = "#e9dfc2"
BACK = "#0f6f66"       # tile back / body colour
BACK_DARK = "#0a4d47"
BACK_LIGHT = "#2a9186"
GOLD = "#e9b53a"

SUITS = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
SUIT_ZH = {"m": "万", "p": "筒", "s": "索"}
NUMERALS = "一二三四五六七八九"
WINDS = [("东", "东风", "East Wind"), ("南", "南风", "South Wind"),
         ("西", "西风", "West Wind"), ("北", "北风", "North Wind")]
FLOWERS = [("春", "Spring"), ("夏", "Summer"), ("秋", "Autumn"), ("冬", "Winter"),
           ("梅", "Plum"), ("兰", "Orchid"), ("竹", "Bamboo"), ("菊", "Chrysanthemum")]


def f(x: float) -> str:
    """Format a number compactly and deterministically."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# Primitives -----------------------------------------------------------------

def circle(cx, cy, r, fill="none", stroke=None, sw=None, extra=""):
    s = f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r)}" fill="{fill}"'
    if stroke:
        s += f' stroke="{stroke}" stroke-width="{f(sw)}"'
    return s + extra + "/>"


def rect(x, y, w, h, rx=0, fill="none", stroke=None, sw=None, extra=""):
    s = f'<rect x="{f(x)}" y="{f(y)}" width="{f(w)}" height="{f(h)}"'
    if rx:
        s += f' rx="{f(rx)}"'
    s += f' fill="{fill}"'
    if stroke:
        s += f' stroke="{stroke}" stroke-width="{f(sw)}"'
    return s + extra + "/>"


def text(x, cy, size, s, fill, weight=700, extra=""):
    """Centre a CJK glyph run at (x, cy).

    CJK ideographs sit roughly from -0.12em to +0.88em around the baseline,
    so the baseline is placed 0.38em below the wanted visual centre.
    """
    base = cy + 0.38 * size
    return (f'<text x="{f(x)}" y="{f(base)}" font-size="{f(size)}" '
            f'font-weight="{weight}" text-anchor="middle" fill="{fill}"{extra}>'
            f"{esc(s)}</text>")


# Tile frame -------------------------------------------------------------------

def frame(uid: str, body: str, face_fill: str | None = None, back: bool = False) -> str:
    """Tile body: coloured base (thickness) + rounded face with a soft bevel."""
    parts = []
    parts.append("<defs>")
    if back:
        parts.append(
            f'<linearGradient id="g{uid}" x1="0" y1="0" x2="0.35" y2="1">'
            f'<stop offset="0" stop-color="{BACK_LIGHT}"/>'
            f'<stop offset="1" stop-color="{BACK}"/></linearGradient>')
    else:
        parts.append(
            f'<linearGradient id="g{uid}" x1="0" y1="0" x2="0.35" y2="1">'
            f'<stop offset="0" stop-color="#fffdf5"/>'
            f'<stop offset="1" stop-color="{IVORY}"/></linearGradient>')
    parts.append("</defs>")
    # thickness: the other layer of the tile shows along the bottom edge
    base_col = IVORY_EDGE if back else BACK
    base_dark = "#cbbd93" if back else BACK_DARK
    parts.append(rect(0.5, 3, 59, 76.5, 6.5, fill=base_col, stroke=base_dark, sw=1))
    # face
    edge = BACK_DARK if back else "#c9b88a"
    parts.append(rect(0.5, 0.5, 59, 74.5, 6.5, fill=f"url(#g{uid})", stroke=edge, sw=1))
    # inner bevel highlight + soft inner shade
    hl = "#6fb8ae" if back else "#ffffff"
    parts.append(rect(2.2, 2.2, 55.6, 71.1, 5, fill="none", stroke=hl, sw=1.2,
                      extra=' opacity="0.9"'))
    shade = BACK_DARK if back else "#d9cba3"
    parts.append(rect(3.4, 3.4, 53.2, 68.7, 4.2, fill="none", stroke=shade, sw=0.6,
                      extra=' opacity="0.7"'))
    parts.append(body)
    return "".join(parts)


def svg(code: str, title: str, content: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80" '
        f'width="60" height="80" role="img" aria-labelledby="t{code}" '
        f'font-family="{FONT_STACK}">'
        f'<title id="t{code}">{esc(title)}</title>'
        f"{content}</svg>\n")


# Content area (inside the bevel) ---------------------------------------------
CX, CY = 30.0, 37.5  # visual centre of the face


# 万 Characters -------------------------------------------------------------------

def characters(n: int) -> str:
    numeral = NUMERALS[n - 1]
    out = [text(CX, 20.5, 27, numeral, INK, 700),
           text(CX, 53, 33, "萬", RED, 700)]
    return "".join(out)


# 筒 Dots ----------------------------------------------------------------------------

DOT_COL = {
    "b": (BLUE, BLUE_DARK),
    "g": (GREEN, GREEN_DARK),
    "r": (RED, RED_DARK),
}


def dot(cx, cy, r, c) -> str:
    col, dark = DOT_COL[c]
    parts = [
        circle(cx, cy, r, fill="#fffaf0", stroke=col, sw=r * 0.26),
        circle(cx, cy, r * 0.56, fill=col),
        circle(cx, cy, r * 0.26, fill="#fffaf0"),
    ]
    if r >= 6:
        parts.append(circle(cx, cy, r * 0.11, fill=dark))
    return "".join(parts)


def big_dot() -> str:
    cx, cy = CX, CY
    parts = [circle(cx, cy, 23, fill="#fffaf0", stroke=GREEN, sw=3.2)]
    # ring of petals
    for i in range(16):
        a = 2 * math.pi * i / 16
        col = BLUE if i % 2 == 0 else GREEN
        parts.append(circle(cx + 16.6 * math.cos(a), cy + 16.6 * math.sin(a), 2.7, fill=col))
    parts.append(circle(cx, cy, 12, fill=RED, stroke=RED_DARK, sw=1))
    # flower in the centre
    for i in range(8):
        a = 2 * math.pi * (i + 0.5) / 8
        parts.append(circle(cx + 6.6 * math.cos(a), cy + 6.6 * math.sin(a), 2.3, fill="#fffaf0"))
    parts.append(circle(cx, cy, 3.6, fill="#fffaf0"))
    parts.append(circle(cx, cy, 1.7, fill=BLUE))
    return "".join(parts)


def dots(n: int) -> str:
    if n == 1:
        return big_dot()
    L, R, cx = 17.5, 42.5, CX
    layouts = {
        2: (11.8, [(cx, 21.5, "g"), (cx, 53.5, "b")]),
        3: (9.5, [(15.5, 16, "b"), (cx, CY, "r"), (44.5, 59, "g")]),
        4: (10.8, [(L, 24, "b"), (R, 24, "g"), (L, 51, "g"), (R, 51, "b")]),
        5: (8.6, [(16.5, 17.5, "b"), (43.5, 17.5, "g"), (cx, CY, "r"),
                  (16.5, 57.5, "g"), (43.5, 57.5, "b")]),
        6: (8.2, [(L, 14.5, "g"), (R, 14.5, "g"),
                  (L, 40, "r"), (R, 40, "r"), (L, 60, "r"), (R, 60, "r")]),
        7: (7.5, [(13.5, 12.5, "g"), (cx, 19, "g"), (46.5, 25.5, "g"),
                  (L, 44, "r"), (R, 44, "r"), (L, 61, "r"), (R, 61, "r")]),
        8: (7.4, [(x, y, "b") for y in (13, 29, 46, 62) for x in (L + 1, R - 1)]),
        9: (7.8, [(x, y, c) for y, c in ((15.5, "b"), (CY, "r"), (59.5, "g"))
                  for x in (13.5, cx, 46.5)]),
    }
    r, spots = layouts[n]
    return "".join(dot(x, y, r, c) for x, y, c in spots)


# 索 Bamboo ------------------------------------------------------------------------

STICK_COL = {
    "g": (GREEN, GREEN_DARK, GREEN_LIGHT),
    "r": (RED, RED_DARK, "#f07a7f"),
    "b": (BLUE, BLUE_DARK, "#7aa2e8"),
}


def stick(cx, cy, h, c="g", w=7.6, angle=0.0) -> str:
    """One bamboo stick centred at (cx, cy): two segments with knuckles."""
    col, dark, light = STICK_COL[c]
    x0, y0 = -w / 2, -h / 2
    parts = [rect(x0, y0, w, h, w * 0.45, fill=col, stroke=dark, sw=0.9)]
    # highlight stripe down each segment
    parts.append(rect(-w * 0.13, y0 + 2.2, w * 0.26, h / 2 - 3.6, w * 0.13, fill=light))
    parts.append(rect(-w * 0.13, 1.4, w * 0.26, h / 2 - 3.6, w * 0.13, fill=light))
    # knuckles (top, middle, bottom) slightly wider than the stick
    kw, kh = w + 1.4, 2.1
    for y in (y0 + 0.9, -kh / 2, -y0 - 0.9 - kh):
        parts.append(rect(-kw / 2, y, kw, kh, kh / 2, fill=dark))
    t = f"translate({f(cx)} {f(cy)})"
    if angle:
        t += f" rotate({f(angle)})"
    return f'<g transform="{t}">' + "".join(parts) + "</g>"


def bird() -> str:
    """1 索: a stylised peacock-sparrow standing on a bamboo perch."""
    p = []
    # tail feathers fanning up to the right
    feathers = [(-58, GREEN, BLUE), (-35, BLUE, RED), (-12, GREEN, BLUE)]
    for ang, col, eye in feathers:
        a = math.radians(ang)
        ex, ey = 33 + 19 * math.cos(a), 44 + 19 * math.sin(a)
        mx, my = (33 + ex) / 2, (44 + ey) / 2
        p.append(f'<ellipse cx="{f(mx)}" cy="{f(my)}" rx="11.5" ry="4.3" '
                 f'transform="rotate({f(ang)} {f(mx)} {f(my)})" fill="{col}" '
                 f'stroke="{GREEN_DARK}" stroke-width="0.8"/>')
        p.append(circle(ex - 3.2 * math.cos(a), ey - 3.2 * math.sin(a), 2.6,
                        fill="#fffaf0", stroke=eye, sw=1.4))
    # body
    p.append(f'<path d="M14 31 C 16 44, 24 55, 36 52 C 44 49, 42 40, 34 37 '
             f'C 28 35, 24 30, 22 25 Z" fill="{GREEN}" stroke="{GREEN_DARK}" '
             f'stroke-width="1"/>')
    # breast
    p.append(f'<path d="M15 33 C 17 43, 23 50, 30 51 C 24 46, 21 40, 21 31 Z" '
             f'fill="{RED}"/>')
    # wing
    p.append(f'<path d="M23 36 C 30 35, 37 40, 38 47 C 32 48, 26 44, 23 36 Z" '
             f'fill="{BLUE}" stroke="{BLUE_DARK}" stroke-width="0.8"/>')
    # head
    p.append(circle(18, 24, 6.5, fill=GREEN, stroke=GREEN_DARK, sw=1))
    p.append(f'<path d="M12.2 22.5 L 6 25.5 L 12.4 26.8 Z" fill="{GOLD}" '
             f'stroke="#a7761a" stroke-width="0.6"/>')
    p.append(circle(17, 22.8, 2.1, fill="#fffaf0"))
    p.append(circle(16.6, 22.8, 1.1, fill=BLACK))
    # crest
    for dx, dy in ((19, 15.6), (22.5, 16.6), (25, 19)):
        p.append(circle(dx, dy, 1.7, fill=RED))
    # legs and perch
    p.append(f'<path d="M25 52 L 23 62 M31 52 L 31 62" stroke="{RED_DARK}" '
             f'stroke-width="1.8" stroke-linecap="round" fill="none"/>')
    p.append('<g transform="translate(30 64.5) rotate(90)">'
             + rect(-2.3, -20, 4.6, 40, 2.2, fill=GREEN, stroke=GREEN_DARK, sw=0.8)
             + rect(-3, -1, 6, 2, 1, fill=GREEN_DARK)
             + "</g>")
    return "".join(p)


def bamboo(n: int) -> str:
    if n == 1:
        return bird()
    cx = CX
    # (height, [(x, y, colour, angle)])
    a, b = 23.5, 51.5  # two-row centres
    t1, t2, t3 = 14.5, CY, 60.5  # three-row centres
    layouts = {
        2: (26, [(cx, a, "g", 0), (cx, b, "g", 0)]),
        3: (26, [(cx, a, "g", 0), (19, b, "g", 0), (41, b, "g", 0)]),
        4: (26, [(19, a, "g", 0), (41, a, "g", 0), (19, b, "g", 0), (41, b, "g", 0)]),
        5: (26, [(14.5, a, "g", 0), (45.5, a, "g", 0), (cx, CY, "r", 0),
                 (14.5, b, "g", 0), (45.5, b, "g", 0)]),
        6: (26, [(x, y, "g", 0) for y in (a, b) for x in (14, cx, 46)]),
        7: (20, [(cx, t1, "r", 0)]
                + [(x, y, "g", 0) for y in (t2, t3) for x in (14, cx, 46)]),
        8: (26, [(11.5, a, "g", 0), (23.5, a, "g", 20), (36.5, a, "g", -20), (48.5, a, "g", 0),
                 (11.5, b, "g", 0), (23.5, b, "g", -20), (36.5, b, "g", 20), (48.5, b, "g", 0)]),
        9: (20, [(x, y, "r" if x == cx else "g", 0) for y in (t1, t2, t3)
                 for x in (14, cx, 46)]),
    }
    h, sticks = layouts[n]
    return "".join(stick(x, y, h, c, angle=ang) for x, y, c, ang in sticks)


# Honours --------------------------------------------------------------------------

def wind(ch: str) -> str:
    return text(CX, CY, 40, ch, BLACK, 700)


def dragon(k: int) -> str:
    if k == 5:  # 白 white dragon: blue double frame
        return (rect(10, 12, 40, 51, 3, fill="none", stroke=BLUE, sw=4)
                + rect(16.5, 18.5, 27, 38, 1.5, fill="none", stroke=BLUE, sw=1.8))
    if k == 6:
        return text(CX, CY, 42, "发", GREEN, 700,
                    extra=f' stroke="{GREEN_DARK}" stroke-width="0.6"')
    return text(CX, CY, 42, "中", RED, 700,
                extra=f' stroke="{RED_DARK}" stroke-width="0.6"')


def motif(k: int, x: float, y: float) -> str:
    """A tiny picture for each flower tile, about 12 units across."""
    p = []
    if k == 1:  # spring: peach blossom
        for i in range(5):
            a = -math.pi / 2 + 2 * math.pi * i / 5
            p.append(circle(x + 3.2 * math.cos(a), y + 3.2 * math.sin(a), 2.6, fill="#ef7aa0"))
        p.append(circle(x, y, 1.7, fill=GOLD))
    elif k == 2:  # summer: sun
        for i in range(8):
            a = 2 * math.pi * i / 8
            p.append(f'<line x1="{f(x + 4.4 * math.cos(a))}" y1="{f(y + 4.4 * math.sin(a))}" '
                     f'x2="{f(x + 6.4 * math.cos(a))}" y2="{f(y + 6.4 * math.sin(a))}" '
                     f'stroke="#e0701c" stroke-width="1.6" stroke-linecap="round"/>')
        p.append(circle(x, y, 3.6, fill="#f2a71b"))
    elif k == 3:  # autumn: maple-ish leaf
        p.append(f'<path d="M{f(x)} {f(y - 6)} L {f(x + 2)} {f(y - 2)} L {f(x + 6)} {f(y - 3)} '
                 f'L {f(x + 3.5)} {f(y + 1)} L {f(x + 5)} {f(y + 4)} L {f(x)} {f(y + 3)} '
                 f'L {f(x - 5)} {f(y + 4)} L {f(x - 3.5)} {f(y + 1)} L {f(x - 6)} {f(y - 3)} '
                 f'L {f(x - 2)} {f(y - 2)} Z" fill="#d9661e"/>')
        p.append(f'<line x1="{f(x)}" y1="{f(y + 2)}" x2="{f(x)}" y2="{f(y + 6.5)}" '
                 f'stroke="#8a3a10" stroke-width="1.2" stroke-linecap="round"/>')
    elif k == 4:  # winter: snowflake
        for i in range(3):
            a = math.pi * i / 3 + math.pi / 2
            dx, dy = 5.8 * math.cos(a), 5.8 * math.sin(a)
            p.append(f'<line x1="{f(x - dx)}" y1="{f(y - dy)}" x2="{f(x + dx)}" y2="{f(y + dy)}" '
                     f'stroke="#3a8fd0" stroke-width="1.6" stroke-linecap="round"/>')
        p.append(circle(x, y, 1.6, fill="#3a8fd0"))
    elif k == 5:  # plum: five round petals, deep pink
        for i in range(5):
            a = -math.pi / 2 + 2 * math.pi * i / 5
            p.append(circle(x + 3.3 * math.cos(a), y + 3.3 * math.sin(a), 2.7, fill="#c2185b"))
        p.append(circle(x, y, 1.6, fill="#ffe082"))
    elif k == 6:  # orchid: arching leaves + a bloom
        p.append(f'<path d="M{f(x - 5)} {f(y + 6)} C {f(x - 4)} {f(y)}, {f(x)} {f(y - 4)}, '
                 f'{f(x + 5)} {f(y - 5)} M{f(x - 3)} {f(y + 6)} C {f(x - 1)} {f(y + 1)}, '
                 f'{f(x + 3)} {f(y - 1)}, {f(x + 6)} {f(y + 1)}" fill="none" stroke="{GREEN}" '
                 f'stroke-width="1.5" stroke-linecap="round"/>')
        p.append(circle(x - 3.2, y - 3.2, 2.4, fill="#8e44ad"))
    elif k == 7:  # bamboo: a short stalk with leaves
        p.append(rect(x - 1.3, y - 6.5, 2.6, 13, 1.2, fill=GREEN))
        p.append(rect(x - 1.9, y - 0.6, 3.8, 1.2, 0.6, fill=GREEN_DARK))
        for sx in (-1, 1):
            p.append(f'<path d="M{f(x)} {f(y - 2)} Q {f(x + sx * 4)} {f(y - 6)} {f(x + sx * 6.5)} '
                     f'{f(y - 4.5)} Q {f(x + sx * 4)} {f(y - 3)} {f(x)} {f(y - 2)} Z" '
                     f'fill="{GREEN_LIGHT}" stroke="{GREEN}" stroke-width="0.5"/>')
    elif k == 8:  # chrysanthemum: many narrow petals
        for i in range(12):
            a = 2 * math.pi * i / 12
            mx, my = x + 3.4 * math.cos(a), y + 3.4 * math.sin(a)
            p.append(f'<ellipse cx="{f(mx)}" cy="{f(my)}" rx="2.8" ry="1.1" '
                     f'transform="rotate({f(math.degrees(a))} {f(mx)} {f(my)})" fill="#f0a500"/>')
        p.append(circle(x, y, 1.9, fill="#b35c00"))
    return "".join(p)


def flower(k: int) -> str:
    ch = FLOWERS[k - 1][0]
    season = k <= 4
    n = k if season else k - 4
    ink = BLUE_DARK if season else "#7a1f6b"       # seasons navy, plants plum
    badge = RED if season else GREEN               # corner numeral badge
    parts = [
        circle(13, 13.5, 7.6, fill=badge),
        f'<text x="13" y="18.2" font-size="13" font-weight="700" text-anchor="middle" '
        f'fill="#fffaf0" font-family="Arial,Helvetica,sans-serif">{n}</text>',
        motif(k, 46.5, 13.5),
        text(CX, 47, 34, ch, ink, 700),
    ]
    return "".join(parts)


# Back -------------------------------------------------------------------------------

def back_body() -> str:
    p = [rect(7, 7, 46, 61.5, 3.5, fill="none", stroke="#8fd0c6", sw=1.3,
              extra=' opacity="0.55"')]
    # subtle lattice of small diamonds
    for row in range(5):
        for col in range(4):
            x = 14.5 + col * 10.3 + (5.15 if row % 2 else 0)
            y = 15.5 + row * 11
            if x > 48:
                continue
            p.append(f'<path d="M{f(x)} {f(y - 3)} L {f(x + 3)} {f(y)} L {f(x)} {f(y + 3)} '
                     f'L {f(x - 3)} {f(y)} Z" fill="#8fd0c6" opacity="0.3"/>')
    # centre medallion
    p.append(circle(CX, CY, 9.5, fill=BACK_DARK, stroke="#8fd0c6", sw=1.4,
                    extra=' opacity="0.85"'))
    p.append(f'<path d="M{f(CX)} {f(CY - 5.5)} L {f(CX + 5.5)} {f(CY)} L {f(CX)} {f(CY + 5.5)} '
             f'L {f(CX - 5.5)} {f(CY)} Z" fill="#8fd0c6" opacity="0.8"/>')
    return "".join(p)


# Catalogue ----------------------------------------------------------------------------

def tiles() -> dict[str, tuple[str, str]]:
    """code -> (title, inner svg markup)"""
    out: dict[str, tuple[str, str]] = {}
    for suit, fn in (("m", characters), ("p", dots), ("s", bamboo)):
        for n in range(1, 10):
            zh = NUMERALS[n - 1] + SUIT_ZH[suit]
            out[f"{n}{suit}"] = (f"{zh} {n} {SUITS[suit]}", fn(n))
    for i, (ch, zh, en) in enumerate(WINDS, start=1):
        out[f"{i}z"] = (f"{zh} {en}", wind(ch))
    out["5z"] = ("白板 White Dragon", dragon(5))
    out["6z"] = ("发财 Green Dragon", dragon(6))
    out["7z"] = ("红中 Red Dragon", dragon(7))
    for k, (ch, en) in enumerate(FLOWERS, start=1):
        out[f"{k}f"] = (f"{ch} {en}", flower(k))
    return out


def tile_svg(code: str, title: str, body: str) -> str:
    return svg(code, title, frame(code, body))


def back_svg() -> str:
    return svg("back", "牌背 Tile Back", frame("back", back_body(), back=True))


def icon_svg(size: int) -> str:
    """App icon: an ivory tile with a red 财 on a gold ground (full bleed, maskable)."""
    s = 512
    tile_w, tile_h = 236, 314
    tx, ty = (s - tile_w) / 2, (s - tile_h) / 2 - 6
    body = [
        "<defs>",
        '<radialGradient id="ig" cx="0.35" cy="0.3" r="0.85">'
        '<stop offset="0" stop-color="#ffe48a"/><stop offset="0.6" stop-color="#e9b53a"/>'
        '<stop offset="1" stop-color="#b9801c"/></radialGradient>',
        '<linearGradient id="it" x1="0" y1="0" x2="0.35" y2="1">'
        '<stop offset="0" stop-color="#fffdf5"/><stop offset="1" stop-color="#f4ecd2"/>'
        "</linearGradient>",
        "</defs>",
        rect(0, 0, s, s, 0, fill="url(#ig)"),
        # tile body (thickness) + face
        rect(tx, ty + 16, tile_w, tile_h, 30, fill=BACK, stroke=BACK_DARK, sw=4),
        rect(tx, ty, tile_w, tile_h - 10, 30, fill="url(#it)", stroke="#b89a55", sw=4),
        rect(tx + 14, ty + 14, tile_w - 28, tile_h - 38, 20, fill="none", stroke=RED,
             sw=5, extra=' opacity="0.85"'),
        text(s / 2, ty + (tile_h - 10) / 2, 170, "财", RED, 700,
             extra=f' stroke="{RED_DARK}" stroke-width="3"'),
    ]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" '
        f'width="{size}" height="{size}" role="img" aria-labelledby="tapp" '
        f'font-family="{FONT_STACK}">'
        '<title id="tapp">绍兴麻将 Shaoxing Mahjong</title>'
        + "".join(body) + "</svg>\n")


README = """\
# Tile art

Every file in this folder is drawn by `scripts/make_tiles.py` — do not edit
the SVGs by hand; change the script and run

    python scripts/make_tiles.py

`tests/test_tiles_art.py` checks that the committed files are exactly what
the script produces.

Licence: the project's own art, same licence as the code — drawn by
scripts/make_tiles.py; CC0/MIT-style, our own. No third-party artwork or
font outlines are embedded.

Files: `<code>.svg` for the 42 faces and `back.svg` (viewBox 0 0 60 80,
ivory face with a teal body showing along the bottom edge).

| codes | tiles |
| --- | --- |
| `1m`–`9m` | 万 Characters: numeral in navy above a red 萬 |
| `1p`–`9p` | 筒 Dots: classic layouts, blue/green/red concentric circles |
| `1s`–`9s` | 索 Bamboo: green sticks (red middle sticks on 5, 7, 9); `1s` is a bird |
| `1z`–`4z` | 东 南 西 北 winds, black |
| `5z` `6z` `7z` | 白 (blue frame), 发 (green), 中 (red) dragons |
| `1f`–`4f` | 春 夏 秋 冬 seasons (navy, red numeral badge) |
| `5f`–`8f` | 梅 兰 竹 菊 plants (plum colour, green numeral badge) |
| `back` | tile back |

Chinese characters are SVG `<text>` using a CJK font stack (Noto Sans CJK SC,
Source Han Sans SC, PingFang SC, Microsoft YaHei, WenQuanYi Zen Hei,
sans-serif); dots, bamboo, the bird, frames and motifs are vector shapes.
Each SVG has `role="img"` and a `<title>` with the Chinese and English name.

App icons (`static/icons/app-192.svg`, `app-512.svg`, and PNGs rendered from
them with `python scripts/make_tiles.py --png`) come from the same script.
"""


def build(out_dir: Path) -> list[Path]:
    """Write every generated text file under out_dir; return their paths."""
    tiles_dir = out_dir / "tiles"
    icons_dir = out_dir / "icons"
    tiles_dir.mkdir(parents=True, exist_ok=True)
    icons_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def write(path: Path, data: str) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(data)
        written.append(path)

    for code, (title, body) in tiles().items():
        write(tiles_dir / f"{code}.svg", tile_svg(code, title, body))
    write(tiles_dir / "back.svg", back_svg())
    write(tiles_dir / "README.md", README)
    for size in (192, 512):
        write(icons_dir / f"app-{size}.svg", icon_svg(size))
    return written


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def render_pngs(icons_dir: Path) -> None:
    """Render app-*.svg to PNG with headless Chromium (optional tool)."""
    chrome = find_chromium()
    if not chrome:
        sys.exit("chromium not found; cannot render PNG icons")
    for size in (192, 512):
        src = (icons_dir / f"app-{size}.svg").resolve()
        dst = (icons_dir / f"app-{size}.png").resolve()
        with tempfile.TemporaryDirectory() as tmp:
            html = Path(tmp) / "icon.html"
            html.write_text(
                "<!doctype html><html><body style='margin:0;background:transparent'>"
                f"<img src='{src.as_uri()}' width='{size}' height='{size}' "
                "style='display:block'></body></html>", encoding="utf-8")
            subprocess.run(
                [chrome, "--headless", "--no-sandbox", "--disable-gpu",
                 "--hide-scrollbars", "--force-device-scale-factor=1",
                 f"--user-data-dir={tmp}/profile",
                 "--default-background-color=00000000",
                 f"--window-size={size},{size}", f"--screenshot={dst}", html.as_uri()],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"wrote {dst}")


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir", type=Path, default=root / "static",
                    help="directory that receives tiles/ and icons/ (default: static/)")
    ap.add_argument("--png", action="store_true",
                    help="also render icons/app-192.png and app-512.png with headless Chromium")
    args = ap.parse_args(argv)
    written = build(args.out_dir)
    print(f"wrote {len(written)} files under {os.path.relpath(args.out_dir)}")
    if args.png:
        render_pngs(args.out_dir / "icons")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
