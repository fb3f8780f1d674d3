package example

import org.softchat.PublicKey
import org.softchat.Receiver
import org.softchat.Softchat

/**
 * An application of the facade as a user writes it from docs/bindings.md: two identities,
 * a NIP-17 message from one to the other, received and read. Returns the text received.
 */
fun roundTrip(text: String): String {
    val sc = Softchat.default()
    sc.generateIdentity().use { alice ->
        sc.generateIdentity().use { bob ->
            val wraps = alice.sendMessage(listOf(Receiver(bob.publicKey)), text, System.currentTimeMillis() / 1000)
            val toBob = wraps.first { it.recipient == bob.publicKey }
            bob.receive(toBob.json).use { msg ->
                check(msg.sender == PublicKey.parse(alice.publicKey.toNpub())) { "sender" }
                return msg.content
            }
        }
    }
}

fun main() {
    println("softchat ${Softchat.version()}: ${roundTrip("hello from a consumer")}")
}
