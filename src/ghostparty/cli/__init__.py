"""The command line (``ghostparty``): click commands over the library."""

# The analysis' bot (``deep``) joins the others before any command lists them.
import ghostparty.analysis.deep  # noqa: F401
