"""The HTTP and WebSocket edge: request bodies and their schemas, responses, cross-site checks, API tokens, sessions, static assets, the sockets and the routes."""
