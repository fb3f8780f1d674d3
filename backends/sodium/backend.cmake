# The sodium backend: every group from libsodium >= 1.0.18; the curve is the shared
# libsecp256k1 adapter. See cmake/SoftchatSelectBackends.cmake.
softchat_backend_library(sodium
  WHAT "libsodium"
  DEBIAN libsodium-dev
  FIND Sodium
  FIND_MODULE FindSodium.cmake
  TARGET sodium::sodium
  VERSION_VAR Sodium_VERSION
  PKG_CONFIG libsodium
  CONFIG_DEPENDENCY "Sodium")

softchat_backend(sodium
  SOURCES backend.c ../os/random.c
  TESTS sandbox
  LIBRARIES sodium
  REQUIRED sha256 hmac-sha256 chacha20 chacha20-counter rng secp256k1 xchacha20-poly1305 scrypt
  OPTIONAL
    aes256gcm "libsodium's AES-256-GCM runs only on CPUs with hardware AES (AES-NI or ARMv8 crypto)"
    aes256gcm-iv16 "libsodium's AES-256-GCM takes 12-byte IVs only"
    aes256gcm-stream "libsodium has no streaming AES-256-GCM (one-shot only)")
