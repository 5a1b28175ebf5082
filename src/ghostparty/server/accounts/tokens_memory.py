"""Personal API tokens in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryTokens` keeps :class:`~ghostparty.server.accounts.tokens_store.TokenStore`'s
contract as :class:`~ghostparty.server.accounts.tokens_store.SqlTokens` does
(``tests/server/accounts/test_tokens_contract.py`` holds both to it); its owners are the memory
accounts' players.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import replace
from datetime import datetime

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.accounts.store import Player
from ghostparty.server.accounts.tokens_store import TokenInfo


class MemoryTokens:
    """A :class:`~ghostparty.server.accounts.tokens_store.TokenStore` in one dict, behind a lock."""

    def __init__(self, accounts: MemoryAccounts) -> None:
        self._accounts = accounts
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        #: Token id -> (the token, its secret's hash).
        self._tokens: dict[int, tuple[TokenInfo, str]] = {}

    def create(
        self,
        player_id: int,
        token_hash: str,
        name: str,
        scopes: tuple[str, ...],
        created: datetime,
        expires: datetime | None,
        most: int,
    ) -> TokenInfo | None:
        with self._lock:
            self._tokens = {
                token_id: (info, hashed)
                for token_id, (info, hashed) in self._tokens.items()
                if not (info.player_id == player_id and info.expires is not None and info.expires <= created)
            }
            if sum(info.player_id == player_id for info, _ in self._tokens.values()) >= most:
                return None
            info = TokenInfo(next(self._ids), player_id, name, scopes, created, expires, None)
            self._tokens[info.id] = (info, token_hash)
        return info

    def of_player(self, player_id: int) -> list[TokenInfo]:
        with self._lock:
            found = [info for info, _ in self._tokens.values() if info.player_id == player_id]
        return sorted(found, key=lambda info: (info.created, info.id), reverse=True)

    def revoke(self, player_id: int, token_id: int) -> bool:
        with self._lock:
            kept = self._tokens.get(token_id)
            if kept is None or kept[0].player_id != player_id:
                return False
            del self._tokens[token_id]
        return True

    def look_up(self, token_hash: str, now: datetime) -> tuple[TokenInfo, Player, str] | None:
        with self._lock:
            found = [
                (info, hashed)
                for info, hashed in self._tokens.values()
                if hashed == token_hash and (info.expires is None or info.expires > now)
            ]
        if not found:
            return None
        info, hashed = found[0]
        owner = self._accounts.player(info.player_id)
        if owner is None:  # the account is gone, and its tokens with it
            return None
        return info, replace(owner, password_hash=None), hashed

    def touch(self, token_id: int, now: datetime) -> None:
        with self._lock:
            kept = self._tokens.get(token_id)
            if kept is not None:
                self._tokens[token_id] = (replace(kept[0], last_used=now), kept[1])
