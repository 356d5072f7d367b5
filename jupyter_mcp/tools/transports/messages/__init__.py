"""The kernel-channel transport, kernel-free: an ASGI app answering HTTP requests carried as messages.

``exchanges``: requests in frames -> the app -> responses in frames (``MessageExchanges``);
``apploop``: the app's lifespan on a loop of its own when no HTTP server runs it (``AppLoop``).
The frames' shapes are ``jupyter_mcp._wire.frames``; the comm that carries them is ``kernel/serving/channel.py``.
"""
