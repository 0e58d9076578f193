//! `ragged speed` end to end: a quick run's JSON has the agreed shape. No timing is
//! asserted (these machines are shared and noisy).

mod common;
use common::ragged_command;

fn speed(args: &[&str]) -> std::process::Output {
    ragged_command()
        .arg("speed")
        .args(args)
        .output()
        .expect("run ragged speed")
}

#[test]
fn quick_json_has_a_result_per_implementation_and_size() {
    let out = speed(&[
        "chacha20",
        "xchacha20",
        "--quick",
        "--rounds",
        "3",
        "--sizes",
        "16,65,1K",
        "--json",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // With --json -, stdout holds only the JSON; the tables go to stderr.
    assert!(stderr.contains("ragged / best peer"), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert!(doc["cpu"].is_string());

    let results = doc["results"].as_array().unwrap();
    for r in results {
        let mut keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(
            keys,
            ["implementation", "mb_per_s", "offset", "primitive", "size"]
        );
        assert_eq!(r["offset"], 0);
        assert!(r["mb_per_s"].as_f64().unwrap() > 0.0, "{r}");
    }
    for primitive in ["chacha20", "xchacha20"] {
        for implementation in ["ragged", "rustcrypto"] {
            let sizes: Vec<u64> = results
                .iter()
                .filter(|r| r["primitive"] == primitive && r["implementation"] == implementation)
                .map(|r| r["size"].as_u64().unwrap())
                .collect();
            assert_eq!(sizes, [16, 65, 1024], "{primitive} {implementation}");
        }
    }
}

/// A quick two-round run of `primitive` alone: the tables (stderr) and the JSON
/// results, each checked to be of `primitive` and to have a rate.
fn quick_results(primitive: &str) -> (String, Vec<serde_json::Value>) {
    let out = speed(&[primitive, "--quick", "--rounds", "2", "--json", "-"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let results = doc["results"].as_array().unwrap().clone();
    assert!(results.iter().all(|r| r["primitive"] == primitive));
    assert!(
        results
            .iter()
            .all(|r| r["mb_per_s"].as_f64().unwrap() > 0.0)
    );
    (stderr, results)
}

#[test]
fn quick_memcpy_has_every_offset_and_implementation() {
    let (stderr, results) = quick_results("memcpy");
    assert!(stderr.contains("size+offset"), "{stderr}");
    for implementation in [
        "ragged",
        "ragged-word",
        "glibc",
        "coaligned-only",
        "bytewise",
    ] {
        let cases: Vec<(u64, u64)> = results
            .iter()
            .filter(|r| r["implementation"] == implementation)
            .map(|r| (r["size"].as_u64().unwrap(), r["offset"].as_u64().unwrap()))
            .collect();
        // --quick skips the 400 MB default size.
        let mut want = Vec::new();
        for size in [16, 64, 256, 1420, 4096, 65536] {
            for offset in [0, 1, 3, 5] {
                want.push((size, offset));
            }
        }
        assert_eq!(cases, want, "{implementation}");
    }
}

#[test]
fn quick_memmove_has_every_distance_and_implementation() {
    let (stderr, results) = quick_results("memmove");
    assert!(stderr.contains("1420-710"), "{stderr}");
    for implementation in ["ragged", "ragged-word", "glibc", "bytewise"] {
        let cases: Vec<(u64, i64)> = results
            .iter()
            .filter(|r| r["implementation"] == implementation)
            .map(|r| (r["size"].as_u64().unwrap(), r["offset"].as_i64().unwrap()))
            .collect();
        let mut want = Vec::new();
        for size in [16, 64, 256, 1420, 4096, 65536] {
            let half = size as i64 / 2;
            want.extend([(size, -1), (size, 1), (size, -half), (size, half)]);
        }
        assert_eq!(cases, want, "{implementation}");
    }
}

/// One round of `primitive` at 64 bytes and 5 MiB: the tables (stderr), and a lookup
/// of the implementations (sorted) that ran at a size and offset.
fn small_and_large(primitive: &str) -> (String, impl Fn(u64, i64) -> Vec<String>) {
    let out = speed(&[
        primitive, "--quick", "--rounds", "1", "--sizes", "64,5M", "--json", "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let results = doc["results"].as_array().unwrap().clone();
    let at = move |size: u64, offset: i64| {
        let mut names: Vec<String> = results
            .iter()
            .filter(|r| r["size"] == size && r["offset"] == offset)
            .map(|r| r["implementation"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    (stderr, at)
}

#[test]
fn large_memcpy_leaves_the_slow_peers_out() {
    let (stderr, at) = small_and_large("memcpy");
    let at = |size| at(size, 3);
    assert_eq!(
        at(64),
        [
            "bytewise",
            "coaligned-only",
            "glibc",
            "ragged",
            "ragged-word"
        ]
    );
    assert_eq!(at(5 << 20), ["glibc", "ragged", "ragged-word"]);
    // One table, with a `-` where the slow peers did not run.
    let row = stderr
        .lines()
        .find(|l| l.trim_start().starts_with("5242880+3"))
        .expect("a 5M row");
    assert!(row.contains(" -"), "{stderr}");
}

#[test]
fn large_memmove_leaves_bytewise_out() {
    let (stderr, at) = small_and_large("memmove");
    assert_eq!(at(64, -32), ["bytewise", "glibc", "ragged", "ragged-word"]);
    for offset in [-1, 1, -(5 << 19), 5 << 19] {
        assert_eq!(at(5 << 20, offset), ["glibc", "ragged", "ragged-word"]);
    }
    let row = stderr
        .lines()
        .find(|l| l.trim_start().starts_with("5242880+2621440"))
        .expect("a 5M row");
    assert!(row.contains(" -"), "{stderr}");
}

#[test]
fn one_primitive_with_backends_writes_json_and_svg_files() {
    let dir = std::env::temp_dir().join(format!("ragged-speed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("speed.json");
    let svg = dir.join("speed.svg");
    let out = speed(&[
        "xchacha20",
        "--backends",
        "--quick",
        "--rounds",
        "1",
        "--sizes",
        "64,255",
        "--json",
        json.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("xchacha20") && !table.contains("\nchacha20"),
        "{table}"
    );
    assert!(table.contains("ragged-portable"), "{table}");

    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let results = doc["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["primitive"] == "xchacha20"));
    assert!(
        results
            .iter()
            .any(|r| r["implementation"] == "ragged-portable")
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(
        chart.starts_with("<svg") && chart.contains("ragged-portable"),
        "{chart:.200}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_to_stdout_is_svg_and_an_unwritable_path_is_refused_before_measuring() {
    let out = speed(&["poly1305", "--rounds", "1", "--sizes", "64", "--plot", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = String::from_utf8(out.stdout).expect("UTF-8 SVG");
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    // The tables went to stderr.
    assert!(String::from_utf8_lossy(&out.stderr).contains("poly1305"));

    for flag in ["--json", "--plot"] {
        // Without --rounds and --quick this would measure for about a minute.
        let started = std::time::Instant::now();
        let out = speed(&[flag, "/nonexistent-directory/out"]);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(out.stdout.is_empty(), "{flag}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("/nonexistent-directory/out"), "{stderr}");
        assert!(
            started.elapsed().as_secs() < 10,
            "{flag}: refused only after measuring"
        );
    }
    let out = speed(&["--json", "-", "--plot", "-"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// The JSON's header: what makes a saved run comparable later.
#[test]
fn json_says_which_build_machine_and_backends_measured() {
    let out = speed(&[
        "chacha20", "poly1305", "memcpy", "--rounds", "2", "--sizes", "64", "--json", "-",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
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
    assert_eq!(doc["ragged_version"], env!("CARGO_PKG_VERSION"));
    // A commit of this checkout's history (HEAD when built, and HEAD may have moved on
    // since); null where git cannot say (no git, or not a checkout: the build script
    // then had nothing to read either).
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(["-C", env!("CARGO_MANIFEST_DIR")])
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if git(&["rev-parse", "HEAD"]) {
        let commit = doc["git_commit"].as_str().expect("a commit");
        assert!(
            commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{commit}"
        );
        assert!(
            git(&["merge-base", "--is-ancestor", commit, "HEAD"]),
            "{commit}"
        );
    } else {
        assert!(doc["git_commit"].is_null(), "{}", doc["git_commit"]);
    }
    let mut features = Vec::new();
    if cfg!(feature = "openssl") {
        features.push("openssl");
    }
    if cfg!(feature = "sodium") {
        features.push("sodium");
    }
    assert_eq!(doc["features"], serde_json::json!(features));
    assert_eq!(doc["rounds"], 2);
    assert!(doc["mean_sample_ms"].as_f64().unwrap() > 0.0);
    let backends = doc["backends"].as_object().unwrap();
    let names: Vec<_> = backends.keys().cloned().collect();
    assert_eq!(names, ["chacha20", "memcpy", "poly1305"]);
    assert_eq!(
        backends["chacha20"],
        ragged_chacha::Backend::detect().name()
    );
    assert_eq!(
        backends["poly1305"],
        ragged_chacha::Poly1305Backend::detect().name()
    );
    assert!(
        doc["cpu_features"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f.is_string())
    );
    assert!(doc["peers"]["ring"].is_string() && doc["peers"]["rustcrypto"].is_string());
    assert_eq!(
        doc["peers"]["libsodium"].is_string(),
        cfg!(feature = "sodium")
    );
    assert_eq!(
        doc["peers"]["openssl"].is_string(),
        cfg!(feature = "openssl")
    );
}

/// Under each table with a peer this build lacks, a line names it and its feature;
/// memcpy has none to lack.
#[test]
fn the_tables_name_the_peers_not_built_in() {
    let out = speed(&[
        "chacha20",
        "xchacha20",
        "memcpy",
        "--rounds",
        "1",
        "--sizes",
        "64",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let note = |primitive: &str| -> Option<String> {
        let table = text
            .split("\n\n")
            .find(|t| t.starts_with(&format!("{primitive}\n")))?;
        table
            .lines()
            .find(|l| l.starts_with("not built in: "))
            .map(str::to_owned)
    };
    let expected = |peers: &[(&str, &str, bool)]| -> Option<String> {
        let missing: Vec<_> = peers.iter().filter(|p| !p.2).collect();
        (!missing.is_empty()).then(|| {
            let names: Vec<_> = missing.iter().map(|p| p.0).collect();
            let features: Vec<_> = missing.iter().map(|p| p.1).collect();
            format!("{}|--features {}`", names.join(", "), features.join(","))
        })
    };
    let openssl = ("openssl", "openssl", cfg!(feature = "openssl"));
    let sodium = ("libsodium", "sodium", cfg!(feature = "sodium"));
    for (primitive, peers) in [
        ("chacha20", &[openssl, sodium][..]),
        ("xchacha20", &[sodium][..]),
        ("memcpy", &[][..]),
    ] {
        match (note(primitive), expected(peers)) {
            (None, None) => {}
            (Some(line), Some(want)) => {
                let (names, features) = want.split_once('|').unwrap();
                assert!(
                    line.starts_with(&format!("not built in: {names} ("))
                        && line.contains(features),
                    "{primitive}: {line}"
                );
            }
            (got, want) => panic!("{primitive}: {got:?}, expected {want:?}\n{text}"),
        }
    }
}

/// On a non-terminal stderr there is no trace of the progress bar.
#[test]
fn no_progress_on_a_pipe() {
    let out = speed(&["poly1305", "--rounds", "2", "--sizes", "64,1K"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.contains('\r') && !stdout.contains('\u{1b}') && !stdout.contains("eta "),
        "{stdout:?}"
    );
}

#[test]
fn bad_sizes_and_primitives_are_refused() {
    for args in [&["--sizes", "4X"][..], &["--sizes", "0"], &["nosuchcipher"]] {
        let out = speed(args);
        assert!(!out.status.success(), "{args:?} accepted");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn quick_aeads_have_ragged_its_backends_and_the_peers() {
    let out = speed(&[
        "chacha20-poly1305",
        "xchacha20-poly1305",
        "--quick",
        "--rounds",
        "2",
        "--sizes",
        "1,65,1420",
        "--backends",
        "--json",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let results = doc["results"].as_array().unwrap();
    let has = |primitive: &str, implementation: &str| {
        results
            .iter()
            .any(|r| r["primitive"] == primitive && r["implementation"] == implementation)
    };
    for implementation in ["ragged", "ragged-portable", "rustcrypto", "ring"] {
        assert!(has("chacha20-poly1305", implementation), "{implementation}");
    }
    for implementation in ["ragged", "ragged-portable", "rustcrypto"] {
        assert!(
            has("xchacha20-poly1305", implementation),
            "{implementation}"
        );
    }
    assert!(!has("xchacha20-poly1305", "ring"));
}

#[test]
fn the_chart_y_scale_flags() {
    let chart = |flag: &str| {
        let out = speed(&[
            "poly1305", "--rounds", "1", "--sizes", "64,1K", "--plot", "-", flag,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(chart("--plot-log-y").contains("MB/s (log scale)"));
    assert!(!chart("--plot-linear-y").contains("MB/s (log scale)"));
    // Without a chart, or both at once: a usage error.
    for args in [
        &["poly1305", "--rounds", "1", "--plot-log-y"][..],
        &["poly1305", "--plot", "-", "--plot-log-y", "--plot-linear-y"],
    ] {
        let out = speed(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}
