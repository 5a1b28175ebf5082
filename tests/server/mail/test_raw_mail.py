"""The bytes an SMTP server receives: RFC 5322 lines (CRLF, at most 998 octets, folded at
whitespace), RFC 8058's one-click unsubscribe headers as plain text (no RFC 2047
encoded-word, which no mail provider reads as a link), ``Content-Language``, and a
non-ASCII subject that decodes to what the player reads."""

from __future__ import annotations

import re
from email import message_from_bytes, policy

from starlette.testclient import TestClient

from tests.fixtures.accounts import register
from tests.fixtures.mail import Inbox, email_client

#: What RFC 8058 needs a mail provider to find: one HTTP(S) link in angle brackets.
ONE_CLICK = re.compile(rb"<https?://[!-=?-~]+>")  # printable ASCII but "<" and ">"


def header_lines(raw: bytes) -> list[bytes]:
    """The header's physical lines (without their CRLF), checked to end in CRLF."""
    head, blank, _body = raw.partition(b"\r\n\r\n")
    assert blank, "no empty line ends the header"
    assert b"\n" not in head.replace(b"\r\n", b""), "a bare LF in the header"
    return head.split(b"\r\n")


def fields(lines: list[bytes]) -> dict[str, bytes]:
    """Each header field unfolded (continuation lines joined), by its name in lower case."""
    found: dict[str, bytes] = {}
    name = ""
    for line in lines:
        if line[:1] in (b" ", b"\t"):
            assert name, "the header starts with a continuation line"
            found[name] += line
            continue
        key, colon, value = line.partition(b":")
        assert colon and re.fullmatch(rb"[!-9;-~]+", key), f"not a header field: {line!r}"
        name = key.decode().lower()
        found[name] = value.strip()
    return found


def test_the_bytes_a_mail_server_receives_carry_plain_one_click_headers_and_the_language(
    inbox: Inbox, db_url: str
) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        given = client.post(
            "/api/account/email",
            json={"address": "ann@example.org", "language": "de"},
            headers={"x-csrf-token": csrf},
        )
        assert given.status_code == 202, given.text
        inbox.wait(1)
        raw = inbox.raw[0]
        raw.decode("ascii")  # 7-bit: no SMTPUTF8 is asked of the server
        lines = header_lines(raw)
        assert all(len(line) <= 998 for line in lines)  # RFC 5322 2.1.1: MUST
        # folded at whitespace to 78 where it can be: only a line that is one link is longer
        assert all(len(line) <= 78 or ONE_CLICK.search(line) for line in lines), lines
        header = fields(lines)
        assert b"=?" not in header["list-unsubscribe"], header["list-unsubscribe"]
        assert ONE_CLICK.fullmatch(header["list-unsubscribe"]), header["list-unsubscribe"]
        assert header["list-unsubscribe-post"] == b"List-Unsubscribe=One-Click"
        assert header["content-language"] == b"de"
        parsed = message_from_bytes(raw, policy=policy.default)
        assert str(parsed["Subject"]) == "Ghost Party: Bestätige deine E-Mail-Adresse"
        text = parsed.get_body().get_content()  # type: ignore[union-attr]
        assert "Hallo ann," in text and "Es kommt nichts weiter an diese Adresse." in text
        # the one click as a provider's server or a webmail page sends it: no cookie, a form
        one_click = header["list-unsubscribe"][1:-1].decode().replace("http://testserver", "")
        provider = TestClient(client.app)
        clicked = provider.post(
            one_click,
            files={"List-Unsubscribe": (None, "One-Click")},  # multipart/form-data, RFC 8058 3.1
            headers={"origin": "https://mail.example.net", "sec-fetch-site": "cross-site"},
        )
        assert clicked.status_code == 200 and clicked.json() == {"unsubscribed": "all"}, clicked.text
        assert client.get("/api/account/email").json()["address"] is None


def test_an_english_reminder_says_its_language_too(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "bob")
        client.post(
            "/api/account/email",
            json={"address": "bob@example.org", "language": "en"},
            headers={"x-csrf-token": csrf},
        )
        inbox.wait(1)
        header = fields(header_lines(inbox.raw[0]))
        assert header["content-language"] == b"en"
        assert header["subject"] == b"Ghost Party: confirm your email address"  # ASCII stays as it is
