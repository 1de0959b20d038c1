public import Hummingbird
import NIOCore

/// What the account routes need from a request context besides Hummingbird's own: the peer's
/// address, for per-client limits. An application mounting the routes in its own router uses
/// ``AccountRequestContext`` or makes its own context conform.
public protocol AccountRoutesContext: RequestContext {
    /// The address of the TCP peer (a reverse proxy's, when there is one).
    var peerAddress: String? { get }
}

/// The request context of `accounts serve`: Hummingbird's core storage and the socket's peer.
public struct AccountRequestContext: AccountRoutesContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, without the port.
    public let peerAddress: String?

    /// Reads the peer from the accepted channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }
}
