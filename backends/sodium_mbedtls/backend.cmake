# The "sodium+mbedtls" composite: hash, mac, stream and rng from backends/sodium (libsodium;
# its rng group reads the kernel through backends/os on Linux), AES-256-GCM from mbed TLS, the
# shared libsecp256k1 curve. It compiles its parts' sources and names the libraries that
# backends/sodium and backends/mbedtls declare. See cmake/SoftchatSelectBackends.cmake.
softchat_backend(sodium+mbedtls
  SOURCES backend.c ../sodium/backend.c ../mbedtls/backend.c ../os/random.c
  LIBRARIES sodium mbedtls
  REQUIRED sha256 hmac-sha256 chacha20 chacha20-counter aes256gcm aes256gcm-iv16
           aes256gcm-stream rng secp256k1 xchacha20-poly1305 scrypt)
