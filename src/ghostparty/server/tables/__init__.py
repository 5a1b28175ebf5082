"""The game tables: the live tables and their one transaction, the lobby, play, keeping, bots' turns, rematches, chat, replays, results, the table service and the tables' store."""
