"""Text people type for others to read (names, chat): what shows, and what reads alike.

Some characters draw nothing though they are letters or symbols (the Hangul filler
U+3164, the blank Braille pattern U+2800), and any number of combining accents may be
stacked on one letter until they cover the lines around it. :func:`problem` refuses
both. :func:`skeleton` folds a name to what it looks like — case, accents, width,
spaces and the Cyrillic and Greek letters drawn like Latin ones aside — so that a
guest can't take a name that reads as an account's or a bot's.
"""

from __future__ import annotations

import unicodedata

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.names import name_key

#: The longest display name (a guest's, a spectator's in the chat).
MAX_NAME = 24

#: Letters and symbols that draw nothing (Unicode's default-ignorable and blank ones).
BLANKS = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0\u034f\u2028\u2029\u3000\u200b\u2060\ufeff")
#: Combining marks one character may carry (Vietnamese needs 2; stacks of more are
#: there to cover other lines).
MAX_MARKS = 3
#: Cyrillic and Greek letters drawn as Latin ones, as Unicode's confusables list has them.
LOOK_ALIKE = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h",
        "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "ӏ": "l", "ɡ": "g", "ɩ": "i", "ɑ": "a", "ο": "o",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ϳ": "j", "ℓ": "l", "ı": "i",
    }
)  # fmt: skip


def _shows(char: str) -> bool:
    category = unicodedata.category(char)
    return char not in BLANKS and category[0] not in "ZCM"


def problem(text: str) -> str | None:
    """Why ``text`` can't be shown to others as it is, or ``None``."""
    if not any(_shows(c) for c in text):
        return "needs at least one visible character"
    run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char) in {"Mn", "Me"} else 0
        if run > MAX_MARKS:
            return f"may carry at most {MAX_MARKS} accents on one letter"
    return None


def skeleton(name: str) -> str:
    """What ``name`` reads as: two names with one skeleton can be told apart by no reader."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    kept = "".join(c for c in folded if _shows(c) and not unicodedata.category(c).startswith("P"))
    return name_key(kept.translate(LOOK_ALIKE))


#: What no guest may be called: the site's own staff and voice, and the name a deleted
#: account's seats are given (``accounts_store.FORMER_PLAYER``). (Account names have a
#: longer list, names.RESERVED; a guest may be "Guest", "Hugo" or "Player".)
GUEST_RESERVED = frozenset(
    skeleton(word)
    for word in (
        "admin", "administrator", "ghostparty", "mod", "moderator", "root", "server", "staff", "support", "system",
        "former player",
    )
)  # fmt: skip


def clean_name(name: str) -> str:
    """A guest's or spectator's display name, trimmed; ``bad_name`` saying why if it
    can't be shown as it is or reads as the site's or a bot's (whose names end in "bot")."""
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise ServiceError(ErrorCode.BAD_NAME, "a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise ServiceError(ErrorCode.BAD_NAME, f"a name has at most {MAX_NAME} characters, this one has {len(name)}")
    bad = sorted({c for c in name if c in "<>&\"'`" or unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp"}})
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        raise ServiceError(ErrorCode.BAD_NAME, f"a name may not contain {shown}")
    why = problem(name)
    if why is not None:
        raise ServiceError(ErrorCode.BAD_NAME, f"a name {why}")
    key = skeleton(name)
    if key in GUEST_RESERVED:
        raise ServiceError(ErrorCode.BAD_NAME, f"{name!r} is reserved")
    if key.endswith("bot"):
        raise ServiceError(ErrorCode.BAD_NAME, f"{name!r} reads like a bot's name: only bots' names end in 'bot'")
    return name
