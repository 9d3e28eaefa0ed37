//! JSON Lines match records that survive an interruption.
//!
//! Line 1 is a header, a JSON object with `record` (the kind of match, e.g. `stonelab go match`),
//! `version`, and the arguments that make the match (engines, board, time ...); every further line
//! is one finished game, a JSON object with its `number`. After every game the whole file is
//! written to `FILE.tmp`, synced and renamed over FILE, so FILE is always complete. A run given an
//! existing FILE checks that its header names the same match (else it stops before starting an
//! engine) and plays only the games not recorded yet.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// A game that knows its number in the match (1-based).
pub trait Numbered {
    fn number(&self) -> u32;
}

/// An open record: its header line and its games' lines by number.
#[derive(Debug)]
pub struct Record {
    path: PathBuf,
    header: String,
    games: BTreeMap<u32, String>,
    existed: bool,
}

impl Record {
    /// Reads and checks FILE against `header` (an object with `record`, `version` and the match's
    /// arguments), or creates FILE with that header. Returns the record and its games in number
    /// order. Errors name the file and the line.
    pub fn open<G: DeserializeOwned + Numbered>(
        path: &Path,
        header: &impl Serialize,
    ) -> anyhow::Result<(Record, Vec<G>)> {
        let shown = path.display();
        let Value::Object(expected) = serde_json::to_value(header)? else {
            bail!("a record header must be a JSON object");
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let record = Record {
                    path: path.to_path_buf(),
                    header: serde_json::to_string(header)?,
                    games: BTreeMap::new(),
                    existed: false,
                };
                record.save()?;
                return Ok((record, Vec::new()));
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read record file '{shown}'")),
        };
        let mut lines = text.lines();
        let Some(first) = lines.next() else {
            bail!("record file '{shown}' line 1: no header (the file is empty)");
        };
        let found: Map<String, Value> = serde_json::from_str(first)
            .ok()
            .filter(|h: &Map<String, Value>| h.contains_key("record"))
            .with_context(|| format!("record file '{shown}' line 1: not a record header"))?;
        check_header(&found, &expected).with_context(|| format!("record file '{shown}' line 1"))?;
        let mut games = Vec::new();
        let mut by_number = BTreeMap::new();
        for (i, line) in lines.enumerate() {
            let at = i + 2;
            let game: G = serde_json::from_str(line)
                .with_context(|| format!("record file '{shown}' line {at}: not a game"))?;
            let number = game.number();
            if number == 0 || by_number.insert(number, line.to_string()).is_some() {
                bail!("record file '{shown}' line {at}: game number {number} is 0 or repeated");
            }
            games.push(game);
        }
        games.sort_by_key(Numbered::number);
        let record = Record {
            path: path.to_path_buf(),
            header: first.to_string(),
            games: by_number,
            existed: true,
        };
        Ok((record, games))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file was there before this run.
    pub fn existed(&self) -> bool {
        self.existed
    }

    /// Whether game `number` is recorded.
    pub fn has(&self, number: u32) -> bool {
        self.games.contains_key(&number)
    }

    /// Adds (or replaces) a finished game and rewrites the file.
    pub fn push<G: Serialize + Numbered>(&mut self, game: &G) -> anyhow::Result<()> {
        self.games
            .insert(game.number(), serde_json::to_string(game)?);
        self.save()
    }

    /// Writes the header and the games in number order, atomically.
    fn save(&self) -> anyhow::Result<()> {
        let mut text = String::with_capacity(self.header.len() + 1);
        text.push_str(&self.header);
        text.push('\n');
        for line in self.games.values() {
            text.push_str(line);
            text.push('\n');
        }
        write_atomically(&self.path, text.as_bytes())
            .with_context(|| format!("cannot write record file '{}'", self.path.display()))
    }
}

/// Compares a header read from a file with the one the arguments make: the same `record` and
/// `version`, then every argument; the differences are listed as `key FILE (--key ARGS)`.
fn check_header(found: &Map<String, Value>, expected: &Map<String, Value>) -> anyhow::Result<()> {
    let field = |h: &Map<String, Value>, k: &str| h.get(k).cloned().unwrap_or(Value::Null);
    let (kind, version) = (field(expected, "record"), field(expected, "version"));
    if field(found, "record") != kind || field(found, "version") != version {
        bail!(
            "header of {} version {}, expected {kind} version {version}",
            field(found, "record"),
            field(found, "version")
        );
    }
    let mut differ = Vec::new();
    for (key, want) in expected {
        let have = field(found, key);
        if &have != want {
            let flag = key.replace('_', "-");
            differ.push(format!("{key} {} (--{flag} {})", shown(&have), shown(want)));
        }
    }
    for key in found.keys().filter(|k| !expected.contains_key(*k)) {
        differ.push(format!("{key} (not an argument of this match)"));
    }
    if !differ.is_empty() {
        bail!(
            "the header does not match the arguments: {}",
            differ.join(", ")
        );
    }
    Ok(())
}

/// A header value as the user typed it: strings quoted, null as `none`.
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "none".to_string(),
        Value::String(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

/// Writes `bytes` to `PATH.tmp`, syncs it and renames it over PATH, so PATH is always either the
/// old file or the whole new one. PATH must be a regular file or not exist: a device, a FIFO, a
/// folder or a symbolic link is never replaced, and a missing parent folder is an error (none is
/// created).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => {
            bail!("'{}' exists and is not a regular file", path.display())
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot inspect '{}'", path.display())),
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = (|| -> std::io::Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.flush()?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Game {
        number: u32,
        winner: String,
    }

    impl Numbered for Game {
        fn number(&self) -> u32 {
            self.number
        }
    }

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("stonelab-record-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn header(size: u32) -> Value {
        json!({"record": "test match", "version": 1, "engine": "x y", "size": size, "ms": null})
    }

    #[test]
    fn games_survive_a_reopen_in_number_order() {
        let d = dir("reopen");
        let path = d.join("m.jsonl");
        let (mut r, games) = Record::open::<Game>(&path, &header(5)).unwrap();
        assert!(games.is_empty() && !r.existed());
        for n in [2, 1, 4] {
            r.push(&Game {
                number: n,
                winner: format!("w{n}"),
            })
            .unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        let (r, games) = Record::open::<Game>(&path, &header(5)).unwrap();
        assert!(r.existed() && r.has(4) && !r.has(3));
        let numbers: Vec<u32> = games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2, 4]);
        assert!(!d.join("m.jsonl.tmp").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_record_of_another_match_is_refused_with_its_line() {
        let d = dir("refuse");
        let path = d.join("m.jsonl");
        let (mut r, _) = Record::open::<Game>(&path, &header(5)).unwrap();
        r.push(&Game {
            number: 1,
            winner: "a".into(),
        })
        .unwrap();
        let err = Record::open::<Game>(&path, &header(7)).unwrap_err();
        let text = format!("{err:#}");
        assert!(
            text.contains("line 1") && text.contains("size 5 (--size 7)"),
            "{text}"
        );
        let other = json!({"record": "another", "version": 1});
        let text = format!("{:#}", Record::open::<Game>(&path, &other).unwrap_err());
        assert!(text.contains("expected \"another\""), "{text}");

        let good = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{good}{{\"number\":1,\"winner\":\"b\"}}\n")).unwrap();
        let text = format!("{:#}", Record::open::<Game>(&path, &header(5)).unwrap_err());
        assert!(
            text.contains("line 3") && text.contains("repeated"),
            "{text}"
        );
        std::fs::write(&path, format!("{good}{{\"number\":2,")).unwrap();
        let text = format!("{:#}", Record::open::<Game>(&path, &header(5)).unwrap_err());
        assert!(
            text.contains("line 3") && text.contains("not a game"),
            "{text}"
        );
        std::fs::write(&path, "").unwrap();
        let text = format!("{:#}", Record::open::<Game>(&path, &header(5)).unwrap_err());
        assert!(text.contains("no header"), "{text}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn only_regular_files_are_replaced() {
        let d = dir("regular");
        assert!(write_atomically(&d, b"x").is_err(), "a folder");
        let link = d.join("link");
        std::os::unix::fs::symlink(d.join("target"), &link).unwrap();
        assert!(write_atomically(&link, b"x").is_err(), "a symbolic link");
        assert!(write_atomically(&d.join("no/such/dir/f"), b"x").is_err());
        assert!(!d.join("no").exists(), "no folder is created");
        let f = d.join("f");
        write_atomically(&f, b"one").unwrap();
        write_atomically(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
