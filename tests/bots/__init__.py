"""Bot tests. The rules tests' position builders import as ``tests.rules.builders``."""
