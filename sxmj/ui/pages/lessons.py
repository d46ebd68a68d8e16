"""The live parts of learn.html: its examples and tables, computed when the page loads.

The example hands are data (requests in the evaluate JSON command's format); every result
shown — win or not, 番, 花, share, the explanation lines — comes from the evaluator
(:func:`sxmj.ui.pages.judge.judge`), never from text typed here. The tile gallery, the 财神 cycle,
the payment cases, the rule options and the rank table are computed from the core's own
data too. Pure: :func:`regions` returns the markup of every region, keyed by element id.

>>> ex = EXAMPLES["baotou"]
>>> judge(ex.request).evaluation.patterns
['baotou']
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlencode

from sxmj.ranks import RANKS
from sxmj.rules import Options
from sxmj.scenarios import BUILTIN, builtin
from sxmj.scoring import FLOWER_ITEMS, PATTERNS, PATTERNS_ZH_EXPLAIN, PAY_REASONS, settle_detail
from sxmj.tiles import caishen_of, code, parse_tiles, tile, tile_name
from sxmj.ui.i18n import tr
from sxmj.ui.markup import esc, group_html, tile_html
from sxmj.ui.pages.hand_cards import TileCtx, result_html, tiles_html
from sxmj.ui.pages.judge import judge, params_of


@dataclass(frozen=True)
class Example:
    """One live example: a request for the evaluator and what it is there to show."""

    id: str
    title: tuple[str, str]  # 中文, English
    note: tuple[str, str]
    request: dict
    shows: tuple[str, ...] = ()  # the pattern and 花 item ids it demonstrates
    win: bool = True  # what the example is meant to show (the test checks the evaluator agrees)


def _ex(id, title, note, shows=(), win=True, **request) -> Example:
    request.setdefault("caishen", "9s")
    return Example(id, title, note, request, tuple(shows), win)


_MELDS4 = ["peng 222m", "chi 345p", "peng 777s", "chi 678m"]

EXAMPLE_LIST = [
    # §6 winning hands
    _ex("plain", ("平胡", "A plain win (平胡)"),
        ("四组牌加一对将，没有番型：0 番。", "Four sets and a pair, no pattern: 0 番."),
        hand="123m456m789m123p55p", win_tile="5p"),
    _ex("wild", ("财神当别的牌", "The 财神 standing in"),
        ("财神九索当八万用，凑成七八九万。",
         "The 财神 (9 Bamboo) stands for 8 Characters to make 7-8-9 Characters."),
        ("caishen",), hand="123m456m79m123p55p9s", win_tile="5p"),
    _ex("seven-pairs", ("七对不算胡", "Seven pairs is not a win"),
        ("绍兴麻将没有七对。", "Shaoxing mahjong has no seven pairs."), win=False,
        hand="1122m3344p5566s11z", win_tile="1z"),
    # §7 patterns
    _ex("baotou", ("暴头", "暴头 Bao Tou"),
        ("摸到的五筒和财神成将：1 番。", "The drawn 5 Dots pairs with the 财神: 1 番."),
        ("baotou", "caishen"), hand="123m456m789m123p5p9s", win_tile="5p"),
    _ex("piao", ("财飘", "财飘 Cai Piao"),
        ("暴头听牌时打出过一张财神（飘 1 次），然后暴头自摸：2 番。",
         "A 财神 was thrown while 暴头-ready (飘 once), then a 暴头 self-draw: 2 番."),
        ("baotou", "piao"), hand="123m456m789m123p5p9s", win_tile="5p", piao=1),
    _ex("gangkai", ("杠开", "杠开 Gang Kai"),
        ("暗杠二索后从牌尾补到五筒，胡了。",
         "After a concealed kong of 2 Bamboo, the replacement 5 Dots wins."),
        ("gangkai", "kong_concealed"), hand="456m789m123p55p", win_tile="5p",
        melds=["angang 2222s"], win_by="kong"),
    _ex("gangbao", ("杠爆", "杠爆 Gang Bao"),
        ("暴头听牌时开杠，补到的牌和财神成将：杠开 + 暴头 = 2 番。",
         "A kong while 暴头-ready; the replacement pairs with the 财神: 杠开 + 暴头 = 2 番."),
        ("gangkai", "baotou"), hand="456m789m123p5p9s", win_tile="5p", melds=["angang 2222s"],
        win_by="kong"),
    _ex("flower-kai", ("补花杠开", "杠开 on a flower"),
        ("摸到花牌秋，亮出补牌，补到五筒胡：花算杠，也是杠开。",
         "A flower (Autumn) is laid open and replaced; the replacement 5 Dots wins: a flower "
         "counts as a kong, so this is 杠开 too."),
        ("gangkai", "flower"), hand="123m456m789m123p55p", win_tile="5p", flowers="3f",
        win_by="flower"),
    _ex("dadiao", ("大吊", "大吊 Da Diao"),
        ("四组牌都吃碰出来了，只立着一张五索，摸到五索：1 番。",
         "All four sets are claimed; one 5 Bamboo stands and the draw matches it: 1 番."),
        ("dadiao",), hand="5s5s", win_tile="5s", melds=_MELDS4),
    _ex("dadiao-baotou", ("大吊爆头", "大吊爆头"),
        ("立着的是财神：摸什么都胡，大吊 + 暴头 = 2 番。",
         "The standing tile is the 财神: any draw wins, 大吊 + 暴头 = 2 番."),
        ("dadiao", "baotou"), hand="5s9s", win_tile="5s", melds=_MELDS4),
    _ex("qianggang", ("抢杠", "抢杠 Qiang Gang"),
        ("别人加杠三万，正好补上你的一二万：抢杠胡，1 番，被抢的人一家付三份。",
         "Someone adds 3 Characters to their pung; it completes your 1-2 Characters: rob it, "
         "1 番, and the robbed player pays all three shares."),
        ("qianggang",), hand="12m3m456m789m55s678s", win_tile="3m", win_by="rob"),
    _ex("rob-pair", ("暴头不能抢杠", "No 抢杠 for the pair"),
        ("被抢的五筒只能和财神成将（暴头），不能抢杠。单吊也一样：被抢的牌一定要进顺子或刻子。",
         "The robbed 5 Dots would only pair with the 财神 (暴头): not allowed. The same goes for a "
         "single wait: the robbed tile must sit in a chow or pung."),
        win=False, hand="123m456m789m123p5p9s", win_tile="5p", win_by="rob"),
    _ex("tianhu", ("天胡", "天胡 Tian Hu"),
        ("庄家起手的 14 张就是胡牌：3 番。", "The dealer's 14 dealt tiles are a win: 3 番."),
        ("tianhu",), hand="123m456m789m123p55p", win_tile="5p", first_turn=True, dealer=True),
    _ex("dihu", ("地胡", "地胡 Di Hu"),
        ("闲家第一次摸牌就胡，之前没人吃碰：3 番。",
         "A non-dealer wins on their first draw, before any claim: 3 番."),
        ("dihu",), hand="123m456m789m123p55p", win_tile="5p", first_turn=True),
    _ex("quanfeng", ("全风", "全风 Quan Feng"),
        ("十四张全是风牌，不需要成组：3 番。", "All 14 tiles are winds; no sets needed: 3 番."),
        ("quanfeng",), hand="11112222333344z", win_tile="4z"),
    _ex("cap", ("三番到底", "三番到底: the cap"),
        ("天胡 3 番加暴头 1 番是 4 番，按 3 番算。",
         "天胡 (3) plus 暴头 (1) is 4 番, counted as 3."),
        ("tianhu", "baotou"), hand="123m456m789m123p5p9s", win_tile="5p", first_turn=True,
        dealer=True),
    # §8 花
    _ex("flowers", ("亮出的花牌", "Flowers laid open"),
        ("春、夏和白板各 1 花。", "Spring, Summer and the White Dragon: 1 花 each."),
        ("flower",), hand="123m456m789m123p55p", win_tile="5p", flowers="1f2f5z"),
    _ex("two-caishen", ("手里的财神", "财神 in the hand"),
        ("两张财神，各 1 花（一张当九万，一张当三筒）。",
         "Two 财神, 1 花 each (one as 9 Characters, one as 3 Dots)."),
        ("caishen",), hand="123m456m78m12p55p9s9s", win_tile="5p"),
    _ex("wind-pung", ("风刻", "A pung of winds"),
        ("一刻东风：1 花。", "A pung of East Wind: 1 花."),
        ("wind_pung",), hand="123m456m789m111z55p", win_tile="5p"),
    _ex("wind-kong-exposed", ("明杠风", "An exposed kong of winds"),
        ("明杠南风：2 花。", "An exposed kong of South Wind: 2 花."),
        ("wind_kong_exposed",), hand="456m789m123p55p", win_tile="5p",
        melds=["minggang 2222z"]),
    _ex("wind-kong-concealed", ("暗杠风", "A concealed kong of winds"),
        ("暗杠西风：3 花。", "A concealed kong of West Wind: 3 花."),
        ("wind_kong_concealed",), hand="456m789m123p55p", win_tile="5p",
        melds=["angang 3333z"]),
    _ex("kong-exposed", ("明杠", "An exposed kong"),
        ("明杠（或加杠）四索：1 花。", "An exposed kong (or an added one) of 4 Bamboo: 1 花."),
        ("kong_exposed",), hand="456m789m123p55p", win_tile="5p", melds=["jiagang 4444s"]),
    _ex("kong-concealed", ("暗杠", "A concealed kong"),
        ("暗杠六索：2 花。", "A concealed kong of 6 Bamboo: 2 花."),
        ("kong_concealed",), hand="456m789m123p55p", win_tile="5p", melds=["angang 6666s"]),
    _ex("best-reading", ("取最高的读法", "The reading that pays most"),
        ("财神可以和两张东风成刻（风刻 1 花），也可以和一对五筒成刻：取花多的那种。",
         "The 财神 can make a pung with the two East Winds (a wind pung, 1 花) or with the pair "
         "of 5 Dots: the reading that pays more counts."),
        ("wind_pung", "caishen"), hand="123m456m789m11z55p9s", win_tile="5p"),
]
EXAMPLES: dict[str, Example] = {e.id: e for e in EXAMPLE_LIST}


def calc_link(request: dict, lang: str) -> str:
    params = params_of(request)
    if lang != "zh":
        params.append(("lang", lang))
    return "./calc.html?" + urlencode(params)


def example_html(ex: Example, lang: str) -> str:
    """One example: caption, the hand drawn with the game's art, the evaluator's result."""
    j = judge(ex.request)
    zh = lang == "zh"
    title = ex.title[0 if zh else 1]
    note = ex.note[0 if zh else 1]
    return (f'<figure class="ex" id="ex-{esc(ex.id)}" data-computed="1">'
            f'<figcaption class="ex__cap"><span class="ex__tag">{esc(tr(lang, "example_label"))}'
            f'</span><b>{esc(title)}</b><span class="ex__note">{esc(note)}</span></figcaption>'
            f"{result_html(j, lang)}"
            f'<a class="ex__calc" href="{esc(calc_link(ex.request, lang))}">'
            f'{esc(tr(lang, "open_calc"))} →</a></figure>')


# ------------------------------------------------------------------ tables and galleries


def gallery_html(lang: str) -> str:
    """§1: every tile face, grouped; the 20 flower tiles (杠花) set apart."""
    ctx = TileCtx(lang, None)
    rows = [("m", "123456789m"), ("p", "123456789p"), ("s", "123456789s"), ("winds", "1234z"),
            ("dragons", "567z"), ("flowers", "12345678f")]
    out = []
    for group, tiles in rows:
        label = tr(lang, "gallery_" + group)
        flower = "z" in tiles and "5" in tiles or "f" in tiles
        out.append(f'<div class="gal__row{" gal__row--flower" if flower else ""}">'
                   f'<span class="gal__label">{esc(label)}</span>'
                   f"{tiles_html(parse_tiles(tiles), ctx)}</div>")
    return "".join(out)


def caishen_cycle_html(lang: str) -> str:
    """§3: indicators and the 财神 each gives, computed by :func:`sxmj.tiles.caishen_of`."""
    out = []
    for ind in ("5m", "9m", "3p", "2z", "4z", "7z", "6f"):
        i = tile(ind)
        cai = caishen_of(i)
        ctx = TileCtx(lang, cai)
        label = tr(lang, "indicator_to_caishen", ind=tile_name(i, lang), cai=tile_name(cai, lang))
        out.append(f'<li class="cyc" data-indicator="{ind}" data-caishen="{code(cai)}">'
                   f'<span class="cyc__pair">{tile_html(i, TileCtx(lang, None))}'
                   f'<i aria-hidden="true">→</i>{tile_html(cai, ctx)}</span>'
                   f'<span class="cyc__label">{esc(label)}</span></li>')
    return f'<ul class="cycle">{"".join(out)}</ul>'


def patterns_table_html(lang: str) -> str:
    """§7: every pattern with its live example's computed 番."""
    zh = lang == "zh"
    rows = []
    for pid, (name_zh, name_en, what) in PATTERNS.items():
        ex = next(e for e in EXAMPLE_LIST if pid in e.shows and e.win)
        j = judge(ex.request)
        fan = j.evaluation.pattern_fan.get(pid, 0)
        expl = PATTERNS_ZH_EXPLAIN[pid] if zh else what
        name = name_zh if zh else f"{name_zh} {name_en}"
        rows.append(f'<tr data-pattern="{pid}"><th scope="row">{esc(name)}</th>'
                    f"<td>{esc(expl)}</td><td class=\"num\">{fan}</td>"
                    f'<td><a href="#ex-{esc(ex.id)}">{esc(ex.title[0 if zh else 1])}</a></td></tr>')
    head = [tr(lang, key) for key in ("col_pattern", "col_what", "col_fan", "example_label")]
    return _table(head, rows, "patterns")


def flowers_table_html(lang: str) -> str:
    """§8: every 花 item and its points, from :data:`sxmj.scoring.FLOWER_ITEMS`."""
    zh = lang == "zh"
    rows = []
    for item, (name_zh, name_en, points) in FLOWER_ITEMS.items():
        ex = next(e for e in EXAMPLE_LIST if item in e.shows)
        name = name_zh if zh else f"{name_en} ({name_zh})"
        rows.append(f'<tr data-item="{item}"><th scope="row">{esc(name)}</th>'
                    f'<td class="num">{points}</td>'
                    f'<td><a href="#ex-{esc(ex.id)}">{esc(ex.title[0 if zh else 1])}</a></td></tr>')
    head = [tr(lang, key) for key in ("col_item", "col_each", "example_label")]
    return _table(head, rows, "flower-items")


PAY_CASES: list[tuple[str, dict[str, Any]]] = [
    # id (its words: i18n pay_case_<id>), settle_detail arguments (winner 0)
    ("share", {}),
    ("rob", {"robbed": 3}),
    ("piao", {"piao_seats": [2]}),
    ("contract3", {"claims": [[0, 0, 0, 3], [0] * 4, [0] * 4, [0] * 4]}),
    ("contract5", {"claims": [[0] * 4, [3, 0, 0, 0], [0] * 4, [0] * 4]}),
]


def payments_html(lang: str, example: str = "baotou") -> str:
    """§9: who pays what for one share, case by case (:func:`sxmj.scoring.settle_detail`)."""
    zh = lang == "zh"
    share = judge(EXAMPLES[example].request).share
    rows = []
    for cid, kw in PAY_CASES:
        st = settle_detail(share, 0, **kw)
        cells = []
        for seat in range(4):
            zh_r, en_r = PAY_REASONS[st.reasons[seat]]
            why = zh_r if zh else en_r
            amount = st.amounts[seat]
            sign = "+" if amount > 0 else ""
            cells.append(f'<td class="num" title="{esc(why)}" data-seat="{seat}">'
                         f"{sign}{amount}</td>")
        rows.append(f'<tr data-case="{cid}"><th scope="row">{esc(tr(lang, "pay_case_" + cid))}</th>'
                    f'{"".join(cells)}</tr>')
    seats = [tr(lang, "pay_winner") + " 0"] + [tr(lang, "pay_seat", n=n) for n in (1, 2, 3)]
    caption = tr(lang, "pay_caption", share=share)
    return _table((tr(lang, "pay_case"), *seats), rows, "payments", caption)


def options_html(lang: str) -> str:
    """§10: the rule options and their defaults, read from :class:`sxmj.rules.Options`."""
    rows = []
    for f in fields(Options):
        default = f.default
        if isinstance(default, bool):
            value = tr(lang, "rule_on" if default else "rule_off")
        else:
            value = str(default)
        # the player's name for the option and its meaning, as in the table's settings; the
        # JSON / URL name under it is for whoever embeds or scripts the game
        name, text = tr(lang, "rule_" + f.name), tr(lang, f"rule_{f.name}_note")
        rows.append(f'<tr data-option="{f.name}"><th scope="row">{esc(name)}<br>'
                    f'<code class="opt__key">{f.name}</code></th>'
                    f'<td class="num">{esc(value)}</td><td>{esc(text)}</td></tr>')
    return _table((tr(lang, "option"), tr(lang, "default"), tr(lang, "meaning")), rows, "options")


def ranks_html(lang: str) -> str:
    """§11: the rank titles and their thresholds, from :data:`sxmj.ranks.RANKS`."""
    zh = lang == "zh"
    cells = []
    for floor, (title_zh, title_en) in RANKS:
        name = title_zh if zh else f"{title_en} ({title_zh})"
        cells.append(f'<li data-points="{floor}"><b>{esc(name)}</b>'
                     f'<span class="num">{floor:,}</span></li>')
    return f'<ol class="ranks">{"".join(cells)}</ol>'


def scenarios_html(lang: str) -> str:
    """The scenario list: each built-in scenario, its goal and its starting hand."""
    zh = lang == "zh"
    items = []
    for name in BUILTIN:
        sc = builtin(name)
        ctx = TileCtx(lang, caishen_of(tile(sc.indicator)))
        hand = parse_tiles(sc.hands[0])
        href = f"./index.html?{urlencode({'scenario': name, **({} if zh else {'lang': lang})})}"
        items.append(
            f'<li class="sc" data-scenario="{esc(name)}">'
            f'<a class="sc__link" href="{esc(href)}"><b class="sc__title">'
            f'{esc(sc.title["zh" if zh else "en"])}</b>'
            f'<span class="sc__goal">{esc(sc.goal["zh" if zh else "en"])}</span>'
            f'<span class="sc__hand">{group_html(hand, ctx)}</span>'
            f'<span class="sc__go">{esc(tr(lang, "scenario_play"))} →</span></a></li>')
    return f'<ul class="scenarios">{"".join(items)}</ul>'


def _table(head, rows, name: str, caption: str = "") -> str:
    th = "".join(f'<th scope="col">{esc(h)}</th>' for h in head)
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (f'<div class="tbl-wrap"><table class="tbl" data-table="{name}">{cap}'
            f'<thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


# ------------------------------------------------------------------ the page


@dataclass
class Rendered:
    """Markup by element id, plus the examples by their slot's ``data-example`` id."""

    regions: dict[str, str] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)


def render(lang: str) -> Rendered:
    out = Rendered()
    out.regions = {
        "tiles-gallery": gallery_html(lang),
        "caishen-cycle": caishen_cycle_html(lang),
        "patterns-table": patterns_table_html(lang),
        "flowers-table": flowers_table_html(lang),
        "payments-table": payments_html(lang),
        "options-table": options_html(lang),
        "ranks-table": ranks_html(lang),
        "scenario-list": scenarios_html(lang),
    }
    out.examples = {ex.id: example_html(ex, lang) for ex in EXAMPLE_LIST}
    return out
