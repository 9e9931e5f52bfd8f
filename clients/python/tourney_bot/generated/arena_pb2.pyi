# mypy: ignore-errors
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Termination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERMINATION_UNSPECIFIED: _ClassVar[Termination]
    TERMINATION_NORMAL: _ClassVar[Termination]
    TERMINATION_ADJUDICATION: _ClassVar[Termination]
    TERMINATION_TIMEOUT: _ClassVar[Termination]
    TERMINATION_ILLEGAL_MOVE: _ClassVar[Termination]
    TERMINATION_CRASH: _ClassVar[Termination]
    TERMINATION_DISCONNECTION: _ClassVar[Termination]
    TERMINATION_REPLAY_MISMATCH: _ClassVar[Termination]
    TERMINATION_ABORTED: _ClassVar[Termination]
    TERMINATION_BYE: _ClassVar[Termination]
TERMINATION_UNSPECIFIED: Termination
TERMINATION_NORMAL: Termination
TERMINATION_ADJUDICATION: Termination
TERMINATION_TIMEOUT: Termination
TERMINATION_ILLEGAL_MOVE: Termination
TERMINATION_CRASH: Termination
TERMINATION_DISCONNECTION: Termination
TERMINATION_REPLAY_MISMATCH: Termination
TERMINATION_ABORTED: Termination
TERMINATION_BYE: Termination

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("id", "name", "min_players", "max_players", "modes", "time_controls", "default_move_ms", "builtin_bots")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MODES_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROLS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    BUILTIN_BOTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    min_players: int
    max_players: int
    modes: _containers.RepeatedScalarFieldContainer[str]
    time_controls: _containers.RepeatedScalarFieldContainer[str]
    default_move_ms: int
    builtin_bots: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., modes: _Optional[_Iterable[str]] = ..., time_controls: _Optional[_Iterable[str]] = ..., default_move_ms: _Optional[int] = ..., builtin_bots: _Optional[_Iterable[str]] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class BotMessage(_message.Message):
    __slots__ = ("hello", "reply")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    reply: ActionReply
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., reply: _Optional[_Union[ActionReply, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("bot_name", "token", "games", "max_concurrent_matches", "start_in_request", "view_delta", "json_view_only")
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_MATCHES_FIELD_NUMBER: _ClassVar[int]
    START_IN_REQUEST_FIELD_NUMBER: _ClassVar[int]
    VIEW_DELTA_FIELD_NUMBER: _ClassVar[int]
    JSON_VIEW_ONLY_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    token: str
    games: _containers.RepeatedScalarFieldContainer[str]
    max_concurrent_matches: int
    start_in_request: bool
    view_delta: bool
    json_view_only: bool
    def __init__(self, bot_name: _Optional[str] = ..., token: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., max_concurrent_matches: _Optional[int] = ..., start_in_request: _Optional[bool] = ..., view_delta: _Optional[bool] = ..., json_view_only: _Optional[bool] = ...) -> None: ...

class ActionReply(_message.Message):
    __slots__ = ("match_id", "request_id", "action_index")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: int
    action_index: int
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[int] = ..., action_index: _Optional[int] = ...) -> None: ...

class ArenaMessage(_message.Message):
    __slots__ = ("welcome", "match_started", "action_request", "match_ended", "error", "withdrawn")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    ACTION_REQUEST_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    match_started: MatchStarted
    action_request: ActionRequest
    match_ended: MatchEnded
    error: ErrorReport
    withdrawn: RequestWithdrawn
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., match_started: _Optional[_Union[MatchStarted, _Mapping]] = ..., action_request: _Optional[_Union[ActionRequest, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ..., error: _Optional[_Union[ErrorReport, _Mapping]] = ..., withdrawn: _Optional[_Union[RequestWithdrawn, _Mapping]] = ...) -> None: ...

class RequestWithdrawn(_message.Message):
    __slots__ = ("match_id", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: int
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[int] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("session_id", "bot_name", "games", "max_concurrent_matches", "server_version")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_MATCHES_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    bot_name: str
    games: _containers.RepeatedScalarFieldContainer[str]
    max_concurrent_matches: int
    server_version: str
    def __init__(self, session_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., max_concurrent_matches: _Optional[int] = ..., server_version: _Optional[str] = ...) -> None: ...

class MatchStarted(_message.Message):
    __slots__ = ("match_id", "game", "seat", "players", "seat_names", "seed", "config_json", "move_ms", "realtime")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    REALTIME_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seat: int
    players: int
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    config_json: str
    move_ms: int
    realtime: bool
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., seat_names: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., config_json: _Optional[str] = ..., move_ms: _Optional[int] = ..., realtime: _Optional[bool] = ...) -> None: ...

class ActionRequest(_message.Message):
    __slots__ = ("match_id", "request_id", "seat", "observation", "legal_actions", "deadline_ms", "started")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: int
    seat: int
    observation: Observation
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    deadline_ms: int
    started: MatchStarted
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[int] = ..., seat: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., deadline_ms: _Optional[int] = ..., started: _Optional[_Union[MatchStarted, _Mapping]] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("match_id", "ranks", "scores", "reason", "seat", "termination", "points", "forfeit_seat", "seats", "termination_kind")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_KIND_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[float]
    reason: str
    seat: int
    termination: str
    points: float
    forfeit_seat: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    termination_kind: Termination
    def __init__(self, match_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[float]] = ..., reason: _Optional[str] = ..., seat: _Optional[int] = ..., termination: _Optional[str] = ..., points: _Optional[float] = ..., forfeit_seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., termination_kind: _Optional[_Union[Termination, str]] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("tier", "tier_size", "score", "points", "decisions", "think_s", "faults")
    class FaultsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    TIER_FIELD_NUMBER: _ClassVar[int]
    TIER_SIZE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    THINK_S_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    tier: int
    tier_size: int
    score: float
    points: float
    decisions: int
    think_s: float
    faults: _containers.ScalarMap[str, int]
    def __init__(self, tier: _Optional[int] = ..., tier_size: _Optional[int] = ..., score: _Optional[float] = ..., points: _Optional[float] = ..., decisions: _Optional[int] = ..., think_s: _Optional[float] = ..., faults: _Optional[_Mapping[str, int]] = ...) -> None: ...

class ErrorReport(_message.Message):
    __slots__ = ("match_id", "request_id", "code", "message")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: int
    code: str
    message: str
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[int] = ..., code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("tiny_ninjas", "ninja_versus_ninja", "maitre_ninja", "ninja_arena", "generic")
    TINY_NINJAS_FIELD_NUMBER: _ClassVar[int]
    NINJA_VERSUS_NINJA_FIELD_NUMBER: _ClassVar[int]
    MAITRE_NINJA_FIELD_NUMBER: _ClassVar[int]
    NINJA_ARENA_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    tiny_ninjas: TinyNinjasObservation
    ninja_versus_ninja: NinjaVersusNinjaObservation
    maitre_ninja: MaitreNinjaObservation
    ninja_arena: NinjaArenaObservation
    generic: GenericObservation
    def __init__(self, tiny_ninjas: _Optional[_Union[TinyNinjasObservation, _Mapping]] = ..., ninja_versus_ninja: _Optional[_Union[NinjaVersusNinjaObservation, _Mapping]] = ..., maitre_ninja: _Optional[_Union[MaitreNinjaObservation, _Mapping]] = ..., ninja_arena: _Optional[_Union[NinjaArenaObservation, _Mapping]] = ..., generic: _Optional[_Union[GenericObservation, _Mapping]] = ...) -> None: ...

class GenericObservation(_message.Message):
    __slots__ = ("game", "json")
    GAME_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    game: str
    json: str
    def __init__(self, game: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class TinyNinjasObservation(_message.Message):
    __slots__ = ("seat", "mode", "phase", "round", "attacker", "defender", "health", "max_health", "hand", "hand_ids", "hand_sizes", "draw_pile_size", "discard_pile", "json")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    MAX_HEALTH_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_IDS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    mode: str
    phase: str
    round: int
    attacker: int
    defender: int
    health: _containers.RepeatedScalarFieldContainer[int]
    max_health: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_ids: _containers.RepeatedScalarFieldContainer[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    draw_pile_size: int
    discard_pile: _containers.RepeatedScalarFieldContainer[str]
    json: str
    def __init__(self, seat: _Optional[int] = ..., mode: _Optional[str] = ..., phase: _Optional[str] = ..., round: _Optional[int] = ..., attacker: _Optional[int] = ..., defender: _Optional[int] = ..., health: _Optional[_Iterable[int]] = ..., max_health: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[str]] = ..., hand_ids: _Optional[_Iterable[int]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., draw_pile_size: _Optional[int] = ..., discard_pile: _Optional[_Iterable[str]] = ..., json: _Optional[str] = ...) -> None: ...

class NinjaVersusNinjaObservation(_message.Message):
    __slots__ = ("seat", "black_ninjas", "red_ninjas", "score", "shadow", "to_move", "turn_number", "roll", "target_score", "turn_cap", "json")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BLACK_NINJAS_FIELD_NUMBER: _ClassVar[int]
    RED_NINJAS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SHADOW_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    TURN_NUMBER_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    black_ninjas: _containers.RepeatedScalarFieldContainer[str]
    red_ninjas: _containers.RepeatedScalarFieldContainer[str]
    score: _containers.RepeatedScalarFieldContainer[int]
    shadow: _containers.RepeatedScalarFieldContainer[int]
    to_move: int
    turn_number: int
    roll: _containers.RepeatedScalarFieldContainer[int]
    target_score: int
    turn_cap: int
    json: str
    def __init__(self, seat: _Optional[int] = ..., black_ninjas: _Optional[_Iterable[str]] = ..., red_ninjas: _Optional[_Iterable[str]] = ..., score: _Optional[_Iterable[int]] = ..., shadow: _Optional[_Iterable[int]] = ..., to_move: _Optional[int] = ..., turn_number: _Optional[int] = ..., roll: _Optional[_Iterable[int]] = ..., target_score: _Optional[int] = ..., turn_cap: _Optional[int] = ..., json: _Optional[str] = ...) -> None: ...

class MaitreHiddenLine(_message.Message):
    __slots__ = ("fight", "line", "ka_order")
    FIGHT_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    KA_ORDER_FIELD_NUMBER: _ClassVar[int]
    fight: int
    line: _containers.RepeatedScalarFieldContainer[str]
    ka_order: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, fight: _Optional[int] = ..., line: _Optional[_Iterable[str]] = ..., ka_order: _Optional[_Iterable[str]] = ...) -> None: ...

class MaitreNinjaObservation(_message.Message):
    __slots__ = ("seat", "n_players", "ranks", "attacks_made", "phase", "fight_number", "attacker", "defender", "attacker_rank", "parries", "role", "my_hidden", "fight_cap", "elements", "json")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    N_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    ATTACKS_MADE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    FIGHT_NUMBER_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_RANK_FIELD_NUMBER: _ClassVar[int]
    PARRIES_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    MY_HIDDEN_FIELD_NUMBER: _ClassVar[int]
    FIGHT_CAP_FIELD_NUMBER: _ClassVar[int]
    ELEMENTS_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    n_players: int
    ranks: _containers.RepeatedScalarFieldContainer[int]
    attacks_made: _containers.RepeatedScalarFieldContainer[int]
    phase: str
    fight_number: int
    attacker: int
    defender: int
    attacker_rank: int
    parries: int
    role: str
    my_hidden: _containers.RepeatedCompositeFieldContainer[MaitreHiddenLine]
    fight_cap: int
    elements: _containers.RepeatedScalarFieldContainer[str]
    json: str
    def __init__(self, seat: _Optional[int] = ..., n_players: _Optional[int] = ..., ranks: _Optional[_Iterable[int]] = ..., attacks_made: _Optional[_Iterable[int]] = ..., phase: _Optional[str] = ..., fight_number: _Optional[int] = ..., attacker: _Optional[int] = ..., defender: _Optional[int] = ..., attacker_rank: _Optional[int] = ..., parries: _Optional[int] = ..., role: _Optional[str] = ..., my_hidden: _Optional[_Iterable[_Union[MaitreHiddenLine, _Mapping]]] = ..., fight_cap: _Optional[int] = ..., elements: _Optional[_Iterable[str]] = ..., json: _Optional[str] = ...) -> None: ...

class NinjaArenaObservation(_message.Message):
    __slots__ = ("seat", "tick", "json", "mode", "tick_cap", "over", "shadow_token", "pending_switch", "players", "satisfiable", "hit_is_claim", "roll_blocked", "dice_masks")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TICK_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TICK_CAP_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    SHADOW_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PENDING_SWITCH_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SATISFIABLE_FIELD_NUMBER: _ClassVar[int]
    HIT_IS_CLAIM_FIELD_NUMBER: _ClassVar[int]
    ROLL_BLOCKED_FIELD_NUMBER: _ClassVar[int]
    DICE_MASKS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tick: int
    json: str
    mode: str
    tick_cap: int
    over: bool
    shadow_token: str
    pending_switch: int
    players: _containers.RepeatedCompositeFieldContainer[NinjaArenaPlayer]
    satisfiable: _containers.RepeatedScalarFieldContainer[str]
    hit_is_claim: bool
    roll_blocked: bool
    dice_masks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., tick: _Optional[int] = ..., json: _Optional[str] = ..., mode: _Optional[str] = ..., tick_cap: _Optional[int] = ..., over: _Optional[bool] = ..., shadow_token: _Optional[str] = ..., pending_switch: _Optional[int] = ..., players: _Optional[_Iterable[_Union[NinjaArenaPlayer, _Mapping]]] = ..., satisfiable: _Optional[_Iterable[str]] = ..., hit_is_claim: _Optional[bool] = ..., roll_blocked: _Optional[bool] = ..., dice_masks: _Optional[_Iterable[int]] = ...) -> None: ...

class NinjaArenaPlayer(_message.Message):
    __slots__ = ("seat", "character", "bottom", "side", "cube", "cube_bottom", "recovered", "eliminated", "pool", "power_active", "dice", "stitched_until", "byakugan_left", "fan", "gate_tokens", "sand_shield", "out_time")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    CUBE_BOTTOM_FIELD_NUMBER: _ClassVar[int]
    RECOVERED_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    POWER_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    STITCHED_UNTIL_FIELD_NUMBER: _ClassVar[int]
    BYAKUGAN_LEFT_FIELD_NUMBER: _ClassVar[int]
    FAN_FIELD_NUMBER: _ClassVar[int]
    GATE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SAND_SHIELD_FIELD_NUMBER: _ClassVar[int]
    OUT_TIME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    character: str
    bottom: str
    side: str
    cube: int
    cube_bottom: int
    recovered: bool
    eliminated: bool
    pool: int
    power_active: bool
    dice: str
    stitched_until: int
    byakugan_left: int
    fan: int
    gate_tokens: int
    sand_shield: int
    out_time: int
    def __init__(self, seat: _Optional[int] = ..., character: _Optional[str] = ..., bottom: _Optional[str] = ..., side: _Optional[str] = ..., cube: _Optional[int] = ..., cube_bottom: _Optional[int] = ..., recovered: _Optional[bool] = ..., eliminated: _Optional[bool] = ..., pool: _Optional[int] = ..., power_active: _Optional[bool] = ..., dice: _Optional[str] = ..., stitched_until: _Optional[int] = ..., byakugan_left: _Optional[int] = ..., fan: _Optional[int] = ..., gate_tokens: _Optional[int] = ..., sand_shield: _Optional[int] = ..., out_time: _Optional[int] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("label", "tiny_ninjas", "ninja_versus_ninja", "maitre_ninja", "ninja_arena", "generic")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TINY_NINJAS_FIELD_NUMBER: _ClassVar[int]
    NINJA_VERSUS_NINJA_FIELD_NUMBER: _ClassVar[int]
    MAITRE_NINJA_FIELD_NUMBER: _ClassVar[int]
    NINJA_ARENA_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    label: str
    tiny_ninjas: TinyNinjasAction
    ninja_versus_ninja: NinjaVersusNinjaAction
    maitre_ninja: MaitreNinjaAction
    ninja_arena: NinjaArenaAction
    generic: GenericAction
    def __init__(self, label: _Optional[str] = ..., tiny_ninjas: _Optional[_Union[TinyNinjasAction, _Mapping]] = ..., ninja_versus_ninja: _Optional[_Union[NinjaVersusNinjaAction, _Mapping]] = ..., maitre_ninja: _Optional[_Union[MaitreNinjaAction, _Mapping]] = ..., ninja_arena: _Optional[_Union[NinjaArenaAction, _Mapping]] = ..., generic: _Optional[_Union[GenericAction, _Mapping]] = ...) -> None: ...

class GenericAction(_message.Message):
    __slots__ = ("kind", "json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    json: str
    def __init__(self, kind: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class TinyNinjasAction(_message.Message):
    __slots__ = ("kind", "card", "tokens", "mode", "yellow", "attack_first", "option", "json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    YELLOW_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIRST_FIELD_NUMBER: _ClassVar[int]
    OPTION_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    card: int
    tokens: _containers.RepeatedScalarFieldContainer[str]
    mode: str
    yellow: bool
    attack_first: bool
    option: str
    json: str
    def __init__(self, kind: _Optional[str] = ..., card: _Optional[int] = ..., tokens: _Optional[_Iterable[str]] = ..., mode: _Optional[str] = ..., yellow: _Optional[bool] = ..., attack_first: _Optional[bool] = ..., option: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class NinjaVersusNinjaAction(_message.Message):
    __slots__ = ("kind", "path", "uses_reversal", "depth", "json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    USES_REVERSAL_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    path: _containers.RepeatedScalarFieldContainer[str]
    uses_reversal: bool
    depth: int
    json: str
    def __init__(self, kind: _Optional[str] = ..., path: _Optional[_Iterable[str]] = ..., uses_reversal: _Optional[bool] = ..., depth: _Optional[int] = ..., json: _Optional[str] = ..., **kwargs) -> None: ...

class MaitreNinjaAction(_message.Message):
    __slots__ = ("kind", "line", "ka_order", "row", "json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    KA_ORDER_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    line: _containers.RepeatedScalarFieldContainer[str]
    ka_order: _containers.RepeatedScalarFieldContainer[str]
    row: _containers.RepeatedScalarFieldContainer[str]
    json: str
    def __init__(self, kind: _Optional[str] = ..., line: _Optional[_Iterable[str]] = ..., ka_order: _Optional[_Iterable[str]] = ..., row: _Optional[_Iterable[str]] = ..., json: _Optional[str] = ...) -> None: ...

class NinjaArenaAction(_message.Message):
    __slots__ = ("kind", "json", "dice", "stream_target", "technique", "target", "allocation", "bonus_target", "from_shield", "swap")
    KIND_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    STREAM_TARGET_FIELD_NUMBER: _ClassVar[int]
    TECHNIQUE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ALLOCATION_FIELD_NUMBER: _ClassVar[int]
    BONUS_TARGET_FIELD_NUMBER: _ClassVar[int]
    FROM_SHIELD_FIELD_NUMBER: _ClassVar[int]
    SWAP_FIELD_NUMBER: _ClassVar[int]
    kind: str
    json: str
    dice: _containers.RepeatedScalarFieldContainer[int]
    stream_target: int
    technique: str
    target: int
    allocation: _containers.RepeatedCompositeFieldContainer[NinjaArenaAllocation]
    bonus_target: int
    from_shield: int
    swap: bool
    def __init__(self, kind: _Optional[str] = ..., json: _Optional[str] = ..., dice: _Optional[_Iterable[int]] = ..., stream_target: _Optional[int] = ..., technique: _Optional[str] = ..., target: _Optional[int] = ..., allocation: _Optional[_Iterable[_Union[NinjaArenaAllocation, _Mapping]]] = ..., bonus_target: _Optional[int] = ..., from_shield: _Optional[int] = ..., swap: _Optional[bool] = ...) -> None: ...

class NinjaArenaAllocation(_message.Message):
    __slots__ = ("seat", "tokens")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tokens: int
    def __init__(self, seat: _Optional[int] = ..., tokens: _Optional[int] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("match_id", "admin_token")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    admin_token: str
    def __init__(self, match_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class MatchEvent(_message.Message):
    __slots__ = ("match_id", "step", "public_view_json", "finished", "record", "seat_names")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    step: int
    public_view_json: str
    finished: bool
    record: MatchRecord
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_id: _Optional[str] = ..., step: _Optional[int] = ..., public_view_json: _Optional[str] = ..., finished: _Optional[bool] = ..., record: _Optional[_Union[MatchRecord, _Mapping]] = ..., seat_names: _Optional[_Iterable[str]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id", "admin_token")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    admin_token: str
    def __init__(self, match_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class RunMatchRequest(_message.Message):
    __slots__ = ("admin_token", "game", "seats", "seed", "config_json", "move_ms", "wait_s", "match_id", "realtime", "bot_seeds")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    WAIT_S_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REALTIME_FIELD_NUMBER: _ClassVar[int]
    BOT_SEEDS_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    game: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    config_json: str
    move_ms: int
    wait_s: int
    match_id: str
    realtime: bool
    bot_seeds: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, admin_token: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., config_json: _Optional[str] = ..., move_ms: _Optional[int] = ..., wait_s: _Optional[int] = ..., match_id: _Optional[str] = ..., realtime: _Optional[bool] = ..., bot_seeds: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchRecord(_message.Message):
    __slots__ = ("match_id", "game", "seat_names", "seed", "ranks", "scores", "termination", "reason", "forfeit_seat", "replay_json", "finished", "full_replay", "seats", "termination_kind", "details_json")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_SEAT_FIELD_NUMBER: _ClassVar[int]
    REPLAY_JSON_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    FULL_REPLAY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_KIND_FIELD_NUMBER: _ClassVar[int]
    DETAILS_JSON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    ranks: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[float]
    termination: str
    reason: str
    forfeit_seat: int
    replay_json: str
    finished: bool
    full_replay: bool
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    termination_kind: Termination
    details_json: str
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seat_names: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., ranks: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[float]] = ..., termination: _Optional[str] = ..., reason: _Optional[str] = ..., forfeit_seat: _Optional[int] = ..., replay_json: _Optional[str] = ..., finished: _Optional[bool] = ..., full_replay: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., termination_kind: _Optional[_Union[Termination, str]] = ..., details_json: _Optional[str] = ...) -> None: ...
