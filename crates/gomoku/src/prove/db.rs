//! The proof database: proved and disproved positions of one board size, rule and attacker, so that
//! a long proof runs across many invocations.
//!
//! Layout (little-endian): the 8 bytes `SLPRFDB1`; size, rule index, attacker (0 white, 1 black),
//! five zero bytes; the entry count (u64); per entry the 128-bit canonical key, a result byte (1
//! proved, 2 disproved), a zero byte and the attacker's move (u16, `y * 20 + x` in the key's
//! canonical frame, `0xffff` for none); then FNV-1a (64 bits) of everything before it. The command
//! line writes it to a temporary name beside the target and renames it over it, so a kill at any
//! moment leaves the old file or the new one.

use std::fs;
use std::path::Path;

use super::cert::fnv1a;
use super::{Entry, INF};
use crate::{Color, Rule};

const MAGIC: &[u8; 8] = b"SLPRFDB1";
const HEADER: usize = 24;
const ENTRY: usize = 20;

/// What a database holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Db {
    pub size: usize,
    pub rule: Rule,
    pub attacker: Color,
    pub entries: Vec<(u128, Entry)>,
}

impl Db {
    /// The bytes of the file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.entries.len() + 8);
        out.extend_from_slice(MAGIC);
        out.push(self.size as u8);
        out.push(self.rule.index() as u8);
        out.push(u8::from(self.attacker == Color::Black));
        out.extend_from_slice(&[0; 5]);
        out.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        for (k, e) in &self.entries {
            out.extend_from_slice(&k.to_le_bytes());
            out.push(if e.pn == 0 { 1 } else { 2 });
            out.push(0);
            out.extend_from_slice(&e.best.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a database file's bytes, refusing anything corrupt or foreign.
    pub fn from_bytes(bytes: &[u8]) -> Result<Db, String> {
        if bytes.len() < HEADER + 8 || &bytes[..8] != MAGIC {
            return Err("not a stonelab proof database".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if sum != fnv1a(body) {
            return Err("checksum mismatch: the proof database is corrupt".into());
        }
        let size = bytes[8] as usize;
        let rule = *Rule::ALL
            .get(bytes[9] as usize)
            .ok_or("unknown rule in the proof database")?;
        let attacker = match bytes[10] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err("bad attacker in the proof database".into()),
        };
        let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes")) as usize;
        if body.len() != HEADER + count.saturating_mul(ENTRY) {
            return Err("the proof database's length does not match its entry count".into());
        }
        let mut entries = Vec::with_capacity(count);
        for chunk in body[HEADER..].chunks_exact(ENTRY) {
            let key = u128::from_le_bytes(chunk[..16].try_into().expect("16 bytes"));
            let best = u16::from_le_bytes([chunk[18], chunk[19]]);
            let e = match chunk[16] {
                1 => Entry {
                    pn: 0,
                    dn: INF,
                    best,
                },
                2 => Entry {
                    pn: INF,
                    dn: 0,
                    best,
                },
                _ => return Err("bad result byte in the proof database".into()),
            };
            entries.push((key, e));
        }
        Ok(Db {
            size,
            rule,
            attacker,
            entries,
        })
    }

    /// Reads `path`; `Ok(None)` when there is no such file.
    pub fn load(path: &Path) -> Result<Option<Db>, String> {
        match fs::read(path) {
            Ok(bytes) => Db::from_bytes(&bytes)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
}

/// A database opened for play: the attacker's proved move in any position it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub size: usize,
    pub rule: Rule,
    pub attacker: Color,
    table: std::collections::HashMap<u128, Entry>,
}

impl Book {
    /// The proved positions of `db`.
    #[must_use]
    pub fn new(db: Db) -> Book {
        Book {
            size: db.size,
            rule: db.rule,
            attacker: db.attacker,
            table: db.entries.into_iter().filter(|(_, e)| e.pn == 0).collect(),
        }
    }

    /// The proved move of `c` on `board`, when `c` is the book's attacker, the board its size and
    /// rule, and the position one it proved with a move stored.
    #[must_use]
    pub fn proved_move(&self, board: &crate::Board, c: Color) -> Option<crate::Point> {
        if c != self.attacker || board.size() != self.size || board.rule() != self.rule {
            return None;
        }
        let m = super::Prover::proved_move(|k| self.table.get(&k).copied(), board)?;
        board.stone(m).is_none().then_some(m)
    }

    /// Positions with a proved move.
    #[must_use]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the book holds no proved position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Db {
        Db {
            size: 7,
            rule: Rule::Standard,
            attacker: Color::Black,
            entries: vec![
                (
                    0x1234_5678_9abc_def0_0fed_cba9_8765_4321,
                    Entry {
                        pn: 0,
                        dn: INF,
                        best: 24,
                    },
                ),
                (
                    7,
                    Entry {
                        pn: INF,
                        dn: 0,
                        best: super::super::NO_MOVE,
                    },
                ),
            ],
        }
    }

    #[test]
    fn round_trips() {
        let db = sample();
        assert_eq!(Db::from_bytes(&db.to_bytes()).unwrap(), db);
    }

    #[test]
    fn refuses_every_single_byte_corruption_and_truncation() {
        let bytes = sample().to_bytes();
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(Db::from_bytes(&b).is_err(), "byte {i}");
        }
        for len in 0..bytes.len() {
            assert!(Db::from_bytes(&bytes[..len]).is_err(), "length {len}");
        }
        assert!(Db::from_bytes(b"hello world, not a database at all").is_err());
    }
}
