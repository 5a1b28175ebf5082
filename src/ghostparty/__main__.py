"""``python -m ghostparty`` runs the command line."""

from ghostparty.cli.main import main

main()
