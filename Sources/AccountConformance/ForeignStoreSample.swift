/// A file of one backend's kind, small but recognisable, that the conformance suite plants at
/// another backend's store path to see it refused with `storeKindMismatch` and left untouched.
public struct ForeignStoreSample: Sendable {
    /// What it is, as the failure message names it ("a SQLite database").
    public let label: String
    /// A short name for the planted file (`foreign-<name>`).
    public let name: String
    /// The file's bytes.
    public let bytes: [UInt8]

    /// Describes a sample.
    public init(label: String, name: String, bytes: [UInt8]) {
        self.label = label
        self.name = name
        self.bytes = bytes
    }
}
