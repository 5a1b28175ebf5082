"""Account names: what a name may be, and the key that makes look-alikes one name."""

from __future__ import annotations

import re
import unicodedata

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.ratings import BOT_LEVELS

MIN_NAME, MAX_NAME = 3, 20
_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
#: Names nobody may take: the site's own words and its pages.
RESERVED = frozenset(
    {
        "admin", "administrator", "anonymous", "api", "bot", "deleted", "former", "formerplayer",
        "ghost", "ghostparty", "guest", "help", "hugo", "leaderboard", "login", "logout", "me",
        "mod", "moderator", "null", "player", "players", "register", "root", "server", "staff",
        "support", "system", "undefined", "you",
    }
)  # fmt: skip
# Letters and digits that read alike in most fonts, and pairs that read as one letter.
_ALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "3": "e", "5": "s"})
_PAIRS = (("rn", "m"), ("vv", "w"))


def name_key(name: str) -> str:
    """The key two names share if they read alike: ``Ann_1``, ``ann-l`` and ``ANNL`` are
    one name. Unique among accounts."""
    key = unicodedata.normalize("NFKC", name).casefold().replace("-", "").replace("_", "")
    key = key.translate(_ALIKE)
    for pair, letter in _PAIRS:
        key = key.replace(pair, letter)
    return key


_BOT_KEYS = frozenset(name_key(level) for level in BOT_LEVELS)


def check_name(name: object) -> str:
    """``name`` if it may be an account's name, else :class:`ServiceError` ``bad_name``
    saying why."""
    if not isinstance(name, str):
        raise ServiceError(ErrorCode.BAD_NAME, "a name is text")
    name = name.strip()
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise ServiceError(ErrorCode.BAD_NAME, f"a name has {MIN_NAME} to {MAX_NAME} characters, not {len(name)}")
    if not _SHAPE.fullmatch(name):
        raise ServiceError(
            ErrorCode.BAD_NAME, "a name starts with a letter and has only letters a–z, digits, '_' and '-'"
        )
    key = name_key(name)
    if key in {name_key(word) for word in RESERVED}:
        raise ServiceError(ErrorCode.BAD_NAME, f"{name!r} is reserved")
    if key in _BOT_KEYS or key.endswith("bot"):
        raise ServiceError(ErrorCode.BAD_NAME, f"{name!r} reads like a bot's name: bots' names end in 'bot'")
    return name
