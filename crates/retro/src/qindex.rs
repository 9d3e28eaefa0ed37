//! The query index: what a query needs beyond a results database and its state table, kept next
//! to the database so that a later query starts in milliseconds.
//!
//! Opening a database and a state table in full reads both files once (checksums, every value,
//! every position: 25 s on 4x5), and the ko states' numbering needs a pass over every position.
//! The index holds the ko keys (sorted `pos << 8 | side << 7 | point`, as
//! [`crate::go::GoGame`] numbers them) and the identity of the database and state table it was
//! built from, as they were when a full check passed: device, inode, size and change time. A
//! later open trusts the two files without reading them whole only when both are the same files,
//! unchanged since: a rewrite, a rename over them or an edit in place changes the change time.
//! A file changed within the same clock tick as the start of its check could keep its change time,
//! so a check begins only once the file's change time is 20 ms in the past (a few ticks of the
//! kernel's coarse clock), and a stamp counts only when that holds (git's "racily clean" files).
//!
//! Layout (little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `STLBQIX1` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | zero |
//! | 16 | 8 | number of keys `k` |
//! | 24 | 8 | when the database's full check began (nanoseconds since the Unix epoch) |
//! | 32 | 40 | stamp of the database then: device, inode, size, change time (s, ns) |
//! | 72 | 8 | when the state table's full check began |
//! | 80 | 40 | stamp of the state table then |
//! | 120 | 4 | CRC-32 of the keys |
//! | 124 | 4 | CRC-32 of bytes 0..124 |
//! | 128 | 8k | the keys |
//!
//! The index is a cache: written to a temporary name and renamed, never over anything but a
//! regular file; a damaged, stale or missing index only means a full check and a new index.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use memmap2::Mmap;

use crate::go::KoKeys;

const MAGIC: &[u8; 8] = b"STLBQIX1";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
const HEADER: usize = 128;
/// How much older than the start of its check a file's change time must be.
const RACY_NS: i128 = 20_000_000;

/// Why an index could not be read or written. Readers treat every one as "no index".
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {why}")]
    Bad { path: PathBuf, why: String },
}

/// Which file, and which version of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    ctime_s: i64,
    ctime_ns: i64,
}

impl Stamp {
    /// The stamp of the file at `path` now.
    pub fn of(path: &Path) -> std::io::Result<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path)?;
        Ok(Stamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            ctime_s: m.ctime(),
            ctime_ns: m.ctime_nsec(),
        })
    }

    fn ctime(&self) -> i128 {
        i128::from(self.ctime_s) * 1_000_000_000 + i128::from(self.ctime_ns)
    }

    fn bytes(&self) -> [u8; 40] {
        let mut b = [0u8; 40];
        b[0..8].copy_from_slice(&self.dev.to_le_bytes());
        b[8..16].copy_from_slice(&self.ino.to_le_bytes());
        b[16..24].copy_from_slice(&self.size.to_le_bytes());
        b[24..32].copy_from_slice(&self.ctime_s.to_le_bytes());
        b[32..40].copy_from_slice(&self.ctime_ns.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Stamp {
        let u = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        Stamp {
            dev: u(0),
            ino: u(8),
            size: u(16),
            ctime_s: u(24) as i64,
            ctime_ns: u(32) as i64,
        }
    }
}

fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// The start of a file's full check: when, and the file's stamp then. Take it just before the
/// check and give it to [`write`] after the check passed.
#[derive(Clone, Copy, Debug)]
pub struct Began {
    at_ns: u64,
    stamp: Stamp,
}

impl Began {
    /// Stamps `path` for a check that begins now; first waits (at most 20 ms) until the file's
    /// last change is 20 ms in the past.
    pub fn now(path: &Path) -> std::io::Result<Began> {
        let mut stamp = Stamp::of(path)?;
        let wait = stamp.ctime() + RACY_NS - now_ns();
        if wait > 0 {
            std::thread::sleep(std::time::Duration::from_nanos(
                wait.min(RACY_NS) as u64 + 1,
            ));
            stamp = Stamp::of(path)?;
        }
        Ok(Began {
            at_ns: now_ns() as u64,
            stamp,
        })
    }

    fn counts(&self) -> bool {
        self.stamp.ctime() <= i128::from(self.at_ns) - RACY_NS
    }

    fn bytes(&self) -> Vec<u8> {
        let mut b = self.at_ns.to_le_bytes().to_vec();
        b.extend_from_slice(&self.stamp.bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Began {
        Began {
            at_ns: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
            stamp: Stamp::from_bytes(&b[8..48]),
        }
    }
}

/// Writes the index of `db` and `table` (each checked in full since its [`Began`]) at `index`:
/// temporary name, sync, rename. Writes nothing when either file changed during its check or
/// changed too close to it, and refuses to replace anything but a regular file.
pub fn write(
    index: &Path,
    (db, db_began): (&Path, Began),
    (table, table_began): (&Path, Began),
    keys: &[u64],
) -> Result<(), IndexError> {
    let io = |source| IndexError::Io {
        path: index.to_path_buf(),
        source,
    };
    if Stamp::of(db).ok() != Some(db_began.stamp)
        || Stamp::of(table).ok() != Some(table_began.stamp)
        || !db_began.counts()
        || !table_began.counts()
    {
        return Err(IndexError::Bad {
            path: index.to_path_buf(),
            why: "the database or state table changed while it was checked".into(),
        });
    }
    if let Ok(m) = std::fs::symlink_metadata(index) {
        if !m.file_type().is_file() {
            return Err(IndexError::Bad {
                path: index.to_path_buf(),
                why: "exists and is not a regular file: left as it is".into(),
            });
        }
    }
    let mut body = Vec::with_capacity(8 * keys.len());
    for k in keys {
        body.extend_from_slice(&k.to_le_bytes());
    }
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&(keys.len() as u64).to_le_bytes());
    h.extend_from_slice(&db_began.bytes());
    h.extend_from_slice(&table_began.bytes());
    h.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    let crc = crc32fast::hash(&h);
    h.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(h.len(), HEADER);
    let tmp = index.with_extension(format!("index.tmp{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&h)?;
        f.write_all(&body)?;
        f.sync_all()?;
        std::fs::rename(&tmp, index)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Opens the index of `db` and `table`. `Ok(None)` when there is no index, or it was built from
/// other files or other versions of them, or its stamps are too close to their check to count;
/// an error when the index itself is damaged. `Some(keys)` means both files are those checked in
/// full when the index was written.
pub fn open(index: &Path, db: &Path, table: &Path) -> Result<Option<KoKeys>, IndexError> {
    let io = |source| IndexError::Io {
        path: index.to_path_buf(),
        source,
    };
    let bad = |why: &str| IndexError::Bad {
        path: index.to_path_buf(),
        why: why.to_string(),
    };
    let file = match std::fs::File::open(index) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    // Safety: read-only and private; the writer renames a new file over the old one instead of
    // changing it in place.
    let map = unsafe { Mmap::map(&file) }.map_err(io)?;
    if map.len() < HEADER || &map[..8] != MAGIC {
        return Err(bad("not a stonelab query index"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(map[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(map[i..i + 8].try_into().expect("8 bytes"));
    if crc32fast::hash(&map[..124]) != u32_at(124) {
        return Err(bad("header checksum mismatch"));
    }
    if u32_at(8) != VERSION {
        return Err(bad("another format version"));
    }
    let len = u64_at(16);
    if (map.len() - HEADER) as u64 != len.saturating_mul(8) {
        return Err(bad("truncated or padded"));
    }
    let (want_db, want_table) = (
        Began::from_bytes(&map[24..72]),
        Began::from_bytes(&map[72..120]),
    );
    let (Ok(now_db), Ok(now_table)) = (Stamp::of(db), Stamp::of(table)) else {
        return Ok(None);
    };
    if now_db != want_db.stamp || now_table != want_table.stamp {
        return Ok(None);
    }
    if !want_db.counts() || !want_table.counts() {
        return Ok(None);
    }
    if crc32fast::hash(&map[HEADER..]) != u32_at(120) {
        return Err(bad("checksum mismatch in the keys"));
    }
    Ok(Some(KoKeys::Mapped {
        map,
        offset: HEADER,
        len: len as usize,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("stonelab-qindex-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    /// A test's folder, removed when the test is done (kept when it fails).
    struct Dir(PathBuf);

    impl std::ops::Deref for Dir {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            if !std::thread::panicking() {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    /// A database, a state table and where their index goes.
    fn files(d: &Path) -> (PathBuf, PathBuf, PathBuf) {
        let (db, table, index) = (d.join("a.db"), d.join("a.states"), d.join("a.db.index"));
        std::fs::write(&db, b"database").unwrap();
        std::fs::write(&table, b"table").unwrap();
        (db, table, index)
    }

    fn index_of(index: &Path, db: &Path, table: &Path, keys: &[u64]) -> Result<(), IndexError> {
        let (a, b) = (Began::now(db).unwrap(), Began::now(table).unwrap());
        write(index, (db, a), (table, b), keys)
    }

    #[test]
    fn keys_come_back_only_for_the_files_checked() {
        let d = dir("keys");
        let (db, table, index) = files(&d);
        let keys = vec![3u64, 17, 256, 1 << 40];
        index_of(&index, &db, &table, &keys).unwrap();
        let got = open(&index, &db, &table).unwrap().expect("fresh index");
        assert_eq!(got.len(), keys.len());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(got.get(i), *k);
            assert_eq!(got.binary_search(*k), Ok(i));
        }
        assert_eq!(got.binary_search(4), Err(1));
        assert_eq!(got.binary_search(u64::MAX), Err(4));
        // Another database of the same size, renamed over the old one: stale.
        let other = d.join("b.db");
        std::fs::write(&other, b"databasf").unwrap();
        std::fs::rename(&other, &db).unwrap();
        assert!(open(&index, &db, &table).unwrap().is_none());
        // An edit in place (same inode, same size) right after the index: stale.
        index_of(&index, &db, &table, &keys).unwrap();
        assert!(open(&index, &db, &table).unwrap().is_some());
        std::fs::write(&table, b"tablf").unwrap();
        assert!(open(&index, &db, &table).unwrap().is_none());
        // Other files altogether.
        let other = dir("keys-other");
        let (db2, table2, _) = files(&other);
        assert!(open(&index, &db2, &table).unwrap().is_none());
        assert!(open(&index, &db, &table2).unwrap().is_none());
    }

    #[test]
    fn a_check_begins_once_the_last_change_is_past() {
        let d = dir("racy");
        let (db, _, _) = files(&d);
        let b = Began::now(&db).unwrap();
        assert!(b.counts());
        assert!(b.stamp.ctime() + RACY_NS <= i128::from(b.at_ns));
        // A stamp taken too close to the change does not count, in writing or in reading.
        let racy = Began {
            at_ns: b.stamp.ctime() as u64,
            stamp: b.stamp,
        };
        assert!(!racy.counts());
        let (table, index) = (d.join("a.states"), d.join("a.db.index"));
        let t = Began::now(&table).unwrap();
        assert!(write(&index, (&db, racy), (&table, t), &[1]).is_err());
        assert!(!index.exists());
    }

    #[test]
    fn damaged_or_odd_indexes_are_refused() {
        let d = dir("bad");
        let (db, table, index) = files(&d);
        index_of(&index, &db, &table, &[5, 9]).unwrap();
        let good = std::fs::read(&index).unwrap();
        for (at, what) in [(0, "magic"), (20, "header"), (HEADER + 3, "keys")] {
            let mut b = good.clone();
            b[at] ^= 1;
            std::fs::write(&index, &b).unwrap();
            assert!(open(&index, &db, &table).is_err(), "{what}");
        }
        std::fs::write(&index, &good[..good.len() - 8]).unwrap();
        assert!(open(&index, &db, &table).is_err(), "truncated");
        // A folder where the index would go is left alone.
        std::fs::remove_file(&index).unwrap();
        std::fs::create_dir(&index).unwrap();
        assert!(index_of(&index, &db, &table, &[5, 9]).is_err());
        assert!(index.is_dir());
        // A file changed during its check gets no index.
        std::fs::remove_dir(&index).unwrap();
        let (a, b) = (Began::now(&db).unwrap(), Began::now(&table).unwrap());
        std::fs::write(&db, b"changed!").unwrap();
        assert!(write(&index, (&db, a), (&table, b), &[5, 9]).is_err());
        assert!(!index.exists());
    }
}
