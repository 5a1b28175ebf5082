"""The mutation score of the rules core per module, from mutmut's results in ``mutants/``.

Run after ``mutmut run`` (docs/MUTATION.md), from the repository's root::

    python scripts/mutation_score.py            # the table docs/MUTATION.md shows
    python scripts/mutation_score.py --survivors  # and every mutant not killed

A mutant is *killed* when a test failed with it (or it hung past mutmut's timeout: the
tests noticed it too). The mutants that docs/MUTATION.md lists as equivalent (no test
could tell them from the original) are counted apart: the score is killed out of all
mutants but those. It reads mutmut's ``*.meta`` files (JSON) and imports nothing of mutmut.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
META = ROOT / "mutants" / "src" / "ghostparty" / "rules"
DOC = ROOT / "docs" / "MUTATION.md"
#: mutmut's exit codes (its ``stats.status_by_exit_code``) that mean a test noticed the mutant.
KILLED = {1, 3, 36, -24, 24, 152, 255}
NAME = re.compile(r"`(ghostparty\.rules\.[\w.ǁ]+__mutmut_\d+)`")


def equivalents() -> set[str]:
    """The mutant names docs/MUTATION.md gives as equivalent (its ``Equivalent`` section)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Equivalent mutants", 1)[1] if "## Equivalent mutants" in text else ""
    return set(NAME.findall(section))


def results() -> dict[str, dict[str, int | None]]:
    """Module name -> mutant name -> exit code (None: not run yet)."""
    if not META.is_dir():
        sys.exit(f"no mutmut results in {META}: run mutmut first (docs/MUTATION.md)")
    found = {}
    for meta in sorted(META.glob("*.py.meta")):
        module = meta.name.removesuffix(".py.meta")
        found[module] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--survivors", action="store_true", help="also list every mutant not killed")
    args = parser.parse_args()
    same = equivalents()
    totals: Counter[str] = Counter()
    left: list[str] = []
    print("| module | mutants | killed | equivalent | not killed | score |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for module, codes in results().items():
        killed = sum(1 for code in codes.values() if code in KILLED)
        equivalent = sum(1 for name, code in codes.items() if name in same and code not in KILLED)
        not_run = sum(1 for code in codes.values() if code is None)
        rest = len(codes) - killed - equivalent
        left += [name for name, code in codes.items() if code not in KILLED and name not in same]
        score = f"{100 * killed / (len(codes) - equivalent):.1f} %" if len(codes) > equivalent else "–"
        note = f" ({not_run} not run)" if not_run else ""
        print(f"| `{module}` | {len(codes)} | {killed} | {equivalent} | {rest}{note} | {score} |")
        totals.update(mutants=len(codes), killed=killed, equivalent=equivalent, rest=rest)
    scored = totals["mutants"] - totals["equivalent"]
    print(
        f"| **all** | {totals['mutants']} | {totals['killed']} | {totals['equivalent']} | {totals['rest']} "
        f"| {100 * totals['killed'] / scored:.1f} % |"
    )
    print(f"\nkilled {totals['killed']} of {totals['mutants']} ({100 * totals['killed'] / totals['mutants']:.1f} %)")
    if args.survivors:
        print("\n".join(["", *sorted(left)]))


if __name__ == "__main__":
    main()
