// SoftchatError: the one error of SoftchatKit, carrying the library's status.
import CSoftchat

/// Every failure of SoftchatKit: a status of libsoftchat (the frozen `sc_status` values of
/// api/softchat/status.h), or one the facade raises under the same names: `SC_ERR_ARG` (a
/// key or id of the wrong length, a malformed argument), `SC_ERR_STATE` (an erased identity
/// or conversation), `SC_ERR_TOO_LARGE` (an input over a limit, refused before anything is
/// allocated for it), `SC_ERR_IO` (an attachment stream failed).
public struct SoftchatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The numeric status (negative; stable across releases).
    public let status: Int32
    /// What failed outside the library, for `SC_ERR_IO` (the stream's own error).
    public let detail: String?

    init(_ status: sc_status, detail: String? = nil) {
        self.status = status.rawValue
        self.detail = detail
    }

    /// The status's stable symbolic name, e.g. `SC_ERR_MAC`.
    public var name: String { String(cString: sc_status_name(sc_status(rawValue: status))) }

    /// A short English description (may be reworded between releases).
    public var message: String { String(cString: sc_status_str(sc_status(rawValue: status))) }

    public var description: String { "\(name): \(message)" + (detail.map { " (\($0))" } ?? "") }

    static let arg = SoftchatError(SC_ERR_ARG)
    static let state = SoftchatError(SC_ERR_STATE)
    static let tooLarge = SoftchatError(SC_ERR_TOO_LARGE)
    static let io = SoftchatError(SC_ERR_IO)
}

/// Throws the status unless it is SC_OK.
@inline(__always)
func check(_ s: sc_status) throws(SoftchatError) {
    if s != SC_OK { throw SoftchatError(s) }
}
