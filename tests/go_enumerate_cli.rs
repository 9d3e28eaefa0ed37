//! `stonelab go enumerate` through the binary: the file it writes reads back through the
//! library, agrees with `go count`, and a corrupted or truncated copy is rejected.

mod common;

use std::path::PathBuf;
use std::process::Command;

use stonelab_go::enumerate::{canonical, Shape};
use stonelab_go::statefile::{StateFileError, StateTable};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("stonelab-enum-cli-{}-{name}", std::process::id()))
}

#[test]
fn enumerate_then_read_back() {
    let path = temp("3x4.st");
    let out = Command::new(env!("CARGO_BIN_EXE_stonelab"))
        .args([
            "go",
            "enumerate",
            "3x4",
            "--out",
            path.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    common::assert_success(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["legal"], 321689);
    let t = StateTable::open(&path).unwrap();
    assert_eq!(t.shape(), Shape::new(3, 4).unwrap());
    assert_eq!(t.counts().legal, 321689);
    assert_eq!(v["reduced"], t.len());
    let mut kos = 0u64;
    for (i, s) in t.iter().enumerate() {
        assert_eq!(canonical(t.shape(), s).0, s);
        assert_eq!(t.rank(s), Some(i as u64));
        kos += u64::from(t.ko_mask(i as u64).count_ones());
    }
    assert_eq!(kos, t.counts().ko_points);
    assert!(!PathBuf::from(format!("{}.tmp{}", path.display(), std::process::id())).exists());

    // One flipped body byte, then a truncation: both rejected with typed errors.
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(
        StateTable::open(&path),
        Err(StateFileError::BodyChecksum(_))
    ));
    std::fs::write(&path, &good[..good.len() - 3]).unwrap();
    let err = StateTable::open(&path).err().unwrap();
    assert!(matches!(err, StateFileError::BadLength { .. }));
    assert!(err.to_string().contains("truncated"));
    std::fs::remove_file(&path).unwrap();
}
