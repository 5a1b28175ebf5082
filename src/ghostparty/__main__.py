"""``python -m ghostparty`` runs the command line."""

from ghostparty.cli.main import main

if __name__ == "__main__":
    main()
