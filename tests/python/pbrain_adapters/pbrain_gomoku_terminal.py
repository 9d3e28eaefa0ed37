#!/usr/bin/env python3
"""pbrain adapter for PyPI gomoku-terminal==1.0.2 (import name `gomoku`, a curses game).

Uses only gomoku.ai.GomokuAI and gomoku.board.Board (pure Python, no curses, no LLM client);
the package's optional LLM opponents (gomoku.providers, openai/anthropic) are never imported.
Levels: easy, medium, hard (hard = pattern pre-selection + minimax depth 2-3, the strongest;
easy and medium use random tie-breaks).  Board.SIZE is a class constant (20) that every method
reads through `self.SIZE`, so the adapter sets it per instance: any size 5..32 works.
The AI counts five or more as a win (freestyle); INFO rule is accepted but not used.

    python pbrain_gomoku_terminal.py [--level easy|medium|hard] [--seed S] [--pkg-dir DIR]

--pkg-dir DIR puts DIR first on sys.path (for a `pip install --target DIR gomoku-terminal==1.0.2`
install, needed when PyPI `gomoku==0.1.0`, which uses the same import name, is also installed).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbrain_common as pc  # noqa: E402

LEVELS = ("easy", "medium", "hard")


def main():
    args = pc.adapter_args(__doc__, LEVELS, "hard", "PBRAIN_GOMOKU_TERMINAL_DIR")

    load_error = None
    try:
        from gomoku.ai import GomokuAI
        from gomoku.board import Board
        if not hasattr(Board, "get_nearby_positions"):
            raise ImportError("`gomoku` on sys.path is not gomoku-terminal")
    except Exception as e:  # missing or shadowed by gomoku==0.1.0
        load_error = "cannot import gomoku-terminal (%s)" % e

    def choose(pos):
        b = Board()
        b.SIZE = pos.size  # instance attribute shadows the class constant 20
        b.reset()
        me = Board.BLACK if pos.own_moves_first() else Board.WHITE
        opp = Board.WHITE if me == Board.BLACK else Board.BLACK
        for x, y, who in pos.history:
            # BLOCKED points (BOARD field 3) are given the opponent's colour: occupied, not ours.
            colour = me if who == pc.OWN else opp
            b.board[y][x] = colour
            b.history.append((y, x, colour))
        b.move_count = len(pos.history)
        if pos.history:
            x, y, who = pos.history[-1]
            b.last_move = (y, x, b.board[y][x])
        mv = GomokuAI(args.level).get_move(b, me)  # (row, col) or None
        if mv is None:
            return None
        return (mv[1], mv[0])

    pc.run_adapter(args, choose, pc.size_support(load_error, lambda n: 5 <= n <= 32),
                   "gomoku-terminal-%s" % args.level, "1.0.2", "gomoku-terminal (PyPI)")


if __name__ == "__main__":
    main()
