public import AccountCore
import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// A `postgres://user@host:port/database?sslmode=…` address applied to `PostgresOptions`.
///
/// As in libpq, a Unix socket's folder goes in the `host` parameter
/// (`postgres://accounts@/accounts?host=/run/postgresql`), or percent-encoded in place of the
/// host name (`postgres://accounts@%2Frun%2Fpostgresql/accounts`).
///
/// A password inside the URL is refused: config files and environments get copied into logs and
/// tickets, so the password has its own variable (`ACCOUNTS_POSTGRES_PASSWORD`) or file.
public enum PostgresURL {
    /// `options` with every part the URL names replaced by the URL's value.
    /// - Throws: `configInvalid` for another scheme, a password in the URL, a bad port or
    ///   an unknown `sslmode`.
    public static func apply(_ url: String, to options: PostgresOptions, key: String = "postgres.url")
        throws(AccountError) -> PostgresOptions
    {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw .configInvalid(key: key, reason: "expected postgres://user@host:port/database")
        }
        if components.password != nil {
            throw .configInvalid(
                key: key,
                reason:
                    "the URL carries a password; put it in ACCOUNTS_POSTGRES_PASSWORD or a file named by postgres.password_file"
            )
        }
        var result = options
        if let user = components.user, !user.isEmpty { result.user = user.removingPercentEncoding ?? user }
        if let host = components.host, !host.isEmpty { result.host = host }
        if let port = components.port { result.port = try checkedPort(port, as: "\(port)", key: key) }
        let database = String(components.path.drop(while: { $0 == "/" }))
        if !database.isEmpty { result.database = database.removingPercentEncoding ?? database }
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                let value = item.value ?? ""
                // libpq's `allow` is weaker than `prefer`, and `verify-ca` has no host check here;
                // map them to the nearest mode that is at least as strict.
                let mode: PostgresOptions.TLSMode? =
                    switch value {
                    case "disable": .disable
                    case "allow", "prefer": .prefer
                    case "require": .require
                    case "verify-ca", "verify-full": .verifyFull
                    default: nil
                    }
                guard let mode else {
                    throw .configInvalid(
                        key: key, reason: "sslmode '\(value)' is not one of disable, prefer, require, verify-full")
                }
                result.tls = mode
            case "host":
                // libpq's way to name a socket folder in a URL: `postgres://user@/db?host=/run/postgresql`.
                guard let value = item.value, !value.isEmpty else {
                    throw .configInvalid(key: key, reason: "the host parameter is empty")
                }
                result.host = value
            case "port":
                result.port = try checkedPort(item.value.flatMap { Int($0) }, as: item.value ?? "", key: key)
            case "password":
                throw .configInvalid(
                    key: key, reason: "the URL carries a password; put it in ACCOUNTS_POSTGRES_PASSWORD or a file")
            default:
                throw .configInvalid(
                    key: key, reason: "unknown URL parameter '\(item.name)'; only host, port and sslmode are read")
            }
        }
        return result
    }

    /// `port` when it is a TCP port number; the URL's text of it (`written`) names it otherwise.
    private static func checkedPort(_ port: Int?, as written: String, key: String) throws(AccountError) -> Int {
        guard let port, (1...65_535).contains(port) else {
            throw .configInvalid(key: key, reason: "port '\(written)' is not a number in 1…65535")
        }
        return port
    }
}
