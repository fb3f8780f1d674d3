package org.softchat.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A received NIP-17 message: the rumor of a gift wrap that passed every check of the unwrap
 * (wrap signature, seal signature and kind, rumor id, rumor author equal to the seal signer).
 */
public final class Message {
    /** The sender's x-only public key (the seal signer), 32 bytes. */
    public final byte[] sender;
    /** 14 (chat) or 15 (file). */
    public final int kind;
    /** The rumor's created_at, in seconds. */
    public final long createdAt;
    /** The rumor's content. */
    public final String content;
    /** The whole rumor as one line of JSON (tags included). */
    public final String rumorJson;
    /** The room: the sender, then each distinct p-tag public key, 32 bytes each. */
    public final byte[][] room;

    Message(byte[] rumorJson, byte[] content, byte[] sender, byte[] room, int kind,
            long createdAt) {
        this.rumorJson = new String(rumorJson, StandardCharsets.UTF_8);
        this.content = new String(content, StandardCharsets.UTF_8);
        this.sender = sender;
        this.kind = kind;
        this.createdAt = createdAt;
        this.room = new byte[room.length / 32][];
        for (int i = 0; i < this.room.length; i++) {
            this.room[i] = Arrays.copyOfRange(room, 32 * i, 32 * i + 32);
        }
    }
}
