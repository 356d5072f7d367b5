"""``python -m jupyter_mcp.export._list_tools SERVER_PY MODULE OUT``: import an exported server, write its tools/list.

Run in a subprocess by ``export`` (the module runs the notebook's code, which must not touch the caller),
listing through an in-memory MCP client exactly as the generated tests do.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any


async def _listing(server: Any) -> list[dict[str, Any]]:
    from mcp import Client

    async with Client(server.lowlevel) as client:
        tools = (await client.list_tools()).tools
    return [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]


def main(server_py: str, module_name: str, out: str) -> None:
    spec = importlib.util.spec_from_file_location(module_name, server_py)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    Path(out).write_text(json.dumps(asyncio.run(_listing(module.server))), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:4])
