#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One IP address, or a block of them in CIDR notation (`10.0.0.0/8`, `fd00::/8`), as the
/// `server.trusted_proxies` and `server.monitoring_clients` settings list them.
///
/// An IPv4 address written as IPv6 (`::ffff:10.1.2.3`) is that IPv4 address, on either side of
/// a match: a server listening on `::` sees its IPv4 clients that way. A block whose address
/// has host bits set (`10.1.2.3/8`) is the block that address is in, as nginx reads one.
public struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The block's first address: 4 or 16 bytes, the bits past `prefixLength` zero.
    private let network: [UInt8]
    private let prefixLength: Int

    /// The text it was read from.
    public let description: String

    /// Reads an address (`192.0.2.7`, `::1`) or a block (`10.0.0.0/8`, `fd00::/8`).
    /// `nil` for anything else: a host name, a zone (`fe80::1%eth0`), a prefix longer than the
    /// address, or a block that mixes IPv4 addresses written as IPv6 with other IPv6 ones.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let (address, mapped) = Self.bytes(of: String(parts[0])) else { return nil }
        var length = address.count * 8
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                var written = Int(digits), written <= (mapped ? 128 : length)
            else { return nil }
            if mapped {
                guard written >= 96 else { return nil }
                written -= 96
            }
            length = written
        }
        network = Self.masked(address, to: length)
        prefixLength = length
        description = text
    }

    /// Whether `address` (an IP address as a socket names it) is in this block; `false` for
    /// text that is not an IP address.
    public func contains(_ address: String) -> Bool {
        guard let (bytes, _) = Self.bytes(of: address) else { return false }
        return contains(bytes: bytes)
    }

    func contains(bytes: [UInt8]) -> Bool {
        bytes.count == network.count && Self.masked(bytes, to: prefixLength) == network
    }

    /// Why `text` is refused, or `nil` when it is an address or a block (the shape of
    /// `WebOrigin.problem(_:)`, for a `config_invalid` message).
    public static func problem(_ text: String) -> String? {
        IPAddressRange(text) == nil
            ? "\"\(text)\" is not an IP address (192.0.2.7, ::1) or a CIDR block (10.0.0.0/8, fd00::/8)" : nil
    }

    /// The address's 4 or 16 bytes (an IPv4-mapped IPv6 address as its 4), and whether it was
    /// written as IPv4-mapped.
    static func bytes(of text: String) -> ([UInt8], mapped: Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return (withUnsafeBytes(of: &v4) { Array($0) }, false)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        if bytes.starts(with: mappedPrefix) { return (Array(bytes[12...]), true) }
        return (bytes, false)
    }

    private static func masked(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(max(length - index * 8, 0), 8)
            return kept == 8 ? byte : byte & ~(UInt8.max >> kept)
        }
    }
}

extension Sequence<IPAddressRange> {
    /// Whether any of the ranges holds `address` (read once); `false` for text that is not an
    /// IP address.
    public func containsAddress(_ address: String) -> Bool {
        guard let (bytes, _) = IPAddressRange.bytes(of: address) else { return false }
        return contains { $0.contains(bytes: bytes) }
    }
}
