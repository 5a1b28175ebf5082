"""The HTTP endpoints, one module per domain (docs/PROTOCOL.md)."""
