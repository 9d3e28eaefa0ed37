//! Per-worker checkpoints of the propagation: the bounds of the worker's states after a round.
//!
//! File `w{index}of{peers}.ckpt` in the checkpoint folder: magic `STLBCKP1`, then a little-endian
//! header (states u64, worker u32, peers u32, round u32, key length u32, CRC-32 of the values u32),
//! the game key (UTF-8), and `lo, hi` (i16 each) per owned state. Written to a temporary name and
//! renamed, so a kill leaves either the old or the new checkpoint, never half of one.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Bounds;

const MAGIC: &[u8; 8] = b"STLBCKP1";

/// Why a checkpoint could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{0}")]
    Io(String),
    #[error("{path}: {why}")]
    Corrupt { path: PathBuf, why: String },
}

/// One worker's saved bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub game_key: String,
    pub states: u64,
    pub worker: usize,
    pub peers: usize,
    pub round: u32,
    pub values: Vec<Bounds>,
}

fn file_name(dir: &Path, worker: usize, peers: usize) -> PathBuf {
    dir.join(format!("w{worker}of{peers}.ckpt"))
}

fn values_bytes(values: &[Bounds]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 4);
    for v in values {
        out.extend_from_slice(&v.lo.to_le_bytes());
        out.extend_from_slice(&v.hi.to_le_bytes());
    }
    out
}

/// Writes `ck` atomically into `dir`.
pub fn save(dir: &Path, ck: &Checkpoint) -> Result<(), CheckpointError> {
    let path = file_name(dir, ck.worker, ck.peers);
    let tmp = path.with_extension("ckpt.tmp");
    let body = values_bytes(&ck.values);
    let mut bytes = Vec::with_capacity(body.len() + 64);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&ck.states.to_le_bytes());
    bytes.extend_from_slice(&(ck.worker as u32).to_le_bytes());
    bytes.extend_from_slice(&(ck.peers as u32).to_le_bytes());
    bytes.extend_from_slice(&ck.round.to_le_bytes());
    bytes.extend_from_slice(&(ck.game_key.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    bytes.extend_from_slice(ck.game_key.as_bytes());
    bytes.extend_from_slice(&body);
    let io = |e: std::io::Error| CheckpointError::Io(format!("{}: {e}", tmp.display()));
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(&bytes).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(())
}

/// Reads the checkpoint of `worker` of `peers` from `dir`, if there is one for this game.
///
/// A missing file is `Ok(None)`; a file of another game or layout is `Ok(None)` too (it is not
/// ours to resume from); a damaged file is an error.
pub fn load(
    dir: &Path,
    game_key: &str,
    states: u64,
    worker: usize,
    peers: usize,
) -> Result<Option<Checkpoint>, CheckpointError> {
    let path = file_name(dir, worker, peers);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CheckpointError::Io(format!("{}: {e}", path.display()))),
    };
    let corrupt = |why: &str| CheckpointError::Corrupt {
        path: path.clone(),
        why: why.to_string(),
    };
    if bytes.len() < 36 || &bytes[..8] != MAGIC {
        return Err(corrupt(
            "not a stonelab checkpoint (bad magic or too short)",
        ));
    }
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let (file_states, file_worker, file_peers) = (u64_at(8), u32_at(16), u32_at(20));
    let (round, key_len, crc) = (u32_at(24), u32_at(28) as usize, u32_at(32));
    if bytes.len() < 36 + key_len {
        return Err(corrupt("truncated"));
    }
    let key = std::str::from_utf8(&bytes[36..36 + key_len]).map_err(|_| corrupt("bad key"))?;
    if key != game_key
        || file_states != states
        || file_worker as usize != worker
        || file_peers as usize != peers
    {
        return Ok(None);
    }
    let body = &bytes[36 + key_len..];
    if body.len() % 4 != 0 {
        return Err(corrupt("truncated"));
    }
    if crc32fast::hash(body) != crc {
        return Err(corrupt("checksum mismatch"));
    }
    let values = body
        .chunks_exact(4)
        .map(|c| Bounds {
            lo: i16::from_le_bytes([c[0], c[1]]),
            hi: i16::from_le_bytes([c[2], c[3]]),
        })
        .collect();
    Ok(Some(Checkpoint {
        game_key: key.to_string(),
        states,
        worker,
        peers,
        round,
        values,
    }))
}
