import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

import pytest  # noqa: E402

# Tests that coverage's tracing would slow two to nine times, run untraced: brute-force
# agreement checks and whole reviews, minutes of pure-Python search under a tracer (`make
# unit` took 12 min 48 s with them traced, against 3 min 56 s with nothing traced). Each
# still runs and can fail; only its lines are not counted (nor those of the CLI it runs in a
# subprocess), and the core keeps its floor without them (scripts/coverage_report.py, `make
# test`), as smaller tests reach the same code. A test named here by its function's name, in
# every parametrization.
UNTRACED = {
    "test_winning.py": ("test_waits_with_the_caishen_agree_with_brute_force",
                        "test_fast_win_check_agrees_with_brute_force",
                        "test_waits_agree_with_brute_force"),
    "test_expert.py": ("test_review_a_guess_at_a_time_is_the_same_review",
                       "test_review_cli_json_contract",
                       "test_review_flags_a_deliberately_bad_discard_and_names_a_better_one",
                       "test_a_review_crosses_the_wire_whole",
                       "test_review_of_an_empty_record_and_cancel"),
    "test_judge.py": ("test_following_the_assist_through_a_won_hand_gets_no_flag",
                      "test_the_cli_review_gives_the_librarys_flags_for_the_same_seed"),
    "test_differential.py": ("test_evaluator_agrees_with_the_rule_book",),
}


UNTRACED_ENV = pytest.StashKey[str | None]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = getattr(item, "originalname", item.name)
        if name in UNTRACED.get(item.path.name, ()):
            item.add_marker(pytest.mark.no_cover)




@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """An untraced test (:data:`UNTRACED`) runs untraced in an xdist worker too. A worker is
    a subprocess of a run with coverage, so coverage's ``patch = ["subprocess"]`` (there
    for the CLI's subprocesses) started a Coverage in it at start-up, beneath pytest-cov's
    own; when ``no_cover`` pauses pytest-cov's, that one traces instead. This runs after
    every wrapper (pytest-cov's pause included) and just before the test: no tracer is
    left. pytest-cov's resume after the test brings tracing back for the others."""
    if item.get_closest_marker("no_cover") is not None:
        sys.settrace(None)
        threading.settrace(None)  # (a thread the test starts; the resume sets it again)
        # nor a subprocess it starts (the variable that has coverage start there), until
        # the test ends (pytest_runtest_teardown)
        item.stash[UNTRACED_ENV] = os.environ.pop("COVERAGE_PROCESS_CONFIG", None)


def pytest_runtest_teardown(item: pytest.Item) -> None:
    kept = item.stash.get(UNTRACED_ENV, None)
    if kept is not None:
        os.environ["COVERAGE_PROCESS_CONFIG"] = kept
