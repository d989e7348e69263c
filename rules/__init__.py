"""Pure-Python rules engines for TAC, Tac-Tik, Tock, TAKI and ZACK!.

Nothing below this package imports Django or the tournament apps. The public entry points are
:func:`rules.core.replay.verify_bytes`, :func:`rules.core.replay.verify_document` and the command line
``python -m rules``.
"""
