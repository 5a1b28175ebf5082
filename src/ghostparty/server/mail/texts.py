"""What the emails say, in English and German, and how an address is checked.

Every message is plain text with a link, built here as 7-bit RFC 5322 text with its
language in ``Content-Language``, and carries RFC 8058's one-click unsubscribe headers
(``List-Unsubscribe`` with an HTTPS/HTTP link, written as it is: a link can't be folded
nor RFC 2047-encoded, or no mail provider finds it; ``List-Unsubscribe-Post``) and the
page's link in its last lines: a reminder's or an invitation's turns that kind off; a
confirmation's or a reset's removes the address from the account (the one way to stop
them: "this wasn't me").
"""

from __future__ import annotations

from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy, default
from email.utils import formatdate, make_msgid

from email_validator import EmailNotValidError, validate_email

from ghostparty.server.common.errors import ErrorCode, ServiceError

LANGUAGES = ("en", "de")

_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "confirm": {
        "en": (
            "Ghost Party: confirm your email address",
            "Hello {name},\n\nplease confirm that this address is yours by opening this link"
            " (valid for {hours} hours):\n\n{link}\n\nIf you didn't ask for this, ignore this email:"
            " nothing more will be sent here.",
        ),
        "de": (
            "Ghost Party: Bestätige deine E-Mail-Adresse",
            "Hallo {name},\n\nbitte bestätige, dass diese Adresse dir gehört, mit diesem Link"
            " (gültig für {hours} Stunden):\n\n{link}\n\nWenn du das nicht angefordert hast, ignoriere"
            " diese E-Mail: Es kommt nichts weiter an diese Adresse.",
        ),
    },
    "reset": {
        "en": (
            "Ghost Party: set a new password",
            "Hello {name},\n\nsomeone (we hope you) asked to set a new password for your account."
            " Open this link to choose one (valid once, for {hours} hours); all your sessions"
            " end:\n\n{link}\n\nIf it wasn't you, ignore this email: your password stays as it is.",
        ),
        "de": (
            "Ghost Party: Neues Passwort festlegen",
            "Hallo {name},\n\njemand (hoffentlich du) möchte ein neues Passwort für dein Konto"
            " festlegen. Öffne diesen Link, um eines zu wählen (einmal gültig, {hours} Stunden lang);"
            " alle deine Sitzungen enden:\n\n{link}\n\nWarst du es nicht, ignoriere diese E-Mail:"
            " Dein Passwort bleibt, wie es ist.",
        ),
    },
    "reminder": {
        "en": (
            "Ghost Party: it's your move ({rules})",
            "Hello {name},\n\nit's your move in your turn-based game of {rules}. Your deadline:"
            " {deadline}.\n\nTo the table: {link}",
        ),
        "de": (
            "Ghost Party: Du bist am Zug ({rules})",
            "Hallo {name},\n\ndu bist in deiner Partie {rules} mit langer Bedenkzeit am Zug."
            " Deine Frist: {deadline}.\n\nZum Tisch: {link}",
        ),
    },
    "invitation": {
        "en": (
            "Ghost Party: {inviter} invites you to a game",
            "Hello {name},\n\n{inviter} invites you to a game of Ghost Party.\n\nTo the table: {link}",
        ),
        "de": (
            "Ghost Party: {inviter} lädt dich zu einer Partie ein",
            "Hallo {name},\n\n{inviter} lädt dich zu einer Partie Ghost Party ein.\n\nZum Tisch: {link}",
        ),
    },
}

_FOOTER = {
    "en": "\n\n--\nYou get these emails because you chose {what} on your Ghost Party account."
    " Unsubscribe with one click: {unsubscribe}\n",
    "de": "\n\n--\nDu bekommst diese E-Mails, weil du in deinem Ghost-Party-Konto {what} gewählt hast."
    " Mit einem Klick abbestellen: {unsubscribe}\n",
}
_WHAT = {
    "en": {"reminders": "“your move” reminders", "invitations": "invitations from friends"},
    "de": {"reminders": "Erinnerungen „Du bist am Zug“", "invitations": "Einladungen von Freunden"},
}
_FOOTER_ALL = {
    "en": "\n\n--\nThis address was given for a Ghost Party account. Never email it again (the address"
    " is removed from the account) with one click: {unsubscribe}\n",
    "de": "\n\n--\nDiese Adresse wurde für ein Ghost-Party-Konto angegeben. Nie wieder E-Mails an sie (die"
    " Adresse wird aus dem Konto entfernt), mit einem Klick: {unsubscribe}\n",
}
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


def language_of(given: object) -> str:
    """One of :data:`LANGUAGES`: ``given``'s first two letters if known, else English."""
    code = given[:2].lower() if isinstance(given, str) else ""
    return code if code in LANGUAGES else "en"


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
    subject, body = _TEXTS[kind][language]
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
            text += _FOOTER_ALL[language].format(unsubscribe=page)
        else:
            text += _FOOTER[language].format(what=_WHAT[language][CHOICE[kind]], unsubscribe=page)
        message["List-Unsubscribe"] = f"<{one_click}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    message["Content-Language"] = language  # after the content, which replaces every Content-* header
    return message.as_string()
