//! softchat-test-relay: a loopback relay for softchat's integration tests.
//!
//! Usage: softchat-test-relay --port N [--auth] [--reject-kind K]
//!   --auth           NIP-42: reading and writing require AUTH (the relay sends a challenge)
//!   --reject-kind K  refuse events of kind K with `blocked: kind K is not accepted here`
//! Prints "ready ws://127.0.0.1:N" on stdout once it accepts connections.
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use nostr_relay_builder::prelude::*;

#[derive(Debug)]
struct RejectKind(u16);

impl WritePolicy for RejectKind {
    fn admit_event<'a>(
        &'a self,
        event: &'a Event,
        _addr: &'a SocketAddr,
    ) -> BoxedFuture<'a, PolicyResult> {
        Box::pin(async move {
            if event.kind.as_u16() == self.0 {
                PolicyResult::Reject(format!("kind {} is not accepted here", self.0))
            } else {
                PolicyResult::Accept
            }
        })
    }
}

fn usage() -> ! {
    eprintln!("usage: softchat-test-relay --port N [--auth] [--reject-kind K]");
    std::process::exit(2);
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut port: Option<u16> = None;
    let mut auth = false;
    let mut reject: Option<u16> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--port" => port = args.next().and_then(|v| v.parse().ok()),
            "--auth" => auth = true,
            "--reject-kind" => reject = args.next().and_then(|v| v.parse().ok()),
            _ => usage(),
        }
    }
    let port = port.unwrap_or_else(|| usage());
    let mut builder = RelayBuilder::default()
        .addr(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(port)
        .rate_limit(RateLimit {
            max_reqs: 500,
            notes_per_minute: u32::MAX,
        })
        .max_filter_limit(100_000)
        .default_filter_limit(100_000);
    if auth {
        builder = builder.nip42(RelayBuilderNip42 {
            mode: RelayBuilderNip42Mode::Both,
        });
    }
    if let Some(k) = reject {
        builder = builder.write_policy(RejectKind(k));
    }
    let relay = LocalRelay::new(builder);
    if let Err(e) = relay.run().await {
        eprintln!("softchat-test-relay: {e}");
        std::process::exit(1);
    }
    println!("ready {}", relay.url().await);
    let _ = std::io::stdout().flush();
    loop {
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
}
