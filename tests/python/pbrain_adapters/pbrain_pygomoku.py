#!/usr/bin/env python3
"""pbrain adapter for PyPI pygomoku==1.0.0 (Rui He's adversarial-search coursework, 9x9 pygame GUI).

AIs (pygomoku.board.*, each a subclass of the package's BoardABC board):
  heuristic  AlphaBetaHeuristic: alpha-beta over *all* empty points with a pattern heuristic at
             the horizon.  The strongest (it beat mcts 2-0 on 9x9 and on 15x15) and the default.
             --depth sets max_depth; default: the package's 3 on boards up to 9x9 (about 12 s a
             move on 9x9), 2 on larger boards (about 1-2 s a move on 15x15; depth 3 there takes
             minutes per move).
  mcts       Monte Carlo tree search with uniformly random playouts over every empty point (the
             package GUI's choice), time-limited: the package uses 15 s; here INFO timeout_turn /
             time_left (75% of it), default 1 s; --mcts-seconds overrides.  Near-random on 15x15.
  alphabeta  AlphaBeta without heuristic (win/draw/loss only at the horizon), --depth (default 5)
  minmax     MinMax, --depth (default 3)
  simple     uniformly random empty point
Any square size 5..32 is accepted; the package counts five or more as a win; INFO rule is
accepted but not used.

    python pbrain_pygomoku.py [--level heuristic|mcts|alphabeta|minmax|simple] [--depth D]
                              [--mcts-seconds S] [--seed S]

pygomoku/__init__.py imports the pygame GUI; the adapter imports pygomoku.board without running
that __init__, so pygame is never imported (pip still installs it as a dependency of pygomoku).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbrain_common as pc  # noqa: E402

LEVELS = ("heuristic", "mcts", "alphabeta", "minmax", "simple")


def main():
    def more(ap):
        ap.add_argument("--depth", type=int, default=None,
                        help="max_depth for heuristic/alphabeta/minmax")
        ap.add_argument("--mcts-seconds", type=float, default=None,
                        help="MCTS time per move (default: from INFO timeout_turn/time_left, else 1 s)")

    args = pc.adapter_args(__doc__, LEVELS, "heuristic", "PBRAIN_PYGOMOKU_DIR", more)

    load_error = None
    try:
        pc.import_package_skipping_init("pygomoku")
        import pygomoku.board as pb
        import pygomoku.board.mcts as pmcts
        from pygomoku.score import Player
        cls = {
            "mcts": pb.MCTS,
            "heuristic": pb.AlphaBetaHeuristic,
            "alphabeta": pb.AlphaBeta,
            "minmax": pb.MinMax,
            "simple": pb.Simple,
        }[args.level]
    except Exception as e:
        load_error = "cannot import pygomoku (%s)" % e

    def choose(pos):
        n = pos.size
        board = {(r, c): Player.EMPTY for r in range(n) for c in range(n)}
        for x, y, who in pos.history:
            # The AI is Player.MAX; BLOCKED points count as the opponent's (MIN) stones.
            board[(y, x)] = Player.MAX if who == pc.OWN else Player.MIN
        kw = dict(grid_size=n, board=board, next_player=Player.MAX)
        last = pos.last_move()
        if last:
            kw["current_move"] = (last[1], last[0])
        if args.depth is not None and args.level in ("heuristic", "alphabeta", "minmax"):
            kw["max_depth"] = args.depth
        elif args.level == "heuristic" and n > 9:
            kw["max_depth"] = 2  # the package's 3 is meant for its 9x9 board
        if args.level == "mcts":
            secs = args.mcts_seconds
            if secs is None:
                # leave ~25% of the turn budget for Python start-up / board copying
                secs = max(0.05, pos.time_budget_ms(1000) * 0.75 / 1000.0)
            pmcts._Node.TIME_LIMIT_SECONDS = secs
        ai = cls(**kw)
        r, c = ai.calculate_next_move()
        return (c, r)

    pc.run_adapter(args, choose, pc.size_support(load_error, lambda n: 5 <= n <= 32),
                   "pygomoku-%s" % args.level, "1.0.0", "pygomoku (PyPI, Rui He)")


if __name__ == "__main__":
    main()
