//! The results as text tables and as JSON.

use std::fmt::Write as _;

use serde::Serialize;

use super::registry::Role;
use super::timing::{Measurement, Results};

/// One table per primitive: a row per case, a column per implementation (MB/s), and
/// a last column with ragged's rate over the best peer's.
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
    }
    out
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

#[derive(Serialize)]
struct Json<'a> {
    cpu: &'a str,
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

/// `{"cpu": …, "results": [{"primitive", "implementation", "size", "offset",
/// "mb_per_s"}, …]}`, MB/s rounded to 0.1.
pub fn json(cpu: &str, results: &[Measurement]) -> String {
    let doc = Json {
        cpu,
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
            serde_json::from_str(&json("cpu x", &run.measurements)).unwrap();
        assert_eq!(doc["results"][0]["offset"], -1);
        assert_eq!(doc["results"][1]["offset"], 710);
    }

    #[test]
    fn json_has_exactly_the_agreed_fields() {
        let doc: serde_json::Value =
            serde_json::from_str(&json("cpu x", &[m("ragged", Role::Ragged, 1420, 5012.34)]))
                .unwrap();
        assert_eq!(doc["cpu"], "cpu x");
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
