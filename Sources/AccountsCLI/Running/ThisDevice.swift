import AccountCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device name the CLI's sessions keep (``DeviceName``): `accounts on <host name>`, so
/// that a user's list of where they are signed in tells this machine from their browsers.
enum ThisDevice {
    /// `accounts on <host>`, or `accounts` where the host's name is not one a device name may
    /// hold (too long, or with a hidden character).
    static func name(_ program: String) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return program }
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let named = "\(program) on \(host)"
        return !host.isEmpty && DeviceName.accepts(named) ? named : program
    }
}
