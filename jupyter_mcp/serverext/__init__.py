"""The Jupyter server extension: runs inside jupyter-server, never imports kernel code.

``jupyter_mcp.serverext.app.MCPExtensionApp`` is the ``ExtensionApp``; it is found through
``jupyter_mcp._jupyter_server_extension_points`` and auto-enabled by
``jupyter-config/jupyter_server_config.d/jupyter_mcp.json``.
"""
