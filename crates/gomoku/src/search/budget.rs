//! What a search may spend on one decision ([`Budget`]: time, nodes or both), its shares, and the
//! threat solver's [`Limits`] under it. Shared by the engine and the defender's view.

use std::time::Duration;

use super::{Limits, Mode};

/// How much a search may spend: wall-clock time, nodes, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time (None: no limit).
    pub time: Option<Duration>,
    /// Nodes in all, threat-space search included (None: no limit).
    pub nodes: Option<u64>,
}

impl Budget {
    /// A deterministic budget of `nodes`.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Budget {
        Budget {
            time: None,
            nodes: Some(nodes),
        }
    }

    /// A budget of wall-clock time.
    #[must_use]
    pub const fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            nodes: None,
        }
    }

    /// A share of this budget (`num / den` of the nodes and time), with at least `floor` nodes: the
    /// threat searches are cheap and decide games, so a small alpha-beta budget does not starve
    /// them.
    #[must_use]
    pub fn share(&self, num: u32, den: u32, floor: u64) -> Budget {
        Budget {
            time: self.time.map(|t| t * num / den),
            nodes: self
                .nodes
                .map(|n| (n * u64::from(num) / u64::from(den)).max(floor.max(1))),
        }
    }

    /// The threat solver's limits of `mode` under this budget (its own caps when tighter).
    #[must_use]
    pub fn tss_limits(&self, mode: Mode) -> Limits {
        let mut limits = Limits::for_mode(mode);
        limits.time = self.time;
        limits.nodes = self.nodes.unwrap_or(u64::MAX).min(limits.nodes);
        limits
    }
}
