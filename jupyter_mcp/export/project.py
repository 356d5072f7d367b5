"""The exported project's files besides server.py and tests: names, pyproject.toml, README.md, Dockerfile."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass

from jupyter_mcp.export.recorded import RecordedCall


@dataclass(frozen=True)
class Names:
    """``quickstart`` -> project and script ``quickstart-server``, module ``quickstart_server``."""

    base: str

    @classmethod
    def of(cls, text: str) -> Names:
        """From a notebook stem or a chosen name: ``01-Quick start`` -> ``quick-start``."""
        base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
        base = re.sub(r"^[0-9-]+", "", base).removesuffix("-server") or "notebook"
        return cls(base)

    @property
    def project(self) -> str:
        return f"{self.base}-server"

    @property
    def script(self) -> str:
        return self.project

    @property
    def module(self) -> str:
        return self.project.replace("-", "_")


PYPROJECT = """[build-system]
requires = ["hatchling>=1.26"]
build-backend = "hatchling.build"

[project]
name = "{project}"
version = "0.1.0"
description = "MCP tools exported from {notebook} by jupyter-mcp export"
readme = "README.md"
requires-python = ">={python}"
dependencies = [
{dependencies}
]

[project.optional-dependencies]
test = ["pytest>=8"]

[project.scripts]
{script} = "{module}:main"

# server.py is installed as the module {module}: a top-level "server" module would clash with others.
[tool.hatch.build.targets.wheel]
bypass-selection = true

[tool.hatch.build.targets.wheel.force-include]
"server.py" = "{module}.py"

[tool.pytest.ini_options]
testpaths = ["tests"]
"""


def pyproject(names: Names, notebook: str, dependencies: list[str]) -> str:
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    listed = "\n".join(f"    {json.dumps(d)}," for d in dependencies)
    return PYPROJECT.format(
        project=names.project, notebook=notebook, python=python, dependencies=listed, script=names.script,
        module=names.module,
    )  # fmt: skip


README = """# {project}

MCP tools exported from `{notebook}` by `jupyter-mcp export`: the notebook's code cells, in order,
as plain Python in `server.py`, served by `jupyter_mcp.tools` (no Jupyter needed).

Tools: {tools}.

## Run

```bash
pip install .
{script}                                                   # stdio, for a client that starts it
{script} --transport http --port 8000 --token "$TOKEN"     # streamable HTTP at http://127.0.0.1:8000/mcp
```

Over HTTP every request needs the token (`Authorization: Bearer <token>`; `--token`, else
`$JUPYTER_MCP_TOKEN`, else a random one printed on stderr). Bind other interfaces with `--host`
(`0.0.0.0` in a container) and name the hosts clients use with `--allow-host NAME`.

A client that starts the server over stdio (Claude Desktop's `claude_desktop_config.json`):

```json
{client_config}
```

## Test

```bash
pip install ".[test]"
pytest                                          # the kept calls, replayed against server.py
pytest --jupyter-mcp-url URL --token TOKEN      # the same, against the live notebook (or any server)
```

`tests/test_recorded_calls.py` holds {calls}: each must give the same structured result, content
or error as it did in the notebook (floats within a tolerance, images by type and size).
{listing}{docker}"""

_LISTING = """`tests/test_tools.py` checks the tools/list entries against the notebook's (`tests/tools.json`).
"""

_DOCKER = """
## Docker

```bash
docker build -t {project} .
docker run -p 8000:8000 -e JUPYTER_MCP_TOKEN="$TOKEN" {project}
```
"""


def readme(
    names: Names, notebook: str, tools: list[str], calls: list[RecordedCall], *, listing: bool, docker: bool
) -> str:
    config = {"mcpServers": {names.base: {"command": names.script, "args": []}}}
    count = f"{len(calls)} kept call{'s' if len(calls) != 1 else ''}"
    return README.format(
        project=names.project,
        notebook=notebook,
        tools=", ".join(f"`{t}`" for t in tools) or "(listed when the server runs)",
        script=names.script,
        client_config=json.dumps(config, indent=2),
        calls=count,
        listing=_LISTING if listing else "",
        docker=_DOCKER.format(project=names.project) if docker else "",
    )


DOCKERFILE = """FROM python:{python}-slim
WORKDIR /app
COPY pyproject.toml README.md server.py ./
RUN pip install --no-cache-dir .
# Clients must send the token: docker run -e JUPYTER_MCP_TOKEN=... (without one, a random token is printed).
EXPOSE 8000
CMD ["{script}", "--transport", "http", "--host", "0.0.0.0", "--port", "8000"]
"""


def dockerfile(names: Names) -> str:
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return DOCKERFILE.format(python=python, script=names.script)
