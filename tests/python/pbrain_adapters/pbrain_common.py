"""Shared Gomocup "pbrain" protocol loop for the adapters in this folder.

Each adapter (pbrain_<package>.py) wraps one third-party Python Gomoku AI from PyPI.  It builds a
`Brain` with a `choose(pos)` callback that converts the position into the package's own board
representation, asks the package's AI for a move and returns it as (x, y); this module does the
protocol, the board bookkeeping, move validation and the fallback.

Protocol handled (commands are case-insensitive, lines may end in CR LF or LF):
  START n            -> OK, or "ERROR unsupported size" (or "ERROR <why>" if the package is missing)
  RECTSTART w,h      -> as START n when w == h, else "ERROR unsupported rectangular board"
  RESTART            -> OK (clears the board)
  BEGIN              -> own move on the empty board
  TURN x,y           -> records the opponent's stone, answers with own move
  BOARD ... DONE     -> lines "x,y,f" (f=1 own, 2 opponent, 3 = blocked point, counted as occupied);
                        the brain is the side to move; answers with own move
  TAKEBACK x,y       -> removes that stone, OK
  INFO key value     -> stored (keys compared case-insensitively); no reply
  ABOUT              -> name="...", version="...", author="...", country="..."
  END                -> exits, no reply
  anything else      -> "UNKNOWN <the line>"
A malformed or illegal TURN/BOARD argument is answered with "ERROR ..." (and the stone is ignored).

Output discipline: the wrapped packages print freely (boards, debug lines), which would corrupt the
protocol stream, so sys.stdout is pointed at os.devnull for the whole process and protocol lines go
to the real stdout, flushed after every line.  Nothing is written to stderr in normal operation
(pygomo never drains the engine's stderr pipe, so a chatty stderr could block the engine).

Fallback: when the AI raises, returns nothing, or returns a point that is off the board or
occupied, the adapter prints "MESSAGE fallback: <reason>" and plays the empty point closest to the
centre (ties: smallest y, then smallest x), which is deterministic and always legal.

Randomness: the packages use `random` (and numpy.random for gomokubench); the adapters re-seed
from --seed (default 0) on every START/RESTART and before every move, mixed with the position,
so the same game is replayed move for move.
"""
import argparse
import os
import random
import sys
import time
import zlib

EMPTY, OWN, OPP, BLOCKED = 0, 1, 2, 3


class Position:
    """The board as the adapter sees it: cells[y][x] in {EMPTY, OWN, OPP, BLOCKED}.

    history lists the stones in the order they were placed, as (x, y, who); for a BOARD command
    that is the order of the BOARD lines.  `info` holds the INFO values (lower-case keys)."""

    def __init__(self, size, info):
        self.size = size
        self.cells = [[EMPTY] * size for _ in range(size)]
        self.history = []
        self.info = info

    def on_board(self, x, y):
        return 0 <= x < self.size and 0 <= y < self.size

    def is_empty(self, x, y):
        return self.on_board(x, y) and self.cells[y][x] == EMPTY

    def place(self, x, y, who):
        self.cells[y][x] = who
        self.history.append((x, y, who))

    def remove(self, x, y):
        self.cells[y][x] = EMPTY
        self.history = [h for h in self.history if (h[0], h[1]) != (x, y)]

    def stones(self, who):
        return [(x, y) for (x, y, w) in self.history if w == who]

    def count(self):
        return len(self.history)

    def last_opponent_move(self):
        for x, y, w in reversed(self.history):
            if w == OPP:
                return (x, y)
        return None

    def last_move(self):
        return (self.history[-1][0], self.history[-1][1]) if self.history else None

    def own_moves_first(self):
        """Whether the brain's colour is the first mover's colour (black), judged by parity:
        with an even number of stones on the board the side to move is the first mover."""
        return len(self.history) % 2 == 0

    def fallback_move(self):
        c = (self.size - 1) / 2.0
        best = None
        for y in range(self.size):
            for x in range(self.size):
                if self.cells[y][x] == EMPTY:
                    key = ((x - c) ** 2 + (y - c) ** 2, y, x)
                    if best is None or key < best:
                        best = key
        return None if best is None else (best[2], best[1])

    def fingerprint(self):
        return zlib.crc32(repr(self.history).encode())

    def time_budget_ms(self, default_ms):
        """A per-move thinking budget from INFO timeout_turn / time_left (0 means unlimited)."""
        budget = default_ms
        tt = self.info.get("timeout_turn")
        if tt is not None and tt > 0:
            budget = tt
        tl = self.info.get("time_left")
        if tl is not None and tl > 0:
            budget = min(budget, max(50, tl // 10))
        return budget


def base_arg_parser(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", type=int, default=0, help="seed for the package's randomness (default 0)")
    return ap


def adapter_args(doc, levels, default_level, pkg_env, more=None):
    """An adapter's parsed command line: --seed, --level (one of `levels`), the options `more(ap)`
    adds, and --pkg-dir (default: the environment variable `pkg_env`), which goes first on
    sys.path.  The description is the first line of the adapter's docstring `doc`."""
    ap = base_arg_parser(doc.splitlines()[0])
    ap.add_argument("--level", choices=levels, default=default_level)
    if more is not None:
        more(ap)
    ap.add_argument("--pkg-dir", default=os.environ.get(pkg_env))
    args = ap.parse_args()
    if args.pkg_dir:
        sys.path.insert(0, args.pkg_dir)
    return args


def size_support(load_error, fits):
    """A Brain's supports_size: `load_error` when the package could not be imported, else True for
    the sizes `fits(n)` accepts and "unsupported size" for the others."""

    def supports_size(n):
        if load_error:
            return load_error
        return True if fits(n) else "unsupported size"

    return supports_size


def run_adapter(args, choose, supports_size, name, version, author, new_game=None):
    """Run an adapter's Brain (seeded from --seed); ABOUT answers `name`, `version` and `author`
    (with " via stonelab adapter" added)."""
    about = {"name": name, "version": version, "author": author + " via stonelab adapter",
             "country": "-"}
    run_brain(Brain(choose, supports_size, about, seed=args.seed, new_game=new_game))


class Brain:
    """pbrain protocol loop.

    choose(pos) -> (x, y) or None; may raise.  supports_size(n) -> True, or a string with the
    reason it cannot play (answered as "ERROR <reason>").  about: dict for ABOUT."""

    def __init__(self, choose, supports_size, about, seed=0, new_game=None):
        self.choose = choose
        self.supports_size = supports_size
        self.about = about
        self.seed = seed
        self.new_game = new_game or (lambda pos: None)
        self.pos = None
        self.info = {}
        self.out = sys.stdout
        self.inp = sys.stdin

    # -- output -------------------------------------------------------------------------------
    def send(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    # -- helpers ------------------------------------------------------------------------------
    def _reseed(self, salt=0):
        s = (self.seed * 1000003 + salt) & 0x7FFFFFFF
        random.seed(s)
        np = sys.modules.get("numpy")
        if np is not None:
            np.random.seed(s)

    def _start(self, size):
        ok = self.supports_size(size)
        if ok is not True:
            self.pos = None
            self.send("ERROR " + (ok if isinstance(ok, str) else "unsupported size"))
            return
        self.pos = Position(size, self.info)
        self._reseed()
        self.new_game(self.pos)
        self.send("OK")

    @staticmethod
    def _parse_xy(text):
        parts = text.replace(" ", "").split(",")
        if len(parts) < 2:
            raise ValueError("bad coordinates %r" % text)
        return int(parts[0]), int(parts[1])

    def _xy_argument(self, cmd, arg):
        """The x,y argument of `cmd`, or None after answering "ERROR bad <cmd> argument"."""
        try:
            return self._parse_xy(arg)
        except ValueError:
            self.send("ERROR bad %s argument" % cmd)
            return None

    def _play(self):
        """Ask the AI for a move, validate it, fall back if needed, record and print it."""
        pos = self.pos
        if pos.fallback_move() is None:
            self.send("ERROR board is full")
            return
        self._reseed(pos.fingerprint())
        reason = None
        mv = None
        try:
            mv = self.choose(pos)
        except Exception as e:  # the package's AI failed
            reason = "%s: %s" % (type(e).__name__, e)
        if reason is None:
            if mv is None:
                reason = "AI returned no move"
            else:
                try:
                    x, y = int(mv[0]), int(mv[1])
                    mv = (x, y)
                except Exception:
                    reason = "AI returned %r" % (mv,)
                else:
                    if not pos.on_board(x, y):
                        reason = "AI move %d,%d is off the board" % (x, y)
                    elif pos.cells[y][x] != EMPTY:
                        reason = "AI move %d,%d is occupied" % (x, y)
        if reason is not None:
            mv = pos.fallback_move()
            self.send("MESSAGE fallback: " + reason.replace("\n", " ")[:200])
        pos.place(mv[0], mv[1], OWN)
        self.send("%d,%d" % mv)

    def _read_line(self):
        line = self.inp.readline()
        if line == "":
            return None
        return line.strip()

    # -- main loop ----------------------------------------------------------------------------
    def run(self):
        while True:
            line = self._read_line()
            if line is None:
                return 0
            if not line:
                continue
            parts = line.split(None, 1)
            cmd = parts[0].upper()
            arg = parts[1].strip() if len(parts) > 1 else ""
            if cmd == "END":
                return 0
            elif cmd == "START":
                try:
                    size = int(arg)
                except ValueError:
                    self.send("ERROR bad START argument")
                    continue
                self._start(size)
            elif cmd == "RECTSTART":
                xy = self._xy_argument("RECTSTART", arg)
                if xy is None:
                    continue
                w, h = xy
                if w != h:
                    self.pos = None
                    self.send("ERROR unsupported rectangular board")
                else:
                    self._start(w)
            elif cmd == "RESTART":
                if self.pos is None:
                    self.send("ERROR no game started")
                else:
                    self._start(self.pos.size)
            elif cmd == "ABOUT":
                self.send(", ".join('%s="%s"' % (k, v) for k, v in self.about.items()))
            elif cmd == "INFO":
                kv = arg.split(None, 1)
                if kv:
                    key = kv[0].lower()
                    val = kv[1].strip() if len(kv) > 1 else ""
                    try:
                        self.info[key] = int(val)
                    except ValueError:
                        self.info[key] = val
            elif cmd in ("BEGIN", "TURN", "BOARD", "TAKEBACK"):
                if self.pos is None:
                    if cmd == "BOARD":
                        self._skip_board()
                    self.send("ERROR no game started")
                    continue
                if cmd == "BEGIN":
                    if self.pos.count() != 0:
                        self.pos = Position(self.pos.size, self.info)
                    self._play()
                elif cmd == "TURN":
                    xy = self._xy_argument("TURN", arg)
                    if xy is None:
                        continue
                    x, y = xy
                    if not self.pos.is_empty(x, y):
                        self.send("ERROR invalid move %d,%d" % (x, y))
                        continue
                    self.pos.place(x, y, OPP)
                    self._play()
                elif cmd == "BOARD":
                    if self._read_board():
                        self._play()
                else:  # TAKEBACK
                    xy = self._xy_argument("TAKEBACK", arg)
                    if xy is None:
                        continue
                    x, y = xy
                    if self.pos.on_board(x, y) and self.pos.cells[y][x] != EMPTY:
                        self.pos.remove(x, y)
                    self.send("OK")
            else:
                self.send("UNKNOWN " + line)

    def _skip_board(self):
        while True:
            line = self._read_line()
            if line is None or line.upper() == "DONE":
                return

    def _read_board(self):
        pos = Position(self.pos.size, self.info)
        bad = None
        while True:
            line = self._read_line()
            if line is None:
                return False
            if not line:
                continue
            if line.upper() == "DONE":
                break
            try:
                f = [int(t) for t in line.replace(" ", "").split(",")]
                x, y, who = f[0], f[1], f[2]
                if who not in (OWN, OPP, BLOCKED) or not pos.is_empty(x, y):
                    raise ValueError
                pos.place(x, y, who)
            except (ValueError, IndexError):
                bad = bad or line
        self.pos = pos
        if bad is not None:
            self.send("ERROR bad BOARD line %s" % bad)
            return False
        return True


def run_brain(brain):
    """Redirect the packages' prints away from the protocol stream and run the loop."""
    real_stdout = sys.stdout
    sys.stdout = open(os.devnull, "w")
    brain.out = real_stdout
    try:
        code = brain.run()
    except KeyboardInterrupt:
        code = 0
    try:
        real_stdout.flush()
    except Exception:
        pass
    os._exit(code or 0)


def import_package_skipping_init(name):
    """Make `name` importable as a bare namespace so that its submodules can be imported without
    running its __init__.py (used where __init__ imports a GUI toolkit or a web framework).
    Returns the directory of the package, or raises ImportError."""
    import importlib.util
    import types

    if name in sys.modules:
        return list(getattr(sys.modules[name], "__path__", []))
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("package %s is not installed" % name)
    mod = types.ModuleType(name)
    mod.__path__ = list(spec.submodule_search_locations)
    mod.__spec__ = spec
    mod.__package__ = name
    sys.modules[name] = mod
    return mod.__path__


def now():
    return time.monotonic()
