"""What a translator is told about a text (the ``#.`` comments of the catalogs): what its
key's group is, and for the rules help the § of RULES.md it summarises."""

from __future__ import annotations

import re
from pathlib import Path

#: A key group (the key's first part) → what its texts are.
GROUPS = {
    "language": "language: the language switch; language.name is the language's own name for itself (Deutsch, Polski)",
    "colour": "colour: a player's colour, as a name on its own",
    "room": "room: a room of the castle, used after 'the' in sentences (lower case)",
    "shield": "shield: a room's shield, as a name on its own",
    "rules": "rules: the names of the two rule sets; keep Hugo",
    "bot": "bot: a bot's level, shown after the word bot",
    "seat": "seat: what a seat at a table shows",
    "speed": "speed: the animation speed",
    "banner": "banner: a large line over the board",
    "board": "board: the board and what its squares show",
    "narrate": "narrate: one move of a game told in words (replays, the move list, screen readers)",
    "replay": "replay: the replay page",
    "error": "error: the server's error by its code, shown to the player as a sentence",
    "wait": "wait: a waiting time made of two parts (hours and minutes), each formatted by the page",
    "help": "help: rules summary",
    "odds": "odds: Hugo's reach, the chances shown on the board",
    "effect": "effect: what a move does, shown beside it",
    "panel": "panel: the score panel beside the board",
    "table": "table: a game's page",
    "timer": "timer: the time limits of a move and the time bank",
    "lobby": "lobby: the list of tables and the form that opens one",
    "account": "account: the account page and the log-in",
    "player": "player: a player's public page",
    "leaderboard": "leaderboard: the ratings' list",
    "status": "status: the line that says what happens now at a table",
    "quick": "quick: quick match (the server seats players who want the same game)",
    "mine": "mine: the player's own games",
    "notify": "notify: a browser notification",
    "chat": "chat: a table's chat",
    "report": "report: reporting a message or a player to the moderators",
    "moderation": "moderation: the moderators' page",
    "again": "again: playing another game with the same players",
    "record": "record: a player's record of finished games",
    "opendata": "opendata: the open data page (every finished game, published)",
    "bot_invite": "bot_invite: inviting a bot account to a table",
    "tournaments": "tournaments: the list of tournaments",
    "tournament": "tournament: a tournament's page",
    "email": "email: the page of the account's e-mail address and what is sent to it",
    "bot_account": "bot_account: an account that a program plays with (the Bot API)",
    "friends": "friends: the players one follows",
    "invitations": "invitations: invitations to a game",
    "invite": "invite: inviting a player one follows",
    "review": "review: a game's review (the moves judged by a bot)",
    "puzzles": "puzzles: the puzzles page (a decision from a real game with one clearly best move) and the lobby's daily puzzle",
    "review_profile": "review_profile: a player's reviews over many games",
    "mail": "mail: plain-text e-mail, keep line breaks (and the '--' line above the footer)",
}
_HELP_REF = re.compile(r"""\[\s*["'](§[^"']+)["']\s*,\s*["'](help\.[\w.\-]+)["']\s*\]""")


def help_sections(rules_help: Path) -> dict[str, str]:
    """The rules help's keys → the § of RULES.md each summarises (from ``js/lib/rules-help.js``)."""
    if not rules_help.exists():
        return {}
    return {key: ref for ref, key in _HELP_REF.findall(rules_help.read_text(encoding="utf-8"))}


def note(key: str, sections: dict[str, str], counted: bool = False) -> list[str]:
    """The translator's comments of a key."""
    group = key.split(".", 1)[0]
    found = []
    if group in GROUPS:
        found.append(GROUPS[group] + (f", RULES.md {sections[key]}" if key in sections else ""))
    if counted:
        found.append("counted: {n} is the number; one text per plural form of the language")
    return found
