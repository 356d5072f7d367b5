"""Sign in with Jupyter: the MCP authorization flow (OAuth 2.1) on the server extension's MCP routes.

This Jupyter server is both the authorization server and the protected resource. The protocol
endpoints are the MCP SDK's own handlers (``mcp.server.auth``: authorize, token, registration,
revocation, metadata), run from tornado by ``bridge``; what they ask of an authorization server is
``provider`` (``JupyterOAuthProvider``). The rest is Jupyter's:

- ``urls``: where things are (issuer, a resource per route, metadata documents) for the origin a
  client reached; ``signin``: the service, and the SDK's apps for each such origin;
- ``authority``: the rules (pending requests, grants, codes, tokens, replays), over ``store``:
  registrations, grants, codes and tokens in one SQLite file, secrets only as digests;
- ``clients`` and ``documents``: clients as this server knows them, and client ID metadata documents
  (a client whose ``client_id`` is an https URL);
- ``consent``: the page behind Jupyter's login where the user says what a client may do;
- ``endpoints``: the tornado routes of the flow and of the discovery documents;
- ``guard``: the MCP routes' bearer check, and the 401 that starts the flow;
- ``apps``: the REST API behind the sidebar's Connected apps.

Imports the server extension's shared modules, the union's ``Scope`` and the SDK; the MCP routes'
handlers import ``guard``.
"""
