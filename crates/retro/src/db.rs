//! The results database: the bounds of every state of a solved game.
//!
//! Layout (little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `STLBRDB1` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | length `m` of the metadata |
//! | 16 | 8 | number of states `n` |
//! | 24 | 4 | CRC-32 of the body |
//! | 28 | 4 | CRC-32 of the metadata |
//! | 32 | m | metadata: UTF-8 JSON chosen by the caller (board, rules, komi, counts) |
//! | 32+m | 4n | per state: `lo` i16, `hi` i16 |
//!
//! The file is written to a temporary name in the same folder, synced and renamed. The reader
//! memory-maps it and checks size, magic, version and both checksums before handing out a value,
//! so a truncated or damaged file is refused with a clear error.

use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::Bounds;

const MAGIC: &[u8; 8] = b"STLBRDB1";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
const HEADER: usize = 32;

/// Why a database could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a stonelab results database (bad magic)")]
    BadMagic { path: PathBuf },
    #[error("{path}: format version {found}, this program reads version {VERSION}")]
    BadVersion { path: PathBuf, found: u32 },
    #[error("{path}: truncated or padded: {actual} bytes, the header promises {expected}")]
    BadSize {
        path: PathBuf,
        actual: u64,
        expected: u64,
    },
    #[error("{path}: checksum mismatch in the {part}: the file is damaged")]
    BadChecksum { path: PathBuf, part: &'static str },
    #[error("{path}: metadata is not UTF-8")]
    BadMeta { path: PathBuf },
}

/// Writes a database atomically: temporary file, sync, rename.
pub fn write(path: &Path, meta: &str, values: &[Bounds]) -> Result<(), DbError> {
    let mut body = Vec::with_capacity(values.len() * 4);
    for v in values {
        body.extend_from_slice(&v.lo.to_le_bytes());
        body.extend_from_slice(&v.hi.to_le_bytes());
    }
    let mut header = Vec::with_capacity(HEADER + meta.len());
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    header.extend_from_slice(&(values.len() as u64).to_le_bytes());
    header.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    header.extend_from_slice(&crc32fast::hash(meta.as_bytes()).to_le_bytes());
    header.extend_from_slice(meta.as_bytes());

    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let io = |source| DbError::Io {
        path: tmp.clone(),
        source,
    };
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(&header).map_err(io)?;
    f.write_all(&body).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|source| DbError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes a database in pieces that may come in any order (from several workers): the body is
/// written at its place in a temporary file, each piece's CRC-32 kept, and [`Writer::finish`]
/// combines them in state order, writes the header, syncs and renames. The file is the same, byte
/// for byte, as [`write`] makes from the whole table.
pub struct Writer {
    path: PathBuf,
    tmp: PathBuf,
    file: std::fs::File,
    meta: String,
    states: u64,
    /// `(first state, states, CRC-32 of the piece)`.
    pieces: Vec<(u64, u64, crc32fast::Hasher)>,
}

impl Writer {
    /// Starts a database of `states` states at `path` (nothing appears there before `finish`).
    pub fn create(path: &Path, meta: &str, states: u64) -> Result<Writer, DbError> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let io = |source| DbError::Io {
            path: tmp.clone(),
            source,
        };
        let file = std::fs::File::create(&tmp).map_err(io)?;
        file.set_len(HEADER as u64 + meta.len() as u64 + 4 * states)
            .map_err(io)?;
        Ok(Writer {
            path: path.to_path_buf(),
            tmp,
            file,
            meta: meta.to_string(),
            states,
            pieces: Vec::new(),
        })
    }

    /// Writes the values of states `first..first + bytes.len() / 4` (`lo`, `hi` as little-endian
    /// `i16` each, as in the file).
    pub fn write_piece(&mut self, first: u64, bytes: &[u8]) -> Result<(), DbError> {
        use std::os::unix::fs::FileExt;
        let at = HEADER as u64 + self.meta.len() as u64 + 4 * first;
        self.file
            .write_all_at(bytes, at)
            .map_err(|source| DbError::Io {
                path: self.tmp.clone(),
                source,
            })?;
        let mut h = crc32fast::Hasher::new();
        h.update(bytes);
        self.pieces.push((first, bytes.len() as u64 / 4, h));
        Ok(())
    }

    /// Checks that the pieces cover every state once, writes the header and renames.
    pub fn finish(mut self) -> Result<(), DbError> {
        use std::os::unix::fs::FileExt;
        self.pieces.sort_by_key(|p| p.0);
        let mut next = 0u64;
        let mut crc = crc32fast::Hasher::new();
        for (first, len, h) in &self.pieces {
            if *first != next {
                return Err(DbError::Io {
                    path: self.tmp.clone(),
                    source: std::io::Error::other(format!(
                        "pieces do not cover the states: expected state {next}, got {first}"
                    )),
                });
            }
            crc.combine(h);
            next += len;
        }
        if next != self.states {
            return Err(DbError::Io {
                path: self.tmp.clone(),
                source: std::io::Error::other(format!(
                    "pieces cover {next} states of {}",
                    self.states
                )),
            });
        }
        let mut header = Vec::with_capacity(HEADER + self.meta.len());
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&(self.meta.len() as u32).to_le_bytes());
        header.extend_from_slice(&self.states.to_le_bytes());
        header.extend_from_slice(&crc.finalize().to_le_bytes());
        header.extend_from_slice(&crc32fast::hash(self.meta.as_bytes()).to_le_bytes());
        header.extend_from_slice(self.meta.as_bytes());
        let io = |source| DbError::Io {
            path: self.tmp.clone(),
            source,
        };
        self.file.write_all_at(&header, 0).map_err(io)?;
        self.file.sync_all().map_err(io)?;
        std::fs::rename(&self.tmp, &self.path).map_err(|source| DbError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // After `finish` the temporary name is gone; otherwise the half-written file goes.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// A database opened by memory map, already checked.
pub struct Database {
    map: Mmap,
    meta_len: usize,
    states: u64,
}

impl Database {
    /// Opens and checks the database at `path`.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        Database::open_with(path, true)
    }

    /// Opens a database that this program checked in full before and that has not changed since
    /// (the caller knows, e.g. by the file's identity and change time): magic, version, size and
    /// the metadata's checksum are checked; the values' checksum (a pass over the whole file) is
    /// not.
    pub fn open_checked_before(path: &Path) -> Result<Database, DbError> {
        Database::open_with(path, false)
    }

    fn open_with(path: &Path, full: bool) -> Result<Database, DbError> {
        let io = |source| DbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // Safety: the map is read-only and private to this process; a concurrent writer would
        // replace the file by rename rather than modify it in place (see `write`).
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let p = || path.to_path_buf();
        if map.len() < HEADER || &map[..8] != MAGIC {
            return Err(DbError::BadMagic { path: p() });
        }
        let u32_at = |i: usize| u32::from_le_bytes(map[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(DbError::BadVersion {
                path: p(),
                found: version,
            });
        }
        let meta_len = u32_at(12) as usize;
        let states = u64::from_le_bytes(map[16..24].try_into().expect("8 bytes"));
        let expected = (HEADER as u64 + meta_len as u64).saturating_add(states.saturating_mul(4));
        if map.len() as u64 != expected {
            return Err(DbError::BadSize {
                path: p(),
                actual: map.len() as u64,
                expected,
            });
        }
        let meta = &map[HEADER..HEADER + meta_len];
        if crc32fast::hash(meta) != u32_at(28) {
            return Err(DbError::BadChecksum {
                path: p(),
                part: "metadata",
            });
        }
        if std::str::from_utf8(meta).is_err() {
            return Err(DbError::BadMeta { path: p() });
        }
        if full && crc32fast::hash(&map[HEADER + meta_len..]) != u32_at(24) {
            return Err(DbError::BadChecksum {
                path: p(),
                part: "values",
            });
        }
        Ok(Database {
            map,
            meta_len,
            states,
        })
    }

    /// Checks every stored value: `lo <= hi`, both within `-max_abs..=max_abs` (so no sentinel of
    /// an unforced end is left). Returns the first offending state. A file with valid checksums
    /// can still hold such values (written by another program, or doctored); a Go database never
    /// does, since either side can always force the game to end (pass until the other side
    /// passes).
    pub fn check_values(&self, max_abs: i16) -> Result<(), (u64, Bounds)> {
        let body = &self.map[HEADER + self.meta_len..];
        for (s, c) in body.chunks_exact(4).enumerate() {
            let lo = i16::from_le_bytes([c[0], c[1]]);
            let hi = i16::from_le_bytes([c[2], c[3]]);
            if lo > hi || lo < -max_abs || hi > max_abs {
                return Err((s as u64, Bounds { lo, hi }));
            }
        }
        Ok(())
    }

    /// The caller's metadata (JSON text).
    #[must_use]
    pub fn meta(&self) -> &str {
        std::str::from_utf8(&self.map[HEADER..HEADER + self.meta_len]).expect("checked at open")
    }

    /// Number of states.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.states
    }

    /// Whether the database has no states.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.states == 0
    }

    /// The bounds of state `s`, if it exists.
    #[must_use]
    pub fn get(&self, s: u64) -> Option<Bounds> {
        if s >= self.states {
            return None;
        }
        let i = HEADER + self.meta_len + 4 * s as usize;
        let b = &self.map[i..i + 4];
        Some(Bounds {
            lo: i16::from_le_bytes([b[0], b[1]]),
            hi: i16::from_le_bytes([b[2], b[3]]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Bounds> {
        (0..1000)
            .map(|i| Bounds {
                lo: (i % 7) as i16 - 3,
                hi: (i % 11) as i16,
            })
            .collect()
    }

    #[test]
    fn round_trip_and_damage() {
        let dir = std::env::temp_dir().join(format!("stonelab-db-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let values = sample();
        write(&path, r#"{"board":"2x2"}"#, &values).unwrap();
        let db = Database::open(&path).unwrap();
        assert_eq!(db.meta(), r#"{"board":"2x2"}"#);
        assert_eq!(db.len(), 1000);
        assert!((0..1000).all(|s| db.get(s) == Some(values[s as usize])));
        assert_eq!(db.get(1000), None);
        drop(db);

        let good = std::fs::read(&path).unwrap();
        // Truncated.
        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        assert!(matches!(
            Database::open(&path),
            Err(DbError::BadSize { .. })
        ));
        // One flipped bit in the values.
        let mut bad = good.clone();
        *bad.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            Database::open(&path),
            Err(DbError::BadChecksum { part: "values", .. })
        ));
        // Bad magic, bad version.
        let mut bad = good.clone();
        bad[0] = b'X';
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            Database::open(&path),
            Err(DbError::BadMagic { .. })
        ));
        let mut bad = good.clone();
        bad[8] = 9;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            Database::open(&path),
            Err(DbError::BadVersion { found: 9, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
