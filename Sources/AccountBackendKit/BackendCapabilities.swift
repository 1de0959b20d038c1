/// What a backend guarantees beyond the core of the contract (which every backend keeps:
/// atomic uniqueness, atomic withdrawal, byte-exact round trips, typed errors).
///
/// The conformance suite runs a check only when the backend declares every capability the check
/// needs; any other check is reported as skipped, naming the missing capability. A backend
/// declares only what it keeps: declaring more makes the suite fail, never pass.
public struct BackendCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A call that returned has reached stable storage and survives a crash or power cut
    /// (unless a documented faster mode is chosen).
    public static let durable = BackendCapabilities(rawValue: 1 << 0)
    /// Several processes may use one store at once and lose nothing.
    public static let multiProcess = BackendCapabilities(rawValue: 1 << 1)
    /// Closing a store and opening its location again finds everything.
    public static let survivesReopen = BackendCapabilities(rawValue: 1 << 2)
    /// Two repositories opened at one location see one store (each other's commits).
    public static let sharedInstances = BackendCapabilities(rawValue: 1 << 3)
    /// Stores record their kind and format version: a newer format, another backend's store and
    /// a damaged store are recognised and refused, and left as they were.
    public static let selfDescribingStores = BackendCapabilities(rawValue: 1 << 4)

    /// Every capability, in the order they are named.
    public static let all: BackendCapabilities = [
        .durable, .multiProcess, .survivesReopen, .sharedInstances, .selfDescribingStores,
    ]

    /// Each capability with its name (as `accounts verify` and the test runner print it).
    public static let named: [(BackendCapabilities, String)] = [
        (.durable, "durable"), (.multiProcess, "multi-process"), (.survivesReopen, "survives reopen"),
        (.sharedInstances, "shared instances"), (.selfDescribingStores, "self-describing stores"),
    ]

    /// The names of the capabilities in this set.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }

    public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}
