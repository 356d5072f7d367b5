"""Sphinx configuration of the jupyter-mcp documentation.

``./dev.sh docs`` builds it into ``docs/_build/html``; ``tests/test_docs.py`` builds it with warnings
as errors (``-W --keep-going -n``), so a broken link, reference or notebook fails the tests. Pages
are MyST markdown; ``notebooks/`` (a link to the repository's series) is rendered by MyST-NB after
``_ext/notebook_pages.py`` has executed each notebook. Nothing here reaches the network.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

from jupyter_mcp._version import __version__  # noqa: E402  (after the path: the extensions live in _ext)

project = "jupyter-mcp"
author = "the jupyter-mcp authors"
copyright = "the jupyter-mcp authors"
version = release = __version__

extensions = [
    "myst_nb",  # MyST markdown pages and notebooks (it loads myst_parser)
    "configurables",  # the configuration reference, from the traitlets
    "notebook_pages",  # executes notebooks/ before MyST-NB renders them
    "reference",  # jupyter-mcp --help and the REST shapes, from the code
]

root_doc = "index"
exclude_patterns = ["_build", "_ext", "**/.ipynb_checkpoints", "notebooks/*.mcp-calls.json"]
nitpicky = True

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # [text](page.md#a-section-title) links resolve to headings

# Notebooks: executed by _ext/notebook_pages.py (in a scratch copy, with their own runtime dir), so
# MyST-NB only renders. Widgets show their static HTML snapshot (what nbconvert and GitHub show):
# live widget views would load their JavaScript from a CDN and need the kernel anyway.
nb_execution_mode = "off"
nb_merge_streams = True
nb_mime_priority_overrides = [("*", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js: dict[str, dict[str, str]] = {}  # so no page loads widget JavaScript from a CDN

html_theme = "pydata_sphinx_theme"
html_title = f"jupyter-mcp {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_show_sourcelink = False
