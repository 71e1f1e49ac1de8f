"""``gongzhu-sim serve``'s web page (docs/serve.md): the Starlette app
(:mod:`sim.web.app`), its jobs (:mod:`sim.web.jobs`), the position editor's check
(:mod:`sim.web.position`), the reports it lists (:mod:`sim.web.reports`) and the page itself
(``static/``: plain HTML, CSS and JavaScript modules).  Needs the ``web`` extra
(``pip install -e '.[web]'``); the analysis is the CLI's own (:mod:`sim.commands.api`).
"""
