"""The expert's search on constructed positions, its honesty about hidden tiles, and review."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from observations import observation

from sxmj.bots import Bot
from sxmj.bots.review import review
from sxmj.bots.search import sample_hidden
from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.record import dumps, to_record
from sxmj.tiles import tile
from sxmj.wall import Rng, Wall

ROOT = Path(__file__).resolve().parent.parent


def turn_legal(obs, win: bool) -> list[Action]:
    out = [Action(0, "discard", t) for t in sorted(set(obs.hand))]
    return out + [Action(0, "hu")] if win else out


def test_expert_throws_a_caishen_to_piao_early_and_wins_late() -> None:
    early = observation("123m456p789s111z5m5m", "5m", wall=80, last="5m")
    choice = Bot("expert", 1).choose(early, turn_legal(early, True))
    assert choice.action == Action(0, "discard", tile("5m"))
    late = observation("123m456p789s111z5m5m", "5m", wall=3, last="5m")
    assert Bot("expert", 1).choose(late, turn_legal(late, True)).action.kind == "hu"


def test_expert_keeps_the_wait_with_more_live_tiles() -> None:
    # throwing 5p waits on 3p/6p (8 tiles), throwing 4p on 5p/1s (4): same value otherwise
    obs = observation("123m456m789m11s455p", "9s", wall=60)
    choice = Bot("expert", 2).choose(obs, turn_legal(obs, False))
    assert choice.action == Action(0, "discard", tile("5p"))


def test_a_reason_cites_the_numbers() -> None:
    obs = observation("123m456m789m11s455p", "9s", wall=60)
    choice = Bot("expert", 2).choose(obs, turn_legal(obs, False))
    if choice.code == "bot.expert":
        assert "points expected" in choice.reason and "期望" in choice.reason_zh


def test_guesses_depend_on_the_observation_only() -> None:
    """Two games that show seat 0 the same thing but hide different tiles give the
    same guesses: the search never sees the real wall or hands."""
    g = Game(Wall.shuffled(Rng(5)), dealer=0)
    obs = g.observation(0)
    hands, wall = sample_hidden(obs, Rng(99))
    other = Game.from_observation(obs, hands, wall)  # different hidden tiles, same view
    assert other.observation(0) == obs and other.wall.tiles != g.wall.live()
    assert sample_hidden(other.observation(0), Rng(7)) == sample_hidden(obs, Rng(7))
    assert Bot("expert", 3).choose(obs, g.legal_actions(0)) == \
        Bot("expert", 3).choose(other.observation(0), other.legal_actions(0))


def test_guesses_are_consistent_with_every_count() -> None:
    m = Match(seed=8)
    g = m.game
    rng = Rng(1)
    while not g.over:
        seat = g.to_move()[0]
        obs = g.observation(seat)
        hands, wall = sample_hidden(obs, rng)
        assert len(wall) == obs.wall
        assert [len(h) for h in hands] == list(obs.hand_counts)
        guess = Game.from_observation(obs, hands, wall)
        # who else may claim depends on the guessed hands: the rest is the same view
        seen = replace(guess.observation(seat), to_move=obs.to_move)
        assert guess.tile_count() == 144 and seen == obs
        legal = g.legal_actions(seat)
        m.apply(legal[rng.randbelow(len(legal))])


def _record_with_a_bad_discard(first: int = 21) -> tuple[dict, int]:
    """A short hand (30 moves at most) where seat 0 throws its 财神 for nothing at its
    first chance, and otherwise plays as hard: one blunder among a few decisions, so a
    review of it takes seconds (a long hand of normal's moves made these reviews 20-60 s
    each)."""
    for seed in range(first, first + 40):
        found = _try_bad_discard(seed)
        if found is not None and len(found[0]["hands"][0]) <= 30:
            return found
    raise AssertionError("no deal gave seat 0 a 财神 to throw")


def _try_bad_discard(seed: int) -> tuple[dict, int] | None:
    m = Match(seed=seed)
    g = m.game
    bots = [Bot("hard" if s == 0 else "normal", s) for s in range(4)]
    bad_index = None
    while not g.over:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        action = bots[seat].choose(g.observation(seat), legal).action
        throw = Action(0, "discard", g.caishen)
        if seat == 0 and bad_index is None and throw in legal and g.phase == "turn" \
                and "hu" not in {a.kind for a in legal}:
            action, bad_index = throw, len(g.actions)
        m.apply(action)
    if bad_index is None:
        return None
    return json.loads(dumps(m)), bad_index


def test_review_flags_a_deliberately_bad_discard_and_names_a_better_one() -> None:
    record, index = _record_with_a_bad_discard()
    r = review(record, seat=0, hand=0, samples=24)
    flagged = {f.index: f for f in r.flagged}
    assert index in flagged, r.to_json()
    f = flagged[index]
    assert f.loss > 1.0 and f.better != f.played and f.played.kind == "discard"
    assert "points" in r.summary("en") and "分" in r.summary("zh")


def test_review_cli_json_contract(tmp_path) -> None:
    record, index = _record_with_a_bad_discard()
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record))
    p = subprocess.run([sys.executable, "-m", "sxmj", "review", str(path), "--seat", "0",
                        "--hand", "0", "--json"], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert set(out) == {"seat", "decisions", "flagged", "total_loss"} and out["seat"] == 0
    for f in out["flagged"]:
        assert set(f) == {"hand", "index", "played", "better", "loss", "reason"}
        assert f["played"].startswith("0 ") and f["better"].startswith("0 ")
        assert record["hands"][f["hand"]][f["index"]] == f["played"]
    bad = subprocess.run([sys.executable, "-m", "sxmj", "review", str(path), "--seat", "7"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_review_of_an_empty_record_and_cancel() -> None:
    assert review(to_record(Match(seed=2)), seat=1).decisions == 0
    record, _ = _record_with_a_bad_discard()
    import pytest

    from sxmj.bots.review import Cancelled

    with pytest.raises(Cancelled):
        review(record, seat=0, samples=4, progress=lambda n, total: n < 2)


def test_thinking_step_by_step_gives_the_same_choice_and_can_be_cut_short() -> None:
    obs = observation("123m456m789m11s455p", "9s", wall=60)
    legal = turn_legal(obs, False)
    steps = list(Bot("expert", 2).think(obs, legal))
    assert steps[-1] is not None and all(s is None for s in steps[:-1]) and len(steps) > 2
    assert steps[-1] == Bot("expert", 2).choose(obs, legal)
    calls = []

    def stop() -> bool:  # the page's clock: out of time after the second guess
        calls.append(1)
        return len(calls) >= 2

    from sxmj.bots import ExpertStrategy

    cut = ExpertStrategy(2, stop=stop).choose(obs, legal)
    assert cut.action in legal and cut.params.get("samples", 2) == 2


def test_review_a_guess_at_a_time_is_the_same_review() -> None:
    # the page's review (per_guess) steps finer but must find exactly what the CLI finds
    from sxmj.bots.review import review_steps

    record, _ = _record_with_a_bad_discard()
    whole = review(record, seat=0, hand=0, samples=6, seed=3)
    steps = list(review_steps(record, 0, 0, samples=6, seed=3, per_guess=True))
    done = [d for d, _, _ in steps]
    total = steps[0][1]
    assert done == sorted(done) and done[0] == 0 and done[-1] == total > 0
    assert total == 6 * whole.decisions and len(steps) > whole.decisions + 1
    fine = steps[-1][2]
    assert fine.to_json() == whole.to_json() and fine.summary("en") == whole.summary("en")


def test_playouts_pass_a_plain_win_for_a_baotou_wait_as_hard_does() -> None:
    """The search's playout policy values points, not only speed: with a 财神 in hand a
    plain win becomes a 暴头 wait while the wall lasts (hard's pass_win), and a 暴头 win
    with a second 财神 beside four sets throws one to 飘 while the wall is long."""
    from sxmj.bots.search import greedy

    def game_of(hand: str, caishen: str, wall: int, last: str) -> Game:
        obs = observation(hand, caishen, wall=wall, last=last)
        others: list[list[int]] = [[], [], [], []]
        rest = [t for t in range(34) for _ in range(4 - obs.visible_counts()[t])]
        for s in (1, 2, 3):
            others[s], rest = rest[:obs.hand_counts[s]], rest[obs.hand_counts[s]:]
        others[0] = list(obs.hand)
        return Game.from_observation(obs, others, rest[:obs.wall])

    # four sets, a 2z and the 财神, the 3m just drawn: a plain win (the 财神 pairs the 2z,
    # not the tile drawn); throwing the 2z leaves four sets and the 财神: 暴头-ready
    plain = "123m456p789s111z2z5m"
    g = game_of(plain, "5m", 40, "3m")
    assert Action(0, "hu") in g.legal_actions(0)
    assert "baotou" not in g.can_win_now(0).patterns
    assert greedy(g, 0) == Action(0, "discard", tile("2z"))
    assert greedy(game_of(plain, "5m", 3, "3m"), 0).kind == "hu"  # too late to wait
    # two 财神 beside four sets: 暴头 now, or a 飘 while the wall is long
    piao = "123m456p789s111z5m5m"
    assert greedy(game_of(piao, "5m", 80, "5m"), 0) == Action(0, "discard", tile("5m"))
    assert greedy(game_of(piao, "5m", 20, "5m"), 0).kind == "hu"


def test_a_playout_robs_a_kong_it_can_rob() -> None:
    """The greedy playout policy takes a rob (抢杠) at once: a rob is no self-draw, so it is
    never weighed as one (that raised once the judged seat's own play could add a kong)."""
    from sxmj.bots.search import greedy

    for seed in range(200):
        m = Match(seed=seed)
        g = m.game
        while not g.over:
            seat = g.to_move()[0]
            legal = g.legal_actions(seat)
            if g.phase == "rob" and any(a.kind == "hu" for a in legal):
                assert greedy(g, seat).kind == "hu"
                return
            jia = next((a for a in legal if a.kind == "jiagang"), None)
            m.apply(jia or Bot("hard").choose(g.observation(seat), legal).action)
    raise AssertionError("no deal of 200 gave a kong to rob")


def test_a_review_crosses_the_wire_whole() -> None:
    """The page's review worker sends its review back as JSON (:meth:`Review.to_wire`): the
    review rebuilt from it is the same, every reason and the summary in both languages."""
    from sxmj.bots.review import Review

    record, _ = _record_with_a_bad_discard()
    r = review(record, seat=0, hand=0, samples=6, seed=3)
    assert r.flagged and r.discards
    back = Review.from_wire(json.loads(json.dumps(r.to_wire())))
    assert back == r
    for lang in ("zh", "en"):
        assert back.summary(lang) == r.summary(lang)
        assert [f.reason_in(lang) for f in back.flagged] == [f.reason_in(lang) for f in r.flagged]


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_a_broken_wire_is_refused_with_a_reason(data) -> None:
    """Anything else than what to_wire wrote: a ValueError naming what is wrong, never
    another exception and never a review with a part missing."""
    from sxmj.bots.review import Flag, Review

    good = Review(0, 4, [Flag(0, 3, Action.parse("0 discard 5m"), Action.parse("0 discard 1z"),
                              2.5, {"move": "discard 1z", "move_played": "discard 5m",
                                    "points": "2.5"})], discards=3, efficient=2).to_wire()
    assert Review.from_wire(json.loads(json.dumps(good))).flagged[0].loss == 2.5
    broken = json.loads(json.dumps(good))
    where = data.draw(st.sampled_from(["top", "flag"]))
    target = broken if where == "top" else broken["flagged"][0]
    key = data.draw(st.sampled_from(sorted(target)))
    junk = data.draw(st.one_of(st.none(), st.booleans(), st.text(max_size=8),
                               st.lists(st.integers(), max_size=2), st.just({}),
                               st.just("0 discard 9z"), st.just("review.nope")))
    if data.draw(st.booleans()):
        del target[key]
    else:
        target[key] = junk
    try:
        back = Review.from_wire(broken)
    except ValueError as err:
        assert str(err)
        return
    # the junk happened to be valid there: the review holds exactly what was sent
    assert back.to_wire() == {**broken, "flagged": [
        {**f, "loss": float(f["loss"])} for f in broken["flagged"]]}
