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
    /// The block's first address, the bits past the prefix zero; an IPv4 address in the low 32
    /// bits. Two integers rather than a byte array, so that a check allocates nothing (the
    /// request log and the limits check the peer of every request behind a proxy); not
    /// `UInt128`, which Darwin has only from macOS 15.
    private let network: Bits
    private let mask: Bits
    private let isIPv4: Bool

    /// The text it was read from.
    public let description: String

    /// Reads an address (`192.0.2.7`, `::1`) or a block (`10.0.0.0/8`, `fd00::/8`).
    /// `nil` for anything else: a host name, a zone (`fe80::1%eth0`), a prefix longer than the
    /// address, or a block that mixes IPv4 addresses written as IPv6 with other IPv6 ones.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Address(String(parts[0])) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var length = width
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                var written = Int(digits), written <= (address.wasMapped ? 128 : width)
            else { return nil }
            if address.wasMapped {
                guard written >= 96 else { return nil }
                written -= 96
            }
            length = written
        }
        mask = Bits.prefix(length, of: width)
        network = address.value & mask
        isIPv4 = address.isIPv4
        description = text
    }

    /// Whether `address` (an IP address as a socket names it) is in this block; `false` for
    /// text that is not an IP address.
    public func contains(_ address: String) -> Bool {
        guard let parsed = Address(address) else { return false }
        return contains(parsed)
    }

    func contains(_ address: Address) -> Bool {
        address.isIPv4 == isIPv4 && address.value & mask == network
    }

    /// The client `address` counts as for a limit: an IPv4 address itself, an IPv6 address its
    /// first `ipv6PrefixLength` bits (every address of one /64 is one client by default, as its
    /// owner can use them all); text that is not an address, itself.
    public static func clientKey(_ address: String, ipv6PrefixLength: Int) -> String {
        guard let parsed = Address(address) else { return address }
        if parsed.isIPv4 { return "v4 " + String(parsed.value.low) }
        let masked = parsed.value & Bits.prefix(ipv6PrefixLength, of: 128)
        return "v6 " + String(masked.high, radix: 16) + ":" + String(masked.low, radix: 16) + "/"
            + String(ipv6PrefixLength)
    }

    /// Whether `text` is one IP address as a socket or a proxy writes it (`192.0.2.7`, `::1`),
    /// not a block, a name or anything else.
    public static func isAddress(_ text: String) -> Bool {
        Address(text) != nil
    }

    /// Why `text` is refused, or `nil` when it is an address or a block (the shape of
    /// `WebOrigin.problem(_:)`, for a `config_invalid` message).
    public static func problem(_ text: String) -> String? {
        IPAddressRange(text) == nil
            ? "\"\(text)\" is not an IP address (192.0.2.7, ::1) or a CIDR block (10.0.0.0/8, fd00::/8)" : nil
    }

    /// An address read with `inet_pton`: IPv4 in the low 32 bits, IPv4-mapped IPv6 as its IPv4.
    struct Address {
        let value: Bits
        let isIPv4: Bool
        /// Written as IPv4-mapped IPv6 (`::ffff:10.1.2.3`), whose prefix lengths count 96 more.
        let wasMapped: Bool

        init?(_ text: String) {
            var v4 = in_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                value = Bits(high: 0, low: UInt64(UInt32(bigEndian: v4.s_addr)))
                isIPv4 = true
                wasMapped = false
                return
            }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
            let (high, low) = withUnsafeBytes(of: &v6) { bytes in
                (
                    bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) },
                    bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                )
            }
            wasMapped = high == 0 && low >> 32 == 0xFFFF
            isIPv4 = wasMapped
            value = Bits(high: wasMapped ? 0 : high, low: wasMapped ? low & UInt64(UInt32.max) : low)
        }
    }
}

extension IPAddressRange {
    /// 128 bits as two integers, most significant first.
    struct Bits: Sendable, Hashable {
        let high: UInt64
        let low: UInt64

        static func & (lhs: Bits, rhs: Bits) -> Bits { Bits(high: lhs.high & rhs.high, low: lhs.low & rhs.low) }

        /// The first `length` bits of a `width`-bit address set (an IPv4 address, 32 bits wide,
        /// sits in `low`). Swift's shifts by 64 or more give 0, which the edges rely on.
        static func prefix(_ length: Int, of width: Int) -> Bits {
            let unset = width - length
            if width == 32 { return Bits(high: 0, low: UInt64(UInt32.max) << unset & UInt64(UInt32.max)) }
            return Bits(high: .max << max(unset - 64, 0), low: .max << unset)
        }
    }
}

extension Sequence<IPAddressRange> {
    /// Whether any of the ranges holds `address` (read once); `false` for text that is not an
    /// IP address.
    public func containsAddress(_ address: String) -> Bool {
        guard let parsed = IPAddressRange.Address(address) else { return false }
        return contains { $0.contains(parsed) }
    }
}
