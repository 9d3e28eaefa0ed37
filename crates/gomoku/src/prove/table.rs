//! The prover's transposition table, shared by its search threads: proof and disproof numbers by
//! canonical key, in shards behind their own locks (a thread holds one lock for one lookup or
//! store, never two at once), with a count of the threads searching below each position.

use std::collections::HashMap;
use std::sync::Mutex;

use super::Entry;

/// Shards: a power of two, enough that two threads rarely wait for one another.
const SHARDS: usize = 64;

#[derive(Clone, Copy, Debug)]
struct Slot {
    entry: Entry,
    /// Threads searching the position now (only counted with more than one thread).
    busy: u16,
}

/// Positions by canonical key.
pub struct Table {
    shards: Vec<Mutex<HashMap<u128, Slot>>>,
}

impl Default for Table {
    fn default() -> Table {
        Table::new()
    }
}

impl Table {
    /// An empty table.
    #[must_use]
    pub fn new() -> Table {
        Table {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    fn shard(&self, key: u128) -> std::sync::MutexGuard<'_, HashMap<u128, Slot>> {
        // The keys are Zobrist keys: their low bits are as good as any.
        let i = (key as usize) & (SHARDS - 1);
        // A thread that panicked holding the lock cannot leave a slot half written (slots are
        // plain values), so the data stays usable.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The entry of `key`.
    #[must_use]
    pub fn get(&self, key: u128) -> Option<Entry> {
        self.shard(key).get(&key).map(|s| s.entry)
    }

    /// The numbers of `key` ((1, 1) when unknown) and how many threads search it now.
    #[must_use]
    pub fn numbers(&self, key: u128) -> (u32, u32, u16) {
        self.shard(key)
            .get(&key)
            .map_or((1, 1, 0), |s| (s.entry.pn, s.entry.dn, s.busy))
    }

    /// Stores `entry` for `key`. A solved entry is never replaced by an unsolved one (another
    /// thread may have solved the position meanwhile).
    pub fn store(&self, key: u128, entry: Entry) {
        let mut shard = self.shard(key);
        match shard.get_mut(&key) {
            Some(s) => {
                if !solved(&s.entry) || solved(&entry) {
                    s.entry = entry;
                }
            }
            None => {
                shard.insert(key, Slot { entry, busy: 0 });
            }
        }
    }

    /// A thread starts searching below `key`.
    pub fn enter(&self, key: u128) {
        let mut shard = self.shard(key);
        let s = shard.entry(key).or_insert(Slot {
            entry: Entry {
                pn: 1,
                dn: 1,
                best: super::NO_MOVE,
            },
            busy: 0,
        });
        s.busy = s.busy.saturating_add(1);
    }

    /// A thread is done below `key` (the entry may have been dropped meanwhile).
    pub fn leave(&self, key: u128) {
        if let Some(s) = self.shard(key).get_mut(&key) {
            s.busy = s.busy.saturating_sub(1);
        }
    }

    /// Positions stored.
    #[must_use]
    pub fn len(&self) -> usize {
        (0..SHARDS)
            .map(|i| self.shards[i].lock().map_or(0, |s| s.len()))
            .sum()
    }

    /// Whether nothing is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the entries for which `keep` holds (entries being searched are kept, unsolved or not,
    /// so that their busy counts stay right).
    pub fn retain(&self, keep: impl Fn(&Entry) -> bool) {
        for i in 0..SHARDS {
            let mut shard = self.shards[i].lock().unwrap_or_else(|e| e.into_inner());
            shard.retain(|_, s| s.busy > 0 || keep(&s.entry));
        }
    }

    /// The solved entries (proved or disproved positions).
    #[must_use]
    pub fn solved(&self) -> Vec<(u128, Entry)> {
        let mut out = Vec::new();
        for i in 0..SHARDS {
            let shard = self.shards[i].lock().unwrap_or_else(|e| e.into_inner());
            out.extend(
                shard
                    .iter()
                    .filter(|(_, s)| solved(&s.entry))
                    .map(|(k, s)| (*k, s.entry)),
            );
        }
        out
    }

    /// Bytes the table takes, roughly: key, slot and a control byte per bucket.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        (0..SHARDS)
            .map(|i| {
                self.shards[i]
                    .lock()
                    .map_or(0, |s| s.capacity() * (16 + std::mem::size_of::<Slot>() + 1))
            })
            .sum()
    }
}

fn solved(e: &Entry) -> bool {
    e.pn == 0 || e.dn == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(pn: u32, dn: u32) -> Entry {
        Entry {
            pn,
            dn,
            best: super::super::NO_MOVE,
        }
    }

    #[test]
    fn a_solved_entry_is_not_replaced_by_an_unsolved_one() {
        let t = Table::new();
        t.store(7, entry(3, 4));
        t.store(7, entry(5, 6));
        assert_eq!(t.get(7), Some(entry(5, 6)));
        t.store(7, entry(0, super::super::INF));
        t.store(7, entry(2, 2));
        assert_eq!(t.get(7), Some(entry(0, super::super::INF)));
        // A solved entry may be replaced by another solved one (a database seed, say).
        t.store(7, entry(super::super::INF, 0));
        assert_eq!(t.get(7), Some(entry(super::super::INF, 0)));
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn busy_counts_and_retain() {
        let t = Table::new();
        assert_eq!(t.numbers(9), (1, 1, 0));
        t.enter(9);
        t.enter(9);
        assert_eq!(t.numbers(9), (1, 1, 2));
        t.store(9, entry(4, 5));
        assert_eq!(t.numbers(9), (4, 5, 2));
        t.store(10, entry(4, 5));
        t.store(11, entry(0, super::super::INF));
        // Unsolved entries go, except the one being searched.
        t.retain(|e| e.pn == 0 || e.dn == 0);
        assert_eq!(t.len(), 2);
        assert_eq!(t.numbers(9), (4, 5, 2));
        t.leave(9);
        t.leave(9);
        t.leave(9);
        assert_eq!(t.numbers(9), (4, 5, 0));
        t.retain(|e| e.pn == 0 || e.dn == 0);
        assert_eq!(t.solved(), vec![(11, entry(0, super::super::INF))]);
    }
}
