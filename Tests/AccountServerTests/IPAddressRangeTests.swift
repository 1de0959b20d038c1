import AccountServerSettings
import Testing

/// The addresses and CIDR blocks of `server.trusted_proxies` and `server.monitoring_clients`.
@Suite("IP addresses and CIDR blocks")
struct IPAddressRangeTests {
    @Test(
        "a block holds the addresses under its prefix and no other",
        arguments: [
            ("10.0.0.0/8", "10.255.3.4", true), ("10.0.0.0/8", "11.0.0.1", false),
            ("192.0.2.7", "192.0.2.7", true), ("192.0.2.7", "192.0.2.8", false),
            ("192.0.2.0/25", "192.0.2.127", true), ("192.0.2.0/25", "192.0.2.128", false),
            ("0.0.0.0/0", "203.0.113.9", true), ("0.0.0.0/0", "::1", false),
            ("fd00::/8", "fd12:3456::1", true), ("fd00::/8", "fe80::1", false),
            ("::1", "::1", true), ("::1", "127.0.0.1", false),
            // An IPv4 client on an IPv6 socket, on either side.
            ("127.0.0.1", "::ffff:127.0.0.1", true), ("::ffff:10.0.0.0/104", "10.9.9.9", true),
            ("::ffff:10.0.0.0/104", "11.0.0.1", false),
            // Host bits in a block's address are the block that address is in.
            ("10.1.2.3/8", "10.200.0.1", true),
            ("10.0.0.0/8", "not an address", false), ("10.0.0.0/8", "", false),
            // Prefixes at the edges of the 32-bit and the two 64-bit halves.
            ("128.0.0.0/1", "200.1.1.1", true), ("128.0.0.0/1", "127.1.1.1", false),
            ("10.0.0.0/31", "10.0.0.1", true), ("10.0.0.0/31", "10.0.0.2", false),
            ("::/0", "fe80::1", true), ("::/0", "10.0.0.1", false),
            ("2001:db8::/63", "2001:db8:0:1::1", true), ("2001:db8::/63", "2001:db8:0:2::1", false),
            ("2001:db8::/64", "2001:db8::ffff:1", true), ("2001:db8::/64", "2001:db8:0:1::1", false),
            ("2001:db8::/65", "2001:db8::7fff:0:0:1", true), ("2001:db8::/65", "2001:db8::8000:0:0:1", false),
            ("2001:db8::1/128", "2001:db8::1", true), ("2001:db8::1/128", "2001:db8::2", false),
        ])
    func contains(_ block: String, _ address: String, _ expected: Bool) throws {
        let range = try #require(IPAddressRange(block))
        #expect(range.contains(address) == expected)
        #expect([range].containsAddress(address) == expected)
        #expect(range.description == block)
    }

    @Test(
        "text that is not an address or a block is refused",
        arguments: [
            "localhost", "10.0.0.256", "10.0.0", "10.0.0.0/33", "::1/129", "10.0.0.0/", "10.0.0.0/-1",
            "10.0.0.0/8/8", "10.0.0.0/ 8", " 10.0.0.1", "fe80::1%eth0", "::ffff:10.0.0.0/95", "",
        ])
    func refused(_ text: String) {
        #expect(IPAddressRange(text) == nil, "\(text.debugDescription)")
    }

    @Test("a list names its first bad entry; an empty list holds nothing")
    func lists() throws {
        let problems = ["127.0.0.1", "proxy.internal", "also bad"].compactMap(IPAddressRange.problem)
        let invalid = try #require(problems.first, "a host name was taken as an address")
        #expect(invalid.contains(#""proxy.internal""#), "the first bad entry")
        #expect(invalid.contains(#""proxy.internal" is not an IP address"#))
        let ranges = ["127.0.0.1", "::1"].compactMap(IPAddressRange.init)
        #expect(ranges.count == 2)
        #expect([IPAddressRange]().containsAddress("127.0.0.1") == false)
    }
}
