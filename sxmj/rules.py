"""Rule options (RULES.md §10) and the errors every rule check raises."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

BASE_FLOWERS = (5, 10, 15, 20, 25)


class RuleError(ValueError):
    """Input that breaks the rules' own vocabulary (a bad option, tile, meld...).

    ``field`` names the input field at fault so a tool can point at it.
    """

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


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

    @staticmethod
    def from_dict(data: dict[str, Any] | None, field: str = "options") -> Options:
        """Options from a JSON-like dict; unknown names and bad values raise RuleError."""
        if data is None:
            return Options()
        if not isinstance(data, dict):
            raise RuleError(field, f"expected an object of rule options, got {data!r}")
        known = {f.name: f for f in fields(Options)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise RuleError(field, f"unknown rule option {name!r} "
                                       f"(known: {', '.join(sorted(known))})")
            default = known[name].default
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RuleError(field, f"{name} must be true or false, got {value!r}")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise RuleError(field, f"{name} must be a whole number, got {value!r}")
            values[name] = value
        opts = Options(**values)
        if opts.base_flowers not in BASE_FLOWERS:
            raise RuleError(field, f"base_flowers must be one of {BASE_FLOWERS}, "
                                   f"got {opts.base_flowers}")
        if not 0 <= opts.reserved_tiles <= 40:
            raise RuleError(field, f"reserved_tiles must be 0–40, got {opts.reserved_tiles}")
        if not 0 <= opts.fan_cap <= 10:
            raise RuleError(field, f"fan_cap must be 0–10, got {opts.fan_cap}")
        return opts

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
