//! Proof certificates: a winning strategy written out so that a program can check it with no search
//! beyond a VCF of at most [`VCF_BOUND`] fours. The format is documented in `docs/gomoku-proof.md`:
//!
//! ```text
//! stonelab-gomoku-proof 1
//! size 15
//! rule freestyle
//! attacker black
//! to-move black
//! vcf-bound 3
//! black -
//! white -
//! entries 2
//! : h8
//! h8 h9 : i9
//! checksum 0123456789abcdef
//! ```
//!
//! `black` and `white` list the root's stones; each entry is a line of moves from the root (both
//! sides, alternating from the side to move), then `:` and the attacker's move in that position.
//! The checker ([`check`]) walks every position the strategy reaches: the attacker plays the entry's
//! move; every legal defender reply must lead to a position with an entry, or one where the attacker
//! has a five point or a VCF of at most `vcf-bound` fours (found by the plain referee search). The
//! checksum is FNV-1a (64 bits) of every byte before the `checksum` line.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::{keys, Prover};
use crate::search::referee::{self, Referee};
use crate::{point_name, Board, Color, Grid, Point, Proof, Rule};

/// The VCF bound of the certificates written here: at a position without an entry, the attacker
/// must have a five point or a VCF of at most this many fours.
pub const VCF_BOUND: u32 = 3;

/// The first line of a certificate whose positions are matched exactly.
pub const MAGIC: &str = "stonelab-gomoku-proof 1";

/// The first line of a certificate whose positions are matched up to the eight symmetries of
/// the board (it has a `symmetry 8` line after `vcf-bound`).
pub const MAGIC_SYMMETRIC: &str = "stonelab-gomoku-proof 2";

/// A winning strategy from a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub rule: Rule,
    pub attacker: Color,
    pub to_move: Color,
    pub vcf_bound: u32,
    /// Positions are matched up to the board's eight symmetries (a rotation or reflection of a
    /// position with an entry takes the entry's move, rotated or reflected the same way).
    pub symmetric: bool,
    pub root: Grid,
    /// (moves from the root, the attacker's move there).
    pub entries: Vec<(Vec<Point>, Point)>,
}

/// FNV-1a, 64 bits.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn names(points: impl IntoIterator<Item = Point>, n: usize) -> String {
    let v: Vec<String> = points.into_iter().map(|p| point_name(p, n)).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

impl Certificate {
    /// Whether a win from this certificate's root is also a win from `grid` with `to_move` to
    /// play, by the cover lemma (docs/gomoku-proof.md, "Covers"): under freestyle, an attacker who
    /// wins against extra defender stones wins against any subset of them, with the same stones of
    /// its own and the same side to move. `Ok(t)`: the position, mapped by the board symmetry `t`
    /// ([`super::keys::apply`]), has exactly the root's attacker stones and a subset of its
    /// defender stones. `Err(why)` otherwise. Says nothing of whether the certificate checks.
    ///
    /// # Errors
    /// Another rule or size, another side to move, or stones no symmetry maps into the root's.
    pub fn covers(&self, grid: &Grid, to_move: Color) -> Result<u8, String> {
        let n = self.root.size();
        if self.rule != Rule::Freestyle {
            return Err(format!(
                "covers hold under freestyle only (an extra defender stone can turn the defender's \
                 five into an overline under {})",
                self.rule.name()
            ));
        }
        if grid.size() != n {
            return Err(format!("the certificate is for {n}x{n}"));
        }
        if to_move != self.to_move {
            return Err(format!(
                "{} is to move there, {} at the certificate's root",
                to_move.name(),
                self.to_move.name()
            ));
        }
        let a = self.attacker;
        (0..8u8)
            .find(|&t| {
                grid.points().all(|p| {
                    let mine = grid.get(p);
                    let root = self.root.get(super::keys::apply(t, p, n));
                    match mine {
                        Some(c) if c == a => root == Some(a),
                        Some(d) => root == Some(d),
                        None => root != Some(a),
                    }
                })
            })
            .ok_or_else(|| {
                format!(
                    "no symmetry of the board maps the position's {} stones onto the root's and its \
                     {} stones into the root's",
                    a.name(),
                    (!a).name()
                )
            })
    }

    /// The root's stones of `colour`, in point order.
    pub fn root_stones(&self, colour: Color) -> impl Iterator<Item = Point> + '_ {
        self.root
            .points()
            .filter(move |&p| self.root.get(p) == Some(colour))
    }

    /// The certificate as text, checksum included.
    #[must_use]
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let n = self.root.size();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}",
            if self.symmetric {
                MAGIC_SYMMETRIC
            } else {
                MAGIC
            }
        );
        let _ = writeln!(s, "size {n}");
        let _ = writeln!(s, "rule {}", self.rule.name());
        let _ = writeln!(s, "attacker {}", self.attacker.name());
        let _ = writeln!(s, "to-move {}", self.to_move.name());
        let _ = writeln!(s, "vcf-bound {}", self.vcf_bound);
        if self.symmetric {
            let _ = writeln!(s, "symmetry 8");
        }
        for c in [Color::Black, Color::White] {
            let _ = writeln!(s, "{} {}", c.name(), names(self.root_stones(c), n));
        }
        let _ = writeln!(s, "entries {}", self.entries.len());
        for (path, m) in &self.entries {
            let line = if path.is_empty() {
                String::new()
            } else {
                names(path.iter().copied(), n) + " "
            };
            let _ = writeln!(s, "{line}: {}", point_name(*m, n));
        }
        let sum = fnv1a(s.as_bytes());
        let _ = writeln!(s, "checksum {sum:016x}");
        s
    }

    /// Reads a certificate, refusing anything malformed with the line at fault.
    pub fn parse(text: &str) -> Result<Certificate, String> {
        let Some(cut) = text.rfind("checksum ") else {
            return Err("not a stonelab proof certificate (no checksum line)".into());
        };
        let body = &text[..cut];
        let symmetric = match body.lines().next() {
            Some(MAGIC) => false,
            Some(MAGIC_SYMMETRIC) => true,
            _ => {
                return Err(format!(
                    "not a stonelab proof certificate (first line is not '{MAGIC}' or \
                     '{MAGIC_SYMMETRIC}')"
                ))
            }
        };
        let stated = text[cut + 9..].trim();
        let sum =
            u64::from_str_radix(stated, 16).map_err(|_| format!("bad checksum '{stated}'"))?;
        if sum != fnv1a(body.as_bytes()) {
            return Err("checksum mismatch: the certificate is corrupt".into());
        }
        let mut lines = body.lines().enumerate().skip(1);
        let mut field = |name: &str| -> Result<(usize, String), String> {
            let (i, line) = lines.next().ok_or(format!("missing '{name}' line"))?;
            let rest = line
                .strip_prefix(name)
                .and_then(|r| r.strip_prefix(' '))
                .ok_or(format!("line {}: expected '{name} ...'", i + 1))?;
            Ok((i + 1, rest.to_string()))
        };
        let (i, size) = field("size")?;
        let n: usize = size
            .parse()
            .map_err(|_| format!("line {i}: bad size '{size}'"))?;
        let mut root = Grid::new(n).map_err(|e| format!("line {i}: {e}"))?;
        let (i, rule) = field("rule")?;
        let rule: Rule = rule
            .parse()
            .map_err(|_| format!("line {i}: unknown rule '{rule}'"))?;
        let color = |i: usize, s: &str| match s {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            _ => Err(format!("line {i}: '{s}' is not black or white")),
        };
        let (i, a) = field("attacker")?;
        let attacker = color(i, &a)?;
        let (i, t) = field("to-move")?;
        let to_move = color(i, &t)?;
        let (i, k) = field("vcf-bound")?;
        let vcf_bound: u32 = k
            .parse()
            .map_err(|_| format!("line {i}: bad bound '{k}'"))?;
        if symmetric {
            let (i, k) = field("symmetry")?;
            if k != "8" {
                return Err(format!("line {i}: 'symmetry {k}' (only 8 is known)"));
            }
        }
        for c in [Color::Black, Color::White] {
            let (i, list) = field(c.name())?;
            for p in parse_points(&list, n).map_err(|e| format!("line {i}: {e}"))? {
                if root.get(p).is_some() {
                    return Err(format!("line {i}: {} is given twice", point_name(p, n)));
                }
                root.set(p, Some(c));
            }
        }
        let (i, count) = field("entries")?;
        let count: usize = count
            .parse()
            .map_err(|_| format!("line {i}: bad count '{count}'"))?;
        let mut entries = Vec::with_capacity(count.min(1 << 24));
        for (i, line) in lines {
            let (path, m) = line
                .split_once(':')
                .ok_or(format!("line {}: an entry needs 'moves : move'", i + 1))?;
            let path = parse_points(path, n).map_err(|e| format!("line {}: {e}", i + 1))?;
            let m = parse_points(m, n).map_err(|e| format!("line {}: {e}", i + 1))?;
            let [m] = m[..] else {
                return Err(format!("line {}: one move after ':'", i + 1));
            };
            entries.push((path, m));
        }
        if entries.len() != count {
            return Err(format!(
                "{} entries where the header says {count}",
                entries.len()
            ));
        }
        Ok(Certificate {
            rule,
            attacker,
            to_move,
            vcf_bound,
            symmetric,
            root,
            entries,
        })
    }
}

/// Points in move notation separated by spaces (`-` or nothing for none).
pub fn parse_points(s: &str, n: usize) -> Result<Vec<Point>, String> {
    let s = s.trim();
    if s == "-" || s.is_empty() {
        return Ok(Vec::new());
    }
    s.split_whitespace()
        .map(|tok| {
            crate::parse_point(tok, n).ok_or(format!("'{tok}' is not a point of the {n}x{n} board"))
        })
        .collect()
}

/// An exact position key: the stones of both colours.
pub(crate) type Exact = ([u32; 20], [u32; 20]);

/// A 128-bit fingerprint of an exact key: the sets of positions already examined hold these
/// (16 bytes where the key takes 160: a 15x15 certificate's walk meets tens of millions of
/// positions). Two positions share one with probability 2^-128; among 10^9 positions the chance
/// that any two do is below 10^-20.
fn fingerprint(k: &Exact) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |salt: u64| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        k.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0x5eed_0001)) << 64) | u128::from(half(0x5eed_0002))
}

/// The key that matches `g` in a certificate, and the symmetry that takes `g` to the key's
/// frame: the exact stones, or with `symmetric` the least key over the eight symmetries.
pub(crate) fn key_of(g: &Grid, symmetric: bool) -> (Exact, u8) {
    if !symmetric {
        return (exact_of_grid(g), 0);
    }
    let n = g.size();
    let stones: Vec<(Point, Color)> = g
        .points()
        .filter_map(|p| g.get(p).map(|c| (p, c)))
        .collect();
    (0..8u8)
        .map(|t| {
            let mut k = ([0u32; 20], [0u32; 20]);
            for &(p, c) in &stones {
                let q = keys::apply(t, p, n);
                let rows = if c == Color::Black {
                    &mut k.0
                } else {
                    &mut k.1
                };
                rows[q.y as usize] |= 1 << q.x;
            }
            (k, t)
        })
        .min()
        .expect("eight symmetries")
}

/// The certificate's strategy: key (see [`key_of`]) -> move in the key's frame. Errors: an entry
/// that plays on an occupied point or leaves the defender to move.
pub(crate) fn strategy_of(cert: &Certificate) -> Result<HashMap<Exact, Point>, String> {
    let n = cert.root.size();
    let mut strategy = HashMap::new();
    for (k, (path, m)) in cert.entries.iter().enumerate() {
        let mut g = cert.root.clone();
        let mut c = cert.to_move;
        for &p in path {
            if g.get(p).is_some() {
                return Err(format!(
                    "entry {}: {} is on an occupied point",
                    k + 1,
                    point_name(p, n)
                ));
            }
            g.set(p, Some(c));
            c = !c;
        }
        if c != cert.attacker {
            return Err(format!("entry {}: the defender is to move there", k + 1));
        }
        if !g.contains(*m) {
            return Err(format!("entry {}: the move is off the board", k + 1));
        }
        let (key, t) = key_of(&g, cert.symmetric);
        strategy.insert(key, keys::apply(t, *m, n));
    }
    Ok(strategy)
}

/// The root must hold no five.
fn check_root(r: &Referee) -> Result<(), String> {
    for c in Color::ALL {
        if r.has_five(c) {
            return Err(format!(
                "the root position already holds a five of {}",
                c.name()
            ));
        }
    }
    Ok(())
}

fn exact_of_grid(g: &Grid) -> Exact {
    let mut k = ([0u32; 20], [0u32; 20]);
    for p in g.points() {
        match g.get(p) {
            Some(Color::Black) => k.0[p.y as usize] |= 1 << p.x,
            Some(Color::White) => k.1[p.y as usize] |= 1 << p.x,
            None => {}
        }
    }
    k
}

/// What [`check`] examined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Attacker-to-move positions reached (each counted once).
    pub positions: u64,
    /// Defender replies examined.
    pub replies: u64,
    /// Positions closed by a five point or a short VCF.
    pub leaves: u64,
}

/// Checks a certificate exhaustively with the referee: `Ok` with what was examined, or the first
/// failure (the line of moves from the root and why).
pub fn check(cert: &Certificate) -> Result<CheckReport, String> {
    let n = cert.root.size();
    let a = cert.attacker;
    let d = !a;
    let mut r = Referee::new(&cert.root, cert.rule);
    check_root(&r)?;
    let strategy = strategy_of(cert)?;
    let mut report = CheckReport::default();
    let mut done: HashSet<u128> = HashSet::new();
    let mut line = Vec::new();
    let name_line = |line: &[Point]| names(line.iter().copied(), n);
    // Explicit stack: (position reached by `line`, whose move).
    enum Step {
        Attack,
        Reply(usize),
        Undo(Point),
    }
    // The defender's replies; none may make five (one five point fails the whole list).
    let replies_of = |r: &Referee, line: &[Point]| -> Result<Vec<Point>, String> {
        match r.five_points(d).first() {
            Some(&x) => Err(format!(
                "after '{}': the defender makes five on {}",
                name_line(line),
                point_name(x, n)
            )),
            None => Ok(r.empties().collect()),
        }
    };
    let mut reply_lists: Vec<Vec<Point>> = Vec::new();
    let mut stack = vec![if cert.to_move == a {
        Step::Attack
    } else {
        reply_lists.push(replies_of(&r, &line)?);
        if reply_lists[0].is_empty() {
            return Err("the board is full at the root".into());
        }
        Step::Reply(0)
    }];
    while let Some(step) = stack.pop() {
        match step {
            Step::Undo(p) => {
                r.clear(p);
                line.pop();
            }
            Step::Attack => {
                if !r.five_points(a).is_empty() {
                    report.leaves += 1;
                    continue;
                }
                let (key, t) = key_of(r.grid(), cert.symmetric);
                if !done.insert(fingerprint(&key)) {
                    continue;
                }
                report.positions += 1;
                if let Some(m) = strategy.get(&key).map(|&m| keys::invert(t, m, n)) {
                    if !r.grid().contains(m) || r.grid().get(m).is_some() {
                        return Err(format!(
                            "after '{}': the move {} is not on an empty point",
                            name_line(&line),
                            point_name(m, n)
                        ));
                    }
                    if r.is_foul(m, a) {
                        return Err(format!(
                            "after '{}': the move {} is forbidden",
                            name_line(&line),
                            point_name(m, n)
                        ));
                    }
                    r.play(m, a);
                    line.push(m);
                    stack.push(Step::Undo(m));
                    if r.has_five(a) {
                        continue;
                    }
                    let replies = replies_of(&r, &line)?;
                    if replies.is_empty() {
                        return Err(format!(
                            "after '{}': the board is full, a draw",
                            name_line(&line)
                        ));
                    }
                    reply_lists.push(replies);
                    stack.push(Step::Reply(reply_lists.len() - 1));
                } else if referee::has_vcf(r.grid(), cert.rule, a, cert.vcf_bound) {
                    report.leaves += 1;
                } else {
                    return Err(format!(
                        "after '{}': no move in the certificate and no five point or VCF of at most {} fours",
                        name_line(&line),
                        cert.vcf_bound
                    ));
                }
            }
            Step::Reply(list) => {
                // Take the next reply of this list; come back for the rest after it.
                let Some(x) = reply_lists[list].pop() else {
                    continue;
                };
                stack.push(Step::Reply(list));
                report.replies += 1;
                if r.is_foul(x, d) {
                    continue;
                }
                r.play(x, d);
                line.push(x);
                stack.push(Step::Undo(x));
                stack.push(Step::Attack);
            }
        }
    }
    Ok(report)
}

/// [`check`] on `threads` threads: the defender's replies within [`PARALLEL_PLIES`] of the root
/// are shared out, each position is still examined once (a shared set), and a valid certificate
/// gives the same report as [`check`], which one thread runs. `progress` counts the positions
/// examined so far, for a caller's display. Of several failures, the one reported may differ.
pub fn check_with(
    cert: &Certificate,
    threads: usize,
    progress: &AtomicU64,
) -> Result<CheckReport, String> {
    if threads <= 1 {
        let report = check(cert)?;
        progress.store(report.positions, Ordering::Relaxed);
        return Ok(report);
    }
    let r = Referee::new(&cert.root, cert.rule);
    check_root(&r)?;
    let strategy = strategy_of(cert)?;
    let checker = Checker {
        cert,
        strategy,
        done: (0..64).map(|_| Mutex::new(HashSet::new())).collect(),
        replies: AtomicU64::new(0),
        leaves: AtomicU64::new(0),
        progress,
    };
    let mut r = r;
    let mut line = Vec::new();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("starting {threads} threads: {e}"))?
        .install(|| {
            if cert.to_move == cert.attacker {
                checker.attack(&mut r, &mut line)
            } else {
                checker.defend(&mut r, &mut line)
            }
        })?;
    Ok(CheckReport {
        positions: progress.load(Ordering::Relaxed),
        replies: checker.replies.load(Ordering::Relaxed),
        leaves: checker.leaves.load(Ordering::Relaxed),
    })
}

/// The shared state of a many-threaded check.
struct Checker<'a> {
    cert: &'a Certificate,
    strategy: HashMap<Exact, Point>,
    done: Vec<Mutex<HashSet<u128>>>,
    replies: AtomicU64,
    leaves: AtomicU64,
    /// Positions examined.
    progress: &'a AtomicU64,
}

impl Checker<'_> {
    fn name_line(&self, line: &[Point]) -> String {
        names(line.iter().copied(), self.cert.root.size())
    }

    /// The attacker to move after `line`.
    fn attack(&self, r: &mut Referee, line: &mut Vec<Point>) -> Result<(), String> {
        let a = self.cert.attacker;
        let n = self.cert.root.size();
        if !r.five_points(a).is_empty() {
            self.leaves.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let (key, t) = key_of(r.grid(), self.cert.symmetric);
        if !take(&self.done, fingerprint(&key)) {
            return Ok(());
        }
        self.progress.fetch_add(1, Ordering::Relaxed);
        let Some(m) = self.strategy.get(&key).map(|&m| keys::invert(t, m, n)) else {
            if referee::has_vcf(r.grid(), self.cert.rule, a, self.cert.vcf_bound) {
                self.leaves.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            return Err(format!(
                "after '{}': no move in the certificate and no five point or VCF of at most {} fours",
                self.name_line(line),
                self.cert.vcf_bound
            ));
        };
        if !r.grid().contains(m) || r.grid().get(m).is_some() {
            return Err(format!(
                "after '{}': the move {} is not on an empty point",
                self.name_line(line),
                point_name(m, n)
            ));
        }
        if r.is_foul(m, a) {
            return Err(format!(
                "after '{}': the move {} is forbidden",
                self.name_line(line),
                point_name(m, n)
            ));
        }
        r.play(m, a);
        line.push(m);
        let res = if r.has_five(a) {
            Ok(())
        } else {
            self.defend(r, line)
        };
        r.clear(m);
        line.pop();
        res
    }

    /// The defender to move after `line`: every empty point.
    fn defend(&self, r: &mut Referee, line: &mut Vec<Point>) -> Result<(), String> {
        let d = !self.cert.attacker;
        if let Some(&x) = r.five_points(d).first() {
            return Err(format!(
                "after '{}': the defender makes five on {}",
                self.name_line(line),
                point_name(x, self.cert.root.size())
            ));
        }
        let replies: Vec<Point> = r.empties().collect();
        if replies.is_empty() {
            return Err(format!(
                "after '{}': the board is full, a draw",
                self.name_line(line)
            ));
        }
        let one = |r: &mut Referee, line: &mut Vec<Point>, x: Point| -> Result<(), String> {
            self.replies.fetch_add(1, Ordering::Relaxed);
            if r.is_foul(x, d) {
                return Ok(());
            }
            r.play(x, d);
            line.push(x);
            let res = self.attack(r, line);
            r.clear(x);
            line.pop();
            res
        };
        if line.len() < PARALLEL_PLIES {
            use rayon::prelude::*;
            replies.par_iter().try_for_each(|&x| {
                let (mut r, mut line) = (r.clone(), line.clone());
                one(&mut r, &mut line, x)
            })
        } else {
            replies.into_iter().try_for_each(|x| one(r, line, x))
        }
    }
}

/// Marks `key` in a sharded set; false when it was there.
fn take(done: &[Mutex<HashSet<u128>>], key: u128) -> bool {
    let shard = (key >> 122) as usize;
    done[shard]
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(key)
}

/// The certificate's attacker move after `moves` from the root: the entry's move, else a five
/// point, else the first move of a VCF within the bound; `None` where the strategy has no move
/// (the defender to move, or a position the strategy does not reach). Errors: an illegal move, or
/// an entry that plays on an occupied point or leaves the defender to move.
pub fn lookup(cert: &Certificate, moves: &[Point]) -> Result<Option<Point>, String> {
    let n = cert.root.size();
    let mut g = cert.root.clone();
    let mut c = cert.to_move;
    for &p in moves {
        if g.get(p).is_some() {
            return Err(format!("{} is on an occupied point", point_name(p, n)));
        }
        g.set(p, Some(c));
        c = !c;
    }
    if c != cert.attacker {
        return Ok(None);
    }
    let (key, t) = key_of(&g, cert.symmetric);
    if let Some(&m) = strategy_of(cert)?.get(&key) {
        return Ok(Some(keys::invert(t, m, n)));
    }
    let r = Referee::new(&g, cert.rule);
    if let Some(&f) = r.five_points(cert.attacker).first() {
        return Ok(Some(f));
    }
    Ok(referee::vcf(&g, cert.rule, cert.attacker, cert.vcf_bound).map(|l| l[0]))
}

/// How many plies from the root the extraction splits a defender's replies among threads; below
/// that a thread walks its subtree alone (a fork copies the boards, which costs more than the
/// short VCF checks of the deep positions).
const PARALLEL_PLIES: usize = 12;

impl Prover {
    /// The certificate of a proved root: every attacker-to-move position the proof reaches that
    /// needs more than a VCF of at most [`VCF_BOUND`] fours gets the proof's move, from the table,
    /// or from the threat solver where a leaf was proved by it. Errors: the root is not proved, or
    /// a position the proof needs cannot be proved again (a bug).
    pub fn certificate(&mut self, root: &Grid, to_move: Color) -> Result<Certificate, String> {
        self.certificate_with(root, to_move, 1, &AtomicU64::new(0))
    }

    /// [`Prover::certificate`] on `threads` threads (the defender's replies near the root are
    /// shared out; the entries then come in another order from run to run, each position once),
    /// counting the entries found so far in `progress` for a caller's display.
    pub fn certificate_with(
        &self,
        root: &Grid,
        to_move: Color,
        threads: usize,
        progress: &AtomicU64,
    ) -> Result<Certificate, String> {
        let walk = Walk {
            table: self.table(),
            options: &self.options,
            attacker: self.attacker,
            done: (0..64).map(|_| Mutex::new(HashSet::new())).collect(),
            progress,
            parallel: threads > 1,
        };
        let mut x = Extractor {
            board: Board::from_grid(root, self.board.rule()),
            synced: 0,
            referee: Referee::new(root, self.board.rule()),
            entries: Vec::new(),
            path: Vec::new(),
            colors: Vec::new(),
            walk: &walk,
        };
        x.board.track_patterns();
        let run = |x: &mut Extractor| {
            if to_move == walk.attacker {
                x.attack(None)
            } else {
                x.defend(None)
            }
        };
        if threads > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("starting {threads} threads: {e}"))?
                .install(|| run(&mut x))?;
        } else {
            run(&mut x)?;
        }
        Ok(Certificate {
            rule: self.board.rule(),
            attacker: self.attacker,
            to_move,
            vcf_bound: VCF_BOUND,
            symmetric: true,
            root: root.clone(),
            entries: x.entries,
        })
    }
}

/// What every thread of one extraction shares.
struct Walk<'a> {
    table: &'a super::table::Table,
    options: &'a super::Options,
    attacker: Color,
    /// The attacker-to-move positions already taken, in shards by key.
    done: Vec<Mutex<HashSet<u128>>>,
    progress: &'a AtomicU64,
    parallel: bool,
}

/// One thread's walk. The referee follows every move; the board (whose incremental threat sets
/// cost more to update) only the moves up to where the threat solver or the table is asked: most
/// positions are closed by the referee's short VCF and never need it.
struct Extractor<'a> {
    board: Board,
    /// How many moves of `path` are on `board` (a prefix of it).
    synced: usize,
    referee: Referee,
    entries: Vec<(Vec<Point>, Point)>,
    path: Vec<Point>,
    colors: Vec<Color>,
    walk: &'a Walk<'a>,
}

/// A threat proof of `grid`'s win for `a` found on one of its seven other orientations (rotations
/// and reflections), turned back onto `grid`. Within its node budget the threat solver's result
/// depends on the orientation (the order it meets the cells in), and the proof search matches
/// positions up to symmetry: a position it proved at a leaf in one orientation may be reached here
/// in another, where the solver fails (session 72: `h8 a8`, whose root is symmetric).
fn turned_threat_win(grid: &Grid, rule: Rule, a: Color, options: &super::Options) -> Option<Proof> {
    let n = grid.size();
    (1..8u8).find_map(|t| {
        let mut turned = Grid::new(n).expect("a grid's own size");
        for p in grid.points() {
            turned.set(keys::apply(t, p, n), grid.get(p));
        }
        let mut board = Board::from_grid(&turned, rule);
        board.track_patterns();
        let mut nodes = 0;
        super::threat_win(&board, a, options, &mut nodes).map(|proof| turned_back(&proof, t, n))
    })
}

/// `proof`, found on a board turned by the symmetry `t`, on the board before the turn.
fn turned_back(proof: &Proof, t: u8, n: usize) -> Proof {
    match proof {
        Proof::Five(p) => Proof::Five(keys::invert(t, *p, n)),
        Proof::Threat { attack, replies } => Proof::Threat {
            attack: keys::invert(t, *attack, n),
            replies: replies
                .iter()
                .map(|(r, sub)| (keys::invert(t, *r, n), turned_back(sub, t, n)))
                .collect(),
        },
    }
}

impl<'a> Extractor<'a> {
    fn fork(&self) -> Extractor<'a> {
        let mut board = self.board.clone();
        board.track_patterns();
        Extractor {
            board,
            synced: self.synced,
            referee: self.referee.clone(),
            entries: Vec::new(),
            path: self.path.clone(),
            colors: self.colors.clone(),
            walk: self.walk,
        }
    }

    fn play(&mut self, p: Point, c: Color) {
        self.referee.play(p, c);
        self.path.push(p);
        self.colors.push(c);
    }

    fn take_back(&mut self, p: Point) {
        if self.synced == self.path.len() {
            self.board.unmake(p);
            self.synced -= 1;
        }
        self.referee.clear(p);
        self.path.pop();
        self.colors.pop();
    }

    /// The board with every move of the path on it.
    fn board(&mut self) -> &Board {
        while self.synced < self.path.len() {
            self.board
                .make(self.path[self.synced], self.colors[self.synced]);
            self.synced += 1;
        }
        &self.board
    }

    fn where_(&self) -> String {
        names(self.path.iter().copied(), self.board.size())
    }

    /// The attacker to move; `hint`: a threat proof of this position, when one is at hand.
    fn attack(&mut self, hint: Option<&Proof>) -> Result<(), String> {
        let a = self.walk.attacker;
        if !self.referee.five_points(a).is_empty() {
            return Ok(());
        }
        // A rotation or reflection of a position already taken is covered by its entries (the
        // certificates written here match positions up to symmetry).
        let key = fingerprint(&key_of(self.referee.grid(), true).0);
        if !take(&self.walk.done, key) {
            return Ok(());
        }
        if referee::has_vcf(self.referee.grid(), self.board.rule(), a, VCF_BOUND) {
            return Ok(());
        }
        // A threat proof carries the answers to the defender's counter-fours; take one when the
        // solver finds it, else the proof search's move from the table. A position the proof
        // search proved through its children takes the table's move at once: the solver failed
        // there during the proof, and would fail again at the cost of its whole budget.
        let table = self.walk.table;
        let inner = match hint {
            Some(_) => None,
            None => Prover::proved_entry(|k| table.get(k), self.board())
                .filter(|&(_, inner)| inner)
                .map(|(m, _)| m),
        };
        let solved = match (hint, inner) {
            (Some(_), _) | (_, Some(_)) => None,
            (None, None) => {
                let mut nodes = 0;
                let options = self.walk.options;
                let rule = self.board.rule();
                super::threat_win(self.board(), a, options, &mut nodes)
                    .or_else(|| turned_threat_win(self.referee.grid(), rule, a, options))
            }
        };
        let (m, replies): (Point, Option<&[(Point, Proof)]>) = match hint.or(solved.as_ref()) {
            Some(Proof::Threat { attack, replies }) => (*attack, Some(&replies[..])),
            Some(Proof::Five(p)) => (*p, None),
            None => {
                let m = inner.or_else(|| Prover::proved_move(|k| table.get(k), self.board()));
                let m = m.ok_or(format!(
                    "after '{}': the position is not proved",
                    self.where_()
                ))?;
                (m, None)
            }
        };
        self.entries.push((self.path.clone(), m));
        self.walk.progress.fetch_add(1, Ordering::Relaxed);
        self.play(m, a);
        let res = self.defend(replies);
        self.take_back(m);
        res
    }

    /// The defender to move: every legal reply.
    fn defend(&mut self, hint: Option<&[(Point, Proof)]>) -> Result<(), String> {
        let a = self.walk.attacker;
        let d = !a;
        if self.referee.has_five(a) {
            return Ok(());
        }
        let replies: Vec<Point> = self.referee.empties().collect();
        if replies.is_empty() {
            return Err(format!("after '{}': the board is full", self.where_()));
        }
        if let Some(&x) = self.referee.five_points(d).first() {
            return Err(format!(
                "after '{}': the defender makes five on {}",
                self.where_(),
                point_name(x, self.board.size())
            ));
        }
        let mut open = Vec::with_capacity(replies.len());
        for x in replies {
            if !self.referee.is_foul(x, d) {
                open.push(x);
            }
        }
        let sub = |x: Point| hint.and_then(|h| h.iter().find(|(y, _)| *y == x).map(|(_, p)| p));
        if self.walk.parallel && self.path.len() < PARALLEL_PLIES {
            use rayon::prelude::*;
            let parts: Vec<Vec<(Vec<Point>, Point)>> = open
                .par_iter()
                .map(|&x| {
                    let mut f = self.fork();
                    f.play(x, d);
                    f.attack(sub(x))?;
                    Ok(f.entries)
                })
                .collect::<Result<_, String>>()?;
            self.entries.extend(parts.into_iter().flatten());
            return Ok(());
        }
        for x in open {
            self.play(x, d);
            let res = self.attack(sub(x));
            self.take_back(x);
            res?;
        }
        Ok(())
    }
}
