"""The one error the server's parts raise for a request they refuse."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses; ``code`` is one of docs/PROTOCOL.md's error codes."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class StoreUnavailable(ServiceError):
    """The store could not be reached or failed mid-call; nothing was applied that a
    client was told of, and the table is read afresh on its next use."""

    def __init__(self, detail: str) -> None:
        super().__init__("unavailable", f"the game store is unavailable ({detail}): try again in a moment", 503)
