public import AccountCore
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

extension ListenSettings {
    /// What a failure to start listening means for the operator: `configInvalid` naming the
    /// `server.host` or `server.port` to change and why, instead of SwiftNIO's `bind(…)` text;
    /// `nil` when `error` is not about the address.
    public func configurationError(for error: any Error) -> AccountError? {
        if error is SocketAddressError.UnknownHost || error is SocketAddressError {
            return .configInvalid(
                key: "server.host", reason: "'\(host)' is not an IP address or a name this host can resolve")
        }
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case EADDRINUSE:
            return .configInvalid(key: "server.port", reason: "\(host):\(port) is already in use by another process")
        case EACCES:
            return .configInvalid(
                key: "server.port",
                reason:
                    "listening on port \(port) needs a privilege this process does not have (ports below 1024); "
                    + "use a port above 1023 behind a proxy, or grant CAP_NET_BIND_SERVICE")
        case EADDRNOTAVAIL:
            return .configInvalid(key: "server.host", reason: "\(host) is not an address of this host")
        default:
            return nil
        }
    }
}
