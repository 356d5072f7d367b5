"""The network layer under both the server extension and the CLI: HTTP/1.1 and ``text/event-stream``.

It imports the standard library only, so the Jupyter server's proxy (``serverext``) and the
``connect`` bridge (``cli``) share one client, one SSE parser and one vocabulary (``Origin``,
``HttpError``) without importing each other, and the core install never pulls in tornado.

- ``origin``: where a request goes (``Origin``, ``split_url``); ``errors``: ``HttpError``.
- ``sse``: the incremental event-stream parser (``EventParser``) and the comment encoder.
- ``connections``: keep-alive connections pooled per origin; ``http``: one streamed exchange
  (``Exchange``, ``Response``); ``client``: requests to one URL (``HttpClient``).
"""
