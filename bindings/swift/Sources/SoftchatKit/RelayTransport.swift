// The relay client's transport hook, and its URLSessionWebSocketTask implementation.
import CSoftchat
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One WebSocket to a relay, as the relay client uses it: text frames in order.
public protocol RelayConnection: Sendable {
    /// Sends one text frame.
    func send(_ text: String) async throws
    /// The next text frame; nil once the connection closed.
    func receive() async throws -> String?
    /// Closes the connection (idempotent).
    func close()
}

/// Opens connections for the relay client: `URLSessionRelayTransport` by default; tests and
/// apps with a WebSocket of their own implement it.
public protocol RelayTransport: Sendable {
    /// Opens a WebSocket to `url` (ws:// or wss://); throws when it cannot.
    func connect(to url: String) async throws -> any RelayConnection
}

/// WebSockets through Foundation's `URLSessionWebSocketTask` (FoundationNetworking on Linux).
public struct URLSessionRelayTransport: RelayTransport {
    private let session: URLSession
    /// The longest frame accepted (the pool refuses longer messages anyway).
    private let maximumMessageSize: Int

    public init(session: URLSession = .shared, maximumMessageSize: Int = 1 << 20) {
        self.session = session
        self.maximumMessageSize = maximumMessageSize
    }

    public func connect(to url: String) async throws -> any RelayConnection {
        guard let u = URL(string: url) else { throw SoftchatError(SC_ERR_ENCODING) }
        let task = session.webSocketTask(with: u)
        task.maximumMessageSize = maximumMessageSize
        task.resume()
        let c = WebSocketConnection(task)
        // a ping answered proves the socket open (the relay may say nothing first)
        try await c.ping()
        return c
    }
}

final class WebSocketConnection: RelayConnection, @unchecked Sendable {
    private let task: URLSessionWebSocketTask

    init(_ task: URLSessionWebSocketTask) { self.task = task }

    func ping() async throws {
        try await withCheckedThrowingContinuation { (k: CheckedContinuation<Void, Error>) in
            task.sendPing { error in
                if let error { k.resume(throwing: error) } else { k.resume() }
            }
        }
    }

    func send(_ text: String) async throws {
        try await task.send(.string(text))
    }

    func receive() async throws -> String? {
        switch try await task.receive() {
        case .string(let s): return s
        case .data(let d): return String(decoding: d, as: UTF8.self)
        @unknown default: return nil
        }
    }

    func close() {
        task.cancel(with: .normalClosure, reason: nil)
    }
}
