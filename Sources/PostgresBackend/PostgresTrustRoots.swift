import AccountCore
import Foundation
import NIOSSL

/// The roots `verify-full` checks the server's certificate against: the system's trust store, or
/// the certificates of `postgres.tls_ca_file`.
///
/// The file is read when the settings are checked, before anything connects, so a missing or
/// unreadable file is a `config_invalid` naming it (in `accounts config` too), instead of a
/// failed TLS set-up that quotes BoringSSL on every connection attempt.
enum PostgresTrustRoots {
    static let key = "postgres.tls_ca_file"

    /// The trust roots of `options`.
    /// - Throws: `configInvalid` when `tls_ca_file` is set with a mode that does not check
    ///   certificates, cannot be read, or holds no PEM certificate.
    static func load(_ options: PostgresOptions) throws(AccountError) -> NIOSSLTrustRoots {
        guard let file = options.tlsCAFile else { return .default }
        // Without verify-full nothing is checked against the file; taking it silently would let
        // an operator believe the server is authenticated when it is not.
        guard options.tls == .verifyFull else {
            throw .configInvalid(
                key: key,
                reason:
                    "is read only with postgres.tls verify-full; with '\(options.tls.rawValue)' the server's certificate is not checked. Set postgres.tls to verify-full, or remove tls_ca_file"
            )
        }
        guard access(file, R_OK) == 0 else {
            throw .configInvalid(key: key, reason: "cannot read \(file): \(String(cString: strerror(errno)))")
        }
        let certificates = (try? NIOSSLCertificate.fromPEMFile(file)) ?? []
        guard !certificates.isEmpty else {
            throw .configInvalid(key: key, reason: "\(file) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        return .certificates(certificates)
    }
}
