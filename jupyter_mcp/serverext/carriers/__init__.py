"""Carriers: how the extension's requests reach a kernel's MCP app.

``base``: the interface (``Carrier``: "send this HTTP-shaped request to that kernel, stream the
response back") and ``HttpCarrier`` (the kernel's loopback port); ``kernel``: ``KernelCarrier``, the
same requests over the kernel's own messaging (``exchange``: one request and its response there;
``links``: ZeroMQ or a gateway's websocket under it); ``registry``: ``Carriers``, which carrier
reaches which kernel, and the kernel channels kept open.
"""
