"""The registry entry of the exposure policy ``rule`` (strategies/exposure_rules.py; two
decks strategies/pairs.py).  strategies/registry.py collects it.
"""

from __future__ import annotations

from strategies.exposure_rules import RULE_HELP, RULE_PARAMS, expose_rule
from strategies.ids import EXPOSE_RULE
from strategies.pairs import expose_rule2
from strategies.spec import EXPOSURE, Strategy

RULE = Strategy(EXPOSURE, "rule", EXPOSE_RULE,
                "expose a card when a simple hand feature passes a threshold "
                "(rule:key=value,... below)",
                kernels={1: expose_rule, 2: expose_rule2},
                params={1: RULE_PARAMS, 2: RULE_PARAMS}, param_help=RULE_HELP,
                syntax="rule:key=value,...")
