//! rustls on the ragged provider against the `openssl` command-line tool on
//! 127.0.0.1: a rustls client against `openssl s_server`, and `openssl s_client`
//! against a rustls server, for TLS 1.3 with only `TLS_CHACHA20_POLY1305_SHA256`
//! and TLS 1.2 with only `ECDHE-ECDSA-CHACHA20-POLY1305` / `ECDHE-RSA-CHACHA20-POLY1305`
//! allowed on the OpenSSL side; application data of 0, 1, 1419, 1420, 16383, 16384 and
//! 1 MiB each way, checked byte for byte.
//!
//! Needs the `openssl` binary (Debian's `openssl` package; `.ci/run` installs it and
//! sets `RAGGED_REQUIRE_OPENSSL=1`, which turns a missing binary into a failure).
//! Elsewhere, without the binary, each test prints a note that it was skipped.
//!
//! Every wait is bounded: sockets and child processes time out after `LIMIT`, and a
//! child still running then is killed.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{SIZES, Side, pattern};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{CipherSuite, RootCertStore};

const LIMIT: Duration = Duration::from_secs(60);
const LOCALHOST: Ipv4Addr = Ipv4Addr::LOCALHOST;

/// Whether to run: the binary is there, or its absence is an error (CI).
fn have_openssl(test: &str) -> bool {
    let ok = Command::new("openssl")
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("RAGGED_REQUIRE_OPENSSL").is_none(),
            "RAGGED_REQUIRE_OPENSSL is set but there is no working `openssl` binary"
        );
        // Straight to the process's stderr, past the test harness's capture, so the
        // skip shows in a normal `cargo test` run.
        let _ = writeln!(
            std::io::stderr(),
            "note: {test} SKIPPED: no `openssl` binary (install Debian's `openssl` package)"
        );
    }
    ok
}

/// The certificates OpenSSL makes for one test run, in a fresh temporary directory.
struct Pki {
    dir: PathBuf,
}

impl Drop for Pki {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Pki {
    /// A CA, and two server certificates it signed for `localhost` / 127.0.0.1: one
    /// ECDSA P-256 (`ec.pem`, `ec.key`), one RSA 2048 (`rsa.pem`, `rsa.key`).
    fn new(tag: &str) -> Pki {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let dir = std::env::temp_dir().join(format!(
            "ragged-rustls-openssl-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let pki = Pki { dir };
        let d = &pki.dir;
        std::fs::write(
            d.join("ext.cnf"),
            "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n\
             extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n",
        )
        .unwrap();
        openssl(
            d,
            &[
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=ragged test CA",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign",
            ],
        );
        for (name, newkey) in [
            (
                "ec",
                &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"][..],
            ),
            ("rsa", &["-newkey", "rsa:2048"][..]),
        ] {
            let (key, csr, pem) = (
                format!("{name}.key"),
                format!("{name}.csr"),
                format!("{name}.pem"),
            );
            let mut args = vec!["req", "-new"];
            args.extend_from_slice(newkey);
            args.extend_from_slice(&[
                "-nodes",
                "-keyout",
                &key,
                "-out",
                &csr,
                "-subj",
                "/CN=localhost",
            ]);
            openssl(d, &args);
            openssl(
                d,
                &[
                    "x509",
                    "-req",
                    "-in",
                    &csr,
                    "-CA",
                    "ca.pem",
                    "-CAkey",
                    "ca.key",
                    "-set_serial",
                    "2",
                    "-days",
                    "2",
                    "-extfile",
                    "ext.cnf",
                    "-out",
                    &pem,
                ],
            );
        }
        pki
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_string()
    }

    fn roots(&self) -> RootCertStore {
        let mut roots = RootCertStore::empty();
        roots
            .add(
                CertificateDer::from_pem_slice(&std::fs::read(self.path("ca.pem")).unwrap())
                    .unwrap(),
            )
            .unwrap();
        roots
    }

    fn chain(&self, name: &str) -> Vec<CertificateDer<'static>> {
        vec![
            CertificateDer::from_pem_slice(
                &std::fs::read(self.path(&format!("{name}.pem"))).unwrap(),
            )
            .unwrap(),
        ]
    }

    fn key(&self, name: &str) -> PrivateKeyDer<'static> {
        PrivateKeyDer::from_pem_slice(&std::fs::read(self.path(&format!("{name}.key"))).unwrap())
            .unwrap()
    }
}

/// One interop configuration: the suite, the certificate (`ec` or `rsa`), and what
/// restricts OpenSSL to that suite alone.
struct Case {
    suite: CipherSuite,
    cert: &'static str,
    openssl_args: &'static [&'static str],
}

const TLS13_ECDSA: Case = Case {
    suite: CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
    cert: "ec",
    openssl_args: &["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"],
};
const TLS13_RSA: Case = Case {
    suite: CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
    cert: "rsa",
    openssl_args: &["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"],
};
const TLS12_ECDSA: Case = Case {
    suite: CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    cert: "ec",
    openssl_args: &["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"],
};
const TLS12_RSA: Case = Case {
    suite: CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    cert: "rsa",
    openssl_args: &["-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305"],
};

/// Waits for `child` up to `LIMIT`, killing it after that; returns whether it exited
/// successfully, and its stderr.
fn finish(mut child: Child) -> (bool, String) {
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(5));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (status.is_some_and(|s| s.success()), err)
}

/// Feeds `data` to the child's stdin and collects exactly `len` bytes of its stdout,
/// on two threads; stdin stays open (OpenSSL would end the session at its EOF) until
/// the returned handle is dropped.
struct Pipes {
    writer: thread::JoinHandle<std::process::ChildStdin>,
    reader: thread::JoinHandle<std::io::Result<Vec<u8>>>,
}

fn pipes(child: &mut Child, data: Vec<u8>, len: usize) -> Pipes {
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&data);
        let _ = stdin.flush();
        stdin
    });
    let reader = thread::spawn(move || {
        let mut got = vec![0u8; len];
        stdout.read_exact(&mut got)?;
        Ok(got)
    });
    Pipes { writer, reader }
}

/// Connects to 127.0.0.1:`port`, retrying while the server starts (bounded).
fn connect(port: u16, server: &mut Child) -> TcpStream {
    let start = Instant::now();
    loop {
        if let Ok(s) = TcpStream::connect((LOCALHOST, port)) {
            s.set_read_timeout(Some(LIMIT)).unwrap();
            s.set_write_timeout(Some(LIMIT)).unwrap();
            return s;
        }
        if let Some(status) = server.try_wait().unwrap() {
            panic!("openssl s_server exited before accepting: {status}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "openssl s_server did not listen"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// A free ephemeral port on 127.0.0.1 for `s_server` (bound, then released).
fn free_port() -> u16 {
    TcpListener::bind((LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// rustls client (ragged provider) → `openssl s_server`, `len` bytes each way.
fn rustls_client_openssl_server(pki: &Pki, case: &Case, len: usize) {
    let port = free_port();
    let mut server = Command::new("openssl")
        .args([
            "s_server",
            "-quiet",
            "-naccept",
            "1",
            "-accept",
            &format!("127.0.0.1:{port}"),
        ])
        .args(["-cert", &pki.path(&format!("{}.pem", case.cert))])
        .args(["-key", &pki.path(&format!("{}.key", case.cert))])
        .args(case.openssl_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let up = pattern(len, 1);
    let down = pattern(len, 2);
    let io = pipes(&mut server, down.clone(), len);
    let tcp = connect(port, &mut server);

    let config = crate::common::client_config(Side::Ragged, case.suite, pki.roots());
    let conn =
        rustls::ClientConnection::new(Arc::new(config), ServerName::try_from("localhost").unwrap())
            .unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    while tls.conn.is_handshaking() {
        tls.conn.complete_io(&mut tls.sock).unwrap();
    }
    let negotiated = tls.conn.negotiated_cipher_suite().unwrap();
    assert_eq!(negotiated.suite(), case.suite);
    assert!(ragged_rustls::is_ragged_suite(&negotiated));

    tls.write_all(&up).unwrap();
    tls.flush().unwrap();
    let mut got = vec![0u8; len];
    tls.read_exact(&mut got).unwrap();
    assert!(
        got == down,
        "rustls client: {len} bytes from s_server came as other bytes"
    );
    let at_server = io.reader.join().unwrap().unwrap();
    assert!(
        at_server == up,
        "s_server: {len} bytes from rustls came as other bytes"
    );

    tls.conn.send_close_notify();
    tls.conn.complete_io(&mut tls.sock).unwrap();
    drop(tls);
    let stdin = io.writer.join().unwrap();
    drop(stdin);
    let (ok, err) = finish(server);
    assert!(ok && !err.contains("error:"), "s_server failed: {err}");
}

/// `openssl s_client` → rustls server (ragged provider), `len` bytes each way.
fn openssl_client_rustls_server(pki: &Pki, case: &Case, len: usize) {
    let listener = TcpListener::bind((LOCALHOST, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut client = Command::new("openssl")
        .args([
            "s_client",
            "-quiet",
            "-connect",
            &format!("127.0.0.1:{port}"),
        ])
        .args(["-servername", "localhost", "-verify_hostname", "localhost"])
        .args(["-CAfile", &pki.path("ca.pem"), "-verify_return_error"])
        .args(case.openssl_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let up = pattern(len, 3);
    let down = pattern(len, 4);
    let io = pipes(&mut client, up.clone(), len);

    listener.set_nonblocking(true).unwrap();
    let start = Instant::now();
    let tcp = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if let Some(status) = client.try_wait().unwrap() {
                    panic!("openssl s_client exited before connecting: {status}");
                }
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "s_client did not connect"
                );
                thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("accept: {e}"),
        }
    };
    tcp.set_nonblocking(false).unwrap();
    tcp.set_read_timeout(Some(LIMIT)).unwrap();
    tcp.set_write_timeout(Some(LIMIT)).unwrap();

    let config = crate::common::server_config(
        Side::Ragged,
        case.suite,
        pki.chain(case.cert),
        pki.key(case.cert),
    );
    let conn = rustls::ServerConnection::new(Arc::new(config)).unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    while tls.conn.is_handshaking() {
        tls.conn.complete_io(&mut tls.sock).unwrap();
    }
    let negotiated = tls.conn.negotiated_cipher_suite().unwrap();
    assert_eq!(negotiated.suite(), case.suite);
    assert!(ragged_rustls::is_ragged_suite(&negotiated));

    let mut got = vec![0u8; len];
    tls.read_exact(&mut got).unwrap();
    assert!(
        got == up,
        "rustls server: {len} bytes from s_client came as other bytes"
    );
    tls.write_all(&down).unwrap();
    tls.flush().unwrap();
    let at_client = io.reader.join().unwrap().unwrap();
    assert!(
        at_client == down,
        "s_client: {len} bytes from rustls came as other bytes"
    );

    // close_notify ends s_client (it ignores its own stdin's EOF under -quiet).
    tls.conn.send_close_notify();
    tls.conn.complete_io(&mut tls.sock).unwrap();
    let (ok, err) = finish(client);
    drop(io.writer.join().unwrap());
    assert!(ok, "s_client failed: {err}");
}

fn run(case: &Case, tag: &str) {
    if !have_openssl(tag) {
        return;
    }
    let pki = Pki::new(tag);
    for len in SIZES {
        rustls_client_openssl_server(&pki, case, len);
        openssl_client_rustls_server(&pki, case, len);
    }
}

#[test]
fn openssl_tls13_chacha20_poly1305_ecdsa() {
    run(&TLS13_ECDSA, "tls13-ecdsa");
}

#[test]
fn openssl_tls13_chacha20_poly1305_rsa() {
    run(&TLS13_RSA, "tls13-rsa");
}

#[test]
fn openssl_tls12_ecdhe_ecdsa_chacha20_poly1305() {
    run(&TLS12_ECDSA, "tls12-ecdsa");
}

#[test]
fn openssl_tls12_ecdhe_rsa_chacha20_poly1305() {
    run(&TLS12_RSA, "tls12-rsa");
}
