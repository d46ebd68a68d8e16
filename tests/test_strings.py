"""One string table for the UI (sxmj.ui.strings.STRINGS, looked up through sxmj.ui.i18n)
and one for the scoring's words (sxmj.messages.TERMS): every text in both languages, with the
same placeholders, every vocabulary's words present, and no second table under sxmj/ui."""

from __future__ import annotations

import ast
import string
from dataclasses import fields
from pathlib import Path

import pytest

from sxmj.bots import LEVELS
from sxmj.melds import MELD_KINDS
from sxmj.messages import TERMS
from sxmj.rules import Options
from sxmj.scoring import FLOWER_ITEMS, PATTERNS, PAY_REASONS, WIN_BY
from sxmj.ui import params
from sxmj.ui.i18n import LANGS, STRINGS
from sxmj.ui.table.storage import saved

UI = Path(__file__).resolve().parent.parent / "sxmj" / "ui"
TABLES = {"STRINGS": STRINGS, "TERMS": TERMS}
ENGLISH_ONLY = {"s"}  # English's plural ending ("{n} share{s}"): Chinese has none


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("table", TABLES)
def test_every_text_has_both_languages(table):
    empty = [key for key, (zh, en) in TABLES[table].items() if not zh.strip() or not en.strip()]
    assert not empty, f"{table}: no zh or no en text for {empty}"


@pytest.mark.parametrize("table", TABLES)
def test_zh_and_en_take_the_same_placeholders(table):
    differ = {key: (placeholders(zh), placeholders(en))
              for key, (zh, en) in TABLES[table].items()
              if placeholders(zh) != placeholders(en) - ENGLISH_ONLY}
    assert not differ, f"{table}: zh and en placeholders differ: {differ}"


@pytest.mark.parametrize(("prefix", "values"), [
    ("lang_", LANGS),
    ("speed_", params.SPEEDS),
    ("anim_", saved.ANIMS),
    ("tap_", saved.TAPS),
    ("level_", LEVELS),
    ("act_", MELD_KINDS),
    ("win_by_", WIN_BY),
    ("rule_", [f.name for f in fields(Options)]),
    ("rule_", [f"{f.name}_note" for f in fields(Options)]),
    ("boot_", ["download", "start", "prepare", "ready", "failed", "error", "slow"]),
])
def test_each_vocabulary_has_its_words(prefix, values):
    missing = [prefix + v for v in values if prefix + v not in STRINGS]
    assert not missing, missing


def test_the_scoring_reads_its_words_from_the_terms():
    for pid, (zh, en, what) in PATTERNS.items():
        assert TERMS[f"pattern.{pid}"] == (zh, en)
        assert TERMS[f"pattern.{pid}.explain"][1] == what
    for item, (zh, en, _) in FLOWER_ITEMS.items():
        assert TERMS[f"flower.{item}"] == (zh, en)
    for reason, words in PAY_REASONS.items():
        assert words == (TERMS[f"pay.{reason}"] if reason else ("", ""))


def _modules():
    return sorted(UI.rglob("*.py"))


def _is_text_table(node: ast.expr) -> bool:
    """A dict literal of (中文, English) pairs: what a second string table looks like."""
    return (isinstance(node, ast.Dict) and len(node.values) > 0 and all(
        isinstance(v, ast.Tuple) and len(v.elts) == 2 and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in v.elts)
        for v in node.values))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_ui_module_has_a_second_table(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert module.split(".")[-1] != "texts", f"{path.name} imports {module}"
            for alias in node.names:
                if alias.name in ("STRINGS", "TEXTS", "TEXT", "TERMS", "MESSAGES"):
                    # the table is data in strings.py, which only i18n (its lookup) reads
                    assert (module, alias.name) == ("sxmj.ui.i18n", "STRINGS") or (
                        path.name, module, alias.name) == ("i18n.py", "sxmj.ui.strings",
                                                           "STRINGS"), \
                        f"{path.name} imports the table {module}.{alias.name}: use its lookup"
        if path.name != "strings.py" and isinstance(node, (ast.Assign, ast.AnnAssign)):
            assert not _is_text_table(node.value), \
                f"{path.name}:{node.lineno}: a (zh, en) table: its words belong in i18n.STRINGS"
