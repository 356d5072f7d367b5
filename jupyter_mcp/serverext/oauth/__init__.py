"""Sign in with Jupyter: the MCP authorization flow (OAuth 2.1) on the server extension's MCP routes.

This Jupyter server is both the authorization server and the protected resource. The protocol
endpoints are the MCP SDK's own handlers (``mcp.server.auth``: authorize, token, registration,
revocation, metadata), run from tornado by ``bridge``; what they ask of an authorization server is
``provider`` (``JupyterOAuthProvider``). The rest is Jupyter's:

- ``urls``: where things are (issuer, resources per route, metadata documents), for the origin a
  client reached;
- ``store``: registrations, grants, codes and tokens in one SQLite file, secrets only as hashes;
- ``documents``: client ID metadata documents (a client whose ``client_id`` is an https URL);
- ``consent``: the page behind Jupyter's login where the user says what a client may do;
- ``endpoints``: the tornado routes of the flow and the discovery documents;
- ``guard``: the bearer check of the MCP routes and the 401 that starts the flow;
- ``apps``: the REST API behind the sidebar's Connected apps.

Imports only the server extension's shared modules and the SDK; the MCP routes import ``guard``.
"""
