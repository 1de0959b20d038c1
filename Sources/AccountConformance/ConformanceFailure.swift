/// A broken promise found by a conformance check: says what was expected and what happened.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one sentence.
    public let message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
