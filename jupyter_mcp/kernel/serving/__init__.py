"""The parts of a kernel's ``NotebookServer`` besides the tool layer: per-call output capture, the
main-thread executor, the GIL switch interval, quiet library logging, discovery publishing, the
kernel channel (the server's app over the kernel's own messaging), and what ``await server.call(...)``
returns in a cell. Imports nothing of the magics or widgets."""
