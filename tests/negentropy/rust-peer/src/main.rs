//! A Negentropy peer over the `negentropy` crate, for tests/negentropy/cross.py.
//!
//! Usage: softchat-neg-peer --role initiator|responder --items FILE [--frame-limit N]
//! FILE: one record per line, "<timestamp> <64 hex id>". Line protocol on stdin/stdout:
//! the initiator starts with "MSG <hex>"; each "MSG <hex>" read is answered with
//! "MSG <hex>" (the initiator first prints "HAVE <hex>" / "NEED <hex>" per id learned, and
//! "DONE" instead of a message when reconciliation is complete). Errors: "ERR <text>", exit 1.
use std::io::{BufRead, BufWriter, Write};

use negentropy::{Id, Negentropy, NegentropyStorageVector};

fn hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * b.len());
    for &x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let s = s.as_bytes();
    if s.len() % 2 != 0 {
        return None;
    }
    let v = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() / 2);
    for p in s.chunks(2) {
        out.push((v(p[0])? << 4) | v(p[1])?);
    }
    Some(out)
}

fn die(msg: &str) -> ! {
    println!("ERR {msg}");
    std::process::exit(1);
}

fn main() {
    let mut role = String::new();
    let mut items = String::new();
    let mut limit: u64 = 0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--role" => role = args.next().unwrap_or_default(),
            "--items" => items = args.next().unwrap_or_default(),
            "--frame-limit" => limit = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            _ => die("usage: --role initiator|responder --items FILE [--frame-limit N]"),
        }
    }
    let text = std::fs::read_to_string(&items).unwrap_or_else(|e| die(&format!("{items}: {e}")));
    let mut storage = NegentropyStorageVector::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut it = line.split(' ');
        let ts: u64 = it.next().and_then(|t| t.parse().ok()).unwrap_or_else(|| die("bad item"));
        let id = it.next().and_then(unhex).unwrap_or_else(|| die("bad item id"));
        let id: [u8; 32] = id.try_into().unwrap_or_else(|_| die("bad item id length"));
        storage.insert(ts, Id::from_byte_array(id)).unwrap_or_else(|e| die(&e.to_string()));
    }
    storage.seal().unwrap_or_else(|e| die(&e.to_string()));
    let mut neg = Negentropy::owned(storage, limit).unwrap_or_else(|e| die(&e.to_string()));
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let initiator = role == "initiator";
    if initiator {
        let m = neg.initiate().unwrap_or_else(|e| die(&e.to_string()));
        writeln!(out, "MSG {}", hex(&m)).unwrap();
        out.flush().unwrap();
    } else if role != "responder" {
        die("--role must be initiator or responder");
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.unwrap_or_else(|e| die(&e.to_string()));
        let msg = match line.strip_prefix("MSG ") {
            Some(h) => unhex(h).unwrap_or_else(|| die("bad hex")),
            None => die("expected MSG"),
        };
        if initiator {
            let mut have: Vec<Id> = Vec::new();
            let mut need: Vec<Id> = Vec::new();
            let r = neg
                .reconcile_with_ids(&msg, &mut have, &mut need)
                .unwrap_or_else(|e| die(&e.to_string()));
            for id in &have {
                writeln!(out, "HAVE {}", hex(id.as_bytes())).unwrap();
            }
            for id in &need {
                writeln!(out, "NEED {}", hex(id.as_bytes())).unwrap();
            }
            match r {
                Some(m) => writeln!(out, "MSG {}", hex(&m)).unwrap(),
                None => {
                    writeln!(out, "DONE").unwrap();
                    out.flush().unwrap();
                    return;
                }
            }
        } else {
            let r = neg.reconcile(&msg).unwrap_or_else(|e| die(&e.to_string()));
            writeln!(out, "MSG {}", hex(&r)).unwrap();
        }
        out.flush().unwrap();
    }
}
