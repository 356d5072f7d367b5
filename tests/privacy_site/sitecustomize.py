"""In every Python process the tests start with this folder on ``PYTHONPATH``: other libraries' private parts
hidden from ``jupyter_mcp`` when ``JUPYTER_MCP_TEST_HIDE_PRIVATE=1`` (``tests/privacy.py``)."""

import os
import sys
from pathlib import Path

if os.environ.get("JUPYTER_MCP_TEST_HIDE_PRIVATE") == "1":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.privacy import install

    install()
