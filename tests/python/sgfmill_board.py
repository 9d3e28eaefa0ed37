"""Drives sgfmill's Go board for tests/sgfmill_diff.rs, one command per stdin line.

  G n          new empty n x n board (the ko point is cleared)
  P r c B|W    play (row 0 = top): prints "<ko> <removed>", ko "r,c" or "-", removed points
               "r,c;r,c" or "-" (stones that were on the board before and are gone after)
  T r c B|W    the same on a copy of the board (to ask what a move the caller rejects would do);
               prints "<occupied-after> <removed>" with occupied-after 1 or 0
  X            a pass: prints "-"
  S            prints "<board> <area score>", the board as n*n chars (. X O) row by row, top first

sgfmill's Board.play allows self-capture and enforces no ko; it returns the simple-ko point.
"""
import sys

from sgfmill import boards

COLOUR = {"B": "b", "W": "w"}
GLYPH = {None: ".", "b": "X", "w": "O"}


def removed(before, after, n):
    out = []
    for r in range(n):
        if before[r] != after[r]:
            rb, ra = before[r], after[r]
            for c in range(n):
                if rb[c] is not None and ra[c] is None:
                    out.append("%d,%d" % (r, c))
    return ";".join(out) if out else "-"


def main():
    board = None
    n = 0
    write = sys.stdout.write
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        cmd = parts[0]
        if cmd == "G":
            n = int(parts[1])
            board = boards.Board(n)
        elif cmd == "P" or cmd == "T":
            r, c, colour = int(parts[1]), int(parts[2]), COLOUR[parts[3]]
            target = board if cmd == "P" else board.copy()
            before = [row[:] for row in target.board]
            ko = target.play(r, c, colour)
            gone = removed(before, target.board, n)
            if cmd == "P":
                write("%s %s\n" % ("-" if ko is None else "%d,%d" % ko, gone))
            else:
                occupied = target.board[r][c] is not None
                write("%d %s\n" % (occupied, gone))
        elif cmd == "X":
            write("-\n")
        elif cmd == "S":
            cells = "".join(GLYPH[p] for row in board.board for p in row)
            write("%s %d\n" % (cells, board.area_score()))
        else:
            raise SystemExit("unknown command: " + line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
