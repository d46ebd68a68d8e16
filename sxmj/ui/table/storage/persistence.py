"""The table's side of ``localStorage``: the settings, the profile and the saved match.

What is kept and how it is checked is pure (:mod:`sxmj.ui.table.storage.saved`); this is
where it is read and written. Storage may be missing, disabled, full or refused: the game
then goes on unsaved, and what could not be used becomes a notice, never an error. An
unusable value is reset as it is read (settings and profile to what the game goes on with,
the save removed), so its notice shows once, not on every reload.
"""

from __future__ import annotations

from dataclasses import replace

from sxmj.match import Match
from sxmj.ui.params import given, parse_params, query_values
from sxmj.ui.table.dom import Clock
from sxmj.ui.table.storage.saved import (
    KEY_PROFILE,
    KEY_SAVE,
    KEY_SETTINGS,
    Loaded,
    Problem,
    Profile,
    Settings,
    load_profile,
    load_save,
    load_settings,
    save_text,
)


def url_overrides(s: Settings, search: str) -> Settings:
    """Parameters given in the URL win over the stored settings (and are kept); a refused
    one (:func:`sxmj.ui.params.parse_params`) leaves the stored setting alone."""
    p = parse_params(search)
    values = query_values(search)
    refused = {r.param for r in p.refused}

    def used(name: str) -> bool:
        return bool(given(values, name)) and name not in refused

    if used("lang"):
        s = replace(s, lang=p.lang)
    if used("speed"):
        s = replace(s, speed=p.speed)
    if used("bots"):
        s = replace(s, bots=p.levels)
    return s


class Persistence:
    """Reads and writes the three keys; ``notices`` collects what stored data was not used,
    ``profile`` is the player's, ``counted`` how many finished hands of the match it holds."""

    def __init__(self, window, clock: Clock):
        self.storage = self._storage(window)
        # False in a frame of another site's page whose browser refuses it storage (Safari by
        # default), or with none at all: the match, the rank and the daily are not kept
        self.kept = self.storage is not None
        self.clock = clock
        self.notices: list[Problem] = []
        self.profile = Profile()
        self.counted = 0

    @staticmethod
    def _storage(window):
        # A refused storage throws here (a SecurityError: a frame of another site's page in
        # Safari, or with third-party cookies blocked); a full one still reads, and is kept
        try:
            storage = window.localStorage
        except Exception:  # noqa: BLE001 - refused: play without it
            return None
        return None if storage is None else storage

    def load(self, key: str) -> str | None:
        """The stored text, or None (nothing stored, or no storage)."""
        if self.storage is None:
            return None
        try:
            value = self.storage.getItem(key)
        except Exception:  # noqa: BLE001
            return None
        return value if isinstance(value, str) else None

    def store(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` if the storage lets us."""
        if self.storage is None:
            return
        try:
            self.storage.setItem(key, value)
        except Exception:  # noqa: BLE001 - full or refused: the game goes on unsaved
            pass

    def remove(self, key: str) -> None:
        """Forget ``key`` if the storage lets us."""
        if self.storage is None:
            return
        try:
            self.storage.removeItem(key)
        except Exception:  # noqa: BLE001
            pass

    def _notice(self, problem: Problem | None) -> None:
        if problem is not None:
            self.notices.append(problem)

    def load_settings(self, search: str) -> Settings:
        """The stored settings with the URL's parameters over them (stored again so: an
        unreadable value is replaced by what the game goes on with)."""
        settings, problem = load_settings(self.load(KEY_SETTINGS))
        self._notice(problem)
        settings = url_overrides(settings, search)
        self.save_settings(settings)
        return settings

    def save_settings(self, settings: Settings) -> None:
        """Keep the settings (they apply at once, the rules from the next match)."""
        self.store(KEY_SETTINGS, settings.to_json())

    def load_profile(self) -> None:
        """Read the profile (a fresh one, kept at once, with a notice, when it is unreadable)."""
        self.profile, problem = load_profile(self.load(KEY_PROFILE))
        self._notice(problem)
        if problem is not None:
            self.store(KEY_PROFILE, self.profile.to_json())

    def load_match(self) -> Loaded:
        """The saved match, replayed (``match`` is None when there is none or it is bad; a bad
        one is removed)."""
        loaded = load_save(self.load(KEY_SAVE))
        self._notice(loaded.problem)
        if loaded.problem is not None:
            self.remove(KEY_SAVE)
        return loaded

    def save_match(self, match: Match) -> None:
        """Save the match (after every action): a reload resumes exactly here."""
        t0 = self.clock.now()
        self.store(KEY_SAVE, save_text(match, self.counted))
        self.clock.record("save", t0, self.clock.now() - t0)

    def count_hands(self, match: Match) -> None:
        """Add the hands finished since the last count to the profile (once each), and the
        match once its last hand is counted."""
        done = len(match.results)
        if done <= self.counted:
            return
        for i in range(self.counted, done):
            self.profile.add_hand(match, i)
            if i + 1 == match.length:  # its last hand: the match counts, with its place
                self.profile.add_match(match)
        self.counted = done
        self.store(KEY_PROFILE, self.profile.to_json())
