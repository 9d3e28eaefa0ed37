#!/usr/bin/env python3
"""pbrain adapter for PyPI gomoku==0.1.0 (Allen Zhang's threat-space-search Gomoku AI).

The package's board is a gmpy2 bitboard hard-wired to 15x15, so START answers
"ERROR unsupported size" for every other size.  Players (gomoku.player.*):
  simple       one-ply threat patterns, random fallback
  threatspace  forced moves, then threat-space search for a winning line, else the best-scored
               moves that do not allow an opponent threat-space win (the package's main AI; the
               default and the strongest of the three)
  negamax      2-ply negamax over the top 5 scored moves with threat-space search at the leaves
               (unfinished in the package: no better than threatspace and slower)
The AI counts five or more as a win (freestyle); INFO rule is accepted but not used.

    python pbrain_gomoku.py [--level threatspace|simple|negamax] [--seed S] [--pkg-dir DIR]

PyPI gomoku-terminal installs a different package with the same import name `gomoku`; the two
cannot share one site-packages.  Install this one apart and point --pkg-dir (or the environment
variable PBRAIN_GOMOKU_DIR) at it:
    pip install --no-deps --target DIR gomoku==0.1.0 && pip install gmpy2
gomoku/player/__init__.py imports flask_socketio (for a web UI); the adapter imports the player
modules without running that __init__, so flask is not needed.  The package prints its search
trace to stdout; pbrain_common sends that to os.devnull.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbrain_common as pc  # noqa: E402

SIZE = 15


def main():
    args = pc.adapter_args(
        __doc__, ("threatspace", "simple", "negamax"), "threatspace", "PBRAIN_GOMOKU_DIR"
    )

    load_error = None
    try:
        import gmpy2
        import gomoku
        from gomoku.board import Board
        if not hasattr(Board, "force_index"):
            raise ImportError("`gomoku` on sys.path is not gomoku==0.1.0 (try --pkg-dir)")
        pc.import_package_skipping_init("gomoku.player")
        import gomoku.game
        import gomoku.player.negamax as m_negamax
        import gomoku.player.simple as m_simple
        import gomoku.player.threat_space as m_threat_space
        for m in (m_negamax, m_threat_space, gomoku.game):
            m.VERBOSE = 0
        factory = {
            "threatspace": m_threat_space.ThreatSpace,
            "simple": m_simple.Simple,
            "negamax": m_negamax.Negamax,
        }[args.level]
    except Exception as e:
        load_error = "cannot import gomoku==0.1.0 (%s)" % e

    state = {"player": None}

    def new_game(pos):
        state["player"] = factory()  # ThreatSpace keeps a winning line between moves

    def to_board(pos):
        own = opp = 0
        for x, y, who in pos.history:
            bit = 1 << (y * SIZE + x)  # the package indexes row * 15 + col
            if who == pc.OWN:
                own |= bit
            else:
                opp |= bit  # BLOCKED points count as the opponent's
        turns = len(pos.history)
        # Board.get_board: with `turns` even the side to move owns b1, with `turns` odd b2.
        if turns % 2 == 0:
            b1, b2 = own, opp
        else:
            b1, b2 = opp, own
        return Board(b1=gmpy2.mpz(b1), b2=gmpy2.mpz(b2), turns=turns)

    def ask(player, pos):
        mv = player.make_move(to_board(pos))
        if mv is None:
            return None
        if isinstance(mv, tuple):
            r, c = mv
        else:
            r, c = divmod(int(mv), SIZE)
        return (int(c), int(r))

    def choose(pos):
        player = state["player"] or factory()
        state["player"] = player
        mv = ask(player, pos)
        if mv is not None and not pos.is_empty(*mv) and hasattr(player, "winning_line"):
            # A winning line saved on an earlier move can be stale after a BOARD/TAKEBACK or
            # an opponent stone on it: drop it and search again before falling back.
            player.winning_line = []
            mv = ask(player, pos)
        return mv

    pc.run_adapter(args, choose, pc.size_support(load_error, lambda n: n == SIZE),
                   "gomoku-0.1.0-%s" % args.level, "0.1.0", "gomoku (PyPI, Allen Zhang)",
                   new_game=new_game)


if __name__ == "__main__":
    main()
