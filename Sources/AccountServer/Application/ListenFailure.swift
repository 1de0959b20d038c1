public import AccountCore
public import AccountServerSettings
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The address cannot be listened on now, though it may be later: the port is held by another
/// process (an old server still stopping), or the address is not up yet (at boot). Starting
/// again can mend it, so a supervisor should retry, unlike a configuration error.
public struct CannotListen: Error, Sendable, Equatable {
    /// What is in the way, naming the address.
    public let reason: String

    /// The failure, saying what is in the way.
    public init(reason: String) {
        self.reason = reason
    }
}

extension ServerSettings {
    /// What a failure to start listening means for the operator: `configInvalid` naming the
    /// `server.host` or `server.port` to change and why, instead of SwiftNIO's `bind(…)` text,
    /// for what only a changed setting mends; `nil` otherwise (see ``cannotListen(for:)``).
    public func configurationError(for error: any Error) -> AccountError? {
        if error is SocketAddressError.UnknownHost || error is SocketAddressError {
            return .configInvalid(
                key: "server.host", reason: "'\(host)' is not an IP address or a name this host can resolve")
        }
        guard let io = error as? IOError, io.errnoCode == EACCES else { return nil }
        return .configInvalid(
            key: "server.port",
            reason: "listening on port \(port) needs a privilege this process does not have (ports below 1024); "
                + "use a port above 1023 behind a proxy, or grant CAP_NET_BIND_SERVICE")
    }

    /// A failure to listen that may pass (the port in use, the address not up yet), or `nil`.
    public func cannotListen(for error: any Error) -> CannotListen? {
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case EADDRINUSE:
            return CannotListen(
                reason: "\(host):\(port) is already in use by another process (another port: --port or server.port)")
        case EADDRNOTAVAIL: return CannotListen(reason: "\(host) is not an address of this host")
        default: return nil
        }
    }

    /// `error` as the operator should see it: a configuration error, a ``CannotListen``, or
    /// itself.
    public func listenFailure(for error: any Error) -> any Error {
        configurationError(for: error) ?? cannotListen(for: error) ?? error
    }

    /// Binds the address and lets it go at once, so that a server that cannot listen is told
    /// before it opens (or creates) its store. Port 0 (any free port) always binds. The server
    /// binds again when it starts; another process taking the port in between still fails it
    /// then, with the same error.
    /// - Throws: ``listenFailure(for:)`` of the bind's error.
    public func probe() async throws {
        guard port != 0 else { return }
        do {
            // Reusing the address as the server does, so a closed connection's TIME_WAIT that
            // would not stop the server does not stop the probe either.
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
            try await channel.close()
        } catch {
            throw listenFailure(for: error)
        }
    }
}
