"""Every user-visible string of the table, in 中文 and English.

The English UI keeps the Chinese terms beside their explanation ("碰 Pung"), as
players learn the game by its Chinese names. :func:`tr` looks a key up and
fills ``{placeholders}``; tile names come from :func:`sxmj.tiles.tile_name`.

>>> tr("en", "wall_left", n=83)
'83 tiles left'
>>> tr("zh", "bot_thinking", name="阿福")
'阿福思考中…'
"""

from __future__ import annotations

from ..tiles import tile_name

LANGS = ("zh", "en")

# key: (中文, English)
STRINGS: dict[str, tuple[str, str]] = {
    # the page and its menu
    "title": ("绍兴麻将", "Shaoxing Mahjong"),
    "title_sub": ("", "绍兴麻将"),
    "table": ("牌桌", "Table"),
    "menu": ("菜单", "Menu"),
    "lang_switch": ("English", "中文"),
    "lang_switch_label": ("切换到英文", "Switch to Chinese"),
    "speed": ("速度", "Speed"),
    "speed_slow": ("慢", "slow"),
    "speed_normal": ("中", "normal"),
    "speed_fast": ("快", "fast"),
    "speed_label": ("电脑出牌速度：{speed}（点击切换）",
                    "Bot speed: {speed} (click to change)"),
    "seed": ("局号", "Seed"),
    "seed_label": ("本场比赛的局号，链接可重现同样的牌局",
                   "This match's seed: the link replays the same deal"),
    "level_easy": ("简单", "easy"),
    "level_normal": ("普通", "normal"),
    "level_hard": ("困难", "hard"),
    "bots_level": ("电脑：{level}", "Bots: {level}"),
    "level_label": ("电脑水平：{level}（点击切换）", "Bot level: {level} (click to change)"),
    "new_match": ("新比赛", "New match"),
    "new_match_label": ("重新开始一场比赛（新的局号）", "Start a new match (new seed)"),
    # seats
    "you": ("你", "You"),
    "name_1": ("阿福", "A-Fu"),
    "name_2": ("小梅", "Xiao Mei"),
    "name_3": ("老陈", "Lao Chen"),
    "pos_0": ("本家", "You"),
    "pos_1": ("下家", "Right (下家)"),
    "pos_2": ("对家", "Across (对家)"),
    "pos_3": ("上家", "Left (上家)"),
    "wind_0": ("东", "East"),
    "wind_1": ("南", "South"),
    "wind_2": ("西", "West"),
    "wind_3": ("北", "North"),
    "dealer": ("庄", "庄 dealer"),
    "dealer_short": ("庄", "庄"),
    "flowers_count": ("花 {n}", "花 {n}"),
    "flowers_label": ("{name}亮出的花牌：{n} 张", "{name}'s flowers laid open: {n}"),
    "tiles_in_hand": ("{n} 张", "{n} tiles"),
    "hand_label": ("{name}的手牌：{n} 张", "{name}'s hand: {n} tiles"),
    "melds_label": ("{name}的吃碰杠", "{name}'s melds"),
    "thinking": ("思考中", "thinking"),
    "your_move": ("你的回合", "your move"),
    "score_of": ("{name}：{score} 分", "{name}: {score} points"),
    # the centre panel
    "hand_no": ("第 {n} 局", "Hand {n}"),
    "wall_left": ("余 {n} 张", "{n} tiles left"),
    "wall": ("牌墙", "Wall"),
    "indicator": ("翻牌", "Indicator"),
    "caishen": ("财神", "财神 wild"),
    "caishen_badge": ("财", "财"),
    "caishen_is": ("财神是{tile}", "The 财神 (wild tile) is {tile}"),
    "indicator_is": ("翻牌是{tile}", "The indicator is {tile}"),
    "dice": ("骰子 {a} 和 {b}", "Dice {a} and {b}"),
    "scores": ("比分", "Scores"),
    "piao_round": ("飘：{name}打出财神，本轮其他人不能吃碰杠",
                   "飘 round: {name} threw a 财神; nobody else may claim until their next turn"),
    # status line
    "status_your_turn": ("轮到你：打一张牌", "Your turn: discard a tile"),
    "status_your_turn_hu": ("你可以胡牌！", "You can win: 胡!"),
    "status_your_turn_gang": ("你可以杠，或打一张牌", "You may 杠 kong, or discard a tile"),
    "status_after_claim": ("打一张牌", "Discard a tile"),
    "status_claim": ("{name}打出{tile}：要吗？", "{name} discarded {tile}: claim it?"),
    "status_rob": ("{name}加杠{tile}：可以抢杠胡！",
                   "{name} adds {tile} to a kong: rob it (抢杠)?"),
    "status_thinking": ("{name}思考中…", "{name} is thinking…"),
    "status_waiting": ("等待其他玩家…", "Waiting for the others…"),
    "status_over": ("本局结束", "Hand over"),
    "bot_thinking": ("{name}思考中…", "{name} is thinking…"),
    # actions
    "act_hu": ("胡", "胡 Win"),
    "act_zimo": ("自摸", "自摸 Self-draw win"),
    "act_qianggang": ("抢杠胡", "抢杠 Rob the kong"),
    "act_chi": ("吃", "吃 Chow"),
    "act_peng": ("碰", "碰 Pung"),
    "act_minggang": ("杠", "杠 Kong"),
    "act_angang": ("暗杠", "暗杠 Concealed kong"),
    "act_jiagang": ("加杠", "加杠 Add to pung"),
    "act_pass": ("过", "过 Pass"),
    "act_piao": ("飘：打出财神", "飘 Throw the 财神"),
    "act_cancel": ("取消", "Cancel"),
    "act_next_hand": ("下一局", "Next hand"),
    "act_new_match": ("新比赛", "New match"),
    "key_hint": ("快捷键 {key}", "Shortcut {key}"),
    "actions_label": ("操作", "Actions"),
    "or_discard": ("或直接打一张牌", "or just discard a tile"),
    "show_offers": ("↩ 胡 / 杠", "↩ 胡 / 杠 options"),
    "piao_prompt": ("你现在可以胡牌。打出财神（飘）就放弃这次胡牌；"
                    "之后暴头自摸每飘一次多一番，但别人先胡你要包三家。",
                    "You can win now. Throwing the 财神 (飘) passes up this win: a later 暴头 "
                    "self-draw scores one more 番 per 飘, but if someone else wins first you "
                    "pay for everyone."),
    "discard_tile": ("打出{tile}", "Discard {tile}"),
    "not_your_turn": ("还没轮到你", "Not your turn"),
    "flower_in_hand": ("花牌在你的回合自动补花", "Flowers are laid open on your turn"),
    "drawn": ("刚摸到", "just drawn"),
    # callouts
    "say_chi": ("吃！", "吃 Chow!"),
    "say_peng": ("碰！", "碰 Pung!"),
    "say_gang": ("杠！", "杠 Kong!"),
    "say_hu": ("胡！", "胡 Win!"),
    "say_zimo": ("自摸！", "自摸!"),
    "say_flower": ("补花", "补花 Flower"),
    "say_piao": ("飘！", "飘!"),
    # the log (announced to screen readers)
    "log_discard": ("{name}打出{tile}", "{name} discards {tile}"),
    "log_claim": ("{name}{act}{tile}", "{name}: {act} {tile}"),
    "log_flower": ("{name}补花{tile}", "{name} lays open {tile}"),
    "log_hu": ("{name}胡了", "{name} wins"),
    "log_exhausted": ("臭庄：牌摸完了", "臭庄: the wall is empty"),
    "log_new_hand": ("第 {n} 局开始，{name}坐庄", "Hand {n} begins, {name} deals"),
    # the result panel
    "result": ("本局结果", "Hand result"),
    "result_win": ("{name}胡了！", "{name} wins!"),
    "result_you_win": ("你胡了！", "You win!"),
    "result_draw": ("臭庄", "臭庄 Drawn hand"),
    "result_draw_note": ("牌墙摸完，没有人胡牌，本局不算分。",
                         "The wall ran out and nobody won: no payments this hand."),
    "win_by_draw": ("自摸", "自摸 self-drawn"),
    "win_by_kong": ("杠后自摸", "自摸 on a kong replacement"),
    "win_by_flower": ("补花后自摸", "自摸 on a flower replacement"),
    "win_by_rob": ("抢{name}的杠", "抢杠 robbing {name}'s kong"),
    "winning_hand": ("胡牌", "Winning hand"),
    "winning_tile": ("胡张", "winning tile"),
    "wild_as": ("当{tile}", "as {tile}"),
    "wild_free": ("任意", "any"),
    "exposed": ("明", "exposed"),
    "fan_title": ("番", "番 Fan"),
    "fan_total": ("共 {n} 番", "{n} 番 in all"),
    "fan_capped": ("三番到底：{raw} 番按 {fan} 番算", "三番到底 cap: {raw} 番 count as {fan}"),
    "plain_win": ("平胡", "平胡 Plain win"),
    "plain_win_note": ("没有番型", "no pattern"),
    "fan_n": ("{n} 番", "{n} 番"),
    "flowers_title": ("花", "花 Flower points"),
    "flowers_base": ("底花", "底花 base"),
    "flowers_total": ("共 {n} 花", "{n} 花 in all"),
    "hua_n": ("{n} 花", "{n} 花"),
    "formula_title": ("计分", "Scoring"),
    "payments": ("付款", "Payments"),
    "col_player": ("玩家", "Player"),
    "col_reason": ("原因", "Reason"),
    "col_change": ("本局", "This hand"),
    "col_total": ("总分", "Total"),
    "reason_none": ("—", "—"),
    "hand_n_done": ("第 {n} 局", "Hand {n}"),
    "error_title": ("出错了", "Something went wrong"),
    "error_note": ("游戏遇到错误。请刷新页面；如果仍然失败，请报告下面的信息。",
                   "The game hit an error. Reload the page; if it happens again, please "
                   "report the text below."),
    "reload": ("刷新", "Reload"),
}

# Pattern and 花 item texts live in sxmj.scoring (PATTERNS, FLOWER_ITEMS, PAY_REASONS).


def tr(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang`` ('zh' or 'en'), with ``{placeholders}`` filled."""
    zh, en = STRINGS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def tile_label(t: int, lang: str) -> str:
    """A tile's name for people: 五万 / 5 Characters (五万)."""
    zh = tile_name(t, "zh")
    return zh if lang == "zh" else f"{tile_name(t, 'en')} ({zh})"


def seat_name(seat: int, lang: str) -> str:
    """Seat 0 is the player; 1–3 are the bots to the right, across and left."""
    return tr(lang, "you") if seat == 0 else tr(lang, f"name_{seat}")


def wind_char(seat: int, dealer: int) -> str:
    """The seat wind (东南西北), counted from the dealer (always 东)."""
    return "东南西北"[(seat - dealer) % 4]


def wind_name(seat: int, dealer: int, lang: str) -> str:
    return tr(lang, f"wind_{(seat - dealer) % 4}")
