"""gongzhu-sim: a Monte Carlo strategy analyser for 拱猪 (Gong Zhu).

Modules: ``cards`` (card indices, parsing), ``rules`` (Rules options),
``scoring`` (RULES.md §5–§7), ``engine`` (numba deal kernels),
``reference`` (the readable oracle engine), ``cli`` (the command).
"""
