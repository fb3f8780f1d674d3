//! Records, for the result file, the compiler version and the libsecp256k1 release that the
//! locked secp256k1-sys bundles (read from its vendored configure.ac in the cargo registry).

use std::path::PathBuf;
use std::process::Command;

fn locked_version(lock: &str, name: &str) -> Option<String> {
    let needle = format!("name = \"{name}\"\nversion = \"");
    let i = lock.find(&needle)? + needle.len();
    lock[i..].split('"').next().map(String::from)
}

fn libsecp256k1_version(sys_version: &str) -> Option<String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    for entry in std::fs::read_dir(home.join("registry").join("src")).ok()?.flatten() {
        let ac = entry
            .path()
            .join(format!("secp256k1-sys-{sys_version}"))
            .join("depend/secp256k1/configure.ac");
        if let Ok(text) = std::fs::read_to_string(&ac) {
            let part = |k: &str| {
                let needle = format!("define(_PKG_VERSION_{k}, ");
                let i = text.find(&needle)? + needle.len();
                text[i..].split(')').next().map(|s| s.trim().to_string())
            };
            return Some(format!("{}.{}.{}", part("MAJOR")?, part("MINOR")?, part("PATCH")?));
        }
    }
    None
}

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let secp = locked_version(&lock, "secp256k1-sys")
        .and_then(|v| libsecp256k1_version(&v))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=PEER_RUSTC_VERSION={rustc_version}");
    println!("cargo:rustc-env=PEER_LIBSECP256K1_VERSION={secp}");
}
