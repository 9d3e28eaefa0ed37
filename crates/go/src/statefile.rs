//! The state table: every reduced legal position of a board and its ko points, on disk, read
//! by memory map. It is the input of the retrograde solver.
//!
//! # Format (version 1, little-endian)
//!
//! A 128-byte header: magic `STLGOSTT`, format version, rows, cols, the counts (legal, reduced,
//! ko points, most ko points), the number of states with a ko point, the body length, a CRC-32
//! of the body and a CRC-32 of the header. Then the body, five sections of 64-bit words:
//!
//! 1. the **reduced bitset**: bit `s % 64` of word `s / 64` is set when serial `s` is legal
//!    and reduced (3^points bits);
//! 2. its **rank directory**: per block of 8 words (512 serials) the number of set bits before
//!    the block, plus the total — so `rank` (serial → dense index) is one directory read and
//!    at most 8 popcounts, and `select` (dense index → serial) a binary search of the directory;
//! 3. the **ko flag bitset** over dense indices (set when the state has a ko point) and 4. its
//!    rank directory, the same way;
//! 5. the **ko masks** (`u32`, bit `id` = ko point at point `id`, as the seed stores them) of
//!    the flagged states, in dense order.
//!
//! # Why a bitset and not a sorted list of serials
//!
//! Bytes per reduced state, bitset plus directory (3^n / 8 · 65/64 over reduced states) against
//! a sorted list (4 bytes while serials fit `u32`, 8 beyond):
//!
//! | board | reduced | bitset | sorted list |
//! |---|---|---|---|
//! | 4x4 | 3,047,783 | 1.79 B | 4 B |
//! | 4x5 | 460,114,319 | 0.96 B | 4 B |
//! | 5x5 | 51,790,408,755 | 2.07 B | 8 B (5 packed) |
//!
//! and the bitset answers `rank` in O(1) where a list needs a binary search. The ko masks are
//! sparse (167,000 ko points over 3,047,783 states on 4x4, 3.5 G over 51.8 G on 5x5), so they
//! are stored only for flagged states: 1 bit per state plus 4 bytes per flagged state, instead
//! of the seed's 4 bytes per serial.
//!
//! # Reading it (the retrograde solver's API)
//!
//! [`StateTable::open`] maps and checks the file; [`StateTable::iter`] yields the states'
//! serials in increasing order (the n-th has dense index n); [`StateTable::rank`] maps a
//! canonical serial to its dense index and [`StateTable::select`] back;
//! [`StateTable::index_of`] canonicalises any legal serial first and says which
//! [`Symmetry`] did it (so a ko point can follow the board with [`Symmetry::map_point`]);
//! [`StateTable::ko_mask`] gives a state's ko points. [`crate::enumerate::canonical`] and
//! [`crate::enumerate::Canonicalizer`] are the symmetry reduction on its own.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::enumerate::{Canonicalizer, Counts, ReducedSet, Shape, Symmetry};

/// First eight bytes of every state file.
pub const MAGIC: [u8; 8] = *b"STLGOSTT";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 128;
/// Words per rank-directory block.
const BLOCK_WORDS: usize = 8;
/// Largest reduced bitset written (3^21 bits = 1.3 GB, boards of up to 21 points).
pub const MAX_BITSET_BYTES: u64 = 2 << 30;

/// Why a state file cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{0}: not a stonelab state file (bad magic)")]
    BadMagic(PathBuf),
    #[error("{path}: format version {found}, this build reads version {VERSION}")]
    BadVersion { path: PathBuf, found: u32 },
    #[error("{path}: truncated or extended: {len} bytes, the header says {expected}")]
    BadLength {
        path: PathBuf,
        len: u64,
        expected: u64,
    },
    #[error("{0}: header checksum mismatch (corrupted header)")]
    HeaderChecksum(PathBuf),
    #[error("{0}: body checksum mismatch (corrupted data)")]
    BodyChecksum(PathBuf),
    #[error("{path}: inconsistent header: {what}")]
    Inconsistent { path: PathBuf, what: String },
    #[error(
        "a state table for {0} needs a {1:.1} GiB bitset (3^{2} bits); the limit is {lim:.0} GiB",
        lim = MAX_BITSET_BYTES as f64 / f64::from(1u32 << 30)
    )]
    TooLarge(Shape, f64, usize),
}

/// Bytes of the reduced bitset of `shape`, or `None` when serials do not fit 64 bits.
#[must_use]
pub fn bitset_bytes(shape: Shape) -> Option<u64> {
    shape
        .has_serials()
        .then(|| shape.serial_count().div_ceil(64) * 8)
}

/// Checks that a state table of `shape` can be written, before any work starts.
pub fn check_size(shape: Shape) -> Result<(), StateFileError> {
    match bitset_bytes(shape) {
        Some(b) if b <= MAX_BITSET_BYTES && shape.points() <= 32 => Ok(()),
        b => {
            let bytes = b.map_or(f64::INFINITY, |b| b as f64);
            Err(StateFileError::TooLarge(
                shape,
                bytes / f64::from(1u32 << 30),
                shape.points(),
            ))
        }
    }
}

/// Number of rank-directory entries for `words` words.
fn dir_len(words: usize) -> usize {
    words.div_ceil(BLOCK_WORDS) + 1
}

fn directory(words: &[u64]) -> Vec<u64> {
    let mut dir = Vec::with_capacity(dir_len(words.len()));
    let mut acc = 0u64;
    for block in words.chunks(BLOCK_WORDS) {
        dir.push(acc);
        acc += block.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
    }
    dir.push(acc);
    dir
}

/// Section sizes in words, from the header fields.
#[derive(Clone, Copy, Debug)]
struct Layout {
    bits: usize,
    dir: usize,
    ko_bits: usize,
    ko_dir: usize,
    /// Words holding the `u32` ko masks.
    ko_masks: usize,
}

impl Layout {
    fn new(shape: Shape, reduced: u64, ko_states: u64) -> Self {
        let bits = shape.serial_count().div_ceil(64) as usize;
        let ko_bits = reduced.div_ceil(64) as usize;
        Layout {
            bits,
            dir: dir_len(bits),
            ko_bits,
            ko_dir: dir_len(ko_bits),
            ko_masks: ko_states.div_ceil(2) as usize,
        }
    }

    fn body_words(&self) -> usize {
        self.bits + self.dir + self.ko_bits + self.ko_dir + self.ko_masks
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StateFileError + '_ {
    move |source| StateFileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A `Write` that feeds a CRC-32 with everything it passes on.
struct Crc<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Crc<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn put_words(w: &mut impl Write, words: &[u64]) -> io::Result<()> {
    for x in words {
        w.write_all(&x.to_le_bytes())?;
    }
    Ok(())
}

/// Writes the state table of `set` to `path`: to a temporary name in the same directory, then
/// fsync and rename, so a reader never sees a half-written file.
pub fn write(path: &Path, set: &ReducedSet) -> Result<(), StateFileError> {
    check_size(set.shape)?;
    let dir = directory(&set.bits);
    // Dense index of every state with a ko point.
    let reduced = set.counts.reduced;
    let mut ko_bits = vec![0u64; reduced.div_ceil(64) as usize];
    let mut masks = Vec::with_capacity(set.ko.len() + 1);
    for &(serial, mask) in &set.ko {
        let i = rank_in(&set.bits, &dir, serial).expect("ko states are reduced states");
        ko_bits[(i / 64) as usize] |= 1 << (i % 64);
        masks.push(u32::try_from(mask).expect("boards of at most 32 points"));
    }
    if masks.len() % 2 == 1 {
        masks.push(0);
    }
    let ko_dir = directory(&ko_bits);
    let layout = Layout::new(set.shape, reduced, set.ko.len() as u64);

    let tmp = {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".tmp{}", std::process::id()));
        PathBuf::from(name)
    };
    let result = (|| -> io::Result<()> {
        let file = File::create(&tmp)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(&[0u8; HEADER_LEN])?;
        let mut body = Crc {
            inner: &mut out,
            crc: crc32fast::Hasher::new(),
        };
        put_words(&mut body, &set.bits)?;
        put_words(&mut body, &dir)?;
        put_words(&mut body, &ko_bits)?;
        put_words(&mut body, &ko_dir)?;
        for m in &masks {
            body.write_all(&m.to_le_bytes())?;
        }
        let body_crc = body.crc.finalize();
        let header = header_bytes(set, layout, body_crc);
        let mut file = out.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            // Best effort: make the rename itself durable.
            if let Ok(d) = File::open(parent) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io_err(path))
}

fn header_bytes(set: &ReducedSet, layout: Layout, body_crc: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..14].copy_from_slice(&(set.shape.rows as u16).to_le_bytes());
    h[14..16].copy_from_slice(&(set.shape.cols as u16).to_le_bytes());
    h[16..24].copy_from_slice(&set.counts.legal.to_le_bytes());
    h[24..32].copy_from_slice(&set.counts.reduced.to_le_bytes());
    h[32..40].copy_from_slice(&set.counts.ko_points.to_le_bytes());
    h[40..44].copy_from_slice(&set.counts.max_ko_points.to_le_bytes());
    h[48..56].copy_from_slice(&(set.ko.len() as u64).to_le_bytes());
    h[56..64].copy_from_slice(&(layout.body_words() as u64 * 8).to_le_bytes());
    h[64..68].copy_from_slice(&body_crc.to_le_bytes());
    let hc = crc32fast::hash(&h[0..68]);
    h[68..72].copy_from_slice(&hc.to_le_bytes());
    h
}

fn rank_in(words: &[u64], dir: &[u64], serial: u64) -> Option<u64> {
    let w = (serial / 64) as usize;
    let bit = serial % 64;
    let word = *words.get(w)?;
    if word >> bit & 1 == 0 {
        return None;
    }
    let block = w / BLOCK_WORDS;
    let before: u64 = words[block * BLOCK_WORDS..w]
        .iter()
        .map(|x| u64::from(x.count_ones()))
        .sum();
    Some(dir[block] + before + u64::from((word & ((1u64 << bit) - 1)).count_ones()))
}

/// Where [`StateTable::select_with`] stopped: a word of the bitset and the rank of its first bit.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelectCursor {
    word: usize,
    before: u64,
}

/// A state table opened by memory map.
pub struct StateTable {
    map: Mmap,
    shape: Shape,
    counts: Counts,
    ko_states: u64,
    layout: Layout,
    canon: Canonicalizer,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl StateTable {
    /// Opens and fully checks a state file (magic, version, length, both checksums).
    pub fn open(path: &Path) -> Result<Self, StateFileError> {
        StateTable::open_with(path, true)
    }

    /// Opens a state file that this program checked in full before and that has not changed
    /// since (the caller knows, e.g. by the file's identity and change time): the header, its
    /// checksum, the lengths and the directory's total are checked; the body's checksum and
    /// structure (one pass over the whole file) are not.
    pub fn open_checked_before(path: &Path) -> Result<Self, StateFileError> {
        StateTable::open_with(path, false)
    }

    fn open_with(path: &Path, full: bool) -> Result<Self, StateFileError> {
        let file = File::open(path).map_err(io_err(path))?;
        // Safety: the file is opened read-only and the map is private to this process; like
        // every reader of a memory-mapped file we rely on no one truncating it under us (the
        // writer never rewrites a file in place: it renames a new one over it).
        let map = unsafe { Mmap::map(&file) }.map_err(io_err(path))?;
        let p = || path.to_path_buf();
        let len = map.len() as u64;
        if len < 8 || map[0..8] != MAGIC {
            return Err(StateFileError::BadMagic(p()));
        }
        if len < HEADER_LEN as u64 {
            return Err(StateFileError::BadLength {
                path: p(),
                len,
                expected: HEADER_LEN as u64,
            });
        }
        let h = &map[..HEADER_LEN];
        if crc32fast::hash(&h[0..68]) != u32_at(h, 68) {
            return Err(StateFileError::HeaderChecksum(p()));
        }
        let version = u32_at(h, 8);
        if version != VERSION {
            return Err(StateFileError::BadVersion {
                path: p(),
                found: version,
            });
        }
        let rows = u16::from_le_bytes([h[12], h[13]]) as usize;
        let cols = u16::from_le_bytes([h[14], h[15]]) as usize;
        let inconsistent = |what: &str| StateFileError::Inconsistent {
            path: p(),
            what: what.to_string(),
        };
        let shape = Shape::new(rows, cols)
            .filter(|s| check_size(*s).is_ok())
            .ok_or_else(|| inconsistent("bad board size"))?;
        let counts = Counts {
            legal: u64_at(h, 16),
            reduced: u64_at(h, 24),
            ko_points: u64_at(h, 32),
            max_ko_points: u32_at(h, 40),
        };
        let ko_states = u64_at(h, 48);
        if counts.reduced > counts.legal || ko_states > counts.reduced {
            return Err(inconsistent("counts out of order"));
        }
        let layout = Layout::new(shape, counts.reduced, ko_states);
        let body_len = u64_at(h, 56);
        if body_len != layout.body_words() as u64 * 8 {
            return Err(inconsistent("body length does not match the counts"));
        }
        let expected = HEADER_LEN as u64 + body_len;
        if len != expected {
            return Err(StateFileError::BadLength {
                path: p(),
                len,
                expected,
            });
        }
        if full && crc32fast::hash(&map[HEADER_LEN..]) != u32_at(h, 64) {
            return Err(StateFileError::BodyChecksum(p()));
        }
        let canon = Canonicalizer::new(shape).ok_or_else(|| inconsistent("bad board size"))?;
        let table = StateTable {
            map,
            shape,
            counts,
            ko_states,
            layout,
            canon,
        };
        if table.dir(0, table.layout.dir - 1) != counts.reduced {
            return Err(inconsistent(
                "rank directory total is not the reduced count",
            ));
        }
        if full {
            table
                .check_structure()
                .map_err(|what| inconsistent(&what))?;
        }
        Ok(table)
    }

    /// The board.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Checks what a checksum cannot: that both rank directories are the running popcounts of
    /// their bitsets, that no bit lies beyond the last serial or state, that the ko bitset flags
    /// exactly `ko_states` states and that every stored ko mask is a non-empty set of points.
    /// (A file with valid checksums and wrong contents is refused here instead of making a
    /// reader panic later.) One pass over the file.
    fn check_structure(&self) -> Result<(), String> {
        let l = self.layout;
        for (section, words, bits_total, what) in [
            (0, l.bits, self.shape.serial_count(), "serial"),
            (2, l.ko_bits, self.counts.reduced, "ko"),
        ] {
            let mut acc = 0u64;
            for w in 0..words {
                if w % BLOCK_WORDS == 0 && self.dir(section, w / BLOCK_WORDS) != acc {
                    return Err(format!("{what} rank directory disagrees with its bitset"));
                }
                let word = self.word(section, w);
                let first = w as u64 * 64;
                if first + 64 > bits_total
                    && bits_total > first
                    && word >> (bits_total - first) != 0
                {
                    return Err(format!("{what} bitset has bits beyond its end"));
                }
                acc += u64::from(word.count_ones());
            }
            if self.dir(section, dir_len(words) - 1) != acc {
                return Err(format!(
                    "{what} rank directory total disagrees with its bitset"
                ));
            }
            let want = if section == 0 {
                self.counts.reduced
            } else {
                self.ko_states
            };
            if acc != want {
                return Err(format!(
                    "{what} bitset holds {acc} entries, the header says {want}"
                ));
            }
        }
        let base = HEADER_LEN + 8 * (l.bits + l.dir + l.ko_bits + l.ko_dir);
        let full = u32::try_from(self.shape.full_mask()).unwrap_or(u32::MAX);
        for k in 0..self.ko_states as usize {
            let m = u32_at(&self.map, base + 4 * k);
            if m == 0 || m & !full != 0 {
                return Err(format!("ko mask {k} is not a set of points of the board"));
            }
        }
        Ok(())
    }

    /// The counts recorded when the table was written.
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Number of states (reduced legal positions); dense indices run over `0..len()`.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.counts.reduced
    }

    /// Whether the table holds no state (never, for a real board).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of states with at least one ko point.
    #[must_use]
    pub fn ko_states(&self) -> u64 {
        self.ko_states
    }

    #[inline]
    fn word(&self, section: usize, i: usize) -> u64 {
        let l = &self.layout;
        let start = match section {
            0 => 0,
            1 => l.bits,
            2 => l.bits + l.dir,
            _ => l.bits + l.dir + l.ko_bits,
        };
        u64_at(&self.map, HEADER_LEN + 8 * (start + i))
    }

    /// Rank-directory entry `i` of the serial bitset (section 0) or the ko bitset (section 2).
    #[inline]
    fn dir(&self, section: usize, i: usize) -> u64 {
        self.word(section + 1, i)
    }

    fn rank_section(&self, section: usize, nwords: usize, bit_index: u64) -> Option<u64> {
        let w = (bit_index / 64) as usize;
        if w >= nwords {
            return None;
        }
        let word = self.word(section, w);
        let bit = bit_index % 64;
        if word >> bit & 1 == 0 {
            return None;
        }
        let block = w / BLOCK_WORDS;
        let mut r = self.dir(section, block);
        for j in block * BLOCK_WORDS..w {
            r += u64::from(self.word(section, j).count_ones());
        }
        Some(r + u64::from((word & ((1u64 << bit) - 1)).count_ones()))
    }

    /// Asks the processor to bring in the memory that [`StateTable::rank`] of `serial` reads (a
    /// hint: nothing else happens). Callers with several ranks to take issue these first, so that
    /// the misses overlap.
    #[inline]
    pub fn prefetch_rank(&self, serial: u64) {
        let w = (serial / 64) as usize;
        if w >= self.layout.bits {
            return;
        }
        let l = &self.layout;
        let word = HEADER_LEN + 8 * w;
        let dir = HEADER_LEN + 8 * (l.bits + w / BLOCK_WORDS);
        crate::prefetch(&self.map[word]);
        crate::prefetch(&self.map[dir]);
    }

    /// Whether `serial` is a state (legal and reduced).
    #[must_use]
    pub fn contains(&self, serial: u64) -> bool {
        let w = (serial / 64) as usize;
        w < self.layout.bits && self.word(0, w) >> (serial % 64) & 1 == 1
    }

    /// Dense index of a state: the number of states with a smaller serial. `None` when
    /// `serial` is not a state (canonicalise it first with [`crate::enumerate::canonical`]).
    #[must_use]
    pub fn rank(&self, serial: u64) -> Option<u64> {
        self.rank_section(0, self.layout.bits, serial)
    }

    /// The state of any legal position: the dense index of its canonical image, and the
    /// symmetry that maps `serial` onto it (apply it to points, e.g. a ko point, with
    /// [`Symmetry::map_point`]). `None` for an illegal position.
    #[must_use]
    pub fn index_of(&self, serial: u64) -> Option<(u64, Symmetry)> {
        let (c, sym) = self.canon.canonical(serial);
        self.rank(c).map(|i| (i, sym))
    }

    /// Serial of the state with dense index `index`.
    #[must_use]
    pub fn select(&self, index: u64) -> Option<u64> {
        if index >= self.len() {
            return None;
        }
        // Last block whose count-before is <= index.
        let (mut lo, mut hi) = (0usize, self.layout.dir - 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if self.dir(0, mid) <= index {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let mut left = index - self.dir(0, lo);
        for w in lo * BLOCK_WORDS..self.layout.bits {
            let mut word = self.word(0, w);
            let c = u64::from(word.count_ones());
            if left < c {
                for _ in 0..left {
                    word &= word - 1;
                }
                return Some(w as u64 * 64 + u64::from(word.trailing_zeros()));
            }
            left -= c;
        }
        None
    }

    /// [`StateTable::select`] for indices visited in increasing order: the cursor remembers the
    /// word it stopped at, so a walk over nearby indices reads the bitset forwards instead of
    /// searching the directory each time (it falls back to the search for a long jump or a step
    /// back). Same answers as `select`.
    #[must_use]
    pub fn select_with(&self, cursor: &mut SelectCursor, index: u64) -> Option<u64> {
        if index >= self.len() {
            return None;
        }
        if cursor.word >= self.layout.bits
            || index < cursor.before
            || index - cursor.before > 64 * 64
        {
            let (mut lo, mut hi) = (0usize, self.layout.dir - 1);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if self.dir(0, mid) <= index {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            cursor.word = lo * BLOCK_WORDS;
            cursor.before = self.dir(0, lo);
        }
        while cursor.word < self.layout.bits {
            let mut word = self.word(0, cursor.word);
            let c = u64::from(word.count_ones());
            let left = index - cursor.before;
            if left < c {
                for _ in 0..left {
                    word &= word - 1;
                }
                return Some(cursor.word as u64 * 64 + u64::from(word.trailing_zeros()));
            }
            cursor.before += c;
            cursor.word += 1;
        }
        None
    }

    /// The words of the reduced bitset (bit `s % 64` of word `s / 64` set for each state's
    /// serial), for callers that walk it in bulk; `dir_at(i)` is the rank of word `8 i`'s first bit.
    #[must_use]
    pub fn bitset_words(&self) -> usize {
        self.layout.bits
    }

    /// Word `w` of the reduced bitset.
    #[must_use]
    pub fn bitset_word(&self, w: usize) -> u64 {
        self.word(0, w)
    }

    /// Rank of the first serial of word `w` (`w` a multiple of 8, or any word: the popcounts of
    /// the words before it in its block are added).
    #[must_use]
    pub fn rank_of_word(&self, w: usize) -> u64 {
        let block = w / BLOCK_WORDS;
        let mut r = self.dir(0, block);
        for j in block * BLOCK_WORDS..w {
            r += u64::from(self.word(0, j).count_ones());
        }
        r
    }

    /// Ko points (bit `id`) of the state with dense index `index`, Black to move.
    #[must_use]
    pub fn ko_mask(&self, index: u64) -> u32 {
        match self.rank_section(2, self.layout.ko_bits, index) {
            None => 0,
            Some(k) => {
                let at = HEADER_LEN
                    + 8 * (self.layout.bits
                        + self.layout.dir
                        + self.layout.ko_bits
                        + self.layout.ko_dir)
                    + 4 * k as usize;
                u32_at(&self.map, at)
            }
        }
    }

    /// Every state's serial in increasing order (so the n-th item has dense index n).
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.layout.bits).flat_map(move |w| {
            let mut word = self.word(0, w);
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros();
                    word &= word - 1;
                    w as u64 * 64 + u64::from(b)
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::{canonical, Enumerator};

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("stonelab-statefile-{}-{name}", std::process::id()))
    }

    fn set(r: usize, c: usize) -> ReducedSet {
        Enumerator::new(Shape::new(r, c).unwrap())
            .unwrap()
            .reduced_set(Some(1), &|_, _| {})
            .unwrap()
    }

    #[test]
    fn round_trip_rank_select_ko() {
        for (r, c) in [(1, 1), (2, 2), (3, 3), (3, 4), (4, 3)] {
            let s = set(r, c);
            let path = temp(&format!("{r}x{c}"));
            write(&path, &s).unwrap();
            let t = StateTable::open(&path).unwrap();
            assert_eq!(t.counts(), s.counts);
            assert_eq!(t.ko_states(), s.ko.len() as u64);
            let mut ko = s.ko.iter().peekable();
            let mut n = 0u64;
            for serial in t.iter() {
                assert_eq!(t.rank(serial), Some(n));
                assert_eq!(t.select(n), Some(serial));
                assert_eq!(canonical(t.shape(), serial).0, serial);
                let want = match ko.peek() {
                    Some(&&(k, m)) if k == serial => {
                        ko.next();
                        m as u32
                    }
                    _ => 0,
                };
                assert_eq!(t.ko_mask(n), want);
                n += 1;
            }
            assert_eq!(n, t.len());
            assert_eq!(t.select(n), None);
            for serial in 0..t.shape().serial_count() {
                assert_eq!(t.contains(serial), t.rank(serial).is_some());
                let (c, sym) = canonical(t.shape(), serial);
                let legal = t.contains(c);
                assert_eq!(t.index_of(serial), t.rank(c).map(|i| (i, sym)));
                assert_eq!(t.index_of(serial).is_some(), legal);
            }
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn rejects_bad_files() {
        let s = set(3, 3);
        let path = temp("bad");
        write(&path, &s).unwrap();
        let good = std::fs::read(&path).unwrap();
        let check = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            StateTable::open(&path).err().expect("must be rejected")
        };
        let mut b = good.clone();
        b[HEADER_LEN + 100] ^= 0x10;
        assert!(matches!(check(&b), StateFileError::BodyChecksum(_)));
        let mut b = good.clone();
        b[20] ^= 1;
        assert!(matches!(check(&b), StateFileError::HeaderChecksum(_)));
        let mut b = good.clone();
        b[0] = b'X';
        assert!(matches!(check(&b), StateFileError::BadMagic(_)));
        assert!(matches!(
            check(&good[..good.len() - 8]),
            StateFileError::BadLength { .. }
        ));
        assert!(matches!(
            check(&good[..40]),
            StateFileError::BadLength { .. }
        ));
        let mut b = good.clone();
        b[8..12].copy_from_slice(&2u32.to_le_bytes());
        let hc = crc32fast::hash(&b[0..68]);
        b[68..72].copy_from_slice(&hc.to_le_bytes());
        assert!(matches!(
            check(&b),
            StateFileError::BadVersion { found: 2, .. }
        ));
        std::fs::write(&path, &good).unwrap();
        assert!(StateTable::open(&path).is_ok());
        std::fs::remove_file(&path).unwrap();
    }
}
