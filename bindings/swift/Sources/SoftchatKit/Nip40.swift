// NIP-40: expiration timestamps of events.
import CSoftchat

/// NIP-40 expiration of any event. Gift wraps get theirs from `WrapOptions.expiration`, and
/// `unwrap` / `receive` refuse expired layers.
public enum Nip40 {
    /// The event's expiration time, or nil without an expiration tag (`SC_ERR_EVENT_FIELD`
    /// for a value that is not one decimal time, or two expiration tags).
    public static func expiration(of event: NostrEvent) throws -> Int64? {
        let mem = CMemory()
        var ev = try cEvent(event, mem: mem)
        var t: Int64 = 0
        let s = sc_nip40_expiration(&ev, &t)
        if s == SC_ERR_NOT_FOUND { return nil }
        try check(s)
        return t
    }

    /// Whether the event has expired at `now` (unix seconds): true from its expiration on.
    public static func isExpired(_ event: NostrEvent, at now: Int64) throws -> Bool {
        let mem = CMemory()
        var ev = try cEvent(event, mem: mem)
        let s = sc_nip40_check(&ev, now)
        if s == SC_ERR_EXPIRED { return true }
        try check(s)
        return false
    }
}
