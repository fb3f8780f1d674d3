// softchat: Nostr private messaging for the web (NIP-44, NIP-59, NIP-17, NIP-19, NIP-40,
// attachments, Negentropy, relay sessions) over libsoftchat in WebAssembly.
export { Softchat, type LoadOptions } from './softchat.js';
export { SoftchatError, Status } from './errors.js';
export { Identity, Nip44Conversation, PrivateMessage, type Nip44Options, type DecryptOptions } from './identity.js';
export { Nip19, type Nip19Entity } from './nip19.js';
export { Attachments, type AttachmentStream, type EncryptedAttachment, type DecryptedAttachment } from './attachments.js';
export { Negentropy, type NegentropyItem, type ReconcileResult } from './negentropy.js';
export { RelaySession, type RelaySessionOptions, type Filter, type SubscriptionHandlers, type PublishResult } from './relay.js';
export { RelayPool, type RelayPoolOptions, type PoolPublishResult, type PoolSubscriptionHandlers, type PoolSubscribeOptions } from './pool.js';
export { toHex, fromHex } from './core.js';
export type * from './types.js';
