# The psa backend: hash, mac, stream, aead and rng through the PSA Crypto API of mbed TLS 3.6
# LTS (libmbedcrypto, the library backends/mbedtls declares); the curve is the shared
# libsecp256k1 adapter. See cmake/SoftchatSelectBackends.cmake for the contract.
# Debian bookworm's libmbedtls-dev is 2.28, whose PSA API is incomplete: configure refuses it
# and names the script that builds 3.6 LTS from Debian trixie's source.
softchat_backend(psa
  SOURCES backend.c
  TESTS internals
  LIBRARIES mbedtls
  MIN_VERSION mbedtls 3.6.6
    "The psa backend needs the PSA Crypto API of mbed TLS 3.6 LTS: 2.28 (Debian bookworm) has an incomplete one, and before 3.6.6 a forked child inherited the PSA random generator's state (CVE-2026-25835). Build 3.6 with scripts/deps.sh --only mbedtls host PREFIX and configure with -DCMAKE_PREFIX_PATH=PREFIX (on Debian trixie or later: apt-get install libmbedtls-dev)."
  REQUIRED sha256 hmac-sha256 chacha20 aes256gcm aes256gcm-iv16 aes256gcm-stream rng secp256k1
  OPTIONAL
    chacha20-counter "PSA's ChaCha20 (PSA_ALG_STREAM_CIPHER) takes a 12-byte nonce and always starts at block counter 0 (NIP-44 needs counter 0 only)"
    xchacha20-poly1305 "the PSA Crypto API of mbed TLS 3.6 has no XChaCha20-Poly1305 and its ChaCha20 starts at counter 0 (no HChaCha20)"
    scrypt "the PSA Crypto API of mbed TLS 3.6 has no scrypt (PBKDF2 only)")
