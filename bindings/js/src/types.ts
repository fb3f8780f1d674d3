// The plain data of the API: events as nostr-tools and NIP-01 shape them, and options.

/** An event to sign or a rumor to make: created_at defaults to now, tags to []. */
export interface EventTemplate {
  kind: number;
  content: string;
  tags?: string[][];
  created_at?: number;
}

/** A signed NIP-01 event (the shape nostr-tools uses): hex id, pubkey and sig. */
export interface NostrEvent {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
  sig: string;
}

/** An unsigned event with its id (NIP-59). */
export interface Rumor {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
}

/** A public key or an id: 32 bytes, or 64 hex characters. */
export type Key = Uint8Array | string;

/** NIP-59 wrap options. */
export interface WrapOptions {
  /** kind 21059 instead of 1059 */
  ephemeral?: boolean;
  /** allow the NIP-44 extended prefix for a rumor or seal of 65536 bytes or more */
  extended?: boolean;
  /** relay hint for the wrap's p tag (NIP-17: the sender's copy only) */
  relay?: string;
  /** NIP-40 expiration (unix seconds) on the wrap and the seal */
  expiration?: number;
  /** with an expiration: on the wrap only */
  expirationWrapOnly?: boolean;
  /** the current time (unix seconds); default: the clock */
  now?: number;
}

/** What unwrap authenticated about the outer layers. */
export interface WrapInfo {
  /** the seal's signer: the real author */
  sender: string;
  wrapPubkey: string;
  wrapId: string;
  sealId: string;
  wrapKind: number;
  wrapCreatedAt: number;
  sealCreatedAt: number;
}

export interface UnwrappedRumor extends WrapInfo {
  rumor: Rumor;
}

/** A NIP-17 receiver. */
export interface Receiver {
  pubkey: Key;
  relay?: string;
}

/** A citation (q tag). */
export interface Quote {
  target: string;
  relay?: string;
  author?: string;
}

/** NIP-17 message options (the wrap options apply to every wrap). */
export interface MessageOptions extends WrapOptions {
  /** the real time of the message (unix seconds); default: now */
  createdAt?: number;
  subject?: string;
  replyTo?: Key;
  replyRelay?: string;
  quotes?: Quote[];
}

/** The attachment of a kind 15 message (key and IV from Attachments.encrypt). */
export interface FileMessage {
  url: string;
  fileType: string;
  key: Uint8Array;
  iv: Uint8Array;
  /** sha256 of the blob (ciphertext and tag) */
  x: Key;
  /** sha256 of the plaintext */
  ox?: Key;
  /** bytes of the blob */
  size?: number;
  dim?: string;
  blurhash?: string;
  thumb?: string;
  fallbacks?: string[];
}

/** One gift wrap of a message: its recipient and the wrap event's JSON. */
export interface GiftWrap {
  recipient: string;
  json: string;
  /** the wrap as an object (parsed when first read) */
  readonly event: NostrEvent;
}

/** A kind 15 message's attachment as received: the key and IV as bytes (wipe them after
 *  use); the decryption-key tag is not among the message's tags. */
export interface ReceivedFile {
  url: string;
  fileType: string;
  key: Uint8Array;
  iv: Uint8Array;
}
