"""The words of the learn, calculator and embed pages, in 中文 and English.

The table's own words (tile names, 财神, 吃碰杠, …) come from :mod:`sxmj.ui.i18n`; the
pattern, 花 and payment texts from :mod:`sxmj.scoring`. As on the table, the English
pages keep the Chinese terms beside their explanation.

>>> t("en", "fan_hua_share", fan=1, hua=1, share=12)
'1 番 · 1 花 · share 12'
"""

from __future__ import annotations

LANGS = ("zh", "en")

# key: (中文, English)
TEXTS: dict[str, tuple[str, str]] = {
    # navigation
    "site": ("绍兴麻将", "Shaoxing Mahjong"),
    "nav_play": ("牌桌", "Play"),
    "nav_learn": ("规则", "Rules"),
    "nav_calc": ("算番器", "Calculator"),
    "lang_switch": ("English", "中文"),
    "lang_switch_label": ("切换到英文", "Switch to Chinese"),
    # results
    "verdict_win": ("胡牌", "胡 Win"),
    "verdict_no": ("不是胡牌", "Not a win"),
    "verdict_ready": ("听牌", "听 Ready"),
    "verdict_baotou_ready": ("暴头听牌：摸什么都胡", "暴头-ready: any tile wins"),
    "verdict_not_ready": ("还没听牌", "Not ready yet"),
    "verdict_invalid": ("输入有误", "Check the input"),
    "verdict_incomplete": ("继续输入", "Keep entering tiles"),
    "fan_hua_share": ("{fan} 番 · {hua} 花 · 每家 {share}", "{fan} 番 · {hua} 花 · share {share}"),
    "reading": ("胡牌的组合", "The winning reading"),
    "explain": ("逐项说明", "Item by item"),
    "pays_each": ("其他三家各付 {share}，胡家共得 {total}。",
                  "Each of the other three pays {share}; the winner receives {total}."),
    "pays_rob": ("被抢杠的一家独付三份：{total}，其他两家不付。",
                 "The robbed player alone pays all three shares: {total}; the others pay "
                 "nothing."),
    "drawn": ("摸到", "drawn"),
    "robbed": ("抢到", "robbed"),
    "win_tile": ("胡张", "win tile"),
    "preview": ("你的牌（点一张可移除）", "Your tiles (click one to remove it)"),
    "hand_label": ("手牌", "Hand"),
    "melds_label": ("吃碰杠", "Melds"),
    "flowers_label": ("花牌", "Flowers"),
    "caishen_label": ("财神", "财神 wild"),
    "win_by_draw": ("自摸", "自摸 self-draw"),
    "win_by_kong": ("杠后补牌", "杠 kong replacement"),
    "win_by_flower": ("补花后补牌", "补花 flower replacement"),
    "win_by_rob": ("抢杠", "抢杠 robbing a kong"),
    "context_first_turn": ("第一手", "first turn"),
    "context_dealer": ("庄家", "dealer"),
    "context_piao": ("飘 {n} 次", "飘 ×{n}"),
    "context_replacements": ("连续补 {n} 张", "{n} replacements in a row"),
    "context_base": ("底花 {n}", "底花 {n}"),
    "waits_title": ("听这些牌", "Waiting on"),
    "waits_count": ("{n} 种牌", "{n} kinds"),
    "wait_share": ("{fan} 番 每家 {share}", "{fan} 番, share {share}"),
    "distance": ("离听牌还差 {n} 张", "{n} useful draws from ready"),
    "baotou_distance": ("离暴头听牌还差 {n} 张", "{n} draws from 暴头-ready"),
    "no_caishen": ("手里没有财神，不能暴头", "No 财神 in hand: no 暴头"),
    "baotou_ready_note": ("财神旁边四组牌已齐：任何一张牌都能与财神成将。",
                          "Four sets beside a 财神: any tile pairs with it."),
    "tiles_n": ("{n}/14 张", "{n}/14 tiles"),
    "incomplete_note": ("胡牌要 14 张（杠算 3 张）；13 张时显示听什么牌。",
                        "A win has 14 tiles (a kong counts 3); at 13 you see the waits."),
    "error_unexpected": ("出了意外的错误", "An unexpected error"),
    "indicator": ("翻牌", "Indicator"),
    # the calculator
    "calc_title": ("算番器", "Hand calculator"),
    "calc_intro": ("点牌或直接输入写法（123m 万、123p 筒、123s 索、1234z 东南西北、567z 中发白、"
                   "1–8f 花）。结果由规则引擎计算。",
                   "Click tiles or type the notation (123m 万 characters, 123p 筒 dots, 123s 索 "
                   "bamboo, 1234z winds, 567z dragons, 1–8f flowers). The rules engine computes "
                   "the result."),
    "calc_to": ("点牌放入", "Tiles go to"),
    "to_hand": ("手牌", "Hand"),
    "to_meld": ("吃碰杠", "Meld"),
    "to_flowers": ("花牌", "Flowers"),
    "to_caishen": ("财神", "财神"),
    "to_win_tile": ("胡张", "Winning tile"),
    "meld_kind": ("类型", "Kind"),
    "field_hand": ("手牌（含胡张）", "Hand (winning tile included)"),
    "field_win_tile": ("胡张（空 = 最后一张）", "Winning tile (empty = the last one)"),
    "field_caishen": ("财神", "财神 wild tile"),
    "field_melds": ("吃碰杠（逗号分隔）", "Melds (comma-separated)"),
    "field_flowers": ("花牌", "Flowers laid open"),
    "field_win_by": ("胡法", "Win by"),
    "field_replacements": ("连续补牌数", "Replacements in a row"),
    "field_piao": ("飘的次数", "飘 count"),
    "field_first_turn": ("第一手（天胡/地胡）", "First turn (天胡/地胡)"),
    "field_dealer": ("庄家", "Dealer"),
    "field_base_flowers": ("底花", "底花 base"),
    "field_flower_is_kong": ("补花算杠开", "Flower win counts as 杠开"),
    "field_baotou_required": ("有财必暴", "有财必暴 (财神 → 暴头 only)"),
    "field_fan_cap": ("番数封顶", "番 cap"),
    "context": ("胡牌情况", "Win context"),
    "rules": ("规则选项", "Rule options"),
    "clear": ("清空", "Clear"),
    "undo": ("退一张", "Undo"),
    "example": ("例子…", "Examples…"),
    "palette": ("牌", "Tiles"),
    "remove_tile": ("点一下移除{tile}", "Click to remove {tile}"),
    "add_tile": ("加入{tile}", "Add {tile}"),
    "flower_to_flowers": ("花牌不能留在手里，已放入花牌。",
                          "A flower tile is never kept in a hand: it went to the flowers."),
    "chi_bad": ("{tile}开头凑不成顺子（吃只能是同一花色的 1–7 开头）",
                "No chow starts at {tile} (a chi starts at 1–7 of a suit)"),
    "meld_caishen": ("财神不能吃碰杠", "The 财神 can't be used in a meld"),
    "meld_flower": ("花牌不能吃碰杠", "A flower tile can't be in a meld"),
    "caishen_flower": ("财神只能是数牌或风牌", "The 财神 is a suited tile or a wind"),
    "share_link": ("链接可重现这手牌", "This page's link reproduces the hand"),
    "open_calc": ("在算番器中打开", "Open in the calculator"),
    # embeds
    "embed_by": ("绍兴麻将", "Shaoxing Mahjong"),
    "embed_error_title": ("嵌入参数有误", "This embed's parameters are wrong"),
    "embed_modes": ("模式：hand、calc、scenario、play", "Modes: hand, calc, scenario, play"),
    "scenario_card": ("练习场景", "Scenario"),
    "scenario_start": ("开始练习", "Start the scenario"),
    "scenario_here": ("在此框中打开", "Open in this frame"),
    "scenario_hand": ("你的起手牌", "Your starting hand"),
    "play_card": ("牌局", "A match"),
    "play_seed": ("局号 {seed}", "Seed {seed}"),
    "play_start": ("开始对局", "Play this deal"),
    "play_note": ("你和三个电脑对手；同一局号总是同样的牌。",
                  "You against three bots; the same seed always deals the same tiles."),
    "new_tab": ("新标签页打开", "opens in a new tab"),
    "dealer_you": ("你坐庄", "You deal"),
    # learn
    "example_label": ("例", "Example"),
    "computed": ("由规则引擎计算", "computed by the rules engine"),
    "scenario_play": ("练习", "Practise"),
    "indicator_to_caishen": ("翻{ind}，财神是{cai}", "{ind} turned up → 财神 {cai}"),
    "pay_case": ("情况", "Case"),
    "pay_winner": ("胡家", "Winner"),
    "pay_seat": ("{n} 家", "Player {n}"),
    "rank_title": ("等级", "Rank"),
    "rank_points": ("积分", "Points"),
    "option": ("选项", "Option"),
    "default": ("默认", "Default"),
    "meaning": ("含义", "Meaning"),
    "on": ("开", "on"),
    "off": ("关", "off"),
}


def t(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang`` with ``{placeholders}`` filled."""
    zh, en = TEXTS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def lang_of(value: str | None) -> str:
    """``?lang=`` value → 'zh' or 'en' (default zh)."""
    v = (value or "").strip().lower()
    return v if v in LANGS else "zh"
