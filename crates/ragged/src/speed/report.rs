//! The results as text tables and as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::registry::{self, Role};
use super::timing::{Measurement, Results};

/// One table per primitive: a row per case, a column per implementation (MB/s), and
/// a last column with ragged's rate over the best peer's. Under a table whose
/// primitive has peers that this build left out, a line names them and the cargo
/// feature that adds them: the best peer is then only the best of those shown.
pub fn tables(cpu: &str, run: &Results) -> String {
    let results = &run.measurements;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "cpu: {cpu}\nMB/s (10^6 bytes per second), median of {} rounds \
         (samples of {:.1} ms on average)",
        run.rounds,
        run.mean_sample.as_secs_f64() * 1e3
    );
    for primitive in unique(results.iter().map(|m| m.primitive)) {
        let rows: Vec<&Measurement> = results
            .iter()
            .filter(|m| m.primitive == primitive)
            .collect();
        let columns = unique(rows.iter().map(|m| m.implementation.as_str()));
        let cases = unique(rows.iter().map(|m| m.case));
        let offsets = cases.iter().any(|c| c.offset != 0);

        let mut header = vec![if offsets { "size+offset" } else { "size" }.to_string()];
        header.extend(columns.iter().map(|c| c.to_string()));
        header.push("ragged / best peer".into());
        let mut table = vec![header];
        for case in &cases {
            let cell = |name: &str| {
                rows.iter()
                    .find(|m| m.case == *case && m.implementation == name)
            };
            // `1420+3`, `1420-1`: the offset always with its sign.
            let mut line = vec![if offsets {
                format!("{}{:+}", case.size, case.offset)
            } else {
                case.size.to_string()
            }];
            line.extend(
                columns
                    .iter()
                    .map(|name| cell(name).map_or("-".into(), |m| format!("{:.0}", m.mb_per_s))),
            );
            let of = |role: Role| {
                rows.iter()
                    .filter(move |m| m.case == *case && m.role == role)
            };
            let ours = of(Role::Ragged).map(|m| m.mb_per_s).next();
            let best_peer = of(Role::Peer).map(|m| m.mb_per_s).reduce(f64::max);
            line.push(match (ours, best_peer) {
                (Some(ours), Some(peer)) if peer > 0.0 => format!("{:.2}x", ours / peer),
                _ => "-".into(),
            });
            table.push(line);
        }
        let _ = writeln!(out, "\n{primitive}");
        out.push_str(&align(&table));
        out.push_str(&missing_peers(primitive));
    }
    out
}

/// The line under `primitive`'s table naming the peers not built in, or nothing.
fn missing_peers(primitive: &str) -> String {
    let missing: Vec<_> = registry::optional_peers(primitive)
        .iter()
        .filter(|p| !p.built)
        .collect();
    if missing.is_empty() {
        return String::new();
    }
    let names: Vec<_> = missing.iter().map(|p| p.name).collect();
    let features: Vec<_> = missing.iter().map(|p| p.feature).collect();
    format!(
        "not built in: {} (the best peer is of the columns above; add {} with \
         `cargo build --release -p ragged --features {}`)\n",
        names.join(", "),
        if missing.len() == 1 { "it" } else { "them" },
        features.join(",")
    )
}

/// Right-aligned columns, two spaces apart.
fn align(table: &[Vec<String>]) -> String {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            table
                .iter()
                .filter_map(|row| row.get(i))
                .map(String::len)
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:>width$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The distinct values in first-seen order.
fn unique<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// What makes a saved run comparable with another later: the build, the machine, the
/// backends ragged chose and how long it measured. The JSON's top-level fields, before
/// `results`.
#[derive(Serialize, Debug)]
pub struct Meta {
    /// `CARGO_PKG_VERSION`.
    pub ragged_version: &'static str,
    /// The commit built from, when built from a git checkout; `null` otherwise.
    pub git_commit: Option<&'static str>,
    /// The cargo features built in that add peers (`openssl`, `sodium`).
    pub features: Vec<&'static str>,
    /// `arch-os`, e.g. `x86_64-linux`.
    pub target: String,
    /// The model name the OS reports.
    pub cpu: String,
    /// The SIMD features ragged looks for that this CPU has.
    pub cpu_features: Vec<&'static str>,
    /// The backend (or copy strategy) ragged dispatched to, per primitive.
    pub backends: BTreeMap<&'static str, String>,
    /// The peers built in, each with its library's version.
    pub peers: BTreeMap<&'static str, String>,
    /// Rounds run (the median is over these).
    pub rounds: usize,
    /// The mean length of one timed sample, in milliseconds.
    pub mean_sample_ms: f64,
}

#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    meta: &'a Meta,
    results: Vec<JsonResult<'a>>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    primitive: &'a str,
    implementation: &'a str,
    size: usize,
    offset: isize,
    mb_per_s: f64,
}

/// `{` [`Meta`]'s fields `, "results": [{"primitive", "implementation", "size",
/// "offset", "mb_per_s"}, …]}`, MB/s rounded to 0.1.
pub fn json(meta: &Meta, results: &[Measurement]) -> String {
    let doc = Json {
        meta,
        results: results
            .iter()
            .map(|m| JsonResult {
                primitive: m.primitive,
                implementation: &m.implementation,
                size: m.case.size,
                offset: m.case.offset,
                mb_per_s: (m.mb_per_s * 10.0).round() / 10.0,
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&doc).expect("plain data serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::registry::Case;
    use super::*;

    fn m(implementation: &str, role: Role, size: usize, mb_per_s: f64) -> Measurement {
        Measurement {
            primitive: "chacha20",
            implementation: implementation.into(),
            role,
            case: Case { size, offset: 0 },
            mb_per_s,
        }
    }

    #[test]
    fn ratio_is_ragged_over_the_best_peer_only() {
        let results = [
            m("ragged", Role::Ragged, 64, 300.0),
            m("ragged-avx2", Role::RaggedBackend, 64, 900.0),
            m("rustcrypto", Role::Peer, 64, 100.0),
            m("openssl", Role::Peer, 64, 200.0),
        ];
        let run = Results {
            measurements: results.to_vec(),
            rounds: 15,
            mean_sample: Duration::from_millis(2),
        };
        let text = tables("test cpu", &run);
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with("64 "))
            .unwrap();
        assert!(row.ends_with("1.50x"), "{text}");
        let header = text
            .lines()
            .find(|l| l.contains("ragged / best peer"))
            .unwrap();
        assert!(
            header.contains("ragged-avx2  rustcrypto  openssl"),
            "{text}"
        );
    }

    #[test]
    fn offsets_show_their_sign() {
        let moved = |offset: isize, mb_per_s: f64| Measurement {
            primitive: "memmove",
            case: Case { size: 1420, offset },
            ..m("ragged", Role::Ragged, 1420, mb_per_s)
        };
        let run = Results {
            measurements: vec![moved(-1, 100.0), moved(710, 200.0)],
            rounds: 15,
            mean_sample: Duration::from_millis(2),
        };
        let text = tables("test cpu", &run);
        let labels: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.contains("size+offset"))
            .skip(1)
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(labels, ["1420-1", "1420+710"], "{text}");
        let doc: serde_json::Value =
            serde_json::from_str(&json(&meta(), &run.measurements)).unwrap();
        assert_eq!(doc["results"][0]["offset"], -1);
        assert_eq!(doc["results"][1]["offset"], 710);
    }

    fn meta() -> Meta {
        Meta {
            ragged_version: "0.1.0",
            git_commit: None,
            features: vec!["sodium"],
            target: "x86_64-linux".into(),
            cpu: "cpu x".into(),
            cpu_features: vec!["sse2", "avx2"],
            backends: [("chacha20", "avx2".to_string())].into(),
            peers: [("ring", "0.17.14".to_string())].into(),
            rounds: 15,
            mean_sample_ms: 2.0,
        }
    }

    #[test]
    fn a_line_under_a_table_names_the_peers_not_built_in() {
        let run = Results {
            measurements: vec![m("ragged", Role::Ragged, 64, 1.0)],
            rounds: 1,
            mean_sample: Duration::from_millis(2),
        };
        let text = tables("test cpu", &run);
        let line = text.lines().find(|l| l.starts_with("not built in: "));
        match (cfg!(feature = "openssl"), cfg!(feature = "sodium")) {
            (true, true) => assert_eq!(line, None, "{text}"),
            (false, false) => assert!(
                line.unwrap().contains("openssl, libsodium")
                    && line.unwrap().contains("--features openssl,sodium"),
                "{text}"
            ),
            (false, true) => assert!(line.unwrap().contains("--features openssl`"), "{text}"),
            (true, false) => assert!(line.unwrap().contains("--features sodium`"), "{text}"),
        }
        // memcpy has no optional peer: never a line.
        let copied = Measurement {
            primitive: "memcpy",
            ..m("ragged", Role::Ragged, 64, 1.0)
        };
        let run = Results {
            measurements: vec![copied],
            ..run
        };
        assert!(!tables("test cpu", &run).contains("not built in"));
    }

    #[test]
    fn json_has_exactly_the_agreed_fields() {
        let doc: serde_json::Value =
            serde_json::from_str(&json(&meta(), &[m("ragged", Role::Ragged, 1420, 5012.34)]))
                .unwrap();
        let top: Vec<_> = doc.as_object().unwrap().keys().cloned().collect();
        assert_eq!(
            top,
            [
                "backends",
                "cpu",
                "cpu_features",
                "features",
                "git_commit",
                "mean_sample_ms",
                "peers",
                "ragged_version",
                "results",
                "rounds",
                "target"
            ]
        );
        assert_eq!(doc["cpu"], "cpu x");
        assert_eq!(doc["git_commit"], serde_json::Value::Null);
        assert_eq!(doc["backends"]["chacha20"], "avx2");
        let r = &doc["results"][0];
        let keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys.len(), 5);
        assert_eq!(r["primitive"], "chacha20");
        assert_eq!(r["implementation"], "ragged");
        assert_eq!(r["size"], 1420);
        assert_eq!(r["offset"], 0);
        assert_eq!(r["mb_per_s"], 5012.3);
    }
}
