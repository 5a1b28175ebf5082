"""The browser client: static files in ``static/``, served by :mod:`ghostparty.server`.

No build step: plain HTML, CSS and JavaScript modules, shipped inside the package.
"""
