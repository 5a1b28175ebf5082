"""The game tables: the live tables and their one transaction, the lobby, play, keeping, bots' turns, rematches, chat, replays, results, the table service and the tables' store."""

# The analysis' bot (``deep``) is a level of every instance's tables: registered here,
# with the tables, so that every process that seats or moves a bot knows it (a table
# kept by one worker and moved by another never meets an unknown level).
import ghostparty.analysis.deep  # noqa: F401
