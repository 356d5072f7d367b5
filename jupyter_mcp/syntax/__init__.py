"""The magics' own syntax, read without IPython: the kernel's magics run it, ``export`` translates it.

``flags``: the ``%%mcp_tool`` / ``%mcp_tool`` flags and the ``ToolOptions`` each sets.
``cellfunc``: cell-as-tool, ``%%mcp_tool name(sig) -> T`` (signature splitting, what the body returns).
"""
