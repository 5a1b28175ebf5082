"""Bot tests. A package, so that pytest puts ``tests/`` on the path and the rules tests'
position builders import as ``rules.helpers``."""
