"""The calculator's state (:class:`CalcState`): the form's fields as typed, read from a URL
(:func:`read_calc`) and turned into the evaluate command's request."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sxmj.rules import BASE_FLOWERS, RuleError
from sxmj.scoring import WIN_BY
from sxmj.tiles import NUM_PLAYING, TileError, code, format_tiles, parse_tiles, tile
from sxmj.ui.pages.judge import (
    BOOL_FIELDS,
    FIELDS,
    OPTION_FIELDS,
    last_tile,
    request_from_params,
    split_melds,
)
from sxmj.ui.params import MAX_VALUE, Refusal, refusal

TARGETS = ("hand", "meld", "flowers", "caishen", "win_tile")
# the honours in one row and the eight flowers in the next: at 360 px neither leaves a lone
# tile on a line of its own
PALETTE = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")
TEXT_FIELDS = ("hand", "win_tile", "caishen", "melds", "flowers")
DEFAULTS = {"win_by": "draw", "replacements": "", "piao": "0", "base_flowers": "5",
            "flower_is_kong": True, "baotou_required": False, "fan_cap": "3",
            "first_turn": False, "dealer": False, "caishen": "9s"}


# ------------------------------------------------------------------ state


@dataclass(frozen=True)
class CalcState:
    """Everything the calculator holds; the text fields are notation as typed."""

    hand: str = ""
    win_tile: str = ""
    caishen: str = "9s"
    melds: str = ""
    flowers: str = ""
    win_by: str = "draw"
    replacements: str = ""
    piao: str = "0"
    first_turn: bool = False
    dealer: bool = False
    base_flowers: str = "5"
    flower_is_kong: bool = True
    baotou_required: bool = False
    fan_cap: str = "3"
    target: str = "hand"
    meld_kind: str = "peng"
    message: str = ""  # a note on the last click ("<code>[:<tile>]": i18n calc_note_<code>)

    # -------------------------------------------------------- requests and URLs

    def request(self) -> dict:
        """The evaluate request; blank optional fields are left out."""
        params = {k: v for k, v in self.params()}
        params.setdefault("caishen", self.caishen)
        query = request_from_params(params)
        request = query.request
        if not self.win_tile.strip() and self.hand.strip():
            last = last_tile(self.hand)
            if last:
                request["win_tile"] = last
        return request

    def params(self) -> list[tuple[str, str]]:
        """URL parameters that reproduce this state (defaults left out)."""
        out = []
        for name in ("hand", "win_tile", "caishen", "melds", "flowers", "win_by",
                     "replacements", "piao", "first_turn", "dealer", "base_flowers",
                     "flower_is_kong", "baotou_required", "fan_cap"):
            value = getattr(self, name)
            if isinstance(value, bool):
                if value != DEFAULTS[name]:
                    out.append((name, "1" if value else "0"))
                continue
            value = value.strip()
            if name == "melds":
                value = ",".join(split_melds(value))
            if value and value != DEFAULTS.get(name):
                out.append((name, value))
        return out

    @staticmethod
    def from_params(params: dict[str, str]) -> tuple[CalcState, RuleError | None]:
        """The state of a URL (``calc.html?hand=…``) and the first bad switch, in the
        calculator's words (see :func:`read_calc`, which also names what was not used)."""
        state, error, _ = read_calc(params)
        return state, error

    # -------------------------------------------------------- editing

    def set(self, name: str, value) -> CalcState:
        return replace(self, **{name: value, "message": ""})

    def hand_tiles(self) -> list[int] | None:
        try:
            return parse_tiles(self.hand)
        except TileError:
            return None

    def meld_list(self) -> list[str]:
        return split_melds(self.melds)

    def click(self, c: str) -> CalcState:
        """A palette tile: into the target (a flower always goes to the flowers)."""
        x = tile(c)
        st = replace(self, message="")
        target = self.target
        if x >= NUM_PLAYING and target in ("hand", "meld", "win_tile", "caishen"):
            if target == "caishen":
                return replace(st, message="caishen_flower")
            if target == "meld":
                return replace(st, message="meld_flower")
            if target == "win_tile":
                return replace(st, message="win_flower")
            target = "flowers"
            st = replace(st, message="flower_to_flowers")
        if target == "caishen":
            return replace(st, caishen=c)
        if target == "win_tile":
            return replace(st, win_tile=c)
        if target == "flowers":
            have = safe_tiles(self.flowers)
            if x in have:
                return replace(st, message="too_many_flower")
            return replace(st, flowers=format_tiles(have + [x]))
        if self._copies(x) >= 4:
            return replace(st, message="too_many:" + c)
        if target == "meld":
            return self._add_meld(st, x)
        hand = self.hand_tiles()
        if hand is None:
            return replace(st, hand=(self.hand + c))
        if len(hand) + 3 * len(self.meld_list()) >= 14:
            return replace(st, message="hand_full")
        return replace(st, hand=format_tiles(hand + [x]))

    def _add_meld(self, st: CalcState, x: int) -> CalcState:
        kind = self.meld_kind
        caishen = safe_tile(self.caishen)
        if kind == "chi":
            if x >= 27 or x % 9 > 6:
                return replace(st, message="chi_bad:" + code(x))
            tiles = [x, x + 1, x + 2]
        else:
            tiles = [x] * (3 if kind == "peng" else 4)
        if caishen in tiles:
            return replace(st, message="meld_caishen")
        for y in set(tiles):
            if self._copies(y) + tiles.count(y) > 4:
                return replace(st, message="too_many:" + code(y))
        hand = self.hand_tiles() or []
        if len(hand) + 3 * (len(self.meld_list()) + 1) > 14:
            return replace(st, message="hand_full")
        melds = self.meld_list() + [f"{kind} {format_tiles(tiles)}"]
        return replace(st, melds=", ".join(melds))

    def _copies(self, x: int) -> int:
        n = (self.hand_tiles() or []).count(x)
        for m in self.meld_list():
            try:
                n += parse_tiles(m.split()[-1]).count(x)
            except (TileError, IndexError):
                pass
        return n

    def remove(self, c: str) -> CalcState:
        hand = self.hand_tiles()
        x = tile(c)
        if hand is None or x not in hand:
            return self
        i = len(hand) - 1 - hand[::-1].index(x)
        del hand[i]
        win = self.win_tile if self.win_tile != c or x in hand else ""
        return replace(self, hand=format_tiles(hand), win_tile=win, message="")

    def remove_meld(self, i: int) -> CalcState:
        melds = self.meld_list()
        if 0 <= i < len(melds):
            del melds[i]
        return replace(self, melds=", ".join(melds), message="")

    def remove_flower(self, c: str) -> CalcState:
        have = safe_tiles(self.flowers)
        x = tile(c)
        if x in have:
            have.remove(x)
        return replace(self, flowers=format_tiles(have), message="")

    def undo(self) -> CalcState:
        """Take back the last tile of the target (hand, melds or flowers)."""
        if self.target == "meld" and self.meld_list():
            return self.remove_meld(len(self.meld_list()) - 1)
        if self.target == "flowers":
            have = safe_tiles(self.flowers)
            return replace(self, flowers=format_tiles(have[:-1]), message="")
        hand = self.hand_tiles()
        if hand:
            return replace(self, hand=format_tiles(hand[:-1]), message="")
        return self

    def clear(self) -> CalcState:
        return CalcState(caishen=self.caishen, target="hand")

    def load(self, request: dict) -> CalcState:
        """An example's request into the calculator."""
        options = request.get("options") or {}
        return CalcState(
            hand=request.get("hand", ""), win_tile=request.get("win_tile", ""),
            caishen=request.get("caishen", "9s"), melds=", ".join(request.get("melds", [])),
            flowers=request.get("flowers", ""), win_by=request.get("win_by", "draw"),
            replacements=str(request.get("replacements", "")),
            piao=str(request.get("piao", 0)), first_turn=bool(request.get("first_turn")),
            dealer=bool(request.get("dealer")),
            base_flowers=str(request.get("base_flowers", 5)),
            flower_is_kong=options.get("flower_is_kong", True),
            baotou_required=options.get("baotou_required", False),
            fan_cap=str(options.get("fan_cap", 3)))


URL_FIELDS = FIELDS + OPTION_FIELDS  # the calculator's URL parameters, besides lang
CHOICES = {"win_by": WIN_BY, "base_flowers": tuple(str(b) for b in BASE_FLOWERS),
           "fan_cap": tuple(str(n) for n in range(6))}  # the form's drop-downs


def read_calc(params: dict[str, str], known: tuple[str, ...] = ("lang",)
              ) -> tuple[CalcState, RuleError | None, list[Refusal]]:
    """The state of a URL, the first bad switch (explained in the calculator's message line)
    and the parameters it did not use (the notice): unknown names (other than ``known``),
    values longer than any hand, a switch that is not ``1``/``0`` and a drop-down's value it
    does not offer, each left at its default. What is typed into a text field (hand, tiles,
    melds, replacements, 飘) is kept as written: the result explains it, naming the field.

    >>> st, error, refused = read_calc({"hand": "123m", "dealer": "perhaps", "colour": "red"})
    >>> st.hand, st.dealer, error.field, [(r.param, r.kind) for r in refused]
    ('123m', False, 'dealer', [('dealer', 'bad'), ('colour', 'unknown')])
    """
    values: dict = {}
    error = None
    refused: list[Refusal] = []
    for name, value in params.items():
        if name in known:
            continue
        if name not in URL_FIELDS:
            refused.append(refusal(name, value, "unknown"))
            continue
        if len(value) > MAX_VALUE:
            refused.append(refusal(name, value, "long", str(MAX_VALUE)))
            continue
        text = value.strip()
        if not text:
            continue  # blank: the default, as if absent
        if name in BOOL_FIELDS:
            flag = request_from_params({name: value}).error
            if flag is not None:
                error = error or flag
                refused.append(refusal(name, value, expected="1 | 0"))
                continue
            values[name] = text.lower() in ("1", "true", "yes", "on")
        elif name in CHOICES:
            if text not in CHOICES[name]:
                refused.append(refusal(name, value, expected=" | ".join(CHOICES[name])))
                continue
            values[name] = text
        elif name == "melds":
            values[name] = ", ".join(split_melds(value))
        else:
            values[name] = text
    return CalcState(**values), error, refused


def safe_tiles(text: str) -> list[int]:
    try:
        return parse_tiles(text)
    except TileError:
        return []


def safe_tile(text: str) -> int | None:
    try:
        return tile(text)
    except (TileError, ValueError):
        return None
