# The mbedtls backend: every group from mbed TLS 2.28 LTS or 3.6 LTS (libmbedcrypto); the
# curve is the shared libsecp256k1 adapter. See cmake/SoftchatSelectBackends.cmake.
# Debian's 2.28 ships no CMake package and no .pc file: FindMbedTLS.cmake falls back to the
# header and library, and pkg-config consumers get -lmbedcrypto in Libs.private.
softchat_backend_library(mbedtls
  WHAT "mbed TLS (libmbedcrypto)"
  DEBIAN libmbedtls-dev
  FIND MbedTLS
  FIND_MODULE FindMbedTLS.cmake
  TARGET MbedTLS::mbedcrypto
  VERSION_VAR MbedTLS_VERSION
  CONFIG_DEPENDENCY "MbedTLS"
  LIBS_PRIVATE -lmbedcrypto)

softchat_backend(mbedtls
  SOURCES backend.c
  LIBRARIES mbedtls
  REQUIRED sha256 hmac-sha256 chacha20 chacha20-counter aes256gcm aes256gcm-iv16
           aes256gcm-stream rng secp256k1
  OPTIONAL
    xchacha20-poly1305 "mbed TLS has no XChaCha20-Poly1305 and (without scrypt) no use for one"
    scrypt "mbed TLS has no scrypt (PBKDF2 only)")
