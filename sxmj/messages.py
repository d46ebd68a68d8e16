"""Every refusal the core gives, as a stable code with its text in 中文 and English.

A refusal is a :class:`CoreError`: ``code`` never changes between releases,
``field`` names the input at fault, and ``params`` fill the text. The command
line prints ``str(err)`` (English) or ``err.text("zh")``; the pages print
``err.text(lang)``; nothing ever translates an English message back.

>>> e = CoreError("hand.copies", "hand", limit=4, tile="5m")
>>> str(e)
'hand: more than 4 copies of 5m'
>>> e.text("zh")
'手牌：5m（五万）超过了 4 张'
>>> e.code, e.params["tile"]
('hand.copies', '5m')
"""

from __future__ import annotations

from typing import Any

from .notation import Unreadable, name, read

# code: (中文, English). Parameters in braces; a parameter named ``tile…`` is a tile
# code, shown with its Chinese name in zh; ``tname…`` a tile index, shown by its name
# in the reader's language (五筒, 5 Dots); ``claim`` a meld kind, shown as 吃/碰/杠.
MESSAGES: dict[str, tuple[str, str]] = {
    # -- tiles and notation
    "tile.text": ("要用牌的写法，如 123m55z（收到 {value}）",
                  "expected tiles written like '123m55z', got {value}"),
    "tile.letter": ("不认识的字母 {letter}（花色写 m p s z f）",
                    "unknown tile letter {letter!r} in {text!r}"),
    "tile.no_digits": ("花色字母 {letter} 前面缺少数字",
                       "suit letter {letter!r} without digits in {text!r}"),
    "tile.unknown": ("没有 {tile} 这张牌（万 1m–9m、筒 1p–9p、索 1s–9s、风 1z–4z、中发白 5z–7z、"
                     "花 1f–8f）", "unknown tile {tile} in {text!r}"),
    "tile.dangling": ("数字 {digits} 后面缺少花色字母（m p s z f）",
                      "digits {digits!r} without a suit letter in {text!r}"),
    "tile.one": ("只能填一张牌（收到 {value}）", "expected one tile, got {value}"),
    "tile.index": ("没有编号为 {value} 的牌", "no tile with index {value}"),
    # -- request shape
    "input.object": ("要一个 JSON 对象，收到 {value}", "expected a JSON object, got {value}"),
    "input.not_json": ("不是 JSON：第 {line} 行第 {column} 列 {detail}",
                       "not JSON: {detail} at line {line} column {column}"),
    "input.encoding": ("不是 UTF-8 文本（第 {position} 个字节）",
                       "not UTF-8 text (byte {position})"),
    "input.too_deep": ("嵌套太深，最多 {limit} 层", "nested too deeply (at most {limit} levels)"),
    "input.too_large": ("输入太大，最多 {limit} MB", "the input is too large (at most {limit} MB)"),
    "input.number_too_long": ("数字太长", "a number has too many digits"),
    "input.unreadable": ("读不了输入：{detail}", "can't read the input: {detail}"),
    "input.duplicate_key": ("同一个对象里 {name} 写了两次", "the key {name!r} is given twice "
                            "in one object"),
    "field.unknown": ("不认识的字段（可用：{known}）", "unknown field (known: {known})"),
    "field.required": ("必须填写", "is required"),
    "field.flag": ("只能是 1 或 0（收到 {value}）", "must be 1 or 0 (true or false), got {value}"),
    "field.unknown_param": ("不认识的参数（可用：{known}）", "unknown parameter (known: {known})"),
    "field.bool": ("要填 true 或 false，收到 {value}", "must be true or false, got {value}"),
    "field.count": ("要填 0 或更大的整数，收到 {value}", "must be a whole number ≥ 0, got {value}"),
    "field.list": ("要一个列表，收到 {value}", "expected a list, got {value}"),
    "field.seat": ("座位要填 0–3，收到 {value}", "must be a seat 0–3, got {value}"),
    "field.choice": ("不认识的 {value}（可用：{known}）", "unknown {value} (use {known})"),
    "field.win_by": ("不认识的胡法 {value}（draw 自摸、kong 杠开、flower 补花、rob 抢杠）",
                     "unknown win_by {value} (use draw, kong, flower, rob)"),
    "field.too_long": ("太长（最多 {limit} 个字符）", "too long (at most {limit} characters)"),
    # -- command-line arguments (python3 -m sxmj …)
    "arg.whole": ("要一个整数，收到 {value}", "expected a whole number, got {value}"),
    "arg.range": ("要在 {low} 到 {high} 之间，收到 {value}",
                  "must be {low}–{high}, got {value}"),
    "arg.base": ("底花只能是 5、10、15、20 或 25，收到 {value}",
                 "底花 must be one of 5, 10, 15, 20, 25, got {value}"),
    "arg.levels": ("要一个等级，或用逗号分开的四个（{known}），收到 {value}",
                   "give one level or four, comma-separated, from {known}; got {value}"),
    "arg.hand": ("记录只有 {count} 局（从 0 数起），收到 {value}",
                 "the record has {count} hands (numbered from 0), got {value}"),
    "arg.expected_one": ("缺少它的值", "expected one argument"),
    "arg.choice": ("不认识 {value}，可选：{known}",
                   "invalid choice: {value} (choose from {known})"),
    "arg.required": ("缺少参数：{names}", "the following arguments are required: {names}"),
    "arg.unrecognized": ("不认识的参数：{names}", "unrecognized arguments: {names}"),
    "arg.usage": ("{detail}（--help 列出所有参数）", "{detail} (--help lists the arguments)"),
    # -- rule options
    "option.object": ("要一个规则选项对象，收到 {value}",
                      "expected an object of rule options, got {value}"),
    "option.unknown": ("不认识的规则选项 {name}（可用：{known}）",
                       "unknown rule option {name!r} (known: {known})"),
    "option.bool": ("{name} 要填 true 或 false，收到 {value}",
                    "{name} must be true or false, got {value}"),
    "option.int": ("{name} 要填整数，收到 {value}", "{name} must be a whole number, got {value}"),
    "option.base": ("底花只能是 5、10、15、20 或 25，收到 {value}",
                    "base_flowers must be one of (5, 10, 15, 20, 25), got {value}"),
    "option.range": ("{name} 要在 {low} 到 {high} 之间，收到 {value}",
                     "{name} must be {low}–{high}, got {value}"),
    # -- melds
    "meld.text": ("吃碰杠要写成 “peng 222z” 这样，收到 {value}",
                  "a meld is written like 'peng 222z', got {value}"),
    "meld.list": ("要一个列表，如 [\"peng 222z\"]，收到 {value}",
                  "expected a list like [\"peng 222z\"], got {value}"),
    "meld.kind": ("不认识的吃碰杠类型 {kind}（{known}）",
                  "unknown meld kind {kind!r} in {text!r} (use {known})"),
    "meld.flower": ("{tile}是花牌，不能吃碰杠", "{tile} is a flower tile and can't be in a meld"),
    "meld.caishen": ("{tile}是财神，不能用来吃碰杠",
                     "{tile} is the 财神 and can't be used to chi, peng or kong"),
    "meld.size": ("{kind} 要 {size} 张牌，收到 {count} 张（{text}）",
                  "{kind} takes {size} tiles, got {count} in {text!r}"),
    "meld.chi": ("吃要同一花色连续的三张（收到 {text}）",
                 "chi needs three consecutive tiles of one suit, got {text!r}"),
    "meld.equal": ("{kind} 要 {size} 张相同的牌（收到 {text}）",
                   "{kind} needs {size} equal tiles, got {text!r}"),
    # -- a hand to judge
    "hand.caishen_flower": ("{tile}是花牌；财神只能是数牌或风牌",
                            "{tile} is a flower tile; the 财神 is always a suited tile "
                            "or a wind"),
    "hand.flower_in_hand": ("{tile}是花牌，要亮出来补花，不能留在手里",
                            "{tile} is a flower tile and is laid open, never kept in a hand"),
    "hand.not_flower": ("{tile}不是花牌（花牌是中发白和春夏秋冬梅兰竹菊）",
                        "{tile} is not a flower tile"),
    "hand.win_tile_flower": ("{tile}是花牌，不能是胡张", "{tile} is a flower tile"),
    "hand.win_tile_missing": ("胡张{tile}不在手牌里（{hand}）",
                              "{tile} is not in the hand {hand}"),
    "hand.size": ("手牌 {count} 张加 {melds} 组吃碰杠共 {size} 张；胡牌要 14 张（杠算 3 张）",
                  "{count} tiles in hand and {melds} melds make {size}, a winning hand has 14 "
                  "(kongs count 3)"),
    "hand.size13": ("手牌 {count} 张加 {melds} 组吃碰杠共 {size} 张；听牌要 13 张（杠算 3 张）",
                    "{count} tiles in hand and {melds} melds make {size}, a hand waiting for "
                    "its last tile has 13 (kongs count 3)"),
    "hand.copies": ("{tile}超过了 {limit} 张", "more than {limit} copies of {tile}"),
    "hand.rob_caishen": ("财神不能被抢杠：财神从来不开杠",
                         "the 财神 {tile} can never be robbed: it is never konged"),
    "hand.rob_copies": ("抢杠的手里只能有一张 {tile}（另外三张在被加杠的碰里），收到 {count} 张",
                        "a robbing hand holds exactly one {tile} (the other three are in the "
                        "pung being konged), got {count}"),
    "hand.replacements": ("连续补牌 {value} 次，但只有 {limit} 个杠或花能补牌",
                          "{value} replacements, but only {limit} kongs or flowers could "
                          "have made them"),
    "hand.replacements_win_by": ("胡法是 {win_by} 时没有补牌，连续补牌要填 0",
                                 "a {win_by} win has no replacement tile: replacements must "
                                 "be 0"),
    "hand.replacement_source": ("胡法 {win_by} 要先有杠或花：杠开要有开杠，花开要有亮出的花",
                                "a {win_by} win needs what made its replacement tile: a kong "
                                "laid down for kong, a flower laid open for flower"),
    "hand.first_turn_kong": ("天胡、地胡是起手牌或第一摸胡的，先开了杠就不是第一回合了",
                             "天胡 and 地胡 are won on the dealt hand or the first draw: a "
                             "kong win is past the first turn"),
    "hand.first_turn_melds": ("天胡、地胡是起手牌或第一摸胡的，"
                              "手上不会有已经亮出的副露（收到 {count} 副）",
                              "天胡 and 地胡 are won on the dealt hand or the first draw: no set "
                              "can be laid down yet (got {count} melds)"),
    "hand.first_turn_piao": ("天胡、地胡之前还没有打过牌，飘不了财神（飘 {value}）",
                             "天胡 and 地胡 come before the winner's first discard: no 财神 can "
                             "have been discarded (piao {value})"),
    "hand.piao_copies": ("飘了 {value} 张 {tile}，手上还有 {held} 张，超过了四张",
                         "{value} discarded {tile} (piao) and {held} in the hand make more "
                         "than four"),
    "hand.robbed_self": ("胡牌者不能抢自己的杠", "the winner can't rob their own kong"),
    "hand.robbed_needed": ("抢杠胡要写被抢的座位", "a 抢杠 win needs the robbed seat"),
    "hand.robbed_only": ("只有抢杠胡才有被抢的座位（胡法 {win_by}）",
                         "only a rob win has a robbed seat (win_by {win_by})"),
    "hand.piao_twice": ("座位 {seat} 写了两次", "seat {seat} is given twice"),
    "hand.claims": ("要一个 4×4 的次数矩阵（0 或更大）", "expected a 4×4 matrix of counts ≥ 0"),
    "hand.claims_impossible": ("座位 {seat} 不能吃碰自己打的牌（写了 {own} 次），"
                               "一局最多吃碰杠 4 次（写了 {total} 次）",
                               "seat {seat} can't claim its own discards (got {own}) and claims "
                               "at most 4 times in a hand, one per set (got {total})"),
    "hand.table": ("要一个对象，含 winner、robbed、piao、claims",
                   "expected an object with winner, robbed, piao, claims"),
    # -- why a hand is not a win (Evaluation.reason)
    "nowin.shape": ("不是胡牌：没有凑成四组牌加一对将",
                    "not a winning hand: it is not four sets and a pair"),
    "nowin.baotou_required": ("有财必暴：手有财神只能暴头胡",
                              "有财必暴: holding a 财神, you may only win by 暴头"),
    "nowin.rob_pair": ("不能抢杠：被抢的{tname}只能做将",
                       "抢杠 not allowed: the robbed {tname} would only make the pair "
                       "(no 暴头 or 单吊 by robbing)"),
    "nowin.rob_quanfeng": ("不能抢杠：全风不成副时抢不了杠，被抢的牌要在一副吃或刻里",
                           "抢杠 not allowed: a 全风 hand without sets can't rob (the robbed "
                           "tile must sit in a chow or pung)"),
    "nowin.rob_baotou_required": ("有财必暴：手有财神只能暴头胡，而抢杠从来不是暴头",
                                  "有财必暴: holding a 财神 you may only win by 暴头, and "
                                  "robbing a kong is never 暴头"),
    # -- actions at the table
    "action.text": ("不是一个动作：{text}（例如 “0 discard 5m”）",
                    "not an action: {text!r} (expected e.g. '0 discard 5m')"),
    "action.no_tile": ("{kind} 不带牌：{text}", "{kind} takes no tile: {text!r}"),
    "action.needs_tile": ("{kind} 要带一张牌：{text}", "{kind} needs a tile: {text!r}"),
    "action.chi_tiles": ("吃要写出三张牌：{text}", "chi needs its three tiles: {text!r}"),
    "action.one_tile": ("{kind} 只带一张牌：{text}", "{kind} takes one tile: {text!r}"),
    "action.over": ("这一局已经结束", "the hand is over"),
    "action.not_your_turn": ("现在轮到 {seat} 号位", "it is seat {seat}'s turn"),
    "action.nothing": ("{seat} 号位现在没有要做的决定", "seat {seat} has nothing to decide now"),
    "action.no_discard_win": ("绍兴麻将不能胡别人打出的牌（无放铳）",
                              "Shaoxing has no discard wins (无放铳)"),
    "action.caishen": ("财神不能用来吃、碰、杠", "the 财神 can't be used to chi, peng or kong"),
    "action.not_in_hand": ("{tile} 不在 {seat} 号位的手里",
                           "{tile} is not in seat {seat}'s hand"),
    "action.not_legal": ("现在不能这样做，可以：{legal}",
                         "not among the legal actions: {legal}"),
    "action.illegal": ("不合规的动作 {action}：{why}", "illegal action {action}: {why}"),
    # -- walls and records
    "wall.copies": ("{tile} 出现 {have} 次，应该是 {want} 次",
                    "{tile} appears {have} times, expected {want}"),
    "wall.too_many": ("{tile} 太多了", "too many copies of {tile}"),
    "wall.hands": ("要四家的手牌，一家一份", "give four hands, one per seat"),
    "wall.dealt": ("{seat} 号位发了 {count} 张，最多 {limit} 张",
                   "seat {seat} is dealt {count} tiles, at most {limit}"),
    "wall.dice": ("骰子要两个 1–6 的整数，收到 {value}",
                  "dice must be two whole numbers 1–6, got {value}"),
    "wall.object": ("要一个对象，含 tiles、indicator 和 dice",
                    "wall must be an object with tiles, indicator and dice"),
    "daily.date": ("不是日历上的一天：{value}（日期写作 YYYY-MM-DD）",
                   "not a day of the calendar: {value} (a date is YYYY-MM-DD)"),
    "daily.early": ("每日挑战从 {first} 开始，收到 {value}",
                    "the daily challenge starts on {first}, got {value}"),
    "daily.moves": ("这个每日挑战链接的走法读不出来（可能被截断了）：{value}",
                    "the moves in this daily link can't be read (cut short?): {value}"),
    "daily.illegal": ("这个每日挑战链接的第 {index} 步在那一刻不合规则",
                      "move {index} of this daily link is not legal at that point"),
    "record.format": ("格式要是 {want}，收到 {value}", "format must be {want!r}, got {value}"),
    "record.version": ("不支持的记录版本 {value}（本版读 {want} 版）",
                       "unsupported record version {value} (this build reads version {want})"),
    "record.seed": ("要一个整数，收到 {value}", "seed must be an integer, got {value}"),
    "room.not_text": ("消息不是文本", "the message is not text"),
    "room.too_big": ("消息太大（{size} 字节，上限 {cap}）",
                     "the message is too big ({size} bytes, at most {cap})"),
    "room.not_json": ("消息不是一个 JSON 对象",
                      "the message is not a JSON object"),
    "room.version": ("不支持的协议版本 {value}（本桌用 {want}）",
                     "unsupported protocol version {value} (this table speaks {want})"),
    "room.type": ("未知的消息类型 {value}",
                  "unknown message type {value}"),
    "room.field": ("{type} 消息的 {name} 缺失或类型不对",
                   "{type} message: {name} is missing or of the wrong type"),
    "room.extra": ("{type} 消息有多余的字段：{names}",
                   "{type} message has unknown fields: {names}"),
    "room.record": ("消息里的牌谱打不开（不是打包好的牌谱，或者解开太大）",
                    "the message's record does not unpack (not a packed record, or too big "
                    "unpacked)"),
    "room.not_seated": ("你还没有入座，或者比赛还没开始",
                        "you have no seat, or the match hasn't started"),
    "room.late": ("这个动作晚了：牌局已经往下走了（第 {hand} 局第 {step} 步）",
                  "too late: the hand has moved on (hand {hand}, step {step})"),
    "room.not_yours": ("只能替自己的座位出牌：{text}",
                       "you can only act for your own seat: {text}"),
    "room.not_your_turn": ("现在不轮到你",
                           "it isn't your turn"),
    "room.illegal": ("现在不能这样做：{text}",
                     "not allowed now: {text}"),
    "room.seat_taken": ("这个座位已经有人了，或者比赛已经开始",
                        "that seat is taken, or the match has started"),
    "room.one_seat": ("一个连接只能坐一个座位", "one connection holds one seat"),
    "room.locked": ("房主已锁定房间：不能再入座", "the host locked the room: no more seats"),
    "room.ended": ("本场已解散：不再出牌", "the match was dissolved: no more moves"),
    "room.flood": ("消息太频繁（{type}）", "too many messages ({type})"),
    "ice.preset": ("没有这个 ICE 预设：{value}（可用 default、china、none）",
                   "no ICE preset {value} (default, china or none)"),
    "ice.list": ("ICE 服务器列表打不开：要一个 JSON 列表，最多 {cap} 个服务器",
                 "the ICE server list can't be read: a JSON list of at most {cap} servers"),
    "ice.url": ("ICE 服务器地址不对：{value}（要 stun:、turn: 或 turns: 加主机名）",
                "not an ICE server address: {value} (stun:, turn: or turns: and a host)"),
    "ice.login": ("TURN 服务器 {value} 要用户名和密码（各不超过 {cap} 个字符）",
                  "TURN server {value} needs a user and a credential (at most {cap} "
                  "characters each)"),
    "ice.secret": ("TURN 共享密钥要 16 到 256 个可见字符", "a TURN shared secret is 16 to 256 "
                   "printable characters"),
    "codes.bad": ("这不是完整的连接码（{value}）：请整段复制，不要改动",
                  "not a whole connection code ({value}): copy all of it, unchanged"),
    "codes.none": ("这段文字里没有回复码（以 SXMJ1. 开头）",
                   "there is no answer code (it starts with SXMJ1.) in this text"),
    "codes.unknown": ("这个回复码不是给本房间现在的连接码的：请让朋友打开最新的连接码",
                      "this answer is for no code this room has now: ask your friend to "
                      "open the newest one"),
    "record.hands": ("要一个动作列表的列表", "hands must be a list of action lists"),
    "record.walls": ("walls 要一个列表：第 i 项是第 i 局的牌墙（null 表示由种子发牌），"
                     "第 0 项为 null，项数不多于局数（得到 {value}）",
                     "walls must be a list: entry i is hand i's wall (null: dealt from the "
                     "seed), entry 0 is null, no more entries than hands (got {value})"),
    "record.early": ("第 {hand} 局在第 {previous} 局结束前开始",
                     "hand {hand}: starts before hand {previous} ended"),
    "record.action": ("第 {hand} 局第 {index} 个动作（{text}）：{why}",
                      "hand {hand} action {index} ({text!r}): {why}"),
    "record.results": ("要一个列表，每局一个 {{winner, payments}}，收到 {value}",
                       "expected a list with one {{winner, payments}} per hand, got {value}"),
    "record.results_count": ("记录写了 {want} 局结果，回放打了 {have} 局",
                             "the record gives {want} results, the replay played {have} hands"),
    "record.result": ("第 {hand} 局：记录写的是 {want}，回放是 {winner} 胡、付分 {payments}",
                      "hand {hand}: the record says {want}, replay gives winner {winner} "
                      "payments {payments}"),
    "record.file": ("读不了文件：{detail}", "can't read the file: {detail}"),
    # -- a bot's reason for its choice (sxmj.bots.Choice), shown by the assist
    "bot.rob": ("抢杠胡牌", "robs the kong: it completes the hand"),
    "bot.win": ("胡牌", "wins: the hand is complete"),
    "bot.piao": ("放弃暴头，打出财神{tname}飘一把",
                 "passes the 暴头 win and throws the 财神 {tname} (飘) for double"),
    "bot.kong": ("杠{tname}：补一张牌，多得花", "kongs {tname}: a replacement draw and extra 花"),
    "bot.discard_ready": ("打{tname}，听{kinds}种牌，还剩{live}张",
                          "discards {tname}, ready on {span}: {live} still unseen"),
    "bot.discard": ("打{tname}，离听牌还差{distance}张，有效牌{live}张",
                    "discards {tname}, {distance} from ready; keeps {span}; "
                    "{live} still unseen"),
    "bot.pass_win_piao": ("放弃胡牌，打出财神{tname}飘：下一张必胡，番更大",
                          "passes the win and throws the 财神 {tname} (飘): any draw wins "
                          "for more"),
    "bot.pass_win": ("放弃平胡，打{tname}等暴头：摸什么都胡，翻倍",
                     "passes a plain win, discards {tname}: any draw wins as 暴头 (double)"),
    "bot.pass": ("过", "passes"),
    "bot.pass_better": ("过：自己摸牌更好",
                        "passes: a tile from the wall is worth more than this one"),
    "bot.pass_no_gain": ("过：吃碰不能让牌更快听",
                         "passes: claiming would not bring the hand closer"),
    "bot.claim_set": ("{claim}{tname}，先凑一副", "{claim} {tname}: a set on the table"),
    "bot.claim_closer": ("{claim}{tname}：离听牌更近一步",
                         "{claim} {tname}: one step closer to ready"),
    "bot.claim_race": ("{claim}{tname}：更快胡牌", "{claim} {tname}: wins the race more often"),
    "bot.expert": ("{move}：期望 {points} 分，胡牌率 {win}%；{move_rival}只有 {rival_points} 分",
                   "{move}: about {points} points expected, {win} % wins; {move_rival} "
                   "only {rival_points}"),
    # -- why the review (复盘) flags a decision: what the better move does for the hand
    "review.why_distance": ("打{tname}离听牌还差{distance}张；打{tname_played}变成差"
                            "{distance_played}张，离听牌更远了",
                            "{move} leaves you {distance} from ready; {move_played} leaves "
                            "you {distance_played} away, further from ready"),
    "review.why_ready": ("打{tname}就听牌了；打{tname_played}还差{distance_played}张",
                         "{move} leaves you ready; {move_played} leaves you {distance_played} "
                         "from ready"),
    "review.why_baotou": ("打{tname}留住暴头听牌（摸什么都胡）；打{tname_played}拆了暴头",
                          "{move} keeps your 暴头 wait (any draw wins); {move_played} breaks "
                          "it"),
    "review.why_waits": ("打{tname}听{kinds}种牌、还剩{live}张；打{tname_played}只听"
                         "{kinds_played}种、{live_played}张",
                         "{move} keeps {kinds} kinds of waits with {live} live tiles instead "
                         "of {kinds_played} with {live_played}"),
    "review.why_live": ("打{tname}有效牌{live}张；打{tname_played}只有{live_played}张",
                        "{move} keeps {live} live tiles that help instead of {live_played}"),
    "review.why_piao": ("这手胡牌可以先不胡：打出财神{tname}飘，下一张摸什么都胡，番更大，"
                        "平均多得约{points}分",
                        "this win was worth passing: throwing the 财神 {tname} (飘) makes "
                        "any draw win for one more 番, about {points} points more on average"),
    "review.why_wait_baotou": ("这手平胡可以先不胡：打{tname}等暴头，摸什么都胡，翻倍，"
                               "平均多得约{points}分",
                               "this plain win was worth passing: {move} waits for 暴头 "
                               "(any draw wins, double), about {points} points more on "
                               "average"),
    "review.why_take_win": ("该胡就胡：{move}，平均多得约{points}分",
                            "the win was worth taking: about {points} points more on average"),
    "review.why_pass": ("过更好：{move_played}锁住了一副牌，自己摸牌平均多得约{points}分",
                        "passing was better: {move_played} locks a set, and your own draw "
                        "is worth about {points} points more on average"),
    "review.why_claim": ("{move}更好：比过平均多得约{points}分",
                         "{move} was better than passing: about {points} points more on "
                         "average"),
    "review.why_points": ("{move}更好：比{move_played}平均多得约{points}分",
                          "{move} was better than {move_played}: about {points} points more "
                          "on average"),
    "review.summary": ("{count} 个决定大约少得 {points} 分；牌效{grade}"
                       "（{efficient}/{discards} 张打牌走了最快的路）",
                       "{count} decisions cost about {points} points; your tile efficiency was "
                       "{grade} ({efficient} of {discards} discards kept the fastest path)"),
    "review.summary_clean": ("没有明显失分的决定；牌效{grade}（{efficient}/{discards}）",
                             "no decision cost clear points; your tile efficiency was {grade} "
                             "({efficient} of {discards})"),
    "review.grade_good": ("很好", "good"),
    "review.grade_fair": ("还行", "fair"),
    "review.grade_weak": ("偏弱", "weak"),
    "bot.scripted": ("按教学剧本出牌", "plays the scenario's script"),
    "bot.scripted_drawn": ("打出刚摸的{tname}", "throws the tile it drew, {tname}"),
}

# A claim in a reason: 吃/碰/杠 and the English verb.
CLAIM_VERBS = {"chi": ("吃", "chows"), "peng": ("碰", "pungs"), "minggang": ("杠", "kongs"),
               "angang": ("杠", "kongs"), "jiagang": ("杠", "kongs")}

# A move in a reason ("discard 9p" → 打九筒 / discards 9 Dots).
MOVE_WORDS = {"discard": ("打", "discards"), "chi": ("吃", "chows"), "peng": ("碰", "pungs"),
              "minggang": ("杠", "kongs"), "angang": ("暗杠", "kongs"),
              "jiagang": ("加杠", "adds a kong of"), "hu": ("胡", "wins"), "pass": ("过", "passes")}

# Field names as players read them (the last part of a dotted field).
FIELD_NAMES: dict[str, tuple[str, str]] = {
    "input": ("输入", "input"), "hand": ("手牌", "hand"), "win_tile": ("胡张", "winning tile"),
    "caishen": ("财神", "财神 wild tile"), "melds": ("吃碰杠", "melds"),
    "flowers": ("花牌", "flowers"), "win_by": ("胡法", "win by"),
    "replacements": ("连续补牌", "replacements"), "piao": ("飘", "飘 count"),
    "first_turn": ("第一手", "first turn"), "dealer": ("庄家", "dealer"),
    "base_flowers": ("底花", "底花 base"), "options": ("规则选项", "rule options"),
    "table": ("牌桌", "table"), "winner": ("胡牌者", "winner"), "robbed": ("被抢杠者", "robbed"),
    "claims": ("吃碰次数", "claims"), "flower_is_kong": ("花算杠", "flower counts as kong"),
    "baotou_required": ("有财必暴", "有财必暴"), "fan_cap": ("番数封顶", "番 cap"),
    "action": ("动作", "action"), "record": ("记录", "record"), "wall": ("牌墙", "wall"),
    "seed": ("局号", "seed"), "format": ("格式", "format"), "version": ("版本", "version"),
    "results": ("结果", "results"), "hands": ("各局动作", "hands"), "dice": ("骰子", "dice"),
    "mode": ("模式", "mode"), "name": ("名字", "name"), "lang": ("语言", "language"),
    "parameter": ("参数", "parameter"), "tiles": ("牌", "tiles"),
    "indicator": ("翻牌", "indicator"),
}

def _tile_zh(tile_code: str) -> str:
    """``5m`` → ``5m（五万）``; a code that names no tile stays as written."""
    try:
        tiles = read(tile_code)
    except Unreadable:
        return tile_code
    return f"{tile_code}（{name(tiles[0], 'zh')}）" if len(tiles) == 1 else tile_code


def _move_words(move: str, lang: str) -> str:
    """``"discard 9p"`` → ``打九筒`` or ``discards 9 Dots``."""
    kind, _, tile_code = move.partition(" ")
    zh, en = MOVE_WORDS.get(kind, (kind, kind))
    if not tile_code:
        return zh if lang == "zh" else en
    try:
        tiles = read(tile_code)
        if len(tiles) > 1:  # a chow: 三四五万 / 3-4-5 Characters
            names = [name(t, lang) for t in tiles]
            words = ("".join(n[0] for n in names[:-1]) + names[-1]) if lang == "zh" else \
                "-".join(n.split(" ", 1)[0] for n in names) + " " + names[-1].split(" ", 1)[1]
        elif len(tiles) == 1:
            words = name(tiles[0], lang)
        else:
            words = tile_code  # only spaces: no tile to name
    except (Unreadable, IndexError):
        words = tile_code
    return f"{zh}{words}" if lang == "zh" else f"{en} {words}"


def _show(value: Any, limit: int = 60) -> str:
    """A value as it was given (JSON-like), cut short: messages never echo megabytes."""
    text = repr(value) if not isinstance(value, bool) else ("true" if value else "false")
    if value is None:
        text = "null"
    return text if len(text) <= limit else text[:limit] + "…"


def printable(text: str) -> str:
    """``text`` with every unprintable character (a newline, an escape, a lone surrogate)
    written as a Python escape: a refusal is one line, and never drives a terminal.

    >>> printable("a\\nb\\x1b[31m"), printable("五万")
    ('a\\\\nb\\\\x1b[31m', '五万')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def field_name(field: str, lang: str = "en") -> str:
    """A field as players read it: the last part of ``[2].table.piao`` in ``lang``."""
    batch = field[: field.index("].") + 2] if field.startswith("[") and "]." in field else ""
    last = field.split(".")[-1].split("]")[-1]
    if last not in FIELD_NAMES:
        return field
    return batch + FIELD_NAMES[last][0 if lang == "zh" else 1]


def render(code: str, params: dict[str, Any], lang: str = "en") -> str:
    """The text of one message code in ``lang`` ("zh" or "en")."""
    zh, en = MESSAGES[code]
    values: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, CoreError):
            value = value.text(lang)
        elif key.startswith("tname") and isinstance(value, int):
            value = name(value, lang)
        elif key.startswith("move") and isinstance(value, str):
            value = _move_words(value, lang)
        elif key == "claim" and value in CLAIM_VERBS:
            value = CLAIM_VERBS[value][0 if lang == "zh" else 1]
        elif key.startswith("tile") and isinstance(value, str) and lang == "zh":
            value = _tile_zh(value)
        elif key == "value":
            value = value[:60] if isinstance(value, str) and lang == "zh" else _show(value)
        elif isinstance(value, (list, tuple)) and key in ("known", "legal"):
            value = ", ".join(str(v) for v in value)
        values[key] = value
    # the values may be the input as given (a raw string in Chinese): one printable line
    return printable((zh if lang == "zh" else en).format(**values))


class CoreError(ValueError):
    """A refusal: a stable ``code``, the ``field`` at fault, ``params`` and both texts.

    ``str(err)`` is ``"field: English text"``; :meth:`text` gives either language.
    """

    def __init__(self, code: str, field: str = "", **params: Any):
        if code not in MESSAGES:
            raise KeyError(f"no message {code!r}")  # a programming error, caught by the tests
        self.code = code
        self.field = field
        self.params = params
        en = render(code, params, "en")
        super().__init__(f"{printable(field)}: {en}" if field else en)

    @property
    def detail(self) -> str:
        """The English text without the field (what the old ``message`` part was)."""
        return render(self.code, self.params, "en")

    def text(self, lang: str = "en", label: bool = False) -> str:
        """The refusal in ``lang``, led by the field: in Chinese (and with ``label`` in
        English) by the name players read, otherwise by the field as written."""
        body = render(self.code, self.params, lang)
        if not self.field:
            return body
        field = printable(self.field)  # a field may be a key as given (an unknown one)
        if lang == "zh":
            return f"{field_name(field, 'zh')}：{body}"
        return f"{field_name(field, 'en') if label else field}: {body}"

    def to_json(self) -> dict[str, Any]:
        """Code, field, parameters (as shown) and both texts: what a page or tool needs."""
        return {"code": self.code, "field": self.field,
                "params": {k: (v.to_json() if isinstance(v, CoreError) else
                               v if isinstance(v, (int, str)) else _show(v))
                           for k, v in self.params.items()},
                "en": self.text("en"), "zh": self.text("zh")}

    def refield(self, field: str) -> CoreError:
        """The same refusal, of the same class, for another field (``[3].hand`` in a batch)."""
        err = type(self).__new__(type(self))
        CoreError.__init__(err, self.code, field, **self.params)
        return err


# ------------------------------------------------------------------ the scoring's words
# key: (中文, English). The display words of sxmj.scoring, which keeps the ids, their order
# and their numbers: "pattern.<id>" a 番 pattern's name (English: its romanisation) and
# "pattern.<id>.explain" what it is; "flower.<id>" a 花 item; "pay.<reason>" why a seat
# pays (sxmj.scoring.Settlement.reasons); "explain.*" the lines of Evaluation.explain.
TERMS: dict[str, tuple[str, str]] = {
    # -- 番 patterns (RULES §7)
    "pattern.baotou": ("暴头", "Bao Tou"),
    "pattern.baotou.explain": ("摸到的牌与财神成将",
                               "wild pair: the drawn tile paired with a 财神"),
    "pattern.piao": ("财飘", "Piao"),
    "pattern.piao.explain": ("暴头听牌时打出财神", "a 财神 thrown away while 暴头-ready"),
    "pattern.gangkai": ("杠开", "Gang Kai"),
    "pattern.gangkai.explain": ("杠或补花后摸到的牌胡",
                                "won on a replacement tile after a kong or flower"),
    "pattern.dadiao": ("大吊", "Da Diao"),
    "pattern.dadiao.explain": ("其余牌都已吃碰杠，单张立着",
                               "every set laid down, one tile standing"),
    "pattern.qianggang": ("抢杠", "Qiang Gang"),
    "pattern.qianggang.explain": ("抢别人加杠的牌胡", "robbed a kong"),
    "pattern.tianhu": ("天胡", "Tian Hu"),
    "pattern.tianhu.explain": ("庄家起手即胡", "dealer wins on the dealt hand"),
    "pattern.dihu": ("地胡", "Di Hu"),
    "pattern.dihu.explain": ("闲家第一次摸牌即胡", "won on the first draw"),
    "pattern.quanfeng": ("全风", "Quan Feng"),
    "pattern.quanfeng.explain": ("十四张全是风牌", "every tile a wind"),
    # -- 花 items (RULES §8)
    "flower.flower": ("花牌", "flower tile laid open"),
    "flower.caishen": ("财神", "财神 in the hand"),
    "flower.wind_pung": ("风刻", "pung of a wind"),
    "flower.wind_kong_exposed": ("明杠风", "exposed kong of a wind"),
    "flower.wind_kong_concealed": ("暗杠风", "concealed kong of a wind"),
    "flower.kong_exposed": ("明杠", "exposed kong"),
    "flower.kong_concealed": ("暗杠", "concealed kong"),
    # -- why a seat pays (RULES §9)
    "pay.winner": ("胡牌", "winner"),
    "pay.share": ("付一份", "pays one share"),
    "pay.rob": ("被抢杠，一家付三份", "kong robbed: pays all three shares"),
    "pay.piao": ("财飘被人胡，一家付三份", "飘 chain broken by another's win: pays three shares"),
    "pay.contract3": ("承包：被吃碰三次，付三份",
                      "承包: the winner claimed their discards 3 times, pays 3"),
    "pay.contract5": ("承包：吃碰胡牌者三次，付五份",
                      "承包: claimed the winner's discards 3 times, pays 5"),
    # -- Evaluation.explain, line by line ({name}: 暴头 / 暴头 Bao Tou; 风刻 / pung of a
    # wind (风刻))
    "explain.pattern": ("{name} — {what}，{n} 番", "{name} — {what}, {n} 番"),
    "explain.plain": ("平胡，0 番", "Plain win, 0 番"),
    "explain.cap": ("三番到底：{raw} 番按 {fan} 番算", "三番到底 cap: {raw} 番 count as {fan}"),
    "explain.flower": ("{name} ×{count}：{points} 花", "{name} ×{count}: {points} 花"),
    "explain.formula": ("每家 = 2^{fan} × ({base} + {flowers}) = {power} × {sum} = {share}",
                        "share = 2^{fan} × ({base} + {flowers}) = {power} × {sum} = {share}"),
}


def term(key: str, lang: str = "en", **values: Any) -> str:
    """The scoring's word ``key`` in ``lang`` ("zh" or "en"), ``{placeholders}`` filled.

    >>> term("pattern.baotou", "zh"), term("explain.cap", "en", raw=4, fan=3)
    ('暴头', '三番到底 cap: 4 番 count as 3')
    """
    zh, en = TERMS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text
