package org.softchat.jmh;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import fr.acinq.secp256k1.Secp256k1;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.util.encoders.Hex;

/**
 * The baseline's NIP-01 events: the canonical serialization (written here after NIP-01),
 * SHA-256 of Bouncy Castle, BIP-340 of ACINQ's secp256k1-kmp (libsecp256k1 over JNI), and
 * JSON parsing by Gson, as a pure-Kotlin SDK would combine them.
 */
final class BcEvents {
    private static final Secp256k1 SECP = Secp256k1.get();
    private static final SecureRandom RNG = new SecureRandom();

    private BcEvents() {}

    /** A parsed event. */
    record Event(String id, String pubkey, long createdAt, int kind, List<List<String>> tags,
                 String content, String sig) {}

    static byte[] xonly(byte[] sec) {
        byte[] full = SECP.pubkeyCreate(sec); // 65 bytes, uncompressed
        return java.util.Arrays.copyOfRange(full, 1, 33);
    }

    private static void str(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    private static void tags(StringBuilder b, List<List<String>> tags) {
        b.append('[');
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('[');
            List<String> t = tags.get(i);
            for (int j = 0; j < t.size(); j++) {
                if (j > 0) {
                    b.append(',');
                }
                str(b, t.get(j));
            }
            b.append(']');
        }
        b.append(']');
    }

    static byte[] id(String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        StringBuilder b = new StringBuilder(128 + content.length());
        b.append("[0,\"").append(pubkey).append("\",").append(createdAt).append(',').append(kind).append(',');
        tags(b, tags);
        b.append(',');
        str(b, content);
        b.append(']');
        byte[] text = b.toString().getBytes(StandardCharsets.UTF_8);
        SHA256Digest d = new SHA256Digest();
        d.update(text, 0, text.length);
        byte[] id = new byte[32];
        d.doFinal(id, 0);
        return id;
    }

    /** Signs a new event: the JSON object with id and sig. */
    static String sign(byte[] sec, String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        byte[] id = id(pubkey, createdAt, kind, tags, content);
        byte[] aux = new byte[32];
        RNG.nextBytes(aux);
        byte[] sig = SECP.signSchnorr(id, sec, aux);
        StringBuilder b = new StringBuilder(256 + content.length());
        b.append("{\"id\":\"").append(Hex.toHexString(id)).append("\",\"pubkey\":\"").append(pubkey)
         .append("\",\"created_at\":").append(createdAt).append(",\"kind\":").append(kind).append(",\"tags\":");
        tags(b, tags);
        b.append(",\"content\":");
        str(b, content);
        b.append(",\"sig\":\"").append(Hex.toHexString(sig)).append("\"}");
        return b.toString();
    }

    /** Parses and verifies (id recomputed, signature checked); throws when either fails. */
    static Event parseVerify(String json) {
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();
        String id = o.get("id").getAsString();
        String pubkey = o.get("pubkey").getAsString();
        String sig = o.get("sig").getAsString();
        if (id.length() != 64 || pubkey.length() != 64 || sig.length() != 128) {
            throw new IllegalArgumentException("bad field");
        }
        long createdAt = o.get("created_at").getAsLong();
        int kind = o.get("kind").getAsInt();
        JsonArray ta = o.get("tags").getAsJsonArray();
        List<List<String>> tags = new ArrayList<>(ta.size());
        for (JsonElement t : ta) {
            List<String> items = new ArrayList<>();
            for (JsonElement s : t.getAsJsonArray()) {
                items.add(s.getAsString());
            }
            tags.add(items);
        }
        String content = o.get("content").getAsString();
        byte[] computed = id(pubkey, createdAt, kind, tags, content);
        if (!Hex.toHexString(computed).equals(id)) {
            throw new IllegalArgumentException("id mismatch");
        }
        if (!SECP.verifySchnorr(Hex.decode(sig), computed, Hex.decode(pubkey))) {
            throw new IllegalArgumentException("invalid signature");
        }
        return new Event(id, pubkey, createdAt, kind, tags, content, sig);
    }
}
