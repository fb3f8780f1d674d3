package org.softchat.internal

/**
 * The JNI surface of libsoftchat_jni (bindings/kotlin/jni): every method is registered by the
 * library's JNI_OnLoad, so a signature that drifts from its C function fails when the library
 * loads. A parameter typed Any that takes a public key or an event id takes a ByteArray(32) or
 * the 64-digit hex String of a PublicKey or EventId (decoded in native code). Internal to the SDK: apps use the org.softchat facade. Handles are native pointers
 * (slots: pooled contexts; identities, conversations, streams: wiped native memory).
 *
 * Loading: [NativeLoader] (the file named by the system property "softchat.jni.path"; on
 * Android the APK's lib/<abi>/; on a desktop JVM the library this jar carries, checked
 * against its recorded SHA-256; else java.library.path).
 */
internal object NativeBridge {
    init {
        NativeLoader.load()
    }

    /** Forces loading (the object's initializer). */
    fun load() {}

    @JvmStatic external fun slotNew(backend: ByteArray?): Long
    @JvmStatic external fun slotFree(slot: Long)
    @JvmStatic external fun slotBackend(slot: Long): ByteArray
    @JvmStatic external fun backends(): ByteArray
    @JvmStatic external fun statusName(code: Int): ByteArray
    @JvmStatic external fun version(): ByteArray

    @JvmStatic external fun identityImport(slot: Long, secret: ByteArray, pubOut: ByteArray): Long
    @JvmStatic external fun identityGenerate(slot: Long, pubOut: ByteArray): Long
    @JvmStatic external fun identityFree(id: Long)
    @JvmStatic external fun identitySecret(id: Long, out: ByteArray)
    @JvmStatic external fun schnorrSign(slot: Long, id: Long, msg: ByteArray, aux: ByteArray?): ByteArray
    @JvmStatic external fun schnorrVerify(slot: Long, sig: ByteArray, msg: ByteArray, pub: Any): Boolean

    @JvmStatic external fun nip44EncryptTo(slot: Long, id: Long, peer: Any, pt: ByteArray, flags: Int): String
    @JvmStatic external fun nip44DecryptFrom(slot: Long, id: Long, peer: Any, payload: ByteArray, max: Int): ByteArray
    @JvmStatic external fun convNew(slot: Long, id: Long, peer: Any): Long
    @JvmStatic external fun convFromKey(key: ByteArray): Long
    @JvmStatic external fun convFree(conv: Long)
    @JvmStatic external fun convEncrypt(slot: Long, conv: Long, pt: ByteArray, flags: Int): String
    @JvmStatic external fun convDecrypt(slot: Long, conv: Long, payload: ByteArray, max: Int): ByteArray
    @JvmStatic external fun keyEncrypt(slot: Long, key: ByteArray, nonce: ByteArray, pt: ByteArray, flags: Int): String
    @JvmStatic external fun keyDecrypt(slot: Long, key: ByteArray, payload: ByteArray, max: Int): ByteArray
    @JvmStatic external fun conversationKey(slot: Long, sec: ByteArray, pub: ByteArray): ByteArray

    @JvmStatic external fun eventSign(slot: Long, id: Long, kind: Int, createdAt: Long, tags: ByteArray?, content: ByteArray, aux: ByteArray?): ByteArray
    @JvmStatic external fun eventRumor(slot: Long, author: ByteArray, kind: Int, createdAt: Long, tags: ByteArray?, content: ByteArray): ByteArray
    @JvmStatic external fun eventParseVerify(slot: Long, json: ByteArray, max: Int): ByteArray

    @JvmStatic external fun giftWrap(slot: Long, author: Long, kind: Int, createdAt: Long, tags: ByteArray?, content: ByteArray, recipient: Any, flags: Int, relay: ByteArray?, expiration: Long, now: Long): ByteArray
    @JvmStatic external fun unwrap(slot: Long, id: Long, wrap: ByteArray, max: Int, now: Long): ByteArray
    @JvmStatic external fun receive(slot: Long, id: Long, wrap: ByteArray, max: Int, now: Long): ByteArray
    @JvmStatic external fun send(slot: Long, id: Long, peers: ByteArray, content: ByteArray, createdAt: Long, subject: ByteArray?, replyTo: Any?, flags: Int, relay: ByteArray?, expiration: Long, now: Long): ByteArray
    @JvmStatic external fun sendFile(slot: Long, id: Long, peers: ByteArray, file: ByteArray, createdAt: Long, subject: ByteArray?, replyTo: Any?, flags: Int, relay: ByteArray?, expiration: Long, now: Long): ByteArray
    @JvmStatic external fun fileParse(slot: Long, tags: ByteArray?, content: ByteArray): ByteArray

    @JvmStatic external fun nip19Encode(type: Int, key: Any?, author: Any?, kind: Int, hasKind: Boolean, identifier: ByteArray?, relays: ByteArray?): ByteArray
    @JvmStatic external fun nip19Decode(text: ByteArray): ByteArray

    @JvmStatic external fun fileEncInit(slot: Long, keyOut: ByteArray, ivOut: ByteArray): Long
    @JvmStatic external fun fileEncUpdate(state: Long, input: ByteArray, len: Int, out: ByteArray): Int
    @JvmStatic external fun fileEncFinal(state: Long, out: ByteArray, meta: ByteArray): Int
    @JvmStatic external fun fileEncFree(state: Long)
    @JvmStatic external fun fileDecInit(slot: Long, key: ByteArray, iv: ByteArray, max: Long): Long
    @JvmStatic external fun fileDecUpdate(state: Long, input: ByteArray, len: Int)
    @JvmStatic external fun fileDecFinal(state: Long, meta: ByteArray): Long
    @JvmStatic external fun fileDecRead(state: Long, offset: Long, out: ByteArray, len: Int)
    @JvmStatic external fun fileDecFree(state: Long)

    @JvmStatic external fun poolNew(options: IntArray): Long
    @JvmStatic external fun poolFree(pool: Long)
    @JvmStatic external fun poolRelayAdd(pool: Long, url: ByteArray): Int
    @JvmStatic external fun poolSubscribe(pool: Long, subId: ByteArray, filters: ByteArray, relays: IntArray, resumeSlack: Long, eoseTimeoutMs: Int, flags: Int): Int
    @JvmStatic external fun poolSubscribeInboxes(pool: Long, subId: ByteArray, users: ByteArray, relays: IntArray, eoseTimeoutMs: Int, flags: Int): Int
    @JvmStatic external fun poolUnsubscribe(pool: Long, sub: Int)
    @JvmStatic external fun poolPublish(pool: Long, event: ByteArray, relays: IntArray): Int
    @JvmStatic external fun poolConnected(pool: Long, relay: Int, nowMs: Long)
    @JvmStatic external fun poolDisconnected(pool: Long, relay: Int, nowMs: Long)
    @JvmStatic external fun poolNext(pool: Long, relay: Int): ByteArray?
    @JvmStatic external fun poolReceive(slot: Long, pool: Long, relay: Int, text: ByteArray, nowMs: Long): Int
    @JvmStatic external fun poolPoll(slot: Long, pool: Long, nowMs: Long): ByteArray?
    @JvmStatic external fun poolWakeup(pool: Long): Long
    @JvmStatic external fun poolAuthIdentity(pool: Long, identity: Long)
    @JvmStatic external fun deliveryNew(pool: Long, wraps: ByteArray, routes: ByteArray): Long
    @JvmStatic external fun deliveryResult(pool: Long, delivery: Long): ByteArray
    @JvmStatic external fun deliveryFree(pool: Long, delivery: Long)
    @JvmStatic external fun inboxesNew(maxUsers: Int, maxRelays: Int, maxUrl: Int): Long
    @JvmStatic external fun inboxesFree(inboxes: Long)
    @JvmStatic external fun inboxesAdd(inboxes: Long, event: ByteArray)
    @JvmStatic external fun inboxesGet(inboxes: Long, user: Any, flags: Int): ByteArray?

    @JvmStatic external fun negNew(items: ByteArray, filter: ByteArray, subId: ByteArray, frameLimit: Int, maxMessage: Int): Long
    @JvmStatic external fun negFree(neg: Long)
    @JvmStatic external fun negOpen(slot: Long, neg: Long): ByteArray
    @JvmStatic external fun negCloseMessage(neg: Long): ByteArray
    @JvmStatic external fun negReceive(slot: Long, neg: Long, text: ByteArray): ByteArray

    /** Frees a handle of the given kind (NativeHandle.KIND_*). */
    fun free(kind: Int, handle: Long) {
        when (kind) {
            NativeHandle.KIND_IDENTITY -> identityFree(handle)
            NativeHandle.KIND_CONVERSATION -> convFree(handle)
            NativeHandle.KIND_SLOT -> slotFree(handle)
            NativeHandle.KIND_NEGENTROPY -> negFree(handle)
        }
    }
}
