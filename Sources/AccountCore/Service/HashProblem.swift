/// Why a stored password hash can never be checked here: it is not a whole hash of its scheme
/// (cut short, bytes appended, a field that does not decode), or checking it would cost more
/// than the ``LegacyCostLimits`` allow. Either way its user cannot sign in with it; an import
/// refuses such a record and `accounts doctor` lists it.
public enum HashProblem: Error, Sendable, Hashable {
    /// Not a whole hash of its scheme; what is wrong, in English (never the hash itself).
    case malformed(String)
    /// Checking it would cost more than the limits allow: its parameter and the limit, in
    /// English.
    case tooCostly(String)

    /// What is wrong, in English.
    public var reason: String {
        switch self {
        case .malformed(let reason), .tooCostly(let reason): reason
        }
    }
}
