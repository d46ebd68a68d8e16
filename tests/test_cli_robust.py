"""The command line never crashes: any input gives exit 0 with JSON, or exit 2 with one line.

The subprocess cases are the ones an audit found ending in a traceback; the
hypothesis cases fuzz every field of the evaluate contract and of a record
in-process, where thousands of inputs take a second or two.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sxmj.messages import CoreError
from sxmj.record import dumps, replay
from sxmj.request import EVALUATE_FIELDS, evaluate_json, read_json

ROOT = Path(__file__).parent.parent
GOOD = {"hand": "123m456m789m12p3p55p", "win_tile": "3p", "caishen": "9s"}


def run(args: list[str], data: bytes, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sxmj", *args], input=data,
                          capture_output=True, cwd=ROOT, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **(env or {})})


def assert_refused(p: subprocess.CompletedProcess, field: str) -> str:
    err = p.stderr.decode("utf-8")
    assert p.returncode == 2, err
    assert p.stdout == b""
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith(field), err
    return err


@pytest.mark.parametrize(("name", "data", "field"), [
    ("non-ASCII digit in a meld", json.dumps({**GOOD, "melds": ["peng ²²²m"]}).encode(),
     "melds"),
    ("seat 1.0 as the winner", json.dumps({**GOOD, "table": {"winner": 1.0}}).encode(),
     "table.winner"),
    ("seat 1.0 as the robbed", json.dumps({**GOOD, "win_by": "rob",
                                           "table": {"winner": 0, "robbed": 1.0}}).encode(),
     "table.robbed"),
    ("seat 1.0 in piao", json.dumps({**GOOD, "table": {"winner": 0, "piao": [1.0]}}).encode(),
     "table.piao"),
    ("100,000 brackets", b"[" * 100_000 + b"]" * 100_000, "input"),
    ("an integer of 5,000 digits", b'{"hand": "1m", "piao": ' + b"9" * 5000 + b"}", "input"),
    ("bytes that are not UTF-8", b'{"hand": "\xff\xfe"}', "input"),
    ("a lone surrogate in a tile", json.dumps({**GOOD, "hand": "\ud800"}).encode(), "hand"),
    ("a huge hand", json.dumps({**GOOD, "hand": "1m" * 100_000}).encode(), "hand"),
    # a key given twice was read as its last value: which one did the writer mean?
    ("a key given twice", b'{"hand": "1m", "win_tile": "3p", "caishen": "9s", '
                          b'"hand": "123m456m789m12p3p55p"}', "input"),
    ("a key given twice in the table",
     json.dumps(GOOD)[:-1].encode() + b', "table": {"winner": 0, "winner": 1}}', "input"),
])
def test_evaluate_refuses_with_one_line(name, data, field) -> None:
    assert_refused(run(["evaluate"], data), field)


def test_evaluate_speaks_chinese_with_lang_zh() -> None:
    p = run(["evaluate", "--lang", "zh"], json.dumps({**GOOD, "caishen": "5z"}).encode())
    assert "财神：5z（白板）是花牌" in assert_refused(p, "财神")


def test_a_batch_names_the_item_at_fault() -> None:
    p = run(["evaluate"], json.dumps([GOOD, {**GOOD, "piao": -1}]).encode())
    assert_refused(p, "[1].piao")


@pytest.mark.parametrize(("args", "field"), [
    (["tournament", "--hands", "0"], "--hands"),
    (["tournament", "--jobs", "0"], "--jobs"),
    (["tournament", "--jobs", "65"], "--jobs"),
    (["tournament", "--seats", "hard,normal"], "--seats"),
    (["simulate", "--hands", "-1"], "--hands"),
    (["simulate", "--hands", "1.5"], "--hands"),
    (["simulate", "--hands", "9" * 40], "--hands"),
    (["simulate", "--base", "7"], "--base"),
    (["simulate", "--seed", "٣"], "--seed"),
    (["simulate", "--seed", "²"], "--seed"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["simulate", "--bots", "grandmaster"], "--bots"),
    (["simulate", "--bots", ""], "--bots"),
    (["review", "x.json", "--seat", "4"], "--seat"),
    (["review", "x.json", "--seat", "0", "--samples", "1"], "--samples"),
    (["review", "x.json", "--seat", "0", "--hand", "-1"], "--hand"),
    (["evaluate", "--lang", "fr"], "--lang"),
    (["simulate", "--hands"], "--hands"),
    (["review", "x.json"], "python3 -m sxmj review"),
    (["simulate", "--frob"], "python3 -m sxmj"),
    ([], "python3 -m sxmj"),
])
def test_numeric_arguments_are_range_checked(args, field) -> None:
    # argparse printed its usage too (three lines), and a bad --bots or --seats exited 1
    assert_refused(run(args, b""), field)


def test_argument_errors_speak_chinese_with_lang_zh() -> None:
    err = assert_refused(run(["simulate", "--lang", "zh", "--base", "7"], b""), "--base")
    assert "底花只能是 5、10、15、20 或 25，收到 7" in err
    err = assert_refused(run(["tournament", "--hands", "0", "--lang=zh"], b""), "--hands")
    assert "要在 1 到 10000000 之间，收到 0" in err


def test_review_refuses_a_hand_the_record_does_not_have(tmp_path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD))
    hands = len(RECORD["hands"])
    err = assert_refused(run(["review", str(path), "--seat", "0", "--hand", str(hands)], b""),
                         "--hand")
    assert f"has {hands} hands" in err


def test_a_closed_pipe_or_an_ascii_terminal_is_no_traceback() -> None:
    # `simulate --json | head -1` ended in a BrokenPipeError traceback; an ASCII stdout
    # in a UnicodeEncodeError on 臭庄
    p = subprocess.run(f"{sys.executable} -m sxmj simulate --hands 40 --json --bots easy "
                       "| head -c 1", shell=True, capture_output=True, cwd=ROOT, timeout=120)
    assert p.stdout == b"{" and b"Traceback" not in p.stderr, p.stderr
    p = run(["simulate", "--hands", "1", "--bots", "easy"], b"",
            env={"PYTHONIOENCODING": "ascii"})
    assert p.returncode == 0 and "臭庄" in p.stdout.decode() and not p.stderr, p.stderr


# ------------------------------------------------------------------ fuzzing the contract

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                      st.floats(allow_nan=False), st.text(max_size=12),
                      st.sampled_from(["1m", "9s", "5z", "1f", "rob", "kong", "peng 222z",
                                       "²", "١", "0m", "8z", "123m456m789m12p3p55p"]))
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
TABLE = st.fixed_dictionaries({}, optional={"winner": JSON_VALUE, "robbed": JSON_VALUE,
                                            "piao": JSON_VALUE, "claims": JSON_VALUE})


@settings(max_examples=1500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(EVALUATE_FIELDS), value=st.one_of(JSON_VALUE, TABLE))
def test_every_field_takes_any_value_without_a_traceback(field, value) -> None:
    request = {**GOOD, field: value}
    try:
        out = evaluate_json(request)
    except CoreError as e:
        assert e.field and e.text("zh") and e.text("en")
        return
    assert isinstance(out["win"], bool)
    json.dumps(out)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.binary(max_size=64) | st.text(max_size=64).map(str.encode))
def test_any_bytes_read_as_json_or_refused(data) -> None:
    try:
        read_json(data)
    except CoreError as e:
        assert e.code.startswith("input.")


def _record() -> dict:
    from sxmj.match import Match

    m = Match(seed=3)
    g = m.game
    while not g.over:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        m.apply(next((a for a in legal if a.kind == "pass"), legal[-1]))
    return json.loads(dumps(m))


RECORD = _record()


@settings(max_examples=600, deadline=None, derandomize=True)
@given(path=st.sampled_from(["format", "version", "options", "seed", "dealer", "wall",
                             "hands", "results", "hands.0", "hands.0.3", "results.0",
                             "results.0.winner", "results.0.payments", "options.fan_cap"]),
       value=JSON_VALUE, delete=st.booleans())
def test_a_record_changed_anywhere_replays_or_is_refused(path, value, delete) -> None:
    record = copy.deepcopy(RECORD)
    *parents, last = path.split(".")
    node = record
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    key = int(last) if isinstance(node, list) else last
    if delete and isinstance(node, dict):
        node.pop(key, None)
    else:
        node[key] = value
    try:
        replay(record)
    except CoreError as e:
        assert e.text("zh") and e.text("en")


def test_a_record_with_a_key_given_twice_is_refused() -> None:
    text = json.dumps(RECORD)[:-1] + ', "seed": 4}'
    with pytest.raises(CoreError) as e:
        replay(text)
    assert e.value.code == "input.duplicate_key" and e.value.field == "record"
    assert "seed" in e.value.text("zh")


def test_results_may_be_left_out_but_not_shortened_or_mistyped() -> None:
    replay({k: v for k, v in RECORD.items() if k != "results"})
    for bad in ([], {}, RECORD["results"] + RECORD["results"],
                [{"winner": RECORD["results"][0]["winner"]}], None):
        with pytest.raises(CoreError) as e:
            replay({**RECORD, "results": bad})
        assert e.value.field == "results"


def test_replay_refuses_bad_files_with_one_line(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff" + json.dumps(RECORD).encode())
    p = run(["replay", str(bad)], b"")
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1 and b"Traceback" not in p.stderr
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 50_000)
    p = run(["replay", str(deep)], b"")
    assert p.returncode == 2 and b"Traceback" not in p.stderr
    p = run(["replay", str(tmp_path / "missing.json")], b"")
    assert p.returncode == 2 and b"Traceback" not in p.stderr


def _shell(command: str) -> subprocess.CompletedProcess:
    sxmj = f"{sys.executable} -m sxmj"
    return subprocess.run(command.format(sxmj=sxmj), shell=True, capture_output=True,
                          cwd=ROOT, timeout=120)


def test_closed_or_full_streams_are_no_traceback() -> None:
    # a closed stdin was an AttributeError traceback, a closed stdout or a full disk
    # an AttributeError or OSError one, and a closed stderr turned a refusal's 2 into 1
    p = _shell("{sxmj} evaluate <&-")
    assert p.returncode == 2 and p.stderr.decode().startswith("input: can't read the input")
    assert len(p.stderr.splitlines()) == 1 and not p.stdout
    for command in ("{sxmj} simulate --hands 1 --bots easy", "echo '[]' | {sxmj} evaluate"):
        p = _shell(command + " >&-")
        assert p.returncode == 1 and not p.stderr, p.stderr
        if Path("/dev/full").exists():
            p = _shell(command + " >/dev/full")
            assert p.returncode == 1 and b"Traceback" not in p.stderr, p.stderr
            assert len(p.stderr.splitlines()) == 1
    assert _shell("echo '{{}}' | {sxmj} evaluate 2>&-").returncode == 2
    assert _shell("{sxmj} simulate --hands 0 2>&-").returncode == 2


@pytest.mark.parametrize("request_", [
    {"\n": 1},
    {"\x1b[2J": 1},
    {**GOOD, "hand": "1m\n2m"},
    {**GOOD, "hand": "\x1b[31mred"},
    {**GOOD, "win_by": "a\nb"},
    {**GOOD, "melds": ["peng\n222z"]},
    {**GOOD, "options": {"a\u2028b": 1}},
    {**GOOD, "table": {"winner": 0, "\r": 1}},
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refusal_is_one_printable_line_whatever_it_quotes(request_, lang) -> None:
    # the Chinese texts quote the input as given: a newline or a terminal escape in it
    # made two lines on stderr, or drove the terminal
    with pytest.raises(CoreError) as e:
        evaluate_json(request_)
    assert e.value.text(lang).isprintable() and str(e.value).isprintable()


def test_evaluate_zh_prints_one_line_for_a_newline_in_the_input() -> None:
    p = run(["evaluate", "--lang", "zh"], json.dumps({**GOOD, "win_by": "a\nb"}).encode())
    assert "a\\nb" in assert_refused(p, "胡法")


@pytest.mark.parametrize("where", ["wall", "walls"])
@pytest.mark.parametrize(("spec", "field"), [
    ({"tiles": 5}, "tiles"), ({"tiles": None}, "tiles"), ({"tiles": True}, "tiles"),
    ({"tiles": 1.5}, "tiles"), ({"tiles": "1m", "indicator": [1]}, "indicator"),
    ({"tiles": "1m", "indicator": True}, "indicator"),
    ({"tiles": "1m", "indicator": None}, "indicator"),
])
def test_a_wall_of_the_wrong_type_is_refused(where, spec, field) -> None:
    record = copy.deepcopy(RECORD)
    if where == "wall":
        record["wall"], name = spec, f"wall.{field}"
    else:
        record["hands"] = record["hands"] * 2
        record.pop("results")
        record["walls"], name = [None, spec], f"walls[1].{field}"
    with pytest.raises(CoreError) as e:
        replay(record)
    assert e.value.field == name and e.value.text("zh")


def test_a_wall_indicator_is_exactly_one_tile() -> None:
    # "3m1m2m3m" was read as its first tile and the rest dropped without a word
    from sxmj.tiles import code
    from sxmj.wall import Rng, Wall
    wall = Wall.shuffled(Rng(7))
    indicator = code(wall.indicator)
    assert Wall.from_tiles(wall.tiles, indicator).indicator == wall.indicator
    for written in ("", indicator + "1m", indicator * 2, indicator + "1m2m3m"):
        with pytest.raises(CoreError) as e:
            Wall.from_tiles(wall.tiles, written)
        assert e.value.code == "tile.one", written
    record = copy.deepcopy(RECORD)
    record["wall"] = {"tiles": code_list(wall.tiles), "indicator": indicator + "1m"}
    with pytest.raises(CoreError) as e:
        replay(record)
    assert e.value.code == "tile.one" and e.value.field == "wall"


def code_list(tiles: list[int]) -> str:
    from sxmj.tiles import format_tiles
    return format_tiles(tiles)


def test_input_past_the_size_limit_is_refused_unread(tmp_path) -> None:
    from sxmj.request import MAX_INPUT_BYTES
    big = b" " * (MAX_INPUT_BYTES + 1)
    assert_refused(run(["evaluate"], big), "input")
    path = tmp_path / "big.json"
    path.write_bytes(big)
    err = assert_refused(run(["replay", str(path)], b""), "record")
    assert "32 MB" in err
    # /dev/zero never ends: it is refused after the limit, not read until memory runs out
    assert_refused(run(["replay", "/dev/zero"], b""), "record")


@pytest.mark.parametrize(("args", "field", "words"), [
    (["simulate", "--lang=zh", "--lang", "en", "--hands", "0"], "--hands", "must be 1"),
    (["simulate", "--la", "zh", "--hands", "0"], "--hands", "要在 1 到"),
    (["simulate", "--lang", "zh", "--bots"], "--bots", "缺少它的值"),
    (["simulate", "--lang", "zh", "--frob"], "python3 -m sxmj", "不认识的参数：--frob"),
    (["review", "--lang", "zh", "x.json"], "python3 -m sxmj review", "缺少参数：--seat"),
    (["replay", ""], "file", "can't read the file"),
])
def test_argument_errors_follow_the_lang_argparse_settles_on(args, field, words) -> None:
    err = assert_refused(run(args, b""), field)
    assert words in err


@pytest.mark.parametrize("claims", [
    [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],           # seat 0 claims its own discard
    [[0, 3, 2, 0], [0] * 4, [0] * 4, [0] * 4],           # five claims: five sets laid down
    [[0, 1000, 0, 0], [0] * 4, [0] * 4, [0] * 4],
])
def test_impossible_claims_are_refused(claims) -> None:
    with pytest.raises(CoreError) as e:
        evaluate_json({**GOOD, "table": {"winner": 0, "claims": claims}})
    assert (e.value.field, e.value.code) == ("table.claims", "hand.claims_impossible")
    assert "4" in e.value.text("zh") and "4" in e.value.text("en")
