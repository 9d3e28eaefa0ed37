#!/usr/bin/env python3
"""Play whole Gomoku games between a Gomocup "pbrain" engine and a random-move opponent, driving
the engine through PyPI pygomo-lib (import name `pygomo`), and check the engine's protocol answers.

    python pygomo_drive.py --engine "CMD ARGS" --size N [--rule 0|1] [--games K] [--turn-ms T]
                           [--seed S] [--move-timeout SECONDS] [--match-ms M] [--no-restart]
                           [--info-case lower|upper] [--verbose]

Per run: ABOUT (must answer name="..."), START N (must answer OK), INFO timeout_turn / timeout_match
/ max_memory / rule / game_type.  Game g (0-based; games after the first begin with RESTART, or
START again with --no-restart) alternates who starts: even g the engine starts (BEGIN), odd g the
opponent starts (TURN).  In every game the engine's third move is asked with BOARD ... DONE carrying
the whole game so far (instead of TURN), and every fourth game (g % 4 == 3) starts from a random
opening of 3 opponent + 2 engine stones sent with BOARD.  Before each engine move INFO time_left
is sent (2147483647 when --match-ms is 0, as Piskvork does).  Every engine answer must be exactly
"x,y" (digits, one comma, no spaces), on the board, on an empty point; fives are detected for both sides (rule 0: five or more; rule 1: exactly five, an overline does not win) and
a full board is a draw.  Engine lines other than the move, MESSAGE and DEBUG/SUGGEST lines (for
example ERROR or UNKNOWN) are protocol failures.

Prints one JSON line:
  {"games":K,"engine_wins":..,"opponent_wins":..,"draws":..,"illegal":0,"errors":[],...}
(extra keys: "aborted" games, "engine_moves", "avg_move_s", "max_move_s", "about", "fallbacks"
= MESSAGE lines starting with "fallback").  Exit code 0 only when no illegal or malformed move and
no protocol failure happened; 1 otherwise; 2 for bad arguments.  The random opponent and the
openings depend only on --seed, so a deterministic engine gives identical output for a seed.

How pygomo is used (pygomo-lib 0.1.1): EngineClient(executable, args=[...]) spawns the engine
(pygomo's SubprocessTransport: text pipes, LF line endings out, CR LF or LF accepted in);
execute("ABOUT"|"START"|"RESTART"|"INFO"|"BEGIN"|"TURN"|"BOARD") and quit() send the commands and
wait for the answers on pygomo's output-channel router.  There is no subprocess code here.
Things pygomo lacks or gets wrong, handled here:
  * pygomo's START/RESTART/ABOUT handlers take the first non-coordinate, non-MESSAGE line as the
    answer, so a DEBUG line before OK fails START; this script registers replacement handlers
    (pygomo's CommandRegistry extension point) that skip DEBUG/SUGGEST lines.
  * pygomo only reports a timeout when the answer to BEGIN/TURN/BOARD is not a coordinate line; the
    line the engine sent instead is then found in the router's "output"/"error" channels and
    reported as a malformed move.
  * pygomo parses a move line leniently (spaces dropped, then split at commas: "7, 8" is 7,8 and
    "7,8 9,10" is 7,89) and does not expose the raw line; this script wraps pygomo's own
    BEGIN/TURN/BOARD handlers so that the raw line is recorded and checked against ^\d+,\d+$.
  * pygomo's configure()/set_time()/set_rule()/set_memory() send INFO keys in UPPER case
    (INFO TIMEOUT_TURN 1000); the Piskvork manager sends lower case, so by default this script
    sends INFO through execute("INFO", "timeout_turn", v); --info-case upper uses pygomo's helpers.
"""
import argparse
import dataclasses
import json
import random
import re
import shlex
import sys
import time

try:
    from pygomo import EngineClient
    from pygomo.command import CommandResult
    from pygomo.command.handlers.base import BaseCommandHandler
    from pygomo.command.handlers.game import BeginHandler, BoardHandler, TurnHandler
    from pygomo.protocol.models import BoardPosition, Move, PlayResult
except ImportError as e:  # pragma: no cover
    print(json.dumps({"games": 0, "engine_wins": 0, "opponent_wins": 0, "draws": 0, "illegal": 0,
                      "errors": ["cannot import pygomo (pip install pygomo-lib): %s" % e]}))
    sys.exit(1)

EMPTY, ENGINE, OPPONENT = 0, 1, 2
MOVE_LINE = re.compile(r"^\d+,\d+$")
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


class ProtocolFailure(Exception):
    """The run cannot go on (no OK, no answer, engine gone)."""


class GameAborted(Exception):
    """This game cannot go on; `illegal` tells whether the engine sent an illegal/malformed move."""

    def __init__(self, msg, illegal):
        super().__init__(msg)
        self.illegal = illegal


def _skippable(line):
    up = line.upper()
    return up.startswith("DEBUG") or up.startswith("SUGGEST")


class _TolerantTextHandler(BaseCommandHandler):
    """START/RESTART/ABOUT handlers registered in place of pygomo's own.

    pygomo's built-in handlers take the *first* line of its "output" channel as the answer, so a
    DEBUG (or SUGGEST) line that the protocol allows before "OK" makes START fail and leaves the OK
    queued, out of step with later commands.  These skip such lines (kept in `skipped`)."""

    def __init__(self, name, want_ok):
        self._name = name
        self._want_ok = want_ok
        self.skipped = []

    @property
    def command_name(self):
        return self._name

    def execute(self, context):
        self.send_command(context, *context.args)
        deadline = time.monotonic() + (context.timeout or 5.0)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return CommandResult.error("%s: no answer" % self._name)
            line = context.router.get("output", timeout=min(0.1, remaining))
            if not line:
                err = context.router.get("error", timeout=0)
                if err:
                    return CommandResult.error(err)
                continue
            if _skippable(line):
                self.skipped.append(line)
                continue
            if self._want_ok:
                if line.upper() == "OK":
                    return CommandResult.success({})
                return CommandResult.error("%s: expected OK, got %r" % (self._name, line))
            return CommandResult.success({"info": line})


def five_at(board, size, x, y, rule):
    """Whether the stone just placed at (x, y) makes a winning line under `rule`."""
    who = board[y][x]
    for dx, dy in DIRS:
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while 0 <= cx < size and 0 <= cy < size and board[cy][cx] == who:
                n += 1
                cx += s * dx
                cy += s * dy
        if (n >= 5) if rule == 0 else (n == 5):
            return True
    return False


class _RecordingRouter:
    """Stands in for pygomo's router inside a handler: records the raw coordinate line taken."""

    def __init__(self, router, sink):
        self._router = router
        self._sink = sink

    def get(self, channel, timeout=0.0, reset=False):
        line = self._router.get(channel, timeout=timeout, reset=reset)
        if channel == "coord" and line:
            self._sink.append(line)
        return line

    def __getattr__(self, name):
        return getattr(self._router, name)


def _recording(handler_cls, sink):
    """pygomo's own BEGIN/TURN/BOARD handler, run with a router that records the move line."""

    class Recording(handler_cls):
        def execute(self, context):
            ctx = dataclasses.replace(context, router=_RecordingRouter(context.router, sink))
            return super().execute(ctx)

    return Recording()


class Driver:
    def __init__(self, args):
        self.args = args
        self.size = args.size
        argv = shlex.split(args.engine)
        if not argv:
            raise SystemExit("--engine is empty")
        self.client = EngineClient(argv[0], args=argv[1:])
        # pygomo's extension point: replace the START/RESTART/ABOUT handlers (see above).
        self.text_handlers = []
        for name, want_ok in (("START", True), ("RESTART", True), ("ABOUT", False)):
            h = _TolerantTextHandler(name, want_ok)
            self.client.registry.unregister(name)
            self.client.registry.register(h)
            self.text_handlers.append(h)
        self.raw_moves = []
        for cls in (BeginHandler, TurnHandler, BoardHandler):
            h = _recording(cls, self.raw_moves)
            self.client.registry.unregister(h.command_name)
            self.client.registry.register(h)
        self.errors = []
        self.illegal = 0
        self.fallbacks = 0
        self.move_times = []
        self.engine_ms_used = 0
        self.about = None
        self.log = (lambda *a: print(*a, file=sys.stderr)) if args.verbose else (lambda *a: None)

    # -- engine I/O through pygomo ------------------------------------------------------------
    def drain(self, context):
        """Collect lines pygomo left in its router queues; fail on anything unexpected."""
        router = self.client.router
        if router is None:
            return
        for msg in router.get_all("message"):
            if msg[7:].strip().lower().startswith("fallback"):
                self.fallbacks += 1
            self.log("   engine:", msg)
        stray = []
        for ch in ("output", "error", "info", "realtime", "coord"):
            for line in router.get_all(ch):
                up = line.upper()
                if ch == "output" and (up.startswith("DEBUG") or up.startswith("SUGGEST")):
                    self.log("   engine:", line)
                    continue
                stray.append(line)
        if stray:
            raise ProtocolFailure("%s: unexpected engine output %r" % (context, stray[:5]))

    def check_alive(self, context):
        if not self.client.is_connected:
            raise ProtocolFailure("%s: engine process exited" % context)

    def send_info(self, key, value):
        if self.args.info_case == "upper":
            c = self.client
            {"timeout_turn": lambda v: c.set_time(turn_time_ms=v),
             "timeout_match": lambda v: c.set_time(match_time_ms=v),
             "time_left": lambda v: c.set_time(time_left_ms=v),
             "max_memory": c.set_memory,
             "rule": c.set_rule}.get(key, lambda v: c.configure(**{key: v}))(value)
        else:
            res = self.client.execute("INFO", key, value)
            if not res.is_success:
                raise ProtocolFailure("INFO %s: %s" % (key, res.error))

    def setup(self):
        a = self.args
        self.client.connect()
        self.about = self.client.about(timeout=a.move_timeout)
        if not self.about or 'name="' not in self.about:
            raise ProtocolFailure("ABOUT: expected name=\"...\", got %r" % (self.about,))
        self.log("ABOUT ->", self.about)
        self.drain("ABOUT")
        self.start_game(first=True)
        for key, value in (("timeout_turn", a.turn_ms), ("timeout_match", a.match_ms),
                           ("max_memory", 256 * 1024 * 1024), ("rule", a.rule), ("game_type", 1)):
            self.send_info(key, value)
        self.check_alive("INFO")

    def start_game(self, first):
        a = self.args
        if first or a.no_restart:
            res = self.client.execute("START", self.size, timeout=a.move_timeout)
            what = "START %d" % self.size
        else:
            res = self.client.execute("RESTART", timeout=a.move_timeout)
            what = "RESTART"
        if not res.is_success:
            self.check_alive(what)
            raise ProtocolFailure("%s: no OK from engine (%s)" % (what, res.error))
        self.drain(what)

    def engine_move(self, kind, board, history, opp_move=None):
        """Ask for the engine's move with BEGIN, TURN or BOARD; returns (x, y) after checks."""
        a = self.args
        # Piskvork sends 2147483647 as time_left when the match has no time limit.
        left = max(0, a.match_ms - self.engine_ms_used) if a.match_ms > 0 else 2147483647
        self.send_info("time_left", left)
        del self.raw_moves[:]
        t0 = time.monotonic()
        if kind == "BEGIN":
            res = self.client.execute("BEGIN", timeout=a.move_timeout)
        elif kind == "TURN":
            res = self.client.execute("TURN", Move(opp_move), timeout=a.move_timeout)
        else:
            pos = BoardPosition()
            for (x, y, who) in history:
                pos.add_move(Move((x, y)), BoardPosition.SELF if who == ENGINE else BoardPosition.OPPONENT)
            res = self.client.execute("BOARD", position=pos, start_thinking=True, timeout=a.move_timeout)
        dt = time.monotonic() - t0
        self.move_times.append(dt)
        self.engine_ms_used += int(dt * 1000)
        what = kind if kind != "TURN" else "TURN %d,%d" % opp_move
        if not res.is_success or not isinstance(res.data, PlayResult):
            router = self.client.router
            junk = []
            if router is not None:
                junk = router.get_all("output") + router.get_all("error")
            self.check_alive(what)
            errs = [j for j in junk if j.upper().startswith(("ERROR", "UNKNOWN"))]
            if errs:
                raise GameAborted("%s: engine answered %r instead of a move" % (what, errs[:3]), False)
            if junk:
                raise GameAborted("%s: malformed answer %r" % (what, junk[:3]), True)
            raise ProtocolFailure("%s: no move within %.0f s (%s)" % (what, a.move_timeout, res.error))
        self.drain(what)
        raw = self.raw_moves[-1] if self.raw_moves else None
        if raw is None or not MOVE_LINE.match(raw):
            raise GameAborted("%s: malformed move line %r" % (what, raw), True)
        x, y = res.data.move.col, res.data.move.row
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise GameAborted("%s: engine move %d,%d is off the %dx%d board" % (what, x, y, self.size, self.size), True)
        if board[y][x] != EMPTY:
            raise GameAborted("%s: engine move %d,%d is on an occupied point" % (what, x, y), True)
        return x, y

    # -- games ----------------------------------------------------------------------------------
    def random_opening(self, rng, board, history):
        """3 opponent + 2 engine stones near the centre, alternating, opponent first."""
        c = self.size // 2
        r = max(2, self.size // 4)
        for i in range(5):
            who = OPPONENT if i % 2 == 0 else ENGINE
            while True:
                x = min(self.size - 1, max(0, c + rng.randint(-r, r)))
                y = min(self.size - 1, max(0, c + rng.randint(-r, r)))
                if board[y][x] == EMPTY:
                    break
            board[y][x] = who
            history.append((x, y, who))

    def play_game(self, g):
        """Returns 'engine', 'opponent' or 'draw'."""
        rng = random.Random(self.args.seed * 7919 + g)
        n = self.size
        board = [[EMPTY] * n for _ in range(n)]
        history = []
        engine_turn = (g % 2 == 0)
        engine_moves = 0
        pending = None  # the opponent move the engine has not been told about yet
        if g % 4 == 3 and n >= 7:
            self.random_opening(rng, board, history)
            engine_turn = True
            pending = "board"
        while True:
            if len(history) == n * n:
                return "draw"
            if engine_turn:
                if pending == "board" or engine_moves == 2:
                    kind = "BOARD"
                elif not history:
                    kind = "BEGIN"
                else:
                    kind = "TURN"
                x, y = self.engine_move(kind, board, history,
                                        opp_move=(history[-1][0], history[-1][1]) if history else None)
                pending = None
                engine_moves += 1
                who = ENGINE
                self.log("g%d engine %s -> %d,%d" % (g, kind, x, y))
            else:
                empties = [(x, y) for y in range(n) for x in range(n) if board[y][x] == EMPTY]
                x, y = rng.choice(empties)
                who = OPPONENT
                self.log("g%d opponent %d,%d" % (g, x, y))
            board[y][x] = who
            history.append((x, y, who))
            if five_at(board, n, x, y, self.args.rule):
                return "engine" if who == ENGINE else "opponent"
            engine_turn = not engine_turn

    def run(self):
        a = self.args
        summary = {"games": a.games, "engine_wins": 0, "opponent_wins": 0, "draws": 0,
                   "illegal": 0, "errors": self.errors, "aborted": 0}
        try:
            self.setup()
            for g in range(a.games):
                if g > 0:
                    self.start_game(first=False)
                try:
                    result = self.play_game(g)
                except GameAborted as e:
                    self.illegal += 1 if e.illegal else 0
                    self.errors.append("game %d: %s" % (g, e))
                    summary["aborted"] += 1
                    # the engine's state is unknown now: start the next game from scratch
                    continue
                key = {"engine": "engine_wins", "opponent": "opponent_wins", "draw": "draws"}[result]
                summary[key] += 1
                self.log("game %d: %s" % (g, result))
        except ProtocolFailure as e:
            self.errors.append(str(e))
        except Exception as e:  # pygomo transport errors (engine died, broken pipe, ...)
            self.errors.append("%s: %s" % (type(e).__name__, e))
        finally:
            try:
                self.client.quit()  # END, then pygomo terminates the process
            except Exception:
                pass
        played = summary["engine_wins"] + summary["opponent_wins"] + summary["draws"] + summary["aborted"]
        summary["aborted"] += a.games - played
        summary["illegal"] = self.illegal
        summary["engine_moves"] = len(self.move_times)
        summary["avg_move_s"] = round(sum(self.move_times) / len(self.move_times), 3) if self.move_times else 0
        summary["max_move_s"] = round(max(self.move_times), 3) if self.move_times else 0
        summary["fallbacks"] = self.fallbacks
        summary["about"] = self.about
        skipped = sum(len(h.skipped) for h in self.text_handlers)
        if skipped:
            summary["debug_lines_skipped"] = skipped
        print(json.dumps(summary, separators=(",", ":")))
        return 0 if (self.illegal == 0 and not self.errors) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help='engine command line, e.g. "python pbrain_x.py --level hard"')
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--rule", type=int, choices=(0, 1), default=0, help="0 freestyle (5+), 1 exactly five")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--turn-ms", type=int, default=1000, help="INFO timeout_turn (ms)")
    ap.add_argument("--match-ms", type=int, default=0, help="INFO timeout_match (ms, 0 = no limit, then time_left is sent as 2147483647)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--move-timeout", type=float, default=60.0,
                    help="seconds pygomo waits for an answer (also for OK/ABOUT); default 60")
    ap.add_argument("--no-restart", action="store_true", help="START instead of RESTART between games")
    ap.add_argument("--info-case", choices=("lower", "upper"), default="lower")
    ap.add_argument("--verbose", action="store_true", help="log the game to stderr")
    args = ap.parse_args()
    if not 5 <= args.size <= 100:
        ap.error("--size must be 5..100")
    if args.games < 1:
        ap.error("--games must be >= 1")
    sys.exit(Driver(args).run())


if __name__ == "__main__":
    main()
