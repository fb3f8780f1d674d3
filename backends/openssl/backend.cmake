# The openssl backend: every group from OpenSSL 3's libcrypto (the curve is the shared
# libsecp256k1 adapter). See cmake/SoftchatSelectBackends.cmake for the contract.
softchat_backend_library(openssl
  WHAT "OpenSSL 3 (libcrypto)"
  DEBIAN libssl-dev
  FIND OpenSSL 3.0 COMPONENTS Crypto
  TARGET OpenSSL::Crypto
  VERSION_VAR OPENSSL_VERSION
  PKG_CONFIG libcrypto
  CONFIG_DEPENDENCY "OpenSSL 3.0 COMPONENTS Crypto")

softchat_backend(openssl
  SOURCES backend.c stream.c xchacha.c scrypt.c ../os/random.c
  TESTS hchacha
  LIBRARIES openssl
  REQUIRED sha256 hmac-sha256 chacha20 chacha20-counter aes256gcm aes256gcm-iv16
           aes256gcm-stream rng secp256k1 xchacha20-poly1305 scrypt)
