package example

import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.softchat.Nip19
import org.softchat.Nip19Entity
import org.softchat.PublicKey
import org.softchat.Receiver
import org.softchat.RelayPool
import org.softchat.Softchat

/** A NIP-17 DM client: dm NSEC INBOX_RELAY [NPUB TEXT [PEER_INBOX_RELAY]] */
fun dm(args: Array<String>) = runBlocking {
    val secret = (Nip19.decode(args[0].toByteArray()) as Nip19Entity.Nsec).secretKey
    val me = Softchat.default().importIdentity(secret).also { secret.fill(0) }
    val inbox = listOf(args[1])
    RelayPool().use { pool ->
        pool.authenticateAs(me) // NIP-42, for relays that ask
        val reader = launch {
            pool.messages(me, inbox).collect { m -> println("${m.sender.toNpub()}: ${m.content}") }
        }
        if (args.size >= 4) {
            val peer = PublicKey.parse(args[2])
            val peerInbox = listOf(args.getOrElse(4) { args[1] })
            val report = pool.sendMessage(me, listOf(Receiver(peer)), args[3], mapOf(peer to peerInbox), inbox)
            println("sent: ${report.outcome}")
            reader.cancel()
        } else {
            reader.join() // read until interrupted
        }
    }
    me.close()
}
