"""The keys of email: addresses sealed (AES-GCM) and found by a keyed hash (HMAC), and
the signed links that need no row (unsubscribing).

All keys are derived (HKDF-SHA256) from the server's email secret (``ghostparty serve
--email-secret``, at least 16 characters, the same on every instance), which is never
kept in the database: a copy of the database holds only sealed addresses and hashes
that can't be reversed or checked against a list of guessed addresses without it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ghostparty.server.common.ids import whole_number

#: The kinds of email a player chooses (and may unsubscribe from) …
KINDS = ("reminders", "invitations")
#: … and ``all``: the link in a confirmation or a reset, which removes the address itself.
UNSUBSCRIBE = (*KINDS, "all")


def token_hash(token: str) -> str:
    """SHA-256 of a link's random token, hex: what the database keeps of it."""
    return hashlib.sha256(token.encode()).hexdigest()


class EmailKeys:
    """The derived keys of one server secret."""

    def __init__(self, secret: str) -> None:
        if len(secret) < 16:
            raise ValueError("the email secret needs at least 16 characters")
        self._seal = AESGCM(self._derive(secret, b"ghostparty email seal"))
        self._lookup = self._derive(secret, b"ghostparty email lookup")
        self._sign = self._derive(secret, b"ghostparty email links")

    @staticmethod
    def _derive(secret: str, info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret.encode())

    def seal(self, text: str) -> str:
        """``text`` encrypted and authenticated, as URL-safe base64 (a fresh nonce each time)."""
        nonce = os.urandom(12)
        return base64.urlsafe_b64encode(nonce + self._seal.encrypt(nonce, text.encode(), None)).decode()

    def open(self, sealed: str) -> str:
        """What :meth:`seal` sealed; ``ValueError`` if it was sealed with another secret or changed."""
        try:
            raw = base64.urlsafe_b64decode(sealed.encode())
            return self._seal.decrypt(raw[:12], raw[12:], None).decode()
        except Exception as error:
            raise ValueError("this was sealed with another email secret, or changed since") from error

    def lookup(self, address: str) -> str:
        """The keyed hash of a normalized address (:func:`ghostparty.server.mail.texts.lookup_form`), hex."""
        return hmac.new(self._lookup, address.encode(), hashlib.sha256).hexdigest()

    def unsubscribe_token(self, player_id: int, kind: str, bound: str = "") -> str:
        """A link's token that turns ``kind`` off for the player: signed, kept nowhere.
        ``bound`` (an address's lookup) is signed too, not shown: the token then works
        only while the player has that address."""
        body = f"{player_id}.{kind}"
        return f"{body}.{self._mac(f'{body}.{bound}')}"

    @staticmethod
    def unsubscribe_parts(token: str) -> tuple[int, str] | None:
        """(player id, kind) that a token claims, not yet checked; ``None`` if malformed."""
        parts = token.split(".")
        player_id = whole_number(parts[0], below=10**12) if len(parts) == 3 else None
        if player_id is None or parts[1] not in UNSUBSCRIBE:
            return None
        return player_id, parts[1]

    def unsubscribed(self, token: str, bound: str = "") -> tuple[int, str] | None:
        """(player id, kind) of a token :meth:`unsubscribe_token` made with ``bound``;
        ``None`` if forged or bound to something else."""
        claimed = self.unsubscribe_parts(token)
        if claimed is None:
            return None
        body = f"{claimed[0]}.{claimed[1]}"
        return claimed if hmac.compare_digest(self._mac(f"{body}.{bound}"), token.rsplit(".", 1)[1]) else None

    def _mac(self, body: str) -> str:
        digest = hmac.new(self._sign, body.encode(), hashlib.sha256).digest()[:18]
        return base64.urlsafe_b64encode(digest).decode()
