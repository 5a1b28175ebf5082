"""What the emails say, in every language of the client, and how an address is checked.

Every message is plain text with a link, built here as 7-bit RFC 5322 text with its
language in ``Content-Language``, and carries RFC 8058's one-click unsubscribe headers
(``List-Unsubscribe`` with an HTTPS/HTTP link, written as it is: a link can't be folded
nor RFC 2047-encoded, or no mail provider finds it; ``List-Unsubscribe-Post``) and the
page's link in its last lines: a reminder's or an invitation's turns that kind off; a
confirmation's or a reset's removes the address from the account (the one way to stop
them: "this wasn't me").
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy, default
from email.utils import formatdate, make_msgid

from babel.dates import format_date, format_time
from email_validator import EmailNotValidError, validate_email

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.languages import catalog, codes

#: The languages e-mails are written in: every language of the client.
LANGUAGES = codes()


def moment_text(moment: datetime, language: str) -> str:
    """A moment as the e-mail's language writes it, in UTC: its long date and short time
    (English: month, day, year, 12-hour clock; German: day, month, year, 24-hour clock)."""
    moment = moment.astimezone(UTC)
    day = format_date(moment, "long", locale=language)
    return f"{day}, {format_time(moment, 'short', tzinfo=UTC, locale=language)} UTC"


def _text(language: str, key: str) -> str:
    """A ``mail.*`` text of the client's language file (:mod:`~ghostparty.server.common.languages`)."""
    return catalog(language)[f"mail.{key}"]


#: What each kind of email's unsubscribe link turns off: a choice, or the address (``all``).
CHOICE = {"reminder": "reminders", "invitation": "invitations", "confirm": "all", "reset": "all"}


class _Verbatim(UnstructuredHeader, BaseHeader):
    """A header written on one line as given (``<link>``): folding would break the link
    and the default policy would then RFC 2047-encode it instead."""

    def fold(self, *, policy: Policy) -> str:
        if not str(self).isascii():
            raise ValueError(f"{self.name} must be ASCII (a link's host as punycode), not {str(self)!r}")
        return f"{self.name}: {self}{policy.linesep}"


_HEADERS = HeaderRegistry()
_HEADERS.map_to_type("list-unsubscribe", _Verbatim)
#: RFC 5322 text: 7-bit (no SMTPUTF8 is needed), folded at 78 where it can be.
_POLICY = default.clone(header_factory=_HEADERS)


def checked_address(address: object) -> str:
    """The address normalized (the domain in lower case, IDN as ASCII, the local part as
    given; no deliverability check); ``bad_email`` (400) saying what is wrong if not valid.

    RFC 5321's lengths hold: at most 64 octets before the ``@``, 63 in a label of the
    domain, 254 in all. The part before the ``@`` is ASCII: mail goes out without
    SMTPUTF8, which an internationalized one would need."""
    if not isinstance(address, str) or len(address) > 254:
        raise ServiceError(ErrorCode.BAD_EMAIL, "an email address is a text of at most 254 characters")
    try:
        found = validate_email(address.strip(), check_deliverability=False, strict=True, allow_smtputf8=False)
    except EmailNotValidError as error:
        raise ServiceError(ErrorCode.BAD_EMAIL, f"this is not an email address: {error}") from None
    return f"{found.local_part}@{found.ascii_domain.lower()}"


def lookup_form(address: str) -> str:
    """The form of a normalized address that is hashed for lookups: in lower case, so that
    ``Ann@x.org`` and ``ann@x.org`` are one address (as nearly every mail server has it)."""
    return address.lower()


def masked(address: str) -> str:
    """What the owner is shown of their own address: ``a…@example.org``."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"


def compose(
    kind: str,
    language: str,
    *,
    sender: str,
    recipient: str,
    unsubscribe: tuple[str, str] | None = None,
    **fields: object,
) -> str:
    """The whole message of ``kind`` in ``language``, RFC 5322 text; ``unsubscribe`` is
    (the page's link, shown in the text; the one-click link, in the headers)."""
    subject, body = _text(language, f"{kind}.subject"), _text(language, f"{kind}.body")
    text = body.format(**fields)
    message = EmailMessage(policy=_POLICY)
    message["From"] = sender
    message["To"] = recipient
    message["Subject"] = subject.format(**fields)
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "ghostparty.invalid")
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe is not None:
        page, one_click = unsubscribe
        if CHOICE[kind] == "all":
            text += _text(language, "footer_all").format(unsubscribe=page)
        else:
            what = _text(language, f"what.{CHOICE[kind]}")
            text += _text(language, "footer").format(what=what, unsubscribe=page)
        message["List-Unsubscribe"] = f"<{one_click}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    message["Content-Language"] = language  # after the content, which replaces every Content-* header
    return message.as_string()
