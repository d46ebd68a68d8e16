"""Rule options (RULES.md §10) and the errors every rule check raises."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .messages import CoreError

BASE_FLOWERS = (5, 10, 15, 20, 25)
MAX_MATCH_HANDS = 99  # a match's length: 1–99 hands, or 0 for an endless one


class RuleError(CoreError):
    """Input that breaks the rules' own vocabulary (a bad option, tile, meld...).

    ``field`` names the input field at fault so a tool can point at it;
    ``code`` and ``params`` give the text in either language (sxmj.messages).
    """

    def __init__(self, field: str, code: str, **params: Any):
        super().__init__(code, field, **params)


@dataclass(frozen=True)
class Options:
    """A table's rule options; the defaults are the rule book's.

    >>> Options.from_dict({"base_flowers": 10}).base_flowers
    10
    """

    base_flowers: int = 5          # 底花
    flower_is_kong: bool = True    # a flower replacement win counts as 杠开
    piao_blocks_claims: bool = True  # after a 财神 discard, others can't claim (飘 round)
    baotou_required: bool = False  # 有财必暴
    reserved_tiles: int = 0        # tiles left undrawn when the hand is declared drawn
    contract: bool = True          # 承包 (吃三包五)
    fan_cap: int = 3               # 三番到底
    match_hands: int = 8           # hands in a match (0: endless)

    @staticmethod
    def from_dict(data: dict[str, Any] | None, field: str = "options") -> Options:
        """Options from a JSON-like dict; unknown names and bad values raise RuleError."""
        if data is None:
            return Options()
        if not isinstance(data, dict):
            raise RuleError(field, "option.object", value=data)
        known = {f.name: f for f in fields(Options)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise RuleError(field, "option.unknown", name=name, known=sorted(known))
            default = known[name].default
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RuleError(field, "option.bool", name=name, value=value)
            elif not isinstance(value, int) or isinstance(value, bool):
                raise RuleError(field, "option.int", name=name, value=value)
            values[name] = value
        opts = Options(**values)
        if opts.base_flowers not in BASE_FLOWERS:
            raise RuleError(field, "option.base", value=opts.base_flowers)
        if not 0 <= opts.reserved_tiles <= 40:
            raise RuleError(field, "option.range", name="reserved_tiles", low=0, high=40,
                            value=opts.reserved_tiles)
        if not 0 <= opts.fan_cap <= 10:
            raise RuleError(field, "option.range", name="fan_cap", low=0, high=10,
                            value=opts.fan_cap)
        if not 0 <= opts.match_hands <= MAX_MATCH_HANDS:
            raise RuleError(field, "option.range", name="match_hands", low=0,
                            high=MAX_MATCH_HANDS, value=opts.match_hands)
        return opts

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
