package org.softchat.jmh;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.softchat.Attachments;
import org.softchat.Nip44Conversation;
import org.softchat.Receiver;
import org.softchat.Rumor;
import org.softchat.Softchat;
import org.softchat.SoftchatIdentity;

/**
 * Every measured operation of every side, as a Supplier over fixed inputs, shared by the JMH
 * benchmarks and the object counter (AllocCount) so both measure exactly the same call.
 * Sides: "softchat" (the facade), "bouncycastle" (NIP-44 baseline), "bc-acinq" (the
 * baseline's events: ACINQ secp256k1-kmp for keys and BIP-340, Bouncy Castle SHA-256, Gson)
 * and "rust-nostr" (rust-nostr's JVM binding, RustNostr.kt) on every operation it offers: a
 * Supplier a side does not offer is null.
 */
final class Sides {
    private Sides() {}

    static final List<List<String>> NO_TAGS = Collections.emptyList();
    static final long CREATED_AT = 1700000000L;

    /** The state of one side for NIP-44 at one size. */
    static final class Nip44 {
        final Supplier<Object> encrypt, decrypt, encryptHeld, decryptHeld;

        Nip44(String side, int bytes) {
            Softchat sc = Softchat.getDefault();
            String pt = Inputs.text(bytes);
            SoftchatIdentity alice = sc.importIdentity(Inputs.ALICE);
            SoftchatIdentity bob = sc.importIdentity(Inputs.BOB);
            // the facade's keys are PublicKey values: their hex Strings, as Java sees them
            String alicePub = alice.getPublicKey(), bobPub = bob.getPublicKey();
            byte[] alicePubBytes = alice.publicKeyBytes(), bobPubBytes = bob.publicKeyBytes();
            String payload = alice.nip44Encrypt(bobPub, pt); // the same payload for every side
            switch (side) {
                case "softchat" -> {
                    Nip44Vectors.checkSoftchat(sc);
                    Nip44Conversation ca = alice.conversation(bobPub), cb = bob.conversation(alicePub);
                    encrypt = () -> alice.nip44Encrypt(bobPub, pt);
                    decrypt = () -> bob.nip44Decrypt(alicePub, payload);
                    encryptHeld = () -> ca.encrypt(pt);
                    decryptHeld = () -> cb.decrypt(payload);
                }
                case "bouncycastle" -> {
                    Nip44Vectors.checkBouncyCastle();
                    byte[] as = Inputs.ALICE, bs = Inputs.BOB;
                    byte[] ck = BcNip44.conversationKey(as, bobPubBytes);
                    if (!BcNip44.decrypt(ck, payload).equals(pt) || !bob.nip44Decrypt(alicePub, BcNip44.encrypt(ck, pt)).equals(pt)) {
                        throw new IllegalStateException("Bouncy Castle and softchat payloads do not interoperate");
                    }
                    encrypt = () -> BcNip44.encrypt(BcNip44.conversationKey(as, bobPubBytes), pt);
                    decrypt = () -> BcNip44.decrypt(BcNip44.conversationKey(bs, alicePubBytes), payload);
                    encryptHeld = () -> BcNip44.encrypt(ck, pt);
                    decryptHeld = () -> BcNip44.decrypt(ck, payload);
                }
                case "rust-nostr" -> { // no held conversation in the binding
                    RustNostr.Nip44 r = new RustNostr.Nip44(bytes);
                    encrypt = r.getEncrypt();
                    decrypt = r.getDecrypt();
                    encryptHeld = null;
                    decryptHeld = null;
                }
                default -> throw new IllegalArgumentException(side);
            }
        }
    }

    /** Keys and events of one side. */
    static final class Events {
        final Supplier<Object> importIdentity, sign, parseVerify;
        private int next;

        Events(String side) {
            Softchat sc = Softchat.getDefault();
            String content = Inputs.text(32);
            // 16 signed events (kind 1, no tags, 32 bytes of content) by 16 authors: 374 bytes each
            String[] events = new String[16];
            for (int i = 0; i < 16; i++) {
                try (SoftchatIdentity a = sc.importIdentity(Inputs.secret(10 + i))) {
                    events[i] = a.sign(1, CREATED_AT + i, NO_TAGS, content).getJson();
                }
            }
            byte[] sec = Inputs.ALICE;
            switch (side) {
                case "softchat" -> {
                    SoftchatIdentity alice = sc.importIdentity(sec);
                    importIdentity = () -> {
                        SoftchatIdentity id = sc.importIdentity(sec);
                        id.erase();
                        return id;
                    };
                    sign = () -> alice.sign(1, CREATED_AT, NO_TAGS, content);
                    parseVerify = () -> sc.parseEvent(events[next++ & 15]);
                }
                case "bc-acinq" -> {
                    String pub = org.bouncycastle.util.encoders.Hex.toHexString(BcEvents.xonly(sec));
                    for (String e : events) {
                        BcEvents.parseVerify(e); // the baseline reads our events
                    }
                    sc.parseEvent(BcEvents.sign(sec, pub, CREATED_AT, 1, NO_TAGS, content)); // and we read its
                    importIdentity = () -> BcEvents.xonly(sec);
                    sign = () -> BcEvents.sign(sec, pub, CREATED_AT, 1, NO_TAGS, content);
                    parseVerify = () -> BcEvents.parseVerify(events[next++ & 15]);
                }
                case "rust-nostr" -> {
                    RustNostr.Events r = new RustNostr.Events(events);
                    importIdentity = r.getImportIdentity();
                    sign = r.getSign();
                    parseVerify = r.getParseVerify();
                }
                default -> throw new IllegalArgumentException(side);
            }
        }
    }

    /** NIP-59, NIP-17 and attachments; rust-nostr offers gift wrap, NIP-17 and unwrap. */
    static final class Messaging {
        final Supplier<Object> rumor, nip17Message, giftWrap, unwrap, attachmentEncrypt;
        private int next;

        Messaging(String side) {
            Softchat sc = Softchat.getDefault();
            SoftchatIdentity alice = sc.importIdentity(Inputs.ALICE);
            SoftchatIdentity bob = sc.importIdentity(Inputs.BOB);
            String bobPub = bob.getPublicKey();
            String text = Inputs.text(15);
            List<List<String>> p = List.of(List.of("p", bob.getPublicKeyHex()));
            List<Receiver> to = List.of(new Receiver(bob.publicKeyBytes(), null));
            Rumor r = alice.rumor(14, CREATED_AT, p, text);
            List<String> wraps = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                wraps.add(alice.giftWrap(r, bobPub));
            }
            byte[] file = new byte[64000];
            OutputStream sink = OutputStream.nullOutputStream();
            if (side.equals("rust-nostr")) {
                RustNostr.Messaging rn = new RustNostr.Messaging(wraps);
                nip17Message = rn.getNip17Message();
                giftWrap = rn.getGiftWrap();
                unwrap = rn.getUnwrap();
                rumor = null;
                attachmentEncrypt = null;
                return;
            }
            if (!side.equals("softchat")) {
                throw new IllegalArgumentException(side);
            }
            rumor = () -> alice.rumor(14, CREATED_AT, p, text);
            nip17Message = () -> alice.sendMessage(to, text, CREATED_AT);
            giftWrap = () -> alice.giftWrap(r, bobPub);
            unwrap = () -> bob.unwrap(wraps.get(next++ & 15));
            attachmentEncrypt = () -> {
                org.softchat.EncryptedAttachment a = Attachments.encrypt(new ByteArrayInputStream(file), sink);
                a.erase();
                return a;
            };
        }
    }
}
