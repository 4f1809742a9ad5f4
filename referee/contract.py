"""The game contract: what every game's rules object offers, and its value types.

Everything here is pure: states and actions go in, verdicts and new states come
out. Storage, the faces and projections live in other packages and are never
imported from ``referee``; random numbers (seeds, salts) are drawn by the
application layer and passed in through the setup.

The contract covers two to four seats, several seats acting at once, hidden
information (a state holds what the referee knows: counts, registered lists,
bag contents; ``observe`` shows each viewer only their share of it), chance
reported at the table (a draw is an action the rules check against what is
known), registered and sealed decklists, card text a referee must rule on
(adjustments), and seats that withdraw from a multiplayer game.

``GameRules`` holds what every game must have; what only some games offer (decks,
adjustments, catalogs, other tools' records, reports, withdrawals) are small protocols
in ``referee.capabilities`` that a game opts into by having their methods.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

import msgspec

from referee.errors import SetupError, VariantError
from referee.kit.decks import Deck
from referee.outcomes import ONGOING, Outcome, Placing
from referee.verdicts import LEGAL, RulingNeeded, Verdict, Violation
from referee.viewers import PUBLIC, REFEREE, Viewer

__all__ = [
    "LEGAL",
    "ONGOING",
    "PUBLIC",
    "REFEREE",
    "ForeignRecord",
    "ForeignStep",
    "GameRules",
    "Outcome",
    "Placing",
    "Player",
    "Report",
    "RulingNeeded",
    "Setup",
    "SetupField",
    "VariantOption",
    "Verdict",
    "Viewer",
    "Violation",
]


class Player(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A seat at the table (``red``, ``p1``, ...) and the person sitting in it.

    ``id`` is the person's stable player id (a player token is bound to one when
    issued), so two people with the same display name are never the same seat.
    Seats recorded before ids, or entered by name alone, have ``""``; omitted from
    the encoding when empty, so those records keep their bytes and hashes."""

    seat: str
    name: str
    id: str = ""


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """Everything needed to start a game, recorded whole in its first event.

    ``ruleset`` of ``None`` means the game's default; ``variants`` holds only the
    switches the table chose (the rules fill in defaults); ``options`` carries the
    game's own setup fields (``setup_fields``: a seed, a list of units, a catalog);
    ``decks`` the decklists registered per seat, open or sealed.
    """

    players: tuple[Player, ...]
    ruleset: str | None = None
    variants: dict[str, str] = {}
    options: dict[str, Any] = {}
    decks: dict[str, Deck] = {}

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players)


class VariantOption(msgspec.Struct, frozen=True, kw_only=True):
    """A ruling a table may choose when the game is created."""

    key: str
    default: str
    choices: tuple[str, ...] = ()
    clause: str
    summary: str
    absent: str = ""
    """What a game recorded before the switch was offered plays, when that was not today's
    ``default``: a recorded game keeps the rules it was recorded under (its creation event
    holds every switch of its time, never this one). Empty: the default."""

    def validate(self, value: str) -> str:
        if self.choices and value not in self.choices:
            raise VariantError(
                f"variant {self.key}={value!r} is not offered; choose one of: "
                + ", ".join(self.choices)
                + f" ({self.clause})"
            )
        return value


SetupKind = Literal["int", "str", "list", "choice", "file", "seed"]


class SetupField(msgspec.Struct, frozen=True, kw_only=True):
    """One game-specific setup option, declared by the game and rendered by every face.

    ``kind``: ``int``, ``str``, ``list`` (comma-separated names), ``choice`` (one
    of ``choices``), ``file`` (the face reads the file and passes its text; the
    game parses and records it), or ``seed`` (an integer the application layer
    draws when none is given, so a random setup is always reproducible).
    ``excludes`` names fields that cannot be given together with this one.
    """

    key: str
    kind: SetupKind
    help: str
    choices: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")

    def convert(self, raw: Any) -> Any:
        """The value of a face's raw input (text from a command line, JSON from HTTP)."""
        if raw is None:
            return None
        if self.kind in ("int", "seed"):
            try:
                return int(raw)
            except (TypeError, ValueError):
                raise SetupError(f"{self.flag} takes a whole number, not {raw!r}") from None
        if self.kind == "list":
            items = raw.split(",") if isinstance(raw, str) else list(raw)
            return [str(item).strip() for item in items if str(item).strip()]
        if self.kind == "choice" and str(raw) not in self.choices:
            raise SetupError(f"{self.flag} is one of {', '.join(self.choices)}, not {raw!r}")
        return str(raw)


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """A game's own report on a position (Prismatic's score chart, say): data and text."""

    name: str
    title: str
    data: dict[str, Any]
    text: str


class ForeignStep(msgspec.Struct, frozen=True, kw_only=True):
    """One step of a record kept by another tool: its label (``turn 12``), the entries in
    our notation, and what that tool says the position is afterwards (compared by
    ``ForeignRecord.differences``)."""

    label: str
    entries: tuple[str, ...]
    snapshot: Any = None


class ForeignRecord(ABC):
    """A game recorded by another tool, read by the game that knows its format.

    The application layer creates the game from ``setup``, records every entry of
    every step through the same judge-and-record path as a referee's, and, when
    asked, compares each position with the record's own snapshot."""

    stem: str
    setup: Setup
    expected_result: str

    @abstractmethod
    def steps(self) -> Iterator[ForeignStep]:
        """The record's steps in order (may be produced lazily)."""

    @abstractmethod
    def differences(self, state: Any, snapshot: Any) -> list[str]:
        """Where ``state`` differs from the record's ``snapshot``, in words."""


StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class GameRules(ABC, Generic[StateT, ActionT]):
    """The rules of one game. Subclasses are stateless and safe to share.

    ``check`` validates; ``apply`` never does (replay calls it on entries that
    were checked when they were recorded). States carry their ruleset and
    variant choices, so every method needs only the state. ``seat`` is the seat
    making the entry: the procedure has already checked that it is one of
    ``to_act(state)``; games where only one seat acts at a time may ignore it.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[tuple[str, ...]]
    """Every seat the game knows, in seating order; a game uses the first N when
    fewer play (``min_players`` to ``max_players``)."""
    min_players: ClassVar[int | None] = None
    max_players: ClassVar[int | None] = None
    rulesets: ClassVar[tuple[str, ...]]
    variant_options: ClassVar[tuple[VariantOption, ...]] = ()
    setup_fields: ClassVar[tuple[SetupField, ...]] = ()
    takes_decks: ClassVar[bool] = False
    """Whether seats register decklists: such a game has the methods of
    ``referee.capabilities.DeckRules``. The other optional capabilities (adjustments,
    catalogs, foreign records, reports, withdrawals) are there too."""
    catalog_kinds: ClassVar[tuple[str, ...]] = ()
    """Kinds of catalog file the game reads (``cards``, ``board``...), for ``catalog check``."""
    reports: ClassVar[tuple[str, ...]] = ()
    """Names of the game's own reports on a position (``score``...)."""
    record_formats: ClassVar[tuple[str, ...]] = ()
    """Formats of other tools' game records this game can read (``prismata-reference``)."""
    uncountable: ClassVar[str] = ""
    """Why the continuations of a position cannot be counted (``referee perft``): hidden
    cards, a ``legal_actions`` entry standing for others that lead elsewhere, or card text
    a referee rules on, so that the list and ``apply`` do not give every position that may
    follow. Empty: each listed entry leads to one position, and every legal entry is listed
    (or one standing for entries that lead to the same position, as Prismata's PM-I.9)."""
    action_type: ClassVar[Any]
    state_type: ClassVar[Any]

    # -- seats -------------------------------------------------------------
    @classmethod
    def player_range(cls) -> tuple[int, int]:
        lowest = cls.min_players if cls.min_players is not None else len(cls.seats)
        highest = cls.max_players if cls.max_players is not None else len(cls.seats)
        return lowest, highest

    # -- setup -------------------------------------------------------------
    def resolve_setup(self, setup: Setup) -> Setup:
        """Return ``setup`` completed with defaults, or raise if it cannot start a game."""
        seats = tuple(p.seat for p in setup.players)
        lowest, highest = self.player_range()
        allowed = self.seats[: max(lowest, min(len(seats), highest))]
        if sorted(seats) != sorted(allowed) or len(set(seats)) != len(seats):
            if lowest == highest:
                need = f"is played by seats {', '.join(self.seats)}"
            else:
                need = (
                    f"is played by {lowest} to {highest} players in seats "
                    f"{', '.join(self.seats)} (the first N)"
                )
            raise SetupError(f"{self.name} {need}; got {', '.join(seats) or 'none'}")
        ruleset = setup.ruleset or self.rulesets[0]
        if ruleset not in self.rulesets:
            raise SetupError(
                f"unknown ruleset {ruleset!r} for {self.name}; known: {', '.join(self.rulesets)}"
            )
        order = {seat: i for i, seat in enumerate(self.seats)}
        players = tuple(
            Player(p.seat, p.name, p.id) for p in sorted(setup.players, key=lambda p: order[p.seat])
        )
        known = {f.key for f in self.setup_fields} | {"position"}
        unknown = sorted(set(setup.options) - known)
        if unknown:
            offered = ", ".join(f.flag for f in self.setup_fields) or "none"
            raise SetupError(
                f"{self.name} has no setup option {', '.join(unknown)}; its options: {offered}"
            )
        for deck_seat in setup.decks:
            if deck_seat not in seats:
                raise SetupError(f"a deck is registered for {deck_seat!r}, who is not playing")
        if setup.decks and not self.takes_decks:
            raise SetupError(f"{self.name} is not played with decklists")
        return Setup(
            players=players,
            ruleset=ruleset,
            variants=self.resolve_variants(setup.variants),
            options=dict(setup.options),
            decks=dict(setup.decks),
        )

    def resolve_variants(self, chosen: Mapping[str, str]) -> dict[str, str]:
        """Validate chosen variant switches and fill in every default."""
        known = {v.key: v for v in self.variant_options}
        for key in chosen:
            if key not in known:
                offered = ", ".join(known) or "none"
                raise VariantError(f"{self.name} has no variant {key!r}; offered: {offered}")
        return {k: v.validate(chosen.get(k, v.default)) for k, v in known.items()}

    def recorded_variants(self, recorded: Mapping[str, str]) -> dict[str, str]:
        """The switches a recorded game plays: those its creation event holds, and for a
        switch offered only since it was recorded, the rules of that time (its ``absent``
        value, else its default). A game is created with every switch filled in, so a
        missing one means a record older than the switch."""
        filled = dict(recorded)
        for option in self.variant_options:
            if option.key not in filled:
                filled[option.key] = option.absent or option.default
        return filled

    @abstractmethod
    def initial_state(self, setup: Setup) -> StateT:
        """The position before the first action."""

    def start(self, setup: Setup, *, recorded: bool = False) -> StateT:
        """The position a game starts from: its own start, or the position string the
        table gave (``options["position"]``: an adjourned or reconstructed game).
        ``recorded`` when replaying a stored creation: its position string was accepted
        then and is read as written then (``recorded_position``)."""
        text = setup.options.get("position")
        if text:
            text = self.recorded_position(str(text)) if recorded else str(text)
            return self.read_position(text, setup)
        return self.initial_state(setup)

    def recorded_position(self, text: str) -> str:
        """A stored game's position string in today's form: the same position, written
        as ``read_position`` reads it now. A game whose position strings became stricter
        after games were recorded with them rewrites the older spellings here.

        The default serves the state's JSON (``position_text``'s default), whose ``table``
        holds the variant switches: a switch offered only since the string was written is
        missing there, and reads as what the record played, its ``absent`` value (as
        ``recorded_variants`` fills the creation's), not as today's default."""
        return self._table_filled(text, {o.key: o.absent for o in self.variant_options if o.absent})

    def given_position(self, text: str, variants: Mapping[str, str]) -> str:
        """A position string a table gives today, as the creation stores it: a switch
        whose absence in a stored string means an older rule (``recorded_position``) is
        written out as the game's resolved ``variants`` set it, so the game replays as
        it was started, not as a record older than the switch."""
        return self._table_filled(
            text,
            {o.key: variants.get(o.key, o.default) for o in self.variant_options if o.absent},
        )

    @staticmethod
    def _table_filled(text: str, missing: Mapping[str, str]) -> str:
        """``text`` (a JSON position) with the switches of ``missing`` it lacks in its
        ``table`` set to the values given; any other text as it is."""
        if not missing or not text.lstrip().startswith("{"):
            return text
        try:
            position = msgspec.json.decode(text.encode())
        except msgspec.DecodeError:
            return text  # read_position refuses it in its own words
        table = position.get("table") if isinstance(position, dict) else None
        if not isinstance(table, dict) or all(key in table for key in missing):
            return text
        position["table"] = {**{k: v for k, v in missing.items() if k not in table}, **table}
        return msgspec.json.encode(position).decode()

    # -- position strings ----------------------------------------------------
    def position_text(self, state: StateT) -> str:
        """The whole position as one line of text, read back by ``read_position``.

        The default is the state's JSON; games give a compact FEN-like form. It is
        the referee's: a game with hidden information puts what the referee knows in it."""
        return msgspec.json.encode(state).decode()

    def read_position(self, text: str, setup: Setup) -> StateT:
        """The position a position string describes, checked; ``SetupError`` when it cannot be."""
        try:
            state: StateT = msgspec.json.decode(text.encode(), type=self.state_type)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
            raise SetupError(f"not a {self.name} position: {exc}") from None
        return state

    # -- play --------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: StateT) -> frozenset[str]:
        """The seats that may make an entry now: one in turn-based play, several in
        a simultaneous step, none once the game is over."""

    def to_move(self, state: StateT) -> str | None:
        """The one seat to act, or ``None`` when no seat or several seats may act."""
        seats = self.to_act(state)
        if len(seats) == 1:
            (seat,) = seats
            return seat
        return None

    @abstractmethod
    def legal_actions(self, state: StateT, seat: str | None = None) -> Sequence[ActionT]:
        """Every legal action of ``seat`` (or of every seat that may act), none once over."""

    @abstractmethod
    def check(self, state: StateT, action: ActionT, seat: str | None = None) -> Verdict:
        """Legal, needing a ruling, or the clauses ``action`` breaks in ``state``."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT, seat: str | None = None) -> StateT:
        """The state after ``action`` by ``seat``; no checks, ``state`` is left untouched."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome:
        """Ongoing, or the result (winner, draw or ranking) with the deciding clause."""

    # -- notation ----------------------------------------------------------
    @abstractmethod
    def parse(self, text: str) -> ActionT:
        """Read an action; raise ``ActionSyntaxError`` naming the notation clause."""

    def read_entry(self, state: StateT, text: str) -> ActionT:
        """Read an entry made in ``state``: ``parse``, with every card or unit name in the
        spelling of the catalog the game plays with (so the notation recorded is the
        catalog's). A name the catalog does not hold raises ``ActionSyntaxError`` naming
        the notation clause and the closest names: such text is no entry of the game."""
        return self.parse(text)

    @abstractmethod
    def notation(self, action: ActionT) -> str:
        """Canonical text of ``action``: ``parse(notation(a)) == a``."""

    def shown_notation(self, action: ActionT, seat: str, viewer: Viewer) -> str:
        """What ``viewer`` may see of ``seat``'s entry ``action`` (the whole notation
        unless the entry carries something only its seat and the referee saw)."""
        return self.notation(action)

    hidden_zones: ClassVar[frozenset[str]] = frozenset()
    """A seat's zones only that seat and the referee see (a hand, a pool), as the
    adjustments name them: a named card an adjustment moves between two of them is kept
    from the other viewers unless the referee records it revealed (REF-6.6)."""

    def kept_in_sight_of_its_seat(self, state: StateT, seat: str, zone: str, card: str) -> StateT:
        """``state`` after a card moved unseen into ``seat``'s hidden ``zone`` is known to
        that seat and the referee to be ``card`` (a named move kept hidden, REF-6.6): what
        their views show and the others' never do. The default keeps no such knowledge."""
        return state

    seals_entries: ClassVar[bool] = False
    """Whether ``shown_notation`` hides entries only until the game reveals them
    (``still_sealed`` then says which are still hidden)."""

    def still_sealed(self, state: StateT) -> Mapping[str, int] | None:
        """How many of each seat's latest entries that ``shown_notation`` hides are still
        sealed in ``state``; every earlier one has been revealed to everyone. ``None``:
        a hidden entry stays hidden for good (the default)."""
        return None

    def shown_text(self, text: str, seat: str | None, viewer: Viewer) -> str:
        """What ``viewer`` may see of the text of ``seat``'s rejected entry (the whole text
        unless it names something only its seat and the referee may see: a sealed bid,
        say). Games that hide part of an entry in ``shown_notation`` hide it here too."""
        return text

    # -- what each viewer sees ---------------------------------------------
    @abstractmethod
    def render(self, state: StateT, viewer: Viewer = REFEREE) -> str:
        """The position drawn as plain text for a terminal, as ``viewer`` may see it."""

    def observe(self, state: StateT, viewer: Viewer = REFEREE) -> dict[str, Any]:
        """The position as JSON-ready data, as ``viewer`` may see it.

        The default shows the whole state, which is right only for games with no
        hidden information; games with hidden zones or registered lists override it
        and must never put one seat's hidden cards in another viewer's view."""
        data = msgspec.to_builtins(state)
        if not isinstance(data, dict):
            raise TypeError(f"a {self.name} state is not a struct: give the game its own observe")
        return data

    def secrets(self, state: StateT, seat: str) -> frozenset[str]:
        """Names that only ``seat`` and the referee may see in ``state`` (cards of a
        registered list not yet seen, say). The contract suite checks that no other
        viewer's ``observe`` or ``render`` contains one."""
        return frozenset()
