import AccountCore
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#endif

/// Maps PostgresNIO's errors to the typed errors. Only the server's message and SQLSTATE are
/// kept: the error's `detail` can quote a whole failing row, and the bound values never leave.
enum PostgresFailure {
    /// The typed error for `error`, naming `location` (never the password).
    static func map(_ error: any Error, location: String) -> AccountError {
        if let error = error as? AccountError { return error }
        if let error = error as? PostgresDecodingError {
            return .storeCorrupted(detail: "\(location): column \(error.columnName) cannot be read (\(error.code))")
        }
        guard let error = error as? PSQLError else {
            return .storeIO(detail: "\(location): \(String(describing: type(of: error))): \(error)")
        }
        if error.code == .server, let info = error.serverInfo {
            let (state, reason) = serverReason(info)
            if state == "23505", info[.constraintName] == "users_email" { return .emailTaken }
            let detail: ErrorDetail = "\(location): \(reason)"
            switch state {
            case "40001", "40P01", "55P03", "57014": return .storeBusy(detail: detail)
            case "XX001", "XX002": return .storeCorrupted(detail: detail)
            default: return .storeIO(detail: detail)
            }
        }
        return .storeIO(detail: "\(location): \(reason(error))")
    }

    /// Whether `error` says the session is over: the server ended it (a FATAL or PANIC error,
    /// such as `pg_terminate_backend` or a shutdown gives) or the connection is gone. The server
    /// rolls back the transaction of a session that ends, so there is nothing left to roll back.
    static func endsSession(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .server:
            return ["FATAL", "PANIC"].contains(error.serverInfo?[.severity] ?? "")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError:
            return true
        default:
            return false
        }
    }

    /// SQLSTATEs refusing a connection that can pass by themselves: too many connections
    /// (53300), out of memory or disk (53xxx), a server shutting down or starting up (57P01,
    /// 57P02, 57P03). Any other refusal by the server (a wrong password, a missing database,
    /// no CONNECT privilege) stays until an operator acts.
    static func refusalCanPass(_ state: String) -> Bool { state.hasPrefix("53") || state.hasPrefix("57P") }

    /// Why connecting failed, and whether waiting can help: it can after a failure of the
    /// network or a refusal that passes (``refusalCanPass(_:)``), not after a refusal to
    /// authenticate or a TLS mismatch.
    static func connectFailure(_ error: any Error) -> ConnectionProbe.Finding {
        if let error = error as? AccountError {
            // The configuration itself, such as a TLS file that cannot be read.
            return .unreachable(reason: error.message(.english), waitingCanHelp: false)
        }
        guard let error = error as? PSQLError else {
            return .unreachable(reason: "\(String(describing: type(of: error))): \(error)", waitingCanHelp: true)
        }
        if error.code == .server, let info = error.serverInfo {
            let (state, reason) = serverReason(info)
            return .unreachable(reason: reason, waitingCanHelp: refusalCanPass(state))
        }
        if error.underlying is NIOSSLError || error.underlying is NIOSSLExtraError {
            // The server's certificate was refused: it stays refused.
            return .unreachable(reason: reason(error), waitingCanHelp: false)
        }
        switch error.code {
        case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest,
            .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return .unreachable(reason: reason(error), waitingCanHelp: false)
        default:
            return .unreachable(reason: reason(error), waitingCanHelp: true)
        }
    }

    /// The server's SQLSTATE, and its error in words: "message (SQLSTATE state)".
    private static func serverReason(_ info: PSQLError.ServerInfo) -> (state: String, text: String) {
        let state = info[.sqlState] ?? "?????"
        return (state, "\(info[.message] ?? "error") (SQLSTATE \(state))")
    }

    /// Why a connection failed, in words: the OS or TLS reason when there is one.
    static func reason(_ error: PSQLError) -> String {
        if error.code == .sslUnsupported {
            // PostgresNIO's own words are the bare code name.
            return
                "the server does not offer TLS, which postgres.tls require and verify-full demand (turn ssl on in the server, or set prefer to allow plain TCP)"
        }
        switch error.underlying {
        case let failure as NIOConnectionError:
            return reason(failure)
        case let failure as NIOSSLError:
            return reason(failure)
        case let failure as NIOSSLExtraError where failure == .failedToValidateHostname:
            return "the server's TLS certificate does not name the host it was reached by (postgres.host)"
        case let failure as IOError:
            return "\(error.code): \(String(cString: strerror(failure.errnoCode)))"
        case let underlying?:
            return "\(error.code): \(underlying)"
        case nil:
            return "\(error.code)"
        }
    }

    /// Why the TLS handshake failed, in BoringSSL's reason words without the source paths it
    /// appends ("…:OPENSSL_internal:REASON at /path/to/handshake.cc:320").
    static func reason(_ failure: NIOSSLError) -> String {
        let reasons = "\(failure)".split(separator: "OPENSSL_internal:").dropFirst().map { $0.prefix { $0 != " " } }
        if reasons.contains("CERTIFICATE_VERIFY_FAILED") {
            return
                "the server's TLS certificate does not chain to a trusted root (postgres.tls_ca_file, or the system's trust store without it)"
        }
        return "TLS handshake failed: " + (reasons.isEmpty ? "\(failure)" : reasons.joined(separator: ", "))
    }

    /// "cannot connect to 127.0.0.1:5432: Connection refused", one address after another,
    /// where SwiftNIO's own text wraps each in its debug description.
    static func reason(_ failure: NIOConnectionError) -> String {
        if let lookup = failure.dnsAError ?? failure.dnsAAAAError {
            return "cannot look up \(failure.host): \(lookup)"
        }
        guard !failure.connectionErrors.isEmpty else { return "cannot connect to \(failure.host):\(failure.port)" }
        let attempts = failure.connectionErrors.map { attempt in
            let address =
                switch (attempt.target.ipAddress, attempt.target.port) {
                case (let ip?, let port?): ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
                default: "\(attempt.target)"
                }
            let why = (attempt.error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(attempt.error)"
            return "\(address): \(why)"
        }
        return "cannot connect to " + attempts.joined(separator: "; ")
    }
}
