"""The command line (``ghostparty``): click commands over the library."""
