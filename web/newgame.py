"""Starting a game from the pages: ``POST /games/new``, a plain form that works with
JavaScript off and is safe to reload (``web.formkeys``): carried out once per key, then a
redirect to the new game's table page, or back to the form with the refusal and the
values sent. ``new.js`` only draws one name box per seat of the chosen game; without it
the players are typed as ``seat=Name`` pairs.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from litestar import Request, post
from litestar.response import Redirect

from referee.contract import Player
from referee.errors import RefereeError
from service.access import AccessDeniedError, Principal
from service.api import CreateGame, admit_game_early
from web import formkeys
from web.context import Web, web_of
from web.schemas import LINE

__all__ = ["HANDLERS"]

AnyRequest = Request[Any, Any, Any]


def _players(form: dict[str, str]) -> dict[str, str]:
    """The seats' names: one box per seat (``player_SEAT``, drawn by ``new.js``), or the
    pairs typed without it (``red=Alice, blue=Bob``)."""
    named = {k[len("player_") :]: v.strip() for k, v in form.items() if k.startswith("player_")}
    players = {seat: name for seat, name in named.items() if name}
    for pair in form.get("players", "").replace("\n", ",").split(","):
        if not pair.strip():
            continue
        seat, sep, name = pair.partition("=")
        if not sep or not seat.strip() or not name.strip():
            raise ValueError(f"players are typed as SEAT=Name, comma between: not {pair.strip()!r}")
        players[seat.strip().lower()] = name.strip()
    return players


async def _start(web: Web, who: Principal, form: dict[str, str]) -> str:
    """The new game's id, started as ``POST /api/games`` starts one."""
    table = form.get("table", "").strip()
    admit_game_early(who, "create", table=table or None)  # the pipeline's stage, first
    raw = form.get("options", "").strip() or "{}"
    if len(raw) > LINE:
        raise ValueError(f"the options are {len(raw):,} characters; at most {LINE:,} are taken")
    try:
        options = json.loads(raw)
    except ValueError:
        raise ValueError('the options are JSON, for example {"seed": 7}') from None
    if not isinstance(options, dict):
        raise ValueError('the options are a JSON object, for example {"seed": 7}')
    players = _players(form)
    game = form.get("game", "").strip()
    for name in (game, table, *players, *players.values()):
        if len(name) > LINE:  # each a line, as the API bounds it (web.schemas.NewGame)
            raise ValueError(f"{name[:20]}...: a name is at most {LINE:,} characters")
    command = CreateGame(
        game=game,
        players=tuple(Player(seat, name) for seat, name in players.items()),
        options=options,
        by=who.label,
        meta={"table": table} if table else {},
    )
    view = await web.create(command)  # in the writer's next group commit
    game_id: str = view.game_id
    return game_id


@post("/games/new", include_in_schema=False, status_code=303)
async def new_game_form(request: AnyRequest) -> Redirect:
    """Start a game once per the form's key; then its table page, or the form again."""
    web = web_of(request)
    who = web.principal(request)
    form, key = await formkeys.posted(request)

    async def run() -> formkeys.Outcome:
        try:
            game_id = await _start(web, who, form)
        except AccessDeniedError as exc:
            return formkeys.Outcome(False, str(exc), 403, form)
        except (RefereeError, ValueError, LookupError) as exc:
            return formkeys.Outcome(False, str(exc), 400, form)
        finally:
            web.hub.poke()
        return formkeys.Outcome(True, f"started {game_id}", 201, {"game_id": game_id})

    said = await formkeys.once(web, who, "/games/new", form, key, run)
    shown = quote(said.key or key, safe="")
    if said.ok and said.form.get("game_id"):
        return Redirect(
            path=f"/games/{quote(said.form['game_id'], safe='')}?said={shown}#said",
            status_code=303,
        )
    return Redirect(path=f"/games/new?said={shown}", status_code=303)


HANDLERS: list[Any] = [new_game_form]
