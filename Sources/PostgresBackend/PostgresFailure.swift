import AccountCore
import PostgresNIO

/// Maps PostgresNIO's errors to the typed errors. Only the server's message and SQLSTATE are
/// kept: the error's `detail` can quote a whole failing row, and the bound values never leave.
enum PostgresFailure {
    /// SQLSTATEs after which the whole transaction may simply run again.
    static let retryableStates: Set<String> = ["40001", "40P01"]

    /// Whether `error` is a serialization failure or a deadlock, which a rerun resolves.
    static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return retryableStates.contains(state)
    }

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
            let state = info[.sqlState] ?? "?????"
            let message = info[.message] ?? "error"
            if state == "23505", info[.constraintName] == "users_email" { return .emailTaken }
            let detail = "\(location): \(message) (SQLSTATE \(state))"
            switch state {
            case "40001", "40P01", "55P03", "57014": return .storeBusy(detail: detail)
            case "XX001", "XX002": return .storeCorrupted(detail: detail)
            default: return .storeIO(detail: detail)
            }
        }
        return .storeIO(detail: "\(location): \(reason(error))")
    }

    /// Why a connection failed, in words: the OS or TLS reason when there is one.
    static func reason(_ error: PSQLError) -> String {
        var text = "\(error.code)"
        if let underlying = error.underlying { text += ": \(underlying)" }
        return text
    }
}
