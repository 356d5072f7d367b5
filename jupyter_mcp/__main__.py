"""``python -m jupyter_mcp``: the ``jupyter-mcp`` command, for interpreters without the script on hand."""

from jupyter_mcp.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
