"""The parts of a kernel's ``NotebookServer`` besides the tool layer: per-call output capture, the
main-thread executor, the GIL switch interval, quiet library logging, discovery publishing, and
what ``await server.call(...)`` returns in a cell. Imports nothing of the magics or widgets."""
