"""Write (or, with --check, compare) docs/openapi.json: the REST API's OpenAPI document.

The document is generated from the handlers' shapes by ``jupyter_mcp.serverext.openapi``; the extension
serves the same document at ``<jupyter url>/api/mcp/openapi.json`` with its own base URL.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from jupyter_mcp.serverext.openapi import openapi_document

TARGET = Path(__file__).resolve().parent.parent / "docs" / "openapi.json"


def rendered() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/openapi.json is not up to date")
    if parser.parse_args().check:
        if TARGET.read_text(encoding="utf-8") != rendered():
            print(f"{TARGET} is out of date: run python scripts/openapi_doc.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(rendered(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
