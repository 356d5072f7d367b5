"""The configuration reference, generated from the traitlets themselves.

In a MyST page::

    ```{configurable} jupyter_mcp.kernel.config.JupyterMCP
    ```

documents every trait of the class that ``class_traits(config=True)`` returns (so it keeps working
however the class is built) and that the package defines (an ``ExtensionApp``'s own options are
jupyter_server's to document): name, type, default and help, each a ``confval`` that pages link to as
``{confval}`JupyterMCP.port```. Once all pages are read, every configurable class of the package
(a ``Configurable`` subclass with config traits, in a module that mentions ``config=True``) must have
been documented somewhere, or the build warns: a new settings class cannot go unnoticed.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
PACKAGE = "jupyter_mcp"
TYPE_NAMES = {"Int": "int", "Integer": "int", "Float": "float", "Unicode": "str", "Bool": "bool", "Dict": "dict"}


def type_of(trait: Any) -> str:
    """A trait's type as a Python reader writes it: ``int``, ``int | str | None``, ``"a" | "b"``."""
    kind = type(trait).__name__
    if kind in ("Enum", "CaselessStrEnum"):
        text = " | ".join(repr(value) for value in trait.values)
    elif kind == "Union":
        text = " | ".join(type_of(member) for member in trait.trait_types)
    else:
        text = TYPE_NAMES.get(kind, kind)
    return f"{text} | None" if trait.allow_none and not text.endswith("None") else text


def escape_markdown(text: str) -> str:
    """Help text shown as written: no character of it starts markdown (emphasis, links, roles)."""
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~$])", r"\\\1", text)


def trait_lines(cls: type, name: str, trait: Any) -> list[str]:
    # A fence longer than any the help could hold, so the help text never closes the block.
    return [
        f"````{{confval}} {cls.__name__}.{name}",
        f":type: {inline_literal(type_of(trait))}",
        f":default: {inline_literal(trait.default_value_repr())}",
        "",
        escape_markdown(" ".join((trait.help or "(no help text)").split())),
        "````",
        "",
    ]


def inline_literal(text: str) -> str:
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def config_traits(cls: Any) -> dict[str, Any]:
    """The class's config traits that the package defines (not those a Jupyter base class brings)."""
    own = {name for klass in cls.__mro__ if _in_package(klass) for name in vars(klass)}
    return {name: trait for name, trait in sorted(cls.class_traits(config=True).items()) if name in own}


def _in_package(cls: type) -> bool:
    return cls.__module__.split(".")[0] == PACKAGE


def import_object(path: str) -> Any:
    module_name, _, attribute = path.rpartition(".")
    return getattr(importlib.import_module(module_name), attribute)


class ConfigurableDirective(SphinxDirective):
    """``{configurable} dotted.path.Class``: the class's config traits as ``confval`` entries."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        path = self.arguments[0]
        try:
            cls = import_object(path)
        except (ImportError, AttributeError) as error:
            raise self.error(f"configurable {path!r} cannot be imported: {error}") from error
        traits = config_traits(cls)
        if not traits:
            raise self.error(f"{path} has no config=True traits")
        _documented(self.env)[f"{cls.__module__}.{cls.__qualname__}"] = self.env.docname
        lines = [line for name, trait in traits.items() for line in trait_lines(cls, name, trait)]
        container = nodes.container(classes=["configurable"])
        self.state.nested_parse(StringList(lines, source=f"<{path}>"), self.content_offset, container)
        return list(container.children)


def _documented(env: BuildEnvironment) -> dict[str, str]:
    """Class path -> the page that documents it, kept in the environment across reads."""
    if not hasattr(env, "jupyter_mcp_configurables"):
        env.jupyter_mcp_configurables = {}  # type: ignore[attr-defined]
    return env.jupyter_mcp_configurables  # type: ignore[attr-defined,no-any-return]


def package_configurables() -> set[str]:
    """Every configurable class of the package: imports each module whose source says ``config=True``."""
    from traitlets.config import Configurable

    root = Path(importlib.import_module(PACKAGE).__file__ or "").parent
    for path in sorted(root.rglob("*.py")):
        if "config=True" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(root.parent).with_suffix("").parts
            importlib.import_module(".".join(parts).removesuffix(".__init__"))
    found: set[str] = set()
    pending = list(Configurable.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if _in_package(cls) and config_traits(cls):
            found.add(f"{cls.__module__}.{cls.__qualname__}")
    return found


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    documented = _documented(env)
    for path in [path for path, page in documented.items() if page == docname]:
        del documented[path]


def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    _documented(env).update(_documented(other))


def check_all_documented(app: Sphinx, env: BuildEnvironment) -> None:
    missing = sorted(package_configurables() - set(_documented(env)))
    for path in missing:
        logger.warning("configurable class %s is documented on no page (add a {configurable} directive)", path)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("configurable", ConfigurableDirective)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-check-consistency", check_all_documented)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
