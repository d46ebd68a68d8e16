"""The UI's one string table: every word the pages' Python shows, in 中文 and English.

The table, the learn page, the calculator and the embeds all look their words up here
with :func:`tr`, which fills ``{placeholders}`` (zh and en take the same ones; ``{s}``,
English's plural ending, is the one only English writes). The English UI keeps the
Chinese terms beside their explanation ("碰 Pung"), as players learn the game by its
Chinese names.

Words that belong to the game's data live with that data in the core: tile names
(:func:`sxmj.tiles.tile_name`), the scoring's patterns, 花 items and payment reasons
(``sxmj.messages.TERMS``), refusals (``sxmj.messages.MESSAGES``), rank titles
(:mod:`sxmj.ranks`), the scenarios' titles and coaching (:mod:`sxmj.scenarios`) and the
learn page's example hands (``sxmj.ui.lessons.EXAMPLE_LIST``). The pages' static prose is
their HTML; the ``boot_*`` keys are the loading screen's words, for index.html's boot
script, which runs before Python does.

A vocabulary the UI names is defined once and its words are keyed ``<prefix>_<value>``:
:data:`LANGS` here (``lang_zh``); speeds and animations in :mod:`sxmj.ui.store`
(``speed_fast``, ``anim_quick``); bot levels ``sxmj.bots.LEVELS`` (``level_hard``); meld
kinds ``sxmj.melds.MELD_KINDS`` (``act_angang``); ``sxmj.scoring.WIN_BY``
(``win_by_kong``); rule options :class:`sxmj.rules.Options` (``rule_fan_cap``,
``rule_fan_cap_note``). ``tests/test_strings.py`` checks each one.

>>> tr("en", "wall_left", n=83)
'83 tiles left'
>>> tr("zh", "bot_thinking", name="阿福")
'阿福思考中…'
>>> lang_of(" EN "), lang_of("fr")
('en', 'zh')
"""

from __future__ import annotations

import re

from ..tiles import tile_name

TILE_WORDS = (r"(?:\b[1-9](?:, [1-9])*(?:-[1-9])* (?:Characters?|Dots?|Bamboo)\b|"
              r"\b(?:East|South|West|North) Wind|\b(?:Red|Green|White) Dragon)")

LANGS = ("zh", "en")  # the page languages; zh is the default

# key: (中文, English)
STRINGS: dict[str, tuple[str, str]] = {
    # the page and its menu
    "title": ("绍兴麻将", "Shaoxing Mahjong"),
    "table": ("牌桌", "Table"),
    "menu": ("菜单", "Menu"),
    "lang_switch": ("English", "中文"),
    "lang_switch_label": ("切换到英文", "Switch to Chinese"),
    "lang_zh": ("中文", "中文"),  # each language by its own name, in both
    "lang_en": ("English", "English"),
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
    "level_expert": ("专家", "expert"),
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
    "flowers_count": ("花 {n}", "Flowers {n}"),
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
    "piao_badge": ("飘 · {name}", "飘 · {name}"),
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
    # how the winning tile came (sxmj.scoring.WIN_BY): the result, the calculator's select
    # and the result card's chips
    "win_by_draw": ("自摸", "自摸 self-draw"),
    "win_by_kong": ("杠后自摸", "自摸 on a kong replacement"),
    "win_by_flower": ("补花后自摸", "自摸 on a flower replacement"),
    "win_by_rob": ("抢杠", "抢杠 robbing a kong"),
    "win_by_rob_of": ("抢{name}的杠", "抢杠 robbing {name}'s kong"),
    "winning_hand": ("胡牌", "Winning hand"),
    "winning_tile": ("胡张", "winning tile"),
    "wild_as": ("当{tile}", "as {tile}"),
    "wild_free": ("任意", "any"),
    "exposed": ("明", "exposed"),
    "fan_title": ("番", "番 Fan"),
    "fan_total": ("共 {n} 番", "{n} 番 in all"),
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
    # ---- player comforts (issue 7): assist, why-not, settings, profile, records, keys
    "assist": ("助手", "Assist"),
    "assist_on": ("助手：开", "Assist: on"),
    "assist_off": ("助手：关", "Assist: off"),
    "assist_toggle": ("打开或关闭助手（A）", "Turn the assist on or off (A)"),
    "assist_show": ("显示助手", "Show the assist"),
    "assist_off_note": ("助手已关闭。按 A 或点这里打开。",
                        "The assist is off. Press A or tap here to turn it on."),
    "assist_suggest": ("建议", "Suggestion"),
    "assist_after": ("打出{tile}后", "After discarding {tile}"),
    "assist_now": ("你的手牌", "Your hand"),
    "assist_win": ("可以胡牌！", "You can win now!"),
    "assist_ready": ("听牌", "Ready (听牌)"),
    "assist_distance": ("离听牌还差 {n} 张", "{n} from ready"),
    "assist_waits": ("听 {k} 种，还剩 {n} 张", "waiting on {k} kinds, {n} still unseen"),
    "assist_waits_label": ("等的牌（下方数字：还没出现的张数）",
                           "Waiting on (the number: copies still unseen)"),
    "assist_live_n": ("还剩 {n} 张", "{n} live"),
    "assist_baotou": ("暴头听牌：摸到任何一张牌都能胡（财神作将），番数翻倍",
                      "暴头-ready: ANY tile you draw wins (the 财神 pairs with it), for double"),
    "assist_baotou_short": ("暴头听牌", "暴头-ready"),
    "assist_any": ("任何牌", "any tile"),
    "assist_wait_for": ("等其他人出牌", "The others are playing"),
    "assist_decide": ("轮到你决定", "Your decision"),
    "why_no_discard_win_tile": ("{name}打的{tile}正是你等的牌，"
                                "但绍兴麻将无放铳：只能自摸或抢杠。",
                                "{name}'s {tile} is one of your waits, but Shaoxing has no "
                                "discard wins (无放铳): you win only on your own draw (自摸) or "
                                "by robbing a kong (抢杠)."),
    "why_no_discard_win": ("绍兴麻将无放铳：别人打出的牌不能胡，只能自摸或抢杠。",
                           "Shaoxing has no discard wins (无放铳): you win only on your own "
                           "draw (自摸) or by robbing a kong (抢杠)."),
    "why_chi_left_only": ("只能吃上家（左边）打的牌；{name}不是你的上家。",
                          "You may 吃 chow only the discard of your left neighbour (上家); "
                          "{name} is not."),
    "why_cai_chi": ("财神不能用来吃。", "The 财神 can't be used to 吃 chow."),
    "why_cai_peng": ("财神不能用来碰：你只有一张{tile}。",
                     "The 财神 can't be used to 碰 pung: you hold only one {tile}."),
    "why_cai_gang": ("财神不能用来杠。", "The 财神 can't be used to 杠 kong."),
    "why_wall_gang": ("牌墙没有牌可补了，不能再杠。", "No tile is left to replace a kong."),
    "why_after_claim": ("吃碰之后要先打一张牌：这时不能杠也不能胡。",
                        "After a 吃/碰 you discard first: no kong or win now."),
    "why_baotou_required": ("有财必暴：手里有财神只能暴头胡。",
                            "有财必暴 rule: holding a 财神 you may win only by 暴头."),
    "why_over": ("本局已结束", "The hand is over"),
    "why_decide_claim": ("先决定：吃碰杠还是过", "Decide first: claim the tile or pass (过)"),
    "why_decide_rob": ("先决定：抢杠还是过", "Decide first: rob the kong or pass (过)"),
    "why_turn_of": ("现在是{name}的回合", "It is {name}'s turn"),
    "why_others_deciding": ("还没轮到你：其他人在决定要不要这张牌",
                            "Not your turn: the others are deciding on the tile"),
    "why_label": ("为什么不行？", "Why not?"),
    # menu additions
    "settings": ("设置", "Settings"),
    "settings_label": ("设置：底花、电脑、规则、速度、语言", "Settings: 底花, bots, rules, speed, "
                       "language"),
    "help": ("帮助", "Help"),
    "help_label": ("快捷键和帮助（?）", "Keys and help (?)"),
    "profile": ("档案", "Profile"),
    "profile_label": ("你的等级和战绩", "Your rank and stats"),
    "records": ("记录", "Records"),
    "keys": ("按键", "Keys"),
    "close": ("关闭", "Close"),
    "level_mixed": ("混合", "mixed"),
    # the rules badge
    "rules": ("规则", "Rules"),
    "rules_badge": ("底花 {base}", "Base {base} (底花)"),
    "rules_label": ("本场规则：{summary}", "This match's rules: {summary}"),
    "rules_next": ("下一场：{summary}", "Next match: {summary}"),
    "rules_default": ("标准规则", "standard rules"),
    "rule_base_flowers": ("底花", "底花 base flowers"),
    "rule_base_flowers_note": ("每份 = 2^番 × (底花 + 花)", "each share = 2^番 × (底花 + 花)"),
    "rule_flower_is_kong": ("杠花算杠开", "Flower win counts as 杠开"),
    "rule_flower_is_kong_note": ("补花后自摸算杠开", "a win on a flower replacement scores 杠开"),
    "rule_piao_blocks_claims": ("飘轮禁吃碰", "飘 round blocks claims"),
    "rule_piao_blocks_claims_note": ("有人打出财神后，其他人到他下一轮前不能吃碰杠",
                                     "after a 财神 discard, the others can't claim until the "
                                     "thrower's next turn"),
    "rule_baotou_required": ("有财必暴", "有财必暴"),
    "rule_baotou_required_note": ("手里有财神只能暴头胡", "holding a 财神 you may win only by "
                                  "暴头"),
    "rule_reserved_tiles": ("留牌", "Reserved tiles"),
    "rule_reserved_tiles_note": ("牌墙剩这么多张时臭庄", "the hand is drawn when this many tiles "
                                 "are left"),
    "rule_contract": ("承包（吃三包五）", "承包 contract (吃三包五)"),
    "rule_contract_note": ("同一家被吃碰三次就承包", "three claims from one player bind the "
                           "two in a contract"),
    "rule_fan_cap": ("番数封顶", "番 cap"),
    "rule_fan_cap_note": ("三番到底：最多算这么多番", "三番到底: 番 beyond this don't count"),
    "rule_on": ("开", "on"),
    "rule_off": ("关", "off"),
    "summary_fan_cap": ("{n} 番封顶", "{n} 番 cap"),
    "summary_reserved": ("留 {n} 张", "{n} reserved"),
    "summary_no_contract": ("不承包", "no 承包"),
    "summary_baotou_required": ("有财必暴", "有财必暴"),
    "summary_flower_not_kong": ("杠花不算杠开", "flower ≠ 杠开"),
    "summary_piao_free": ("飘轮可吃碰", "飘 round open"),
    # the settings sheet
    "set_game": ("牌桌", "Table"),
    "set_lang": ("语言", "Language"),
    "set_speed": ("电脑出牌速度", "Bots' pace"),
    "set_anim": ("动画", "Animations"),
    "anim_normal": ("正常", "normal"),
    "anim_quick": ("快速", "quick"),
    "anim_off": ("关闭", "off"),
    "set_assist": ("助手（听牌、建议）", "Assist (waits, suggestions)"),
    "set_bots": ("电脑水平", "Bot levels"),
    "set_rules": ("规则", "Rules"),
    "set_rules_note": ("规则改动从下一场比赛开始生效。", "A changed rule applies from the next "
                       "match."),
    "set_rules_pending": ("已改动，下一场生效：{summary}", "Changed, from the next match: "
                          "{summary}"),
    "set_new_match": ("用新规则开始新比赛", "Start a new match with these rules"),
    "set_rules_reset": ("恢复标准规则", "Back to the standard rules"),
    "set_saved": ("设置已保存在这台设备上。", "Settings are kept on this device."),
    "set_sound": ("声音", "Sound"),
    "set_sound_on": ("声音", "Sound"),
    "set_sound_on_note": ("关掉就静音：音效、报牌、提示音都不响（按 M 也可以）",
                          "Off mutes everything: effects, calls and chime (or press M)"),
    "set_volume": ("音量", "Volume"),
    "set_speech": ("报牌", "Spoken calls"),
    "set_speech_note": ("说出吃、碰、杠、胡、补花、飘；没有中文语音时用提示音代替",
                        "吃 碰 杠 胡 补花 飘 said aloud; a tone when the device has no voice"),
    "set_cues": ("轮到你时提示", "Turn cues"),
    "set_notify": ("系统通知（和朋友玩）", "System notification (friends room)"),
    "set_notify_note": ("页面在后台、轮到你时弹出系统通知；打开时浏览器会征求你的同意",
                        "When it's your turn and the page is in the background; the browser "
                        "asks for your permission when you turn it on"),
    "set_cues_note": ("提示音、手机振动；页面在后台时标题显示「轮到你了」",
                      "A chime, a vibration on phones, and the tab's title while it is hidden"),
    "sound_now_on": ("声音已打开", "Sound on"),
    "sound_now_off": ("已静音", "Sound off (muted)"),
    "turn_title": ("轮到你了", "Your turn"),
    # the calls spoken aloud (sxmj.ui.sound: speech:<word>), in the voice of the language
    "speak_chi": ("吃", "Chow"),
    "speak_peng": ("碰", "Pung"),
    "speak_gang": ("杠", "Kong"),
    "speak_hu": ("胡", "Mahjong"),
    "speak_buhua": ("补花", "Flower"),
    "speak_piao": ("飘", "Piao"),
    # profile
    "rank_title": ("等级", "Rank"),
    "rank_level": ("第 {n} 级 / 共 {of} 级", "level {n} of {of}"),
    "rank_points": ("积分 {n}", "{n} points"),
    "rank_next": ("再得 {n} 分升到 {title}", "{n} more points to {title}"),
    "rank_top": ("已经是最高等级！", "The highest rank!"),
    "stat_points": ("积分", "Rank points"),
    "stat_net": ("总输赢", "Net score"),
    "stat_hands": ("局数", "Hands"),
    "stat_wins": ("胡牌", "Wins"),
    "stat_rate": ("胡牌率", "Win rate"),
    "stat_best": ("最好的一局", "Best hand"),
    "stat_best_none": ("还没有胡过牌", "No win yet"),
    "stat_best_text": ("{gain} 分 · {patterns} · {fan} 番 · 局号 {seed} 第 {hand} 局",
                       "{gain} points · {patterns} · {fan} 番 · seed {seed}, hand {hand}"),
    "profile_note": ("积分累计你每局的得失（最低为 0），等级见规则页的等级表。场景练习不计分。",
                     "Rank points add up what you win and lose each hand (never below 0); the "
                     "titles are listed on the Rules page. Scenarios don't count."),
    # records
    "rec_export": ("导出本场记录（JSON）", "Export this match (JSON)"),
    "rec_export_note": ("记录包含局号、规则和每一步，可以完整重放。",
                        "The record holds the seed, the rules and every action: it replays "
                        "exactly."),
    "rec_import": ("导入记录并回放", "Import a record to replay"),
    "rec_import_note": ("选择一个 .json 记录文件，一步一步看。",
                        "Pick a .json record file and step through it."),
    "rec_link": ("复制牌局链接", "Copy the link to this deal"),
    "rec_link_note": ("打开这个链接会发出同样的牌（同一局号）。",
                      "The link deals the same tiles (the same seed)."),
    "rec_copied": ("链接已复制。", "Link copied."),
    "rec_copy_failed": ("无法自动复制，请手动复制上面的链接。",
                        "Couldn't copy automatically: copy the link above by hand."),
    "rec_exported": ("已导出 {name}", "Exported {name}"),
    "rec_bad": ("无法回放这个文件：{why}", "Can't replay this file: {why}"),
    # the replay viewer
    "viewer": ("回放", "Replay"),
    "viewer_step": ("第 {k} / {n} 步", "step {k} of {n}"),
    "viewer_start": ("开局", "the deal"),
    "viewer_first": ("回到开头（Home）", "To the start (Home)"),
    "viewer_back": ("上一步（←）", "Back one step (←)"),
    "viewer_fwd": ("下一步（→）", "Forward one step (→)"),
    "viewer_last": ("到最后（End）", "To the end (End)"),
    "viewer_close": ("退出回放，回到牌局（Esc）", "Leave the replay, back to your game (Esc)"),
    "viewer_exit": ("退出回放", "Exit replay"),
    "review_title": ("复盘", "复盘 Review"),
    "review_start": ("复盘", "Review"),
    "review_viewer": ("复盘这一局（到局末）", "Review this hand (goes to its end)"),
    "review_note": ("专家从你当时能看到的牌，重新推演这一局你的每个决定，找出失分的地方。",
                    "The expert replays each of your decisions in this hand from what you could "
                    "see then, and shows where points were lost."),
    "review_running": ("复盘中…", "Reviewing…"),
    "review_progress": ("复盘进度", "Review progress"),
    "review_cancel": ("取消复盘", "Cancel review"),
    "review_cancelled": ("复盘已取消。", "Review cancelled."),
    "review_failed": ("复盘没能完成。", "The review could not finish."),
    "review_move": ("第 {n} 步", "Move {n}"),
    "review_you": ("你：{move}", "You: {move}"),
    "review_better": ("更好：{move}", "Better: {move}"),
    "review_loss": ("约少得 {points} 分", "about {points} points lost"),
    "viewer_hand": ("第 {n} 局", "hand {n}"),
    # keys
    "keys_title": ("快捷键", "Keyboard"),
    "help_more": ("规则和算番", "Rules and scoring"),
    "help_learn": ("规则与例子", "规则 Rules, with examples"),
    "help_calc": ("算番器", "算番 Score calculator"),
    "help_saved": ("对局随时自动保存，看完规则回来接着打。",
                   "Your game is saved after every move: come back and play on."),
    "key_arrows": ("选择一张牌", "choose a tile"),
    "key_enter": ("打出选中的牌", "discard the chosen tile"),
    "key_hu": ("胡（自摸、抢杠）", "胡 win (self-draw, rob a kong)"),
    "key_chi": ("吃（有几种吃法时 C、V、B）", "吃 chow (C, V, B when there are several)"),
    "key_peng": ("碰", "碰 pung"),
    "key_gang": ("杠（几种时 G、F、T、R）", "杠 kong (G, F, T, R when there are several)"),
    "key_pass": ("过", "过 pass"),
    "key_piao": ("飘：确认打出财神", "飘: confirm throwing the 财神"),
    "key_next": ("下一局", "next hand"),
    "key_assist": ("打开或关闭助手", "assist on or off"),
    "key_mute": ("打开或关闭声音（静音）", "sound on or off (mute)"),
    "key_help": ("显示这个帮助", "show this help"),
    "key_close": ("关闭窗口", "close a window"),
    "key_viewer": ("回放时：上一步 / 下一步，Home / End 到头尾",
                   "in a replay: back / forward, Home / End to either end"),
    "keys_touch": ("手机上：点一张牌就打出；灰色的牌和按钮点一下会说明为什么不行。",
                   "On a phone: tap a tile to discard it; tap a greyed tile or button to see why "
                   "it isn't allowed."),
    # notices
    "notice_save": ("你保存的牌局无法继续（{why}），已开始新的一局。",
                    "Your saved game could not be resumed ({why}); a new game has started."),
    "notice_kept": ("你的档案和设置都保留着。", "Your profile and settings are kept."),
    "notice_profile": ("你的档案无法读取（{why}），已重新开始记录。",
                       "Your profile could not be read ({why}); it starts afresh."),
    "notice_settings": ("部分设置无法读取，已恢复默认。", "Some settings could not be read and "
                        "are back to their defaults."),
    "why_corrupt": ("数据损坏", "the data is damaged"),
    "why_old": ("来自旧版本", "it was saved by an older version"),
    "why_edited": ("数据被改动过", "it was edited by hand"),
    "why_invalid": ("记录不合规则", "the record breaks the rules"),
    "notice_ok": ("知道了", "OK"),
    "resumed": ("已恢复上次的牌局", "Your game was resumed"),
    # scenario mode
    "scenario_done": ("场景结束", "Scenario finished"),
    "scenario_again": ("再来一次", "Play it again"),
    "scenario_more": ("更多场景", "More scenarios"),
    "scenario_goal": ("目标：{goal}", "Goal: {goal}"),
    "scenario_free": ("离开场景，自由对局", "Leave the scenario: a free game"),
    # result explanations
    "formula_words": ("每家付 = 2^番 × (底花 + 花)", "each share = 2^番 × (底花 + 花)"),
    "pay_shares": ("{n} 份", "{n} share{s}"),
    "pay_summary_all": ("三家各付一份 {share}，{name}共收 {total}。",
                        "The three others pay one share of {share} each: {name} receives "
                        "{total}."),
    "pay_summary": ("{name}共收 {total}（{n} 份，每份 {share}）。",
                    "{name} receives {total} ({n} shares of {share})."),
    "pay_summary_all_you": ("三家各付你一份 {share}，你共收 {total}。",
                            "The three others pay you one share of {share} each: {total} in "
                            "all."),
    "pay_summary_you": ("你共收 {total}（{n} 份，每份 {share}）。",
                        "You receive {total} ({n} shares of {share})."),
    "ann_result": ("本局结束：{title}", "Hand over: {title}"),
    "rank_line": ("{title} · 积分 {points}（本局 {gain}）", "{title} · {points} points ({gain} "
                  "this hand)"),
    "rank_up": ("升级了！", "Rank up!"),
    # ---- the scenario coach (sxmj.ui.scenario_mode)
    "coach": ("教练", "Coach"),
    "coach_hint": ("提示：{what}", "Hint: {what}"),
    "coach_off": ("你没按提示走，这副牌可能到不了目标。", "You left the script; this deal may not "
                  "reach its goal now."),
    "coach_restart": ("重新开始", "Restart"),
    "coach_success": ("目标达成！{what}", "Goal reached! {what}"),
    "coach_failed": ("没有达成目标：{what}", "Goal not reached: {what}"),
    "coach_over": ("这一课结束了。", "This lesson is over."),
    "coach_won": ("胡了：{patterns}", "won with {patterns}"),
    "coach_won_plain": ("平胡", "a plain win"),
    "coach_nobody": ("没人胡（臭庄）", "nobody won (臭庄)"),
    "coach_other_won": ("{name}胡了", "{name} won"),
    "coach_unknown": ("没有这个场景：{name}", "No such scenario: {name}"),
    "coach_known": ("可选：{names}", "Known: {names}"),
    # ==== the learn page, the calculator and the embeds (sxmj.ui.cards, calc, lessons, embed)
    # ---- a hand's result card (sxmj.ui.cards)
    "verdict_win": ("胡牌", "胡 Win"),
    "verdict_no": ("不是胡牌", "Not a win"),
    "verdict_ready": ("听牌", "听 Ready"),
    "verdict_baotou_ready": ("暴头听牌：摸什么都胡", "暴头-ready: any tile wins"),
    "verdict_not_ready": ("还没听牌", "Not ready yet"),
    "verdict_invalid": ("输入有误", "Check the input"),
    "verdict_incomplete": ("继续输入", "Keep entering tiles"),
    "fan_hua_share": ("{fan} 番 · {hua} 花 · 每家 {share}", "{fan} 番 · {hua} 花 · share {share}"),
    "reading": ("胡牌的组合", "The winning reading"),
    "pays_each": ("其他三家各付 {share}，胡家共得 {total}。",
                  "Each of the other three pays {share}; the winner receives {total}."),
    "pays_rob": ("被抢杠的一家独付三份：{total}，其他两家不付。",
                 "The robbed player alone pays all three shares: {total}; the others pay "
                 "nothing."),
    "drawn": ("摸到", "drawn"),  # the winning tile, set apart
    "robbed": ("抢到", "robbed"),
    "flower_tiles": ("花牌", "Flowers"),
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
    "open_calc": ("在算番器中打开", "Open in the calculator"),
    # ---- the calculator (sxmj.ui.calc); its inputs are labelled field_<request field>
    "preview": ("你的牌（点一张可移除）", "Your tiles (click one to remove it)"),
    "calc_to": ("点牌放入", "Tiles go to"),
    "to_hand": ("手牌", "Hand"),
    "to_meld": ("吃碰杠", "Meld"),
    "to_flowers": ("花牌", "Flowers"),
    "to_caishen": ("财神", "财神"),
    "to_win_tile": ("胡张", "Winning tile"),
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
    "rule_options": ("规则选项", "Rule options"),
    "clear": ("清空", "Clear"),
    "undo": ("退一张", "Undo"),
    "example": ("例子…", "Examples…"),
    "palette": ("牌", "Tiles"),
    "remove_tile": ("点一下移除{tile}", "Click to remove {tile}"),
    "add_tile": ("加入{tile}", "Add {tile}"),
    # a note on the last click (CalcState.message "<code>" or "<code>:<tile>")
    "calc_note_flower_to_flowers": ("花牌不能留在手里，已放入花牌。",
                                    "A flower tile is never kept in a hand: it went to the "
                                    "flowers."),
    "calc_note_chi_bad": ("{tile}开头凑不成顺子（吃只能是同一花色的 1–7 开头）",
                          "No chow starts at {tile} (a chi starts at 1–7 of a suit)"),
    "calc_note_meld_caishen": ("财神不能吃碰杠", "The 财神 can't be used in a meld"),
    "calc_note_meld_flower": ("花牌不能吃碰杠", "A flower tile can't be in a meld"),
    "calc_note_caishen_flower": ("财神只能是数牌或风牌", "The 财神 is a suited tile or a wind"),
    "calc_note_too_many": ("已经有 4 张{tile}了", "All four {tile} are already used"),
    "calc_note_too_many_flower": ("每张花牌只有一张", "There is only one of each flower tile"),
    "calc_note_hand_full": ("手牌已满（胡牌 14 张，杠算 3 张）",
                            "The hand is full (14 tiles, a kong counts 3)"),
    "calc_note_win_flower": ("花牌不能是胡张", "A flower tile can't be the winning tile"),
    # ---- the learn page's live tables (sxmj.ui.lessons)
    "example_label": ("例", "Example"),
    "scenario_play": ("练习", "Practise"),
    "indicator_to_caishen": ("翻{ind}，财神是{cai}", "{ind} turned up → 财神 {cai}"),
    "gallery_m": ("万（一万到九万）", "万 Characters"),
    "gallery_p": ("筒（一筒到九筒）", "筒 Dots"),
    "gallery_s": ("索（一索到九索）", "索 Bamboo"),
    "gallery_winds": ("风：东南西北", "风 Winds: 东南西北"),
    "gallery_dragons": ("中发白：花牌", "中发白 dragons: flower tiles"),
    "gallery_flowers": ("花：春夏秋冬梅兰竹菊", "花 Flowers"),
    "col_pattern": ("番型", "Pattern"),
    "col_what": ("说明", "What"),
    "col_fan": ("番", "番"),
    "col_item": ("花", "花 item"),
    "col_each": ("每个", "each"),
    "pay_case": ("情况", "Case"),
    "pay_winner": ("胡家", "Winner"),
    "pay_seat": ("{n} 家", "Player {n}"),
    "pay_caption": ("每家一份 = {share}（暴头例子）", "One share = {share} (the 暴头 example)"),
    "pay_case_share": ("平常", "Usual"),
    "pay_case_rob": ("抢杠：被抢的是 3 家", "抢杠: player 3 was robbed"),
    "pay_case_piao": ("飘：2 家有飘，别人胡了", "飘 penalty: player 2 had 飘 when 0 won"),
    "pay_case_contract3": ("承包：胡家吃碰了 3 家三次",
                           "承包: the winner claimed player 3's discards 3 times"),
    "pay_case_contract5": ("承包：1 家吃碰了胡家三次",
                           "承包: player 1 claimed the winner's discards 3 times"),
    "option": ("选项", "Option"),
    "default": ("默认", "Default"),
    "meaning": ("含义", "Meaning"),
    # ---- embeds (sxmj.ui.embed)
    "embed_error_title": ("嵌入参数有误", "This embed's parameters are wrong"),
    "embed_modes": ("模式", "Modes"),
    "embed_mode_required": ("必须填写：hand、calc、scenario 或 play",
                            "is required: hand, calc, scenario or play"),
    "embed_mode_unknown": ("不认识的模式 {value}（hand、calc、scenario、play）",
                           "unknown mode '{value}' (hand, calc, scenario, play)"),
    "embed_name_required": ("必须填写：场景的名字，如 baotou",
                            "is required: a scenario name, e.g. baotou"),
    "embed_name_unknown": ("没有叫 {name} 的场景（有：{known}）",
                           "unknown scenario '{name}' (known: {known})"),
    "embed_seed_required": ("必须填写：一个整数，如 42", "is required: a whole number, e.g. 42"),
    "embed_seed_bad": ("要填 0 到 {most} 之间的整数，这里是 {text}",
                       "must be a whole number from 0 to {most}, got '{text}'"),
    "embed_param_unknown": ("不认识的参数（可用：{known}）", "unknown parameter (known: {known})"),
    # ---- URL parameters a page did not use (sxmj.ui.page.refusals_html), on every page
    "param_notice": ("这个链接里有参数没有用上：", "Part of this link was not used:"),
    "param_unknown": ("{name}：本页没有这个参数，已忽略",
                      "{name}: this page has no such parameter; ignored"),
    "param_bad": ("{name}={value}：不能用（可以是 {expected}），已按默认",
                  "{name}={value}: not a value it takes ({expected}); the default is used"),
    "param_long": ("{name}：太长（最多 {most} 个字符），已忽略",
                   "{name}: too long (at most {most} characters); ignored"),
    "param_more": ("还有 {n} 个", "and {n} more"),
    "param_dismiss": ("关闭这条提示", "Dismiss this notice"),
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
    # ==== the table as players expect it (issue 20): sxmj/ui/touch, ending, summary,
    # overlay, welcome
    "set_tap": ("出牌方式", "Discarding a tile"),
    "tap_auto": ("自动：触屏点两下，鼠标点一下", "Auto: two taps on touch, one click with a mouse"),
    "tap_one": ("点一下就打出", "One tap discards"),
    "tap_two": ("点两下：第一下抬起", "Two taps: the first raises the tile"),
    "raised_again": ("再点一下打出{tile}", "Tap again to discard {tile}"),
    "raised_waits": ("打后听 {tiles}（还剩 {n} 张）", "then waiting on {tiles} ({n} still unseen)"),
    "raised_any": ("打后暴头听：摸到什么都胡", "then 暴头-ready: any tile wins"),
    "raised_distance": ("打后离听牌还差 {n} 张", "then {n} from ready"),
    "call_zimo": ("自摸", "自摸"),
    "call_kong": ("杠开", "杠开"),
    "call_flower": ("杠开", "杠开"),
    "call_rob": ("抢杠", "抢杠"),
    "call_draw": ("臭庄", "臭庄"),
    "call_open": ("点一下看结算", "tap to see the result"),
    "reveal_title": ("四家的牌", "Everyone's hand"),
    "reveal_won": ("胡", "胡 won"),
    "reveal_row": ("{name}：{tiles}", "{name}: {tiles}"),
    "recap_waits": ("你听：{tiles}", "You were waiting on: {tiles}"),
    "recap_any": ("你暴头听：摸到什么都能胡", "You were 暴头-ready: any tile would have won"),
    "recap_distance": ("你未听牌：还差 {n} 张", "Not ready: {n} tile{s} away"),
    "view_table": ("看牌桌", "View table"),
    "hand_open_label": ("{name}的手牌（亮牌）", "{name}'s hand, laid open"),
    "view_result": ("返回结算", "Back to the result"),
    "confirm_title": ("开始新比赛？", "Start a new match?"),
    "confirm_what": ("这场比赛（第 {hand} 局{of}，你 {score} 分）就此结束；打完的局已记入档案。",
                     "The match in play (hand {hand}{of}, you {score}) ends here; its finished "
                     "hands stay in your profile."),
    "confirm_of": ("，共 {n} 局", " of {n}"),
    "confirm_scenario": ("离开这个练习场景，开始一场新比赛。",
                         "Leave this scenario for a new match."),
    "confirm_keep": ("继续这场", "Keep playing"),
    "confirm_new": ("开始新比赛", "Start a new match"),
    "undo_text": ("新比赛开始了。", "A new match has begun."),
    "undo_new_match": ("撤销", "Undo"),
    "rule_match_hands": ("每场局数", "Hands per match"),
    "rule_match_hands_note": ("打满这么多局，比赛结束并排名次（0 = 不限）",
                              "the match ends, with places, after this many hands (0: endless)"),
    "match_endless": ("不限", "endless"),
    "summary_match_hands": ("{n} 局一场", "{n}-hand match"),
    "summary_endless": ("不限局数", "endless match"),
    "hand_no_of": ("第 {n}/{of} 局", "Hand {n}/{of}"),
    "match_kicker": ("{n} 局打完", "{n} hand{s} played"),
    "match_title": ("比赛结束", "Match over"),
    "match_you": ("你第 {n} 名 · {score} 分", "You placed #{n} · {score}"),
    "match_place": ("第 {n}", "#{n}"),
    "match_col_place": ("名次", "Place"),
    "match_col_wins": ("胡", "Wins"),
    "match_col_fan": ("番", "番"),
    "match_col_hua": ("花", "花"),
    "match_col_score": ("得分", "Score"),
    "match_best": ("最好的一局", "Best hand"),
    "match_best_none": ("这场没有人胡牌", "Nobody won a hand"),
    "match_best_text": ("第 {hand} 局 {name} +{gain}：{patterns}，{fan} 番",
                        "hand {hand}: {name} +{gain} — {patterns}, {fan} 番"),
    "match_rank": ("本场 +{won} 积分，累计 {n}", "+{won} rank points this match, {n} in all"),
    "match_export": ("导出记录", "Export the record"),
    "match_again": ("再来一场", "New match"),
    "stat_matches": ("比赛", "Matches"),
    "stat_places": ("名次（第一/二/三/四）", "Places (1st/2nd/3rd/4th)"),
    "welcome_title": ("欢迎来到绍兴麻将", "Welcome to Shaoxing Mahjong"),
    "welcome_lead": ("你和三个电脑对手打一场绍兴麻将。开局前先看三件事：",
                     "You play a match against three bots. Three things before you start:"),
    "welcome_seat": ("你坐在下方（{wind}）；{right}在右，{across}在对面，{left}在左。",
                     "You sit at the bottom ({wind}); {right} is on your right, {across} "
                     "across and {left} on your left."),
    "welcome_deals": ("这一局{name}坐庄，先出牌。", "{name} deals this hand (庄) and plays first."),
    "welcome_you_deal": ("这一局你坐庄（庄），先出牌。", "You deal this hand (庄) and play first."),
    "welcome_cai": ("这一局的财神是{tile}（翻出的{indicator}的下一张）。财神能当任何一张牌用，"
                    "是最宝贵的牌：留在手里，它总在最左边，有金框和“财”字。",
                    "This hand's 财神 is {tile}, the tile after the indicator {indicator}. "
                    "It stands in for any tile, the most precious tile you can hold: keep "
                    "it. It sits far left in your hand, with a gold frame and a 财 badge."),
    "welcome_zimo": ("只能自摸胡：别人打出的牌不能胡（无放铳），胡牌的那张必须是你自己摸的。",
                     "Only a tile you draw yourself wins (自摸): nobody wins on a discard "
                     "(无放铳)."),
    "welcome_rules": ("规则", "规则 Rules"),
    "welcome_scenarios": ("练习场景", "Practice scenarios"),
    "welcome_hide": ("下次不再显示", "Don't show this again"),
    "friends": ("和朋友玩", "Play with friends"),
    "friends_label": ("开一个房间，把链接发给朋友，四个人一起打",
                      "Open a room and send friends the link: four at one table"),
    "friends_title": ("和朋友玩", "Play with friends"),
    "friends_invite": ("把这个链接发给朋友（它带着房间的暗号）：",
                       "Send this link to your friends (it carries the room's secret):"),
    "friends_copy": ("复制链接", "Copy link"),
    "friends_copied": ("已复制", "Copied"),
    "friends_qr": ("用手机扫码加入", "Scan to join on a phone"),
    "friends_level": ("空座由机器人打：", "Empty seats are played by bots:"),
    "friends_timer": ("每步限时（秒）：", "Seconds per decision:"),
    "friends_start": ("开始比赛", "Start the match"),
    "friends_cancel": ("关闭房间", "Close the room"),
    "friends_seat_host": ("房主", "host"),
    "friends_host_name": ("房主", "Host"),
    "friends_seat_free": ("空座 · 机器人", "free · bot"),
    "friends_seat_guest": ("已入座", "seated"),
    "friends_seat_away": ("重新连接中…", "reconnecting…"),
    "friends_connecting": ("正在连接房间…", "Connecting to the room…"),
    "friends_name": ("你的名字", "Your name"),
    "friends_pick": ("选一个空座：", "Pick a free seat:"),
    "friends_sit": ("坐{wind}位", "Sit at {wind}"),
    "friends_waiting": ("已入座。等房主开始比赛…",
                        "You're seated. Waiting for the host to start…"),
    "friends_full": ("房间已经开始，或者没有空座了。",
                     "The room has started, or no seat is free."),
    "friends_wrong": ("链接不对（暗号不符），进不了这个房间。",
                      "This link's secret is wrong: you can't enter the room."),
    "friends_host_gone": ("房主离开了，房间已经关闭。你可以导出到此为止的记录。",
                          "The host has left and the room is closed. "
                          "You can export the record so far."),
    "friends_reconnecting": ("{name} 掉线了，机器人暂时替他打",
                             "{name} dropped out: a bot plays for them meanwhile"),
    "friends_back": ("{name} 回来了", "{name} is back"),
    "friends_timeout": ("{name} 超时，机器人替他出了这一步",
                        "{name} ran out of time: a bot made that move"),
    "friends_refused": ("房主没有接受这个动作：{why}",
                        "The host refused that move: {why}"),
    "friends_no_broker": ("连不上牵线服务器（{detail}）。"
                          "检查网络，或用 ?broker= 指定自己的服务器。",
                          "Can't reach the broker ({detail}). Check the connection, "
                          "or point ?broker= at your own."),
    "friends_ready_wait": ("等其他玩家点下一局…",
                           "Waiting for the others to be ready…"),
    "friends_say": ("说一句", "Say"),
    "friends_timer_label": ("这一步还剩的秒数", "Seconds left for this decision"),
    "friends_timer_left": ("⏱ {n} 秒", "⏱ {n} s"),
    "friends_export": ("导出记录", "Export the record"),
    "phrase_hello": ("大家好！", "Hello!"),
    "phrase_nice": ("好牌！", "Nice hand!"),
    "phrase_thanks": ("谢谢", "Thanks"),
    "phrase_hurry": ("快点吧～", "Hurry up~"),
    "phrase_oops": ("哎呀", "Oops"),
    "phrase_gg": ("打得好", "Good game"),
    "welcome_ok": ("开始打牌", "Let's play"),
    "help_scenarios": ("练习场景", "Practice scenarios"),
    "help_intro": ("第一次玩？先看规则和例子，再在练习场景里一步步打几手：暴头、杠开、抢杠……",
                   "New to the game? Read the rules with examples, then play a few guided "
                   "scenarios step by step: 暴头, 杠开, 抢杠…"),
    # ==== index.html's loading screen: its boot script shows these before Python starts
    # (the build writes them into the script)
    "boot_download": ("正在下载运行时…", "Downloading runtime…"),
    "boot_start": ("正在启动 Python…", "Starting Python…"),
    "boot_prepare": ("正在准备牌桌…", "Preparing the table…"),
    "boot_ready": ("准备就绪", "Ready"),
    "boot_failed": ("启动失败", "Could not start"),
    "boot_error": ("游戏没能启动。请重试；如果仍然失败，请报告下面的错误信息。",
                   "The game could not start. Retry; if it fails again, please report the error "
                   "below."),
    "boot_slow": ("加载时间比预期长。可以继续等待，或重试。",
                  "This is taking longer than expected. Keep waiting, or retry."),
}



def tr(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang`` ('zh' or 'en'), with ``{placeholders}`` filled."""
    zh, en = STRINGS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def lang_of(value: str | None) -> str:
    """A ``?lang=`` value → one of :data:`LANGS` (zh for anything else)."""
    v = (value or "").strip().lower()
    return v if v in LANGS else "zh"


NBSP = "\u00a0"  # English tile names never break across lines: 9 Bamboo (九索) is one piece


def tile_label(t: int, lang: str) -> str:
    """A tile's name for people: 五万 / 5 Characters (五万), in one piece (no line break)."""
    zh = tile_name(t, "zh")
    return zh if lang == "zh" else f"{tile_name(t, 'en')} ({zh})".replace(" ", NBSP)


def unbroken(text: str) -> str:
    """``text`` with the English tile names in it kept whole (9 Bamboo, East Wind)."""
    return re.sub(TILE_WORDS, lambda m: m.group(0).replace(" ", NBSP), text)


def tiles_words(tiles, lang: str) -> str:
    """Tiles named as players say them, never in notation: a run or set of one suit as
    七八九索 / 7-8-9 Bamboo, anything else name by name (五万、东风 / 5 Characters, East Wind).

    >>> tiles_words([24, 25, 26], "zh"), tiles_words([24, 25, 26], "en")
    ('七八九索', '7-8-9\xa0Bamboo')
    >>> tiles_words([4, 27], "en")
    '5\xa0Characters, East\xa0Wind'
    """
    tiles = list(tiles)
    suits = {t // 9 for t in tiles}
    if len(tiles) > 1 and len(suits) == 1 and max(tiles) < 27:
        names = [tile_name(t, lang) for t in tiles]
        if lang == "zh":
            return "".join(n[:-1] for n in names) + names[0][-1]
        suit = tile_name(tiles[0] // 9 * 9 + 8, "en").split(" ", 1)[1]  # the plural name
        return "-".join(n.split(" ", 1)[0] for n in names) + NBSP + suit
    return ("、" if lang == "zh" else ", ").join(
        tile_name(t, lang).replace(" ", NBSP) for t in tiles)


def seat_name(seat: int, lang: str) -> str:
    """Seat 0 is the player; 1–3 are the bots to the right, across and left."""
    return tr(lang, "you") if seat == 0 else tr(lang, f"name_{seat}")


def wind_char(seat: int, dealer: int) -> str:
    """The seat wind (东南西北), counted from the dealer (always 东)."""
    return "东南西北"[(seat - dealer) % 4]


def wind_name(seat: int, dealer: int, lang: str) -> str:
    return tr(lang, f"wind_{(seat - dealer) % 4}")
