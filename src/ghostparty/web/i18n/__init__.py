"""The translations as gettext catalogs: ``en.json`` → ``ghostparty.pot`` → ``<code>.po`` → ``<code>.json``.

The pages and the server read the JSON files (``static/i18n``); translators edit the
catalogs (``locale/<code>/LC_MESSAGES/ghostparty.po``) with any gettext tool, and
``ghostparty i18n`` keeps the two in step (docs/translating.md).
"""
