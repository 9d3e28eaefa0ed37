//! Hints: the certificate of a proved position steers the proof of a similar one.
//!
//! The White replies to Black's centre that lie far from it are won by much the same Black
//! strategy: the reply stone rarely matters. A certificate of one of them (say `h8 a1`) then
//! predicts Black's moves in another (`h8 a3`): in a position of the new proof, take the new
//! root's defender stones that the certificate's root lacks off the board, put back the ones it
//! has and the new root lacks, and look the result up in the certificate. Its move is tried first
//! and the prover's other moves count as dearer ([`HINT_PENALTY`]).
//!
//! A hint only orders moves. Every move is still proved by the search, and a wrong hint costs
//! time, not soundness.

use std::collections::HashMap;

use super::cert::{self, Certificate, Exact};
use super::keys;
use crate::{Color, Grid, Point};

/// What an unhinted attacker move adds to its proof number at a node with a hinted move, by
/// default ([`super::Options::hint_penalty`]): the search stays with the hint until its proof
/// number has grown past the other moves' by this.
pub const HINT_PENALTY: u32 = 100_000;

/// Certificates' strategies, and how positions of another proof map onto their positions: the
/// first certificate with a move for a position gives it ([`Hint::then`] adds one).
pub struct Hint {
    sources: Vec<Source>,
}

/// One certificate of a [`Hint`].
struct Source {
    strategy: HashMap<Exact, Point>,
    symmetric: bool,
    defender: Color,
    /// The new root's defender stones that the certificate's root does not have.
    lift: Vec<Point>,
    /// The certificate root's defender stones that the new root does not have (in the new root's
    /// frame).
    put: Vec<Point>,
}

impl std::fmt::Debug for Hint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut l = f.debug_list();
        for s in &self.sources {
            l.entry(&format_args!(
                "{} entries, lift {:?}, put {:?}",
                s.strategy.len(),
                s.lift,
                s.put
            ));
        }
        l.finish()
    }
}

impl Hint {
    /// A hint from `cert` for a proof from `root` with `attacker` attacking and `to_move` to play.
    /// The certificate's root must have the same attacker stones (up to a symmetry of the board,
    /// when its positions are matched up to symmetry); its defender stones may differ, and the
    /// symmetry that makes them differ least is used.
    ///
    /// # Errors
    /// Another size, rule of play, attacker or side to move, a malformed certificate, or no
    /// symmetry under which the attacker stones agree.
    pub fn new(
        cert: &Certificate,
        root: &Grid,
        rule: crate::Rule,
        attacker: Color,
        to_move: Color,
    ) -> Result<Hint, String> {
        let n = root.size();
        if cert.root.size() != n {
            return Err(format!(
                "the hint is a certificate for {0}x{0}, not {n}x{n}",
                cert.root.size()
            ));
        }
        if cert.rule != rule {
            return Err(format!(
                "the hint is a certificate under {}, not {}",
                cert.rule.name(),
                rule.name()
            ));
        }
        if cert.attacker != attacker || cert.to_move != to_move {
            return Err(format!(
                "the hint is a certificate for {} attacking with {} to move, not {} with {}",
                cert.attacker.name(),
                cert.to_move.name(),
                attacker.name(),
                to_move.name()
            ));
        }
        let defender = !attacker;
        let frames: &[u8] = if cert.symmetric {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        } else {
            &[0]
        };
        let mut best: Option<(Vec<Point>, Vec<Point>)> = None;
        for &t in frames {
            // The certificate's root seen in the new root's frame.
            let theirs = |p: Point| cert.root.get(keys::apply(t, p, n));
            if root
                .points()
                .any(|p| (root.get(p) == Some(attacker)) != (theirs(p) == Some(attacker)))
            {
                continue;
            }
            let lift: Vec<Point> = root
                .points()
                .filter(|&p| root.get(p) == Some(defender) && theirs(p) != Some(defender))
                .collect();
            let put: Vec<Point> = root
                .points()
                .filter(|&p| theirs(p) == Some(defender) && root.get(p) != Some(defender))
                .collect();
            if best
                .as_ref()
                .is_none_or(|(l, q)| lift.len() + put.len() < l.len() + q.len())
            {
                best = Some((lift, put));
            }
        }
        let Some((lift, put)) = best else {
            return Err(format!(
                "the hint's certificate has other {} stones at its root",
                attacker.name()
            ));
        };
        Ok(Hint {
            sources: vec![Source {
                strategy: cert::strategy_of(cert)?,
                symmetric: cert.symmetric,
                defender,
                lift,
                put,
            }],
        })
    }

    /// This hint, then `other`'s certificates where this one's have no move.
    #[must_use]
    pub fn then(mut self, other: Hint) -> Hint {
        self.sources.extend(other.sources);
        self
    }

    /// The move of the first certificate that has one in the position `grid` of the new proof
    /// (the attacker to move), mapped as [`Hint::new`] says; `None` where none has.
    #[must_use]
    pub fn move_at(&self, grid: &Grid) -> Option<Point> {
        self.sources.iter().find_map(|s| s.move_at(grid))
    }
}

impl Source {
    /// The certificate's move in the position `grid` of the new proof (the attacker to move);
    /// `None` where the certificate has no entry for it, where a stone to put back is covered,
    /// or where the move is not an empty point of `grid`.
    fn move_at(&self, grid: &Grid) -> Option<Point> {
        let mut g = grid.clone();
        for &p in &self.lift {
            g.set(p, None);
        }
        for &p in &self.put {
            if g.get(p).is_some() {
                return None;
            }
            g.set(p, Some(self.defender));
        }
        let (key, t) = cert::key_of(&g, self.symmetric);
        let m = keys::invert(t, *self.strategy.get(&key)?, grid.size());
        (grid.get(m).is_none() && !self.put.contains(&m)).then_some(m)
    }
}
