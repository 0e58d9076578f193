//! ragged-rustls against real peers, as one test binary (one link of rustls, quinn
//! and tokio instead of one per file):
//!
//! - `openssl` — rustls on ragged against the `openssl` s_server / s_client binary;
//! - `rustls_memory` — against rustls's own *ring* provider, in memory, key updates;
//! - `quinn_loopback` — quinn client and server on 127.0.0.1, one side on ragged;
//! - `quic` — RFC 9001 A.5 exactly, and packet / header protection against *ring*;
//! - `bad_records` — forged records that must fail as they do with *ring*.

mod bad_records;
mod common;
mod openssl;
mod quic;
mod quinn_loopback;
mod rustls_memory;
