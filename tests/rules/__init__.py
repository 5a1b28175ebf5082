"""Tests of the rules core, ``ghostparty.rules``, one module per RULES.md section or engine module."""
