"""Which CLDR plural category each gettext plural form of a language stands for.

A ``.po`` file counts with gettext's ``Plural-Forms`` (``msgstr[0]``, ``msgstr[1]``, …);
the pages count with CLDR's categories (``Intl.PluralRules``: ``one``, ``few``, …). The
two are matched by evaluating both over the counts 0…1000: form ``i`` stands for the
category of the counts it is chosen for.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass

from babel import Locale
from babel.messages.catalog import Catalog

from ghostparty.web.i18n.layout import CATEGORIES

#: The counts both rules are evaluated for.
COUNTS = range(1001)


@dataclass(frozen=True)
class PluralForms:
    """A language's gettext plural forms and the CLDR category of each."""

    code: str
    count: int  #: nplurals
    expression: str  #: gettext's plural expression (C syntax)
    by_index: tuple[str | None, ...]  #: form i's category; None where no count 0…1000 takes form i

    @property
    def header(self) -> str:
        """The ``Plural-Forms`` header's value."""
        return f"nplurals={self.count}; plural={self.expression};"

    @property
    def categories(self) -> tuple[str, ...]:
        """The keys a counted text has in the language's JSON, in CLDR's order: the forms'
        categories, and always ``other`` (the pages' fallback)."""
        found = {category for category in self.by_index if category} | {"other"}
        return tuple(category for category in CATEGORIES if category in found)

    def index_of(self, category: str) -> int:
        """The form whose text a category's key gets: the form standing for it, else (a
        category no whole count takes, such as Polish ``other``) the last form."""
        if category in self.by_index:
            return self.by_index.index(category)
        if category == "other":
            return self.count - 1
        raise KeyError(f"{self.code} has no plural category {category!r}: one of {', '.join(self.categories)}")


def babel_forms(code: str) -> tuple[int, str]:
    """Babel's gettext ``(nplurals, plural expression)`` for a language."""
    catalog = Catalog(locale=code)
    return catalog.num_plurals, catalog.plural_expr


def plural_forms(code: str, count: int | None = None, expression: str | None = None) -> PluralForms:
    """The plural forms of language ``code``: Babel's, or a catalog's own ``Plural-Forms``.

    ``ValueError`` if a form stands for two categories, or a category for two forms (the
    rules disagree, and no JSON key could hold the texts).
    """
    if count is None or expression is None:
        count, expression = babel_forms(code)
    choose = gettext.c2py(expression)
    category_of = Locale.parse(code).plural_form
    seen: dict[int, set[str]] = {}
    for n in COUNTS:
        index = choose(n)
        if not 0 <= index < count:
            raise ValueError(f"{code}: plural={expression} chooses form {index} for {n}: expected 0…{count - 1}")
        seen.setdefault(index, set()).add(category_of(n))
    by_index: list[str | None] = []
    for index in range(count):
        categories = seen.get(index, set())
        if len(categories) > 1:
            raise ValueError(
                f"{code}: gettext form {index} is chosen for counts of the CLDR categories "
                f"{', '.join(sorted(categories))}: expected one category per form"
            )
        by_index.append(next(iter(categories)) if categories else None)
    named = [category for category in by_index if category]
    if len(named) != len(set(named)):
        raise ValueError(f"{code}: two gettext forms stand for one CLDR category ({by_index}): expected one each")
    return PluralForms(code, count, expression, tuple(by_index))
