"""Scripted deals that coach a player through one Shaoxing situation.

A scenario is JSON-like data: a fixed wall (the four dealt hands, the head
draws and the tail replacements in order), the dealer, rule options, the
other seats' scripted actions, and coaching lines that appear after given
actions. The player is always seat 0. Unscripted bots throw the tile they
just drew and pass on claims, so a scenario plays the same way every time.

Format::

    {"name": "baotou",
     "title": {"zh": "暴头", "en": "Bao Tou: the wild pair"},
     "goal": {"zh": "…", "en": "…"},
     "dealer": 0, "indicator": "8s",            # the 财神 is the tile after it
     "hands": ["123m456m789p234s1z2z", "", "", ""],   # seat 0 first; "" = random filler
     "draws": "9s5p…", "replacements": "7p",    # head draws, then tail tiles
     "options": {}, "script": ["2 pass", "3 peng 3m"],
     "coach": [{"after": null, "zh": "…", "en": "…", "suggest": "0 discard 2z"},
               {"after": "0 discard 2z", "zh": "…", "en": "…"}],
     "expect": {"winner": 0, "patterns": ["baotou"]}}   # also "robbed", "payments"

``after`` is the last action applied (``null`` = the start); ``suggest``
is the move the coach recommends (shown as a hint, never forced).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import Action, Game
from .match import Match
from .messages import CoreError
from .rules import Options, RuleError
from .tiles import TileError
from .wall import Wall, WallError


class ScenarioError(ValueError):
    """A scenario that can't be set up; the message names the field."""


@dataclass
class Coach:
    after: str | None
    zh: str
    en: str
    suggest: str | None = None


@dataclass
class Scenario:
    name: str
    title: dict[str, str]
    goal: dict[str, str]
    dealer: int
    indicator: str
    hands: list[str]
    draws: str = ""
    replacements: str = ""
    options: Options = field(default_factory=Options)
    script: list[str] = field(default_factory=list)
    coach: list[Coach] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_dict(data: Any) -> Scenario:
        """Validate and build a scenario; bad data raises ScenarioError naming the field."""
        if not isinstance(data, dict):
            raise ScenarioError("scenario: expected a JSON object")
        for key in ("name", "title", "goal", "hands", "indicator"):
            if key not in data:
                raise ScenarioError(f"{key}: is required")
        name = data["name"]
        if not isinstance(name, str) or not name.replace("-", "").isalnum():
            raise ScenarioError(f"name: use letters, digits and dashes, got {name!r}")
        for key in ("title", "goal"):
            text = data[key]
            if not isinstance(text, dict) or not all(isinstance(text.get(k), str)
                                                      for k in ("zh", "en")):
                raise ScenarioError(f"{key}: needs zh and en text")
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != 4 or \
                not all(isinstance(h, str) for h in hands):
            raise ScenarioError("hands: give four hands (seat 0 first) as tile notation")
        dealer = data.get("dealer", 0)
        if dealer not in (0, 1, 2, 3):
            raise ScenarioError(f"dealer: must be a seat 0–3, got {dealer!r}")
        try:
            options = Options.from_dict(data.get("options"))
        except RuleError as e:
            raise ScenarioError(str(e)) from None
        script = data.get("script", [])
        if not isinstance(script, list):
            raise ScenarioError("script: expected a list of actions like '2 pass'")
        for text in script:
            try:
                Action.parse(text)
            except CoreError as e:
                raise ScenarioError(f"script: {e.detail}") from None
        coach = []
        for i, item in enumerate(data.get("coach", [])):
            if not isinstance(item, dict) or not isinstance(item.get("zh"), str) \
                    or not isinstance(item.get("en"), str):
                raise ScenarioError(f"coach[{i}]: needs zh and en text")
            coach.append(Coach(item.get("after"), item["zh"], item["en"], item.get("suggest")))
        scenario = Scenario(name, data["title"], data["goal"], dealer, data["indicator"],
                            list(hands), data.get("draws", ""), data.get("replacements", ""),
                            options, list(script), coach, dict(data.get("expect", {})))
        scenario.wall()  # the tiles must add up
        return scenario

    def wall(self) -> Wall:
        try:
            return Wall.arrange(self.hands, draws=self.draws, replacements=self.replacements,
                                indicator=self.indicator, dealer=self.dealer,
                                flowers_in_fill=False)
        except (WallError, TileError) as e:
            raise ScenarioError(str(e)) from None

    def start(self) -> Match:
        """A match whose first hand is this scenario's deal (seat 0 is the player)."""
        return Match(seed=0, options=self.options, wall=self.wall(), dealer=self.dealer)

    def coaching(self, game: Game) -> Coach | None:
        """The latest coaching line: the entry whose ``after`` names the most recent
        matching action that wasn't a pass (``"X#2"``: its second time in the hand;
        None: the start). A line stays up until a later one replaces it."""
        by_key = {c.after: c for c in self.coach}
        moves = [str(a) for a in game.actions if a.kind != "pass"]
        seen: dict[str, int] = {}
        keys: list[str | None] = [None]
        for m in moves:
            seen[m] = seen.get(m, 0) + 1
            keys.append(m if seen[m] == 1 else f"{m}#{seen[m]}")
        for key in reversed(keys):
            if key in by_key:
                return by_key[key]
        return None


def _s(name: str, title: dict[str, str], goal: dict[str, str], dealer: int, indicator: str,
       hands: list[str], draws: str = "", replacements: str = "", script: Sequence[str] = (),
       coach: Sequence[tuple[Any, ...]] = (), expect: dict[str, Any] | None = None,
       options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "title": title, "goal": goal, "dealer": dealer,
            "indicator": indicator, "hands": hands, "draws": draws,
            "replacements": replacements, "script": list(script), "options": options or {},
            "coach": [dict(zip(("after", "zh", "en", "suggest"), c, strict=False))
                      for c in coach],
            "expect": expect or {}}


def _from_baotou(name: str, title: dict[str, str], goal: dict[str, str],
                 expect: dict[str, Any], fourth: str, draws: str,
                 coach: Sequence[tuple[Any, ...]], replacements: str = "") -> dict[str, Any]:
    """A lesson that goes on from 暴头 (财飘, 杠开): its deal, with ``fourth`` as the
    dealer's fourth set, and its start: the dealer throws the South Wind, and its first
    draw (the head's fourth tile) is the 财神 9s. ``draws`` follow those four."""
    return _s(name, title, goal, 0, "8s", [f"123m456m789p{fourth}1z2z", "", "", ""],
              draws="1p2p3p9s" + draws, replacements=replacements, expect=expect,
              coach=[(None, "打掉南风。", "Throw the South Wind.", "0 discard 2z"), *coach])


# The built-in scenarios. In each, the 财神 is 9s (indicator 8s) unless said.
BUILTIN: dict[str, dict[str, Any]] = {s["name"]: s for s in [
    _s("baotou", {"zh": "暴头", "en": "Bao Tou — the wild pair"},
       {"zh": "手握财神，凑齐四组牌，摸什么都能胡，而且翻倍。",
        "en": "Hold a 财神 beside four sets: any tile then wins, and wins double."},
       0, "8s", ["123m456m789p234s1z2z", "", "", ""], draws="1p2p3p9s1p2p3p5p",
       coach=[(None, "你是庄家。四组牌已经齐了，打掉没用的南风。",
               "You are the dealer with four sets already. Throw the useless South Wind.",
               "0 discard 2z"),
              ("0 discard 2z", "现在听东风。", "Now you wait on the East Wind."),
              ("3 discard 3p", "你摸到了财神 9s！现在可以平胡，但别急：打掉东风，手里留着财神，"
                               "下一张摸什么都胡，而且是暴头，翻一番。",
               "You drew the 财神 (9s)! You could win now, plainly — but throw the East Wind "
               "instead: with the 财神 beside four sets, ANY next tile wins, as 暴头 (1 番).",
               "0 discard 1z"),
              ("0 discard 1z", "暴头听牌：任何一张都能胡。", "暴头-ready: any tile wins."),
              ("3 discard 3p#2", "摸到 5p：和财神成将，暴头胡！",
               "5p pairs with the 财神: win by 暴头!", "0 hu")],
       expect={"winner": 0, "patterns": ["baotou"]}),
    _from_baotou(
        "caipiao", {"zh": "财飘", "en": "Cai Piao — throwing a 财神"},
        {"zh": "暴头听牌时再摸到财神，打出一张（飘），下次胡牌多一番。",
         "en": "暴头-ready and a second 财神 arrives: throw one (飘) for one more 番."},
        {"winner": 0, "patterns": ["baotou", "piao"]}, "234s", "1p2p3p9s1p2p3p5p",
        [("3 discard 3p", "摸到财神：打掉东风，留财神，成暴头听牌。",
          "A 财神: throw the East Wind and keep the 财神 — 暴头-ready.", "0 discard 1z"),
         ("0 discard 1z", "暴头听牌。", "暴头-ready."),
         ("3 discard 3p#2", "又摸到一张财神！现在就能暴头胡（1番）。也可以把一张财神打出去——"
                            "飘：还是暴头听牌，下次胡就是财飘，2番。但如果别人先胡，你要一家付三份。",
          "A second 财神! You can win now by 暴头 (1 番). Or throw one 财神 — 飘: you stay "
          "暴头-ready and your next win is 财飘, 2 番. If someone else wins first, you pay "
          "all three shares.", "0 discard 9s"),
         ("3 discard 3p#3", "摸到 5p：财飘胡，2番。", "5p: win by 财飘, 2 番.", "0 hu")]),
    _from_baotou(
        "gangkai", {"zh": "杠开和杠爆", "en": "Gang Kai and Gang Bao — winning on a kong"},
        {"zh": "开杠后从牌尾补一张；补到的牌胡了就是杠开；暴头听牌时开杠是杠爆。",
         "en": "A kong draws a replacement from the tail; winning on it is 杠开; doing it "
               "while 暴头-ready is 杠爆."},
        {"winner": 0, "patterns": ["baotou", "gangkai"]}, "111s", "1p2p3p1s",
        [("3 discard 3p", "摸到财神：打掉东风，成暴头听牌。",
          "A 财神: throw the East Wind to be 暴头-ready.", "0 discard 1z"),
         ("3 discard 3p#2", "摸到第四张 1s。可以马上暴头胡（1番），但先暗杠：补的牌一定能胡，"
                            "算杠爆，2番。",
          "The fourth 1s. You could win now by 暴头 (1 番) — but kong first: the "
          "replacement tile is sure to win, as 杠爆, 2 番.", "0 angang 1s"),
         ("0 angang 1s", "补到 7p：杠爆胡！", "The replacement, 7p, wins: 杠爆!", "0 hu")],
        replacements="7p"),
    _s("qianggang", {"zh": "抢杠", "en": "Qiang Gang — robbing a kong"},
       {"zh": "别人加杠的那张正好是你要的牌：抢杠胡，被抢的人一家付三份。",
        "en": "Someone adds the tile you wait on to their pung: rob it. The robbed player "
              "pays all three shares."},
       1, "8s", ["12m456m789m55s678s", "3m999m111p222p567s1z", "45m777p888p123s2z3z",
                 "333m444p555p666p3z"], draws="4z4z4z4z",
       script=["1 discard 3m", "2 pass", "3 peng 3m", "3 discard 3z", "1 discard 4z",
               "2 discard 4z", "3 jiagang 3m"],
       coach=[(None, "你听 3m（12m 缺一张）。上家在碰 3m……",
               "You wait on 3m (12m needs it). Watch the 3m pung on your left…"),
              ("3 discard 3z", "摸到 4z，没用，打掉。", "You drew 4z: useless, throw it.",
               "0 discard 4z"),
              ("3 jiagang 3m", "上家加杠 3m —— 正是你要的牌！抢杠胡。",
               "Your left neighbour adds 3m to their pung — the very tile you need. Rob it!",
               "0 hu")],
       expect={"winner": 0, "patterns": ["qianggang"], "robbed": 3}),
    _s("piao-round", {"zh": "飘的一轮", "en": "The 飘 round — claims blocked"},
       {"zh": "有人打出财神后，到他下次摸牌前，其他人不能吃碰杠。",
        "en": "After someone throws a 财神, nobody else may claim until that player's next turn."},
       1, "8s", ["55p123m456m789s1z2z", "9s123p456p789p11z2z", "", ""], draws="5p6m",
       script=["1 discard 9s"],
       coach=[(None, "你手里有一对 5p。", "You hold a pair of 5p."),
              ("1 discard 9s", "下家打出了财神（飘）。在他下次摸牌前，别人打的牌你都不能碰。",
               "Your right neighbour threw the 财神 (飘). Until their next turn you can't claim "
               "anything."),
              ("2 discard 5p", "对家打出 5p，你有一对，却不能碰：飘的一轮。",
               "5p comes out and you hold a pair — but you can't peng: it's the 飘 round.")],
       expect={}),
    _s("dadiao", {"zh": "大吊", "en": "Da Diao — one tile standing"},
       {"zh": "碰出四组牌，只留一张；留的是财神，摸什么都胡：大吊爆头，2番。",
        "en": "Claim four sets and keep one tile standing; when it is a 财神, any draw wins: "
              "大吊爆头, 2 番."},
       0, "8s", ["9s22m55m33p77p1z2z3z4z8p", "2m7p", "5m", "3p"],
       draws="7s8s1s7s2s3s8s4s5s6s6s",
       script=["1 discard 2m", "1 discard 7p", "2 discard 5m", "3 discard 3p"],
       coach=[(None, "你是庄家，手里四个对子和一张财神 9s。先打掉 8p。",
               "You are the dealer with four pairs and a 财神 (9s). Throw the 8p first.",
               "0 discard 8p"),
              ("1 discard 2m", "下家打出 2m：碰！每碰一次，手里就少三张。",
               "Your right neighbour throws 2m: peng it! Each claim takes three tiles out of "
               "your hand.", "0 peng 2m"),
              ("0 peng 2m", "打掉东风。财神一直留着。", "Throw the East Wind. Keep the 财神.",
               "0 discard 1z"),
              ("1 discard 7p", "又是下家：碰 7p。", "Your right neighbour again: peng 7p.",
               "0 peng 7p"),
              ("0 peng 7p", "打掉南风。", "Throw the South Wind.", "0 discard 2z"),
              ("2 discard 5m", "对家打出 5m：碰。", "Across throws 5m: peng.", "0 peng 5m"),
              ("0 peng 5m", "打掉西风。", "Throw the West Wind.", "0 discard 3z"),
              ("3 discard 3p", "上家打出 3p：碰第四组。", "Your left neighbour throws 3p: peng "
               "your fourth set.", "0 peng 3p"),
              ("0 peng 3p", "打掉北风，只留财神一张：大吊。财神单吊，下一张摸什么都胡——大吊爆头。",
               "Throw the North Wind and keep only the 财神 standing: 大吊. A standing 财神 "
               "pairs with any draw — 大吊爆头.", "0 discard 4z"),
              ("0 discard 4z", "大吊爆头听牌：任何一张都能胡。",
               "大吊爆头-ready: any tile wins."),
              ("3 discard 6s", "摸到 6s，和财神成将：大吊爆头，2番！",
               "6s pairs with the 财神: 大吊爆头, 2 番!", "0 hu")],
       expect={"winner": 0, "patterns": ["baotou", "dadiao"]}),
    _s("chengbao", {"zh": "承包", "en": "Cheng Bao — the contract (吃三包五)"},
       {"zh": "吃碰同一家的牌三次，就和他承包：你胡了，他一家付三份。",
        "en": "Claim the same player's discards three times and you are in contract: when you "
              "win, that player pays three shares."},
       0, "8s", ["9s456m12p77s78m1z2z3z4z", "", "", "3p7s9m"],
       draws="1s2s9p3s4s8p1s2s9p3s4s5s5p",
       script=["3 discard 3p", "3 discard 7s", "3 discard 9m"],
       coach=[(None, "你是庄家。打掉北风，等上家喂牌。",
               "You are the dealer. Throw the North Wind and wait for your left neighbour's "
               "tiles.", "0 discard 4z"),
              ("3 discard 3p", "上家打出 3p：吃 123p（第一次）。",
               "Your left neighbour throws 3p: chi 123p (claim one).", "0 chi 123p"),
              ("0 chi 123p", "打掉东风。", "Throw the East Wind.", "0 discard 1z"),
              ("3 discard 7s", "上家又打出 7s：碰（第二次）。",
               "Your left neighbour throws 7s: peng (claim two).", "0 peng 7s"),
              ("0 peng 7s", "打掉南风。", "Throw the South Wind.", "0 discard 2z"),
              ("3 discard 9m", "上家打出 9m：吃 789m。第三次吃碰同一家——承包（吃三包五）：你胡了，"
                               "上家一家付三份；他胡了，你付五份。",
               "Your left neighbour throws 9m: chi 789m. A third claim from the same player is "
               "承包 (吃三包五): if you win, they pay three shares; if they win, you pay five.",
               "0 chi 789m"),
              ("0 chi 789m", "打掉西风。财神和 456m：暴头听牌。",
               "Throw the West Wind. The 财神 beside 456m: 暴头-ready.", "0 discard 3z"),
              ("3 discard 5s", "摸到 5p：暴头胡！上家承包，一家付三份。",
               "5p: win by 暴头! Your left neighbour is in contract and pays three shares.",
               "0 hu")],
       expect={"winner": 0, "patterns": ["baotou"], "payments": [60, -12, -12, -36]}),
]}


def builtin(name: str) -> Scenario:
    """A built-in scenario by name; unknown names raise ScenarioError listing the known."""
    if name not in BUILTIN:
        raise ScenarioError(f"scenario: unknown {name!r} (known: {', '.join(BUILTIN)})")
    return Scenario.from_dict(BUILTIN[name])
