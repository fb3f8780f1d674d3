package org.softchat.jmh

import kotlinx.coroutines.runBlocking
import org.softchat.Softchat
import rust.nostr.sdk.Event
import rust.nostr.sdk.EventBuilder
import rust.nostr.sdk.Keys
import rust.nostr.sdk.Kind
import rust.nostr.sdk.KindStandard
import rust.nostr.sdk.Nip44Version
import rust.nostr.sdk.NostrSigner
import rust.nostr.sdk.SecretKey
import rust.nostr.sdk.Timestamp
import rust.nostr.sdk.UnwrappedGift
import rust.nostr.sdk.giftWrap
import rust.nostr.sdk.nip44Decrypt
import rust.nostr.sdk.nip44Encrypt
import java.util.function.Supplier

/**
 * rust-nostr's own JVM binding (org.rust-nostr:nostr-sdk-kmp-jvm, UniFFI over JNA, the Rust
 * nostr crate inside) as a side of the benchmarks, on every operation it shares with the
 * facade, with the same inputs and the same output a caller gets on the facade's side: a
 * NIP-44 payload or plaintext, a signed event as JSON, a parsed and verified event, gift
 * wraps as JSON, an unwrapped rumor. Its async calls (gift wrap, unwrap) run under
 * runBlocking, as a blocking caller of the binding runs them. Objects the binding gives are
 * closed when the operation is done with them (its Rust memory freed then, not by its
 * cleaner). Written in Kotlin: the binding's API uses unsigned and suspend types that Java
 * cannot call. Setup checks interoperability both ways before anything is timed.
 */
object RustNostr {
    private fun keys(sec: ByteArray): Keys = SecretKey.fromBytes(sec).use { Keys(it) }

    private fun at(secs: Long): Timestamp = Timestamp.fromSecs(secs.toULong())

    /** NIP-44 v2 with the conversation key derived on every call (no held form is offered). */
    class Nip44(bytes: Int) {
        val encrypt: Supplier<Any>
        val decrypt: Supplier<Any>

        init {
            checkVectors()
            val sc = Softchat.default()
            val pt = Inputs.text(bytes)
            val alice = keys(Inputs.ALICE)
            val bob = keys(Inputs.BOB)
            val aliceSec = alice.secretKey()
            val bobSec = bob.secretKey()
            val alicePub = alice.publicKey()
            val bobPub = bob.publicKey()
            sc.importIdentity(Inputs.ALICE).use { a ->
                sc.importIdentity(Inputs.BOB).use { b ->
                    val ours = a.nip44Encrypt(b.publicKey, pt)
                    check(nip44Decrypt(bobSec, alicePub, ours) == pt) { "rust-nostr does not read the facade's payload" }
                    check(b.nip44Decrypt(a.publicKey, nip44Encrypt(aliceSec, bobPub, pt, Nip44Version.V2)) == pt) {
                        "the facade does not read rust-nostr's payload"
                    }
                    val payload = ours // the same payload for every side
                    encrypt = Supplier { nip44Encrypt(aliceSec, bobPub, pt, Nip44Version.V2) }
                    decrypt = Supplier { nip44Decrypt(bobSec, alicePub, payload) }
                }
            }
        }
    }

    /** Keys from a secret, signing (32 bytes of content) and parse + verify. */
    class Events(events: Array<String>) {
        val importIdentity: Supplier<Any>
        val sign: Supplier<Any>
        val parseVerify: Supplier<Any>
        private var next = 0

        init {
            val sec = Inputs.ALICE
            val alice = keys(sec)
            val content = Inputs.text(32)
            val kind = Kind.fromStd(KindStandard.TEXT_NOTE)
            val createdAt = at(Sides.CREATED_AT)
            for (e in events) Event.fromJson(e).use { check(it.verify()) { "rust-nostr does not verify the facade's event" } }
            val theirs = EventBuilder(kind, content).customCreatedAt(createdAt).signWithKeys(alice).use { it.asJson() }
            Softchat.default().parseEvent(theirs) // and the facade verifies rust-nostr's
            importIdentity = Supplier {
                val k = keys(sec)
                k.publicKey().close()
                k.close()
                k
            }
            sign = Supplier {
                EventBuilder(kind, content).use { b ->
                    b.customCreatedAt(createdAt).use { bt -> bt.signWithKeys(alice).use { it.asJson() } }
                }
            }
            parseVerify = Supplier {
                Event.fromJson(events[next++ and 15]).use { e ->
                    if (!e.verify()) throw IllegalStateException("not verified")
                    e.id().close()
                    e
                }
            }
        }
    }

    /** NIP-17 messages (the receiver's wrap and the sender's copy), gift wrap and unwrap. */
    class Messaging(ourWraps: List<String>) {
        val nip17Message: Supplier<Any>
        val giftWrap: Supplier<Any>
        val unwrap: Supplier<Any>
        private var next = 0

        init {
            val alice = keys(Inputs.ALICE)
            val bob = keys(Inputs.BOB)
            val aliceSigner = NostrSigner.keys(alice)
            val bobSigner = NostrSigner.keys(bob)
            val alicePub = alice.publicKey()
            val bobPub = bob.publicKey()
            val text = Inputs.text(15)
            val createdAt = at(Sides.CREATED_AT)
            val rumor = EventBuilder.privateMsgRumor(bobPub, text).customCreatedAt(createdAt).build(alicePub)
            // both ways before timing: the facade receives rust-nostr's wrap, and rust-nostr
            // unwraps the facade's
            val theirs = runBlocking { giftWrap(aliceSigner, bobPub, rumor, emptyList()) }.use { it.asJson() }
            Softchat.default().importIdentity(Inputs.BOB).use { b ->
                b.receive(theirs).use { m -> check(m.content == text) { "the facade does not read rust-nostr's wrap" } }
            }
            val wraps = ourWraps.map { Event.fromJson(it).use { e -> e.asJson() } }
            runBlocking { UnwrappedGift.fromGiftWrap(bobSigner, Event.fromJson(wraps[0])) }.use { u ->
                check(u.rumor().use { it.content() } == text) { "rust-nostr does not read the facade's wrap" }
            }
            nip17Message = Supplier {
                EventBuilder.privateMsgRumor(bobPub, text).use { b ->
                    b.customCreatedAt(createdAt).use { bt ->
                        bt.build(alicePub).use { r ->
                            runBlocking {
                                listOf(
                                    giftWrap(aliceSigner, bobPub, r, emptyList()).use { it.asJson() },
                                    giftWrap(aliceSigner, alicePub, r, emptyList()).use { it.asJson() },
                                )
                            }
                        }
                    }
                }
            }
            giftWrap = Supplier { runBlocking { giftWrap(aliceSigner, bobPub, rumor, emptyList()) }.use { it.asJson() } }
            unwrap = Supplier {
                Event.fromJson(ourWraps[next++ and 15]).use { e ->
                    runBlocking { UnwrappedGift.fromGiftWrap(bobSigner, e) }.use { u -> u.rumor().also { it.close() } }
                }
            }
        }
    }

    /**
     * The official NIP-44 v2 vectors this binding can take: it derives the conversation key
     * itself and chooses its own nonce, so each valid encrypt_decrypt case is decrypted with
     * the vector's keys both ways and round-tripped; the invalid payloads need a given
     * conversation key, which the binding does not take.
     */
    @JvmStatic fun checkVectors(): Int {
        var n = 0
        for (e in Nip44Vectors.load().getAsJsonObject("valid").getAsJsonArray("encrypt_decrypt")) {
            val o = e.asJsonObject
            val pt = o.get("plaintext").asString
            val payload = o.get("payload").asString
            val a = keys(hex(o.get("sec1").asString))
            val b = keys(hex(o.get("sec2").asString))
            check(nip44Decrypt(b.secretKey(), a.publicKey(), payload) == pt) { "rust-nostr: NIP-44 vector failed: $o" }
            check(nip44Decrypt(a.secretKey(), b.publicKey(), payload) == pt) { "rust-nostr: NIP-44 vector failed: $o" }
            check(nip44Decrypt(b.secretKey(), a.publicKey(), nip44Encrypt(a.secretKey(), b.publicKey(), pt, Nip44Version.V2)) == pt)
            a.close()
            b.close()
            n++
        }
        return n
    }

    private fun hex(s: String): ByteArray = java.util.HexFormat.of().parseHex(s)
}
