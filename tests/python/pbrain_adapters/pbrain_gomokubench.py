#!/usr/bin/env python3
"""pbrain adapter for PyPI gomokubench==0.1.10 (an LLM-vs-search Gomoku benchmark).

Only the package's search baseline is used: libs.ai.get_best_move (evaluation-ordered candidate
moves + alpha-beta minimax over the stones' neighbourhood, numpy board).  The LLM player
(libs.llm_player, plain urllib HTTP to model APIs) is never imported, so no network is needed.
Levels (libs.ai.AI_LEVELS): easy (depth 1, random among top 2), standard (depth 2),
hard (depth 3, 12 root candidates; the strongest and the default).  --depth overrides the level's
search depth.  Any square size 5..32 works (the package's own CLI uses 19); the package counts
five or more in a row as a win; INFO rule is accepted but not used.

    python pbrain_gomokubench.py [--level easy|standard|hard] [--depth D] [--seed S]

The package installs top-level modules named `libs` and `gomoku` (a launcher script); this adapter
imports `libs` only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbrain_common as pc  # noqa: E402


def main():
    def more(ap):
        ap.add_argument("--depth", type=int, default=None, help="override the level's search depth")

    args = pc.adapter_args(
        __doc__, ("easy", "standard", "hard"), "hard", "PBRAIN_GOMOKUBENCH_DIR", more
    )

    load_error = None
    try:
        import numpy as np
        from libs import piece
        from libs.ai import get_best_move, resolve_ai_settings
        from libs.board import BoardState
        settings = resolve_ai_settings(level=args.level, depth=args.depth)
    except Exception as e:
        load_error = "cannot import gomokubench (%s)" % e

    def choose(pos):
        n = pos.size
        me = piece.BLACK if pos.own_moves_first() else piece.WHITE
        values = np.full((n, n), piece.EMPTY)
        for x, y, who in pos.history:
            values[y, x] = me if who == pc.OWN else -me  # BLOCKED counted as opponent
        # BoardState.color is the colour of the side that moved last.
        state = BoardState(size=n, values=values, color=-me)
        last = pos.last_move()
        state.last_move = (last[1], last[0]) if last else None
        result = get_best_move(
            state,
            settings["depth"],
            me == piece.BLACK,  # is_max_state: black maximises the package's evaluation
            candidate_count=settings["candidate_count"],
            random_top_n=settings["random_top_n"],
        )
        move = result[0]
        row, col = int(move[0]), int(move[1])
        return (col, row)

    pc.run_adapter(args, choose, pc.size_support(load_error, lambda n: 5 <= n <= 32),
                   "gomokubench-%s" % args.level, "0.1.10", "gomokubench (PyPI)")


if __name__ == "__main__":
    main()
