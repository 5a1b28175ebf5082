"""Which addresses are taken: RFC 5321's lengths at their boundaries (64 octets before the
``@``, 63 in a label of the domain, 254 in all), an ASCII part before the ``@`` (mail
goes out without SMTPUTF8), and over HTTP: refused, nothing is mailed."""

from __future__ import annotations

import pytest

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.mail.texts import checked_address
from tests.fixtures.accounts import error, register
from tests.fixtures.mail import Inbox, email_client


def refused(address: str) -> str:
    """Why ``address`` is refused (failing if it is taken)."""
    with pytest.raises(ServiceError) as caught:
        checked_address(address)
    assert caught.value.code == ErrorCode.BAD_EMAIL
    return str(caught.value)


def test_the_part_before_the_at_has_at_most_64_octets() -> None:
    assert checked_address("a" * 64 + "@Example.org") == "a" * 64 + "@example.org"
    assert "before the @-sign" in refused("a" * 65 + "@example.org")
    assert "before the @-sign" in refused("a" * 100 + "@example.org")


def test_a_label_of_the_domain_has_at_most_63_octets_and_the_address_254() -> None:
    assert checked_address("ann@" + "b" * 63 + ".org") == "ann@" + "b" * 63 + ".org"
    refused("ann@" + "b" * 64 + ".org")
    domain = "b" * 63 + "." + "c" * 63 + "." + "d" * 57 + ".org"  # 189 characters
    assert len(checked_address("a" * 64 + "@" + domain)) == 254
    refused("a" * 64 + "@" + domain.replace(".org", ".orgs"))  # 255
    refused("a" * 64 + "@" + domain.replace("d" * 57, "d" * 58))  # 255, each label within 63


def test_the_part_before_the_at_is_ascii_and_the_domain_may_be_an_idn() -> None:
    assert "Internationalized characters before the @-sign" in refused("jörg@example.org")
    assert checked_address("joerg@bücher.example") == "joerg@xn--bcher-kva.example"


def test_a_65_octet_local_part_is_refused_over_http_and_nothing_is_mailed(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        for address in ("a" * 65 + "@example.org", "jörg@example.org"):
            given = client.post(
                "/api/account/email", json={"address": address, "language": "en"}, headers={"x-csrf-token": csrf}
            )
            assert given.status_code == 400 and error(given) == "bad_email", given.text
        assert client.get("/api/account/email").json() == {"enabled": True, "address": None}
        longest = client.post(
            "/api/account/email", json={"address": "a" * 64 + "@example.org"}, headers={"x-csrf-token": csrf}
        )
        assert longest.status_code == 202, longest.text
        inbox.wait(1)
        assert inbox.recipients == [["a" * 64 + "@example.org"]]


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "November 26, 2026, 9:00\u202fAM UTC"),
        ("de", "26. November 2026, 09:00 UTC"),
        ("fr", "26 novembre 2026, 09:00 UTC"),
        ("pl", "26 listopada 2026, 09:00 UTC"),
    ],
)
def test_a_deadline_is_written_as_the_mails_language_writes_it(language: str, written: str) -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from ghostparty.server.mail.texts import moment_text

    assert moment_text(datetime(2026, 11, 26, 9, 0, tzinfo=UTC), language) == written
    assert moment_text(datetime(2026, 11, 26, 10, 0, tzinfo=timezone(timedelta(hours=1))), language) == written
