"""Ghost Party's tests, a package: pytest puts the repository's root on the path, so every
test module and shared helper imports as ``tests.…`` (``tests.fixtures.accounts``)."""
