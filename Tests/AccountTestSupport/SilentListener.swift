import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on loopback that takes connections and never answers: the kernel completes each
/// client's handshake into the listen queue, and nothing ever accepts or reads. What a client
/// sees of a host that is reachable but stalled (a server stopped mid-way, a proxy that holds
/// the line), without any timing of the test's own.
package struct SilentListener: ~Copyable {
    /// The port it listens on, chosen by the system.
    package let port: Int
    private let descriptor: Int32

    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 64) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops listening: the port refuses connections from now on. A test calls it once done
    /// with the port, so that the port is sure to be open until then.
    package consuming func stop() {
        close(descriptor)
        discard self
    }

    deinit { close(descriptor) }
}
