"""embed.html: live Shaoxing examples for other pages' iframes (``embed_main.py``).

Modes (``?mode=…``, plus ``lang=zh|en`` everywhere):

- ``hand``: ``hand=…&caishen=…`` and optionally every calculator field (``win_tile``
  (default: the last tile), ``melds``, ``flowers``, ``win_by``, …). 14 tiles: the
  evaluator's result; 13 tiles: the waits, 暴头-ready and the distance to ready.
- ``calc``: the calculator, prefilled by the same fields.
- ``scenario``: ``name=…``: a card with the scenario's title, goal and starting hand and
  a link that opens ``index.html?scenario=NAME``.
- ``play``: ``seed=N``: a card with your starting hand of that deal and a link that opens
  ``index.html?seed=N``.
- ``daily``: optionally ``date=YYYY-MM-DD`` (default: today in Asia/Shanghai, by the
  reader's clock): a card with the day's challenge (每日挑战), your starting hand and the 财神
  of its first hand, and a link that opens ``index.html?daily=DAY``. A future day is refused.

Every parameter is validated. What a mode cannot do without (``mode``; ``hand`` and
``caishen``, or any tile the hand mode judges; ``name``; ``seed``) gives a readable message in
中文 and English in the frame (``[data-testid="embed-error"]`` naming the parameter), never a
Python error. A parameter the mode does not know, or an unusable ``lang`` or calculator switch,
is left out and named in the small notice every page shows
(:func:`sxmj.ui.params.refusals_html`),
as on the other pages. The
hand and calc modes put the calculator's ``[data-testid="calc-result"]`` on the page. The
page posts its height to the parent (``static/js/page-boot.js``).

The markup is pure (:func:`render`); :func:`start` only puts it on the page.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from urllib.parse import urlencode

from sxmj import daily
from sxmj.match import Match
from sxmj.messages import field_name
from sxmj.rules import RuleError
from sxmj.scenarios import ScenarioError, builtin
from sxmj.scoring import InvalidHand
from sxmj.tiles import caishen_of, tile
from sxmj.ui.i18n import tr
from sxmj.ui.markup import esc, group_html
from sxmj.ui.pages.calc_state import URL_FIELDS, CalcState, read_calc
from sxmj.ui.pages.hand_cards import TileCtx, invalid_html, result_html, waits_html
from sxmj.ui.pages.judge import analyse, judge, request_from_params, tile_count, tiles_of
from sxmj.ui.params import MAX_SEED, MAX_VALUE, Refusal, is_whole, refusal, shorten

MODES = ("hand", "calc", "scenario", "play", "daily")
COMMON = ("mode", "lang")


@dataclass
class Embed:
    """What to show: ``html`` for the frame, or the calculator to mount (mode calc)."""

    mode: str
    html: str = ""
    calc: CalcState | None = None
    calc_error: Exception | None = None
    error: str | None = None  # the parameter at fault
    refused: list[Refusal] = field(default_factory=list)  # left out, named in the notice


def render(params: dict[str, str], lang: str, today: str = "") -> Embed:
    """The frame's content for its URL parameters (``today``: the reader's day, for the
    daily mode)."""
    mode = params.get("mode", "").strip().lower()
    if not mode:
        return _error("mode", "embed_mode_required", lang, mode)
    if mode not in MODES:
        return _error("mode", "embed_mode_unknown", lang, "", value=shorten(params["mode"]))
    if mode == "calc":
        state, error, refused = read_calc(params, COMMON)
        return Embed("calc", calc=state, calc_error=error, refused=refused)
    used, refused = _sort(params, ALLOWED[mode])
    if mode == "daily":
        embed = _daily(used, lang, today)
    else:
        embed = {"hand": _hand, "scenario": _scenario, "play": _play}[mode](used, lang)
    embed.refused = refused
    return embed


ALLOWED = {"hand": URL_FIELDS, "scenario": ("name",), "play": ("seed",), "daily": ("date",)}


def _sort(params: dict[str, str], allowed: tuple[str, ...]
          ) -> tuple[dict[str, str], list[Refusal]]:
    """The parameters a mode takes, and the others (unknown, or longer than any value)."""
    used: dict[str, str] = {}
    refused: list[Refusal] = []
    for name, value in params.items():
        if name in COMMON:
            used[name] = value  # mode and lang: read by render() and the page
        elif name not in allowed:
            refused.append(refusal(name, value, "unknown"))
        elif len(value) > MAX_VALUE:
            refused.append(refusal(name, value, "long", str(MAX_VALUE)))
        else:
            used[name] = value
    return used, refused


def _hand(params: dict[str, str], lang: str) -> Embed:
    fields = {k: v for k, v in params.items() if k not in COMMON}
    for name in ("hand", "caishen"):
        if not fields.get(name, "").strip():
            return _hand_error(InvalidHand(name, "field.required"), lang)
    query = request_from_params(fields)
    if query.error is not None:
        return _hand_error(query.error, lang)
    request = query.request
    try:
        tiles_of(request, "hand")
    except InvalidHand as e:
        return _hand_error(e, lang)
    if tile_count(request) == 13:
        request.pop("win_tile", None)
        try:
            html = waits_html(analyse(request), lang)
        except InvalidHand as e:
            return _hand_error(e, lang)
    else:
        j = judge(request)
        if j.error is not None:
            return _hand_error(j.error, lang)
        html = result_html(j, lang)
    link = "./calc.html?" + urlencode([(k, v) for k, v in params.items() if k != "mode"])
    html += (f'<p class="embed__more"><a href="{esc(link)}" target="_blank" rel="noopener">'
             f'{esc(tr(lang, "open_calc"))} ↗</a></p>')
    return Embed("hand", html)


def _scenario(params: dict[str, str], lang: str) -> Embed:
    name = params.get("name", "").strip()
    if not name:
        return _error("name", "embed_name_required", lang, "scenario")
    try:
        sc = builtin(name)
    except ScenarioError as e:
        known = str(e).split("known: ", 1)[-1].rstrip(")")
        return _error("name", "embed_name_unknown", lang, "scenario", name=shorten(name),
                      known=known)
    zh = lang == "zh"
    ctx = TileCtx(lang, caishen_of(tile(sc.indicator)))
    from sxmj.tiles import parse_tiles
    hand = parse_tiles(sc.hands[0])
    href = "./index.html?" + urlencode({"scenario": name, **({} if zh else {"lang": lang})})
    return _card("scenario", f'data-scenario="{esc(name)}"', "scenario_card",
                 esc(sc.title["zh" if zh else "en"]), sc.goal["zh" if zh else "en"],
                 group_html(hand, ctx), href, "scenario_start", lang)


def _play(params: dict[str, str], lang: str) -> Embed:
    text = params.get("seed", "").strip()
    if not text:
        return _error("seed", "embed_seed_required", lang, "play")
    if not is_whole(text) or int(text) > MAX_SEED:
        return _error("seed", "embed_seed_bad", lang, "play", most=MAX_SEED, text=shorten(text))
    seed = int(text)
    match = Match(seed=seed)
    game = match.game
    ctx = TileCtx(lang, game.caishen)
    hand = game.concealed(0)
    zh = lang == "zh"
    href = "./index.html?" + urlencode({"seed": seed, **({} if zh else {"lang": lang})})
    dealer = (f' · {esc(tr(lang, "dealer_you"))}' if game.dealer == 0 else "")
    return _card("play", f'data-seed="{seed}"', "play_card",
                 esc(tr(lang, "play_seed", seed=seed)) + dealer, tr(lang, "play_note"),
                 group_html(hand, ctx), href, "play_start", lang)


def _daily(params: dict[str, str], lang: str, today: str) -> Embed:
    text = params.get("date", "").strip() or today
    try:
        day = daily.parse_day(text)
    except daily.DailyError:
        return _error("date", "embed_date_bad", lang, "daily", text=shorten(text))
    if today and day > today:
        return _error("date", "embed_date_future", lang, "daily", text=day, today=today)
    match = daily.new_match(day)
    game = match.game
    ctx = TileCtx(lang, game.caishen)
    href = "./index.html?" + urlencode({"daily": day, **({} if lang == "zh" else {"lang": lang})})
    return _card("daily", f'data-day="{day}" data-seed="{match.seed}"', "daily",
                 esc(tr(lang, "daily_result_title", day=day)), tr(lang, "daily_embed_note"),
                 group_html(game.concealed(0), ctx), href, "daily_embed_start", lang)


def _card(mode: str, data: str, kicker: str, title_html: str, text: str, hand_html: str,
          href: str, start: str, lang: str) -> Embed:
    """A scenario's or a deal's card: ``data`` its attributes, ``kicker`` and ``start`` i18n
    keys, the title already markup, the text plain, the hand drawn."""
    html = (f'<article class="card" data-testid="embed-card" data-mode="{mode}" {data}>'
            f'<p class="card__kicker">{esc(tr(lang, kicker))}</p>'
            f'<h2 class="card__title">{title_html}</h2>'
            f'<p class="card__text">{esc(text)}</p>'
            f'<div class="card__hand" aria-label="{esc(tr(lang, "scenario_hand"))}">'
            f"{hand_html}</div>"
            f"{_actions(href, start, 'scenario_here', lang)}</article>")
    return Embed(mode, html)


def _actions(href: str, start: str, here: str, lang: str) -> str:
    return (f'<p class="card__actions">'
            f'<a class="btn" data-testid="embed-open" href="{esc(href)}" target="_blank" '
            f'rel="noopener">{esc(tr(lang, start))} ↗<small class="sr-only">'
            f'({esc(tr(lang, "new_tab"))})</small></a>'
            f'<a class="btn btn--ghost" data-testid="embed-here" href="{esc(href)}" '
            f'target="_self">{esc(tr(lang, here))}</a></p>')


def _error(field: str, key: str, lang: str, mode: str, **values: object) -> Embed:
    """A bad parameter, in both languages (the page's first): ``key`` of i18n, ``values``."""
    zh, en = tr("zh", key, **values), tr("en", key, **values)
    zh_name = field_name(field, "zh")
    first, second = ((f"{zh_name} {field}：{zh}", "zh-Hans"), (f"{field}: {en}", "en"))
    if lang != "zh":
        first, second = second, first
    html = (f'<div class="embed-error" data-testid="embed-error" data-field="{esc(field)}" '
            f'role="alert"><h2>{esc(tr("zh", "embed_error_title"))} · '
            f'<span lang="en">{esc(tr("en", "embed_error_title"))}</span></h2>'
            f'<p lang="{first[1]}">{esc(first[0])}</p><p lang="{second[1]}">{esc(second[0])}</p>'
            f'<p class="embed-error__help">{esc(tr("zh", "embed_modes"))} '
            f'<span lang="en">{esc(tr("en", "embed_modes"))}</span>: hand · calc · '
            f"scenario · play · daily — <code>embed.html?mode=hand&amp;"
            f"hand=123m456m789m123p9s5p&amp;caishen=9s</code></p></div>")
    return Embed(mode or "error", html, error=field)


def _hand_error(error: RuleError, lang: str) -> Embed:
    """A hand the evaluator refuses, in both languages, its field marked."""
    return Embed("hand", _error_box(invalid_html(error, lang, bilingual=True), error.field),
                 error=error.field)


def _error_box(inner: str, field: str) -> str:
    return (f'<div class="embed-error-wrap" data-testid="embed-error" data-field="{esc(field)}">'
            f"{inner}</div>")


# ------------------------------------------------------------------ the DOM


def start() -> None:
    from pyscript import document, window  # only exists in the browser

    from sxmj.ui.pages.calc import Calc, invalid_text
    from sxmj.ui.pages.plumbing import Page

    page = Page(document, window)
    refused = page.refused
    try:
        today = daily.shanghai_day(float(window.Date.now()))  # the reader's day
        embed = render(page.params, page.lang, today)
        refused = refused + embed.refused
        if embed.calc is not None:
            document.getElementById("embed").className = "calc"
            calc = Calc(page, "embed", embed.calc, sync_url=False)
            calc.mount()
            if embed.calc_error is not None:
                page.fill("calc-msg", esc(invalid_text(embed.calc_error, page.lang)))
            _PAGES.append(calc)
        else:
            page.fill("embed", embed.html)
        document.documentElement.setAttribute("data-mode", embed.mode)
    except Exception:  # noqa: BLE001 - a bug: logged (tests fail on it), shown in words
        from sxmj.ui.pages.hand_cards import unexpected_html
        detail = traceback.format_exc()
        page.report(detail)
        page.fill("embed", unexpected_html(detail, page.lang))
    page.notify(refused, ".embed")
    page.ready()


_PAGES: list = []
