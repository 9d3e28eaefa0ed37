//! Helpers shared by the integration tests that talk to GNU Go (`mod common;` in each).

use std::path::Path;

/// GNU Go's path: on PATH, or where Debian puts it (/usr/games is not on every PATH).
pub fn gnugo() -> String {
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir).join("gnugo");
        if p.is_file() {
            return p.display().to_string();
        }
    }
    let debian = "/usr/games/gnugo";
    assert!(
        Path::new(debian).is_file(),
        "GNU Go not found: install the Debian package gnugo (scripts/test does)"
    );
    debian.to_string()
}
