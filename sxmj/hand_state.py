"""The state one hand keeps, as the parts of :class:`sxmj.game.Game` see it.

:class:`sxmj.game.Game` keeps a hand's state and is put together from parts
(:class:`sxmj.claims.ClaimWindows`, :class:`sxmj.views.HandViews`) that read and change
it. :class:`HandState`, their common base, declares that state and the game's steps they
call, for the type checker only: at run time it is an empty class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action, Event
    from .game import HandResult
    from .melds import Meld
    from .rules import Options
    from .scoring import Evaluation, WinContext
    from .wall import Wall
    from .winning import Shape


class HandState:
    """What a part of the game may read, change and call (the game has it all)."""

    if TYPE_CHECKING:
        options: Options
        wall: Wall
        dealer: int
        caishen: int
        hands: list[list[int]]
        _keys: list[list[int]]
        _sizes: list[int]
        melds: list[list[Meld]]
        flowers: list[list[int]]
        discards: list[list[tuple[int, int | None]]]
        claims: list[list[int]]
        piao_chain: list[int]
        piao_block: set[int]
        had_turn: list[bool]
        claim_made: bool
        turn: int
        phase: str
        last_tile: int | None
        last_source: str
        chain_kongs: int
        chain_flowers: int
        first_turn_win: bool
        after_claim: bool
        last_discard: tuple[int, int] | None
        pending: dict[int, list[Action]]
        responses: dict[int, Action]
        rob_tile: int | None
        result: HandResult | None
        actions: list[Action]
        events: list[dict[str, Any]]
        deal_events: list[dict[str, Any]]
        _turn_cache: list[Action] | None
        _win_cache: tuple[int, Evaluation | None] | None
        # melds, flowers and claims as the tuples an Observation holds, and the rivers
        # (None: rebuilt when next observed)
        _views: tuple[tuple[tuple[Meld, ...], ...], tuple[tuple[int, ...], ...],
                      tuple[tuple[int, ...], ...]] | None
        _river_view: tuple[tuple[tuple[int, int | None], ...], ...] | None

        def concealed(self, seat: int) -> list[int]: ...
        def shape(self, seat: int) -> Shape: ...
        def to_move(self) -> list[int]: ...
        def _change(self, seat: int, t: int, n: int) -> None: ...
        def _emit(self, event: Event, **data: object) -> None: ...
        def _start_turn(self, seat: int, draw: bool) -> None: ...
        def _drawable(self) -> bool: ...
        def _kong_replacement(self, seat: int) -> None: ...
        def _self_draw_by(self) -> tuple[str, int]: ...
        def _finish(self, winner: int, ev: Evaluation, robbed: int | None,
                    win_by: str) -> None: ...
        def win_context(self, seat: int, win_tile: int, win_by: str,
                        chain: int = 0) -> WinContext: ...
        def _open_claims(self, seat: int, t: int) -> None: ...
        def _ask_order(self) -> list[int]: ...
