//! softchat-nip46-peer: rust-nostr's nostr-connect crate (NIP-46) against softchat's client
//! and bunker, for tests/cli/test_cli_bunker_rust.py and tests/cli/test_cli_nostrconnect.py.
//! Every mode talks to one relay on loopback.
//!
//! signer --relay URL --user-key FILE --signer-key FILE [--secret S] [--reject METHOD]...
//!   NostrConnectRemoteSigner serving the user key, reached at the signer key (the files hold
//!   a secret key: hex or nsec). Requests for
//!   a --reject method are answered with an error ("Rejected"). It first asks itself for
//!   the user key through the relay (nostr-connect's own client), so that its subscription
//!   is known to be live, then prints "ready <bunker URI>" and serves until killed.
//!
//! client --uri BUNKER-URI --user HEX [--timeout S] [--call METHOD]...
//!   NostrConnect (the client) with a fresh client key: connect (in its bootstrap) and
//!   get_public_key, which must be --user; then each --call in turn, one JSON line per call
//!   on stdout: {"call":M,"ok":true,...} or {"call":M,"ok":false,"error":TEXT}. Calls:
//!     sign_event     a kind 1 event with a tag, verified here (id and signature), its author
//!                    the user and its content, kind and tags those asked for
//!     nip44          nip44_encrypt to a key made here, opened here with that key; then
//!                    nip44_decrypt of a payload made here for the user
//!     nip44_decrypt  nip44_decrypt alone (of a payload made here for the user)
//!     nip04          nip04_encrypt (NIP-04)
//!     get_public_key get_public_key again
//!   Exits 0 when the session was opened (whatever the calls said), 1 when it was not.
//!
//! nostrconnect --uri NOSTRCONNECT-URI --user-key FILE --signer-key FILE
//!   The signer's side of a pairing the client started: NostrConnectRemoteSigner::from_uri
//!   with the URI's client key, relays and secret, which sends its connect acknowledgement
//!   (a connect request carrying [signer key, secret]) and then serves the user key until
//!   killed. nostr-connect 0.44's own URI parser wants a "metadata" parameter (the older
//!   form), so the URI is read here with the url crate and given to from_uri as a
//!   NostrConnectURI::client; its secret goes in from_uri's secret, which the
//!   acknowledgement carries. Prints "serving <client key>" once it started.
use std::io::Write;
use std::time::Duration;

use nostr_connect::prelude::*;

fn usage() -> ! {
    eprintln!(
        "usage: softchat-nip46-peer signer --relay URL --user-key FILE --signer-key FILE \
         [--secret S] [--reject METHOD]...\n       softchat-nip46-peer client --uri URI \
         --user HEX [--timeout S] [--call METHOD]...\n       softchat-nip46-peer nostrconnect \
         --uri URI --user-key FILE --signer-key FILE"
    );
    std::process::exit(2);
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn say(line: &str) {
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn read_keys(path: &str) -> Keys {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("softchat-nip46-peer: {path}: {e}");
        std::process::exit(2);
    });
    Keys::parse(text.trim()).unwrap_or_else(|e| {
        eprintln!("softchat-nip46-peer: {path}: {e}");
        std::process::exit(2);
    })
}

struct Policy {
    reject: Vec<String>,
}

impl NostrConnectSignerActions for Policy {
    fn approve(&self, _client: &PublicKey, req: &NostrConnectRequest) -> bool {
        let name = req.method().to_string();
        !self.reject.iter().any(|m| *m == name)
    }
}

async fn signer(mut args: std::vec::IntoIter<String>) {
    let (mut relay, mut user, mut key, mut secret) = (None, None, None, None);
    let mut reject = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--relay" => relay = args.next(),
            "--user-key" => user = args.next(),
            "--signer-key" => key = args.next(),
            "--secret" => secret = args.next(),
            "--reject" => reject.push(args.next().unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    let (relay, user, key) = match (relay, user, key) {
        (Some(r), Some(u), Some(k)) => (r, u, k),
        _ => usage(),
    };
    let keys = NostrConnectKeys {
        signer: read_keys(&key),
        user: read_keys(&user),
    };
    let user_pk = keys.user.public_key();
    let remote =
        NostrConnectRemoteSigner::new(keys, [relay.as_str()], secret, None).expect("remote signer");
    let uri = remote.bunker_uri();
    let serving = remote.clone();
    let task = tokio::spawn(async move { serving.serve(Policy { reject }).await });
    // Ask ourselves until the signer answers: its REQ reached the relay.
    for attempt in 0..20 {
        let probe = NostrConnect::new(uri.clone(), Keys::generate(), Duration::from_secs(2), None)
            .expect("probe client");
        let got = probe.get_public_key().await;
        probe.shutdown().await;
        match got {
            Ok(pk) if pk == user_pk => {
                say(&format!("ready {uri}"));
                break;
            }
            Ok(pk) => panic!("the signer answered {pk}, not the user key"),
            Err(e) if attempt == 19 => panic!("the signer never answered: {e}"),
            Err(_) => {}
        }
    }
    match task.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            eprintln!("softchat-nip46-peer: serve: {e}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("softchat-nip46-peer: serve: {e}");
            std::process::exit(1);
        }
    }
}

fn fail(call: &str, e: impl std::fmt::Display) -> String {
    format!(
        "{{\"call\":{},\"ok\":false,\"error\":{}}}",
        json_str(call),
        json_str(&e.to_string())
    )
}

async fn call_sign_event(c: &NostrConnect, user: &PublicKey) -> Result<String, String> {
    let tags = [Tag::parse(["t", "softchat-interop"]).map_err(|e| e.to_string())?];
    let content = "signed by softchat bunker \u{2713} \"quoted\"\n";
    let unsigned = EventBuilder::text_note(content)
        .tags(tags.clone())
        .build(*user);
    let ev = c.sign_event(unsigned).await.map_err(|e| e.to_string())?;
    ev.verify()
        .map_err(|e| format!("the signed event does not verify: {e}"))?;
    if ev.pubkey != *user || ev.kind != Kind::TextNote || ev.content != content {
        return Err("the signed event is not the one asked for".into());
    }
    if ev.tags.as_slice() != tags.as_slice() {
        return Err("the signed event's tags differ".into());
    }
    Ok(format!(
        ",\"id\":{},\"event\":{}",
        json_str(&ev.id.to_hex()),
        ev.as_json()
    ))
}

async fn call_nip44_decrypt(c: &NostrConnect, user: &PublicKey) -> Result<String, String> {
    let peer = Keys::generate();
    let text = "from rust to the bunker's user \u{1f510}";
    let payload = nip44::encrypt(peer.secret_key(), user, text, nip44::Version::default())
        .map_err(|e| e.to_string())?;
    let got = c
        .nip44_decrypt(&peer.public_key(), &payload)
        .await
        .map_err(|e| e.to_string())?;
    if got != text {
        return Err(format!("nip44_decrypt gave {got:?}"));
    }
    Ok(String::new())
}

async fn call_nip44(c: &NostrConnect, user: &PublicKey) -> Result<String, String> {
    let peer = Keys::generate();
    let text = "to a rust key from the bunker's user \u{1f511}";
    let payload = c
        .nip44_encrypt(&peer.public_key(), text)
        .await
        .map_err(|e| e.to_string())?;
    let opened = nip44::decrypt(peer.secret_key(), user, &payload)
        .map_err(|e| format!("the payload does not open: {e}"))?;
    if opened != text {
        return Err(format!("the payload opened to {opened:?}"));
    }
    call_nip44_decrypt(c, user).await
}

async fn run_call(c: &NostrConnect, user: &PublicKey, name: &str) -> String {
    let r = match name {
        "sign_event" => call_sign_event(c, user).await,
        "nip44" => call_nip44(c, user).await,
        "nip44_decrypt" => call_nip44_decrypt(c, user).await,
        "nip04" => c
            .nip04_encrypt(&Keys::generate().public_key(), "nip04")
            .await
            .map(|s| format!(",\"result\":{}", json_str(&s)))
            .map_err(|e| e.to_string()),
        "get_public_key" => c
            .get_public_key()
            .await
            .map(|pk| format!(",\"result\":{}", json_str(&pk.to_hex())))
            .map_err(|e| e.to_string()),
        _ => usage(),
    };
    match r {
        Ok(extra) => format!("{{\"call\":{},\"ok\":true{extra}}}", json_str(name)),
        Err(e) => fail(name, e),
    }
}

async fn client(mut args: std::vec::IntoIter<String>) {
    let (mut uri, mut user, mut timeout) = (None, None, 20u64);
    let mut calls = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--uri" => uri = args.next(),
            "--user" => user = args.next(),
            "--timeout" => timeout = args.next().and_then(|v| v.parse().ok()).unwrap_or(20),
            "--call" => calls.push(args.next().unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    let (uri, user) = match (uri, user) {
        (Some(u), Some(k)) => (u, k),
        _ => usage(),
    };
    let user = PublicKey::parse(&user).expect("--user");
    let uri = NostrConnectURI::parse(&uri).expect("--uri: a bunker URI");
    let c = NostrConnect::new(uri, Keys::generate(), Duration::from_secs(timeout), None)
        .expect("client");
    // The first request bootstraps: connect (with the URI's secret), then get_public_key.
    let opened = match c.get_public_key().await {
        Ok(pk) if pk == user => {
            say(&format!(
                "{{\"call\":\"connect+get_public_key\",\"ok\":true,\"result\":{}}}",
                json_str(&pk.to_hex())
            ));
            true
        }
        Ok(pk) => {
            say(&fail(
                "connect+get_public_key",
                format!("not the user key: {pk}"),
            ));
            false
        }
        Err(e) => {
            say(&fail("connect+get_public_key", e));
            false
        }
    };
    if opened {
        for name in &calls {
            say(&run_call(&c, &user, name).await);
        }
    }
    c.shutdown().await;
    std::process::exit(if opened { 0 } else { 1 });
}

async fn nostrconnect(mut args: std::vec::IntoIter<String>) {
    let (mut uri, mut user, mut key) = (None, None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--uri" => uri = args.next(),
            "--user-key" => user = args.next(),
            "--signer-key" => key = args.next(),
            _ => usage(),
        }
    }
    let (uri, user, key) = match (uri, user, key) {
        (Some(u), Some(k), Some(s)) => (u, k, s),
        _ => usage(),
    };
    let url = Url::parse(&uri).expect("--uri: a URL");
    assert_eq!(url.scheme(), "nostrconnect", "--uri: a nostrconnect:// URI");
    let client = PublicKey::from_hex(url.host_str().expect("--uri: a client key"))
        .expect("--uri: a client key");
    let (mut relays, mut secret, mut name) = (Vec::new(), None, String::from("client"));
    for (k, v) in url.query_pairs() {
        match k.as_ref() {
            "relay" => relays.push(RelayUrl::parse(v.as_ref()).expect("--uri: a relay")),
            "secret" => secret = Some(v.to_string()),
            "name" => name = v.to_string(),
            _ => {}
        }
    }
    let keys = NostrConnectKeys {
        signer: read_keys(&key),
        user: read_keys(&user),
    };
    let uri = NostrConnectURI::client(client, relays, name);
    let remote =
        NostrConnectRemoteSigner::from_uri(uri, keys, secret, None).expect("remote signer");
    say(&format!("serving {}", client.to_hex()));
    if let Err(e) = remote.serve(Policy { reject: Vec::new() }).await {
        eprintln!("softchat-nip46-peer: serve: {e}");
        std::process::exit(1);
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut args = args.into_iter();
    match args.next().as_deref() {
        Some("signer") => signer(args).await,
        Some("client") => client(args).await,
        Some("nostrconnect") => nostrconnect(args).await,
        _ => usage(),
    }
}
