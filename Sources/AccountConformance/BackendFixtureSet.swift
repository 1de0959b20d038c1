public import AccountBackendKit

/// The fixtures of the backends a program offers, by backend name: what the suite plants for
/// each, and the samples of each one's files that the others must refuse. `accounts verify`,
/// the tests and the bench are given one beside their `BackendRegistry`.
public struct BackendFixtureSet: Sendable, ExpressibleByArrayLiteral {
    /// The fixtures, at most one per backend name.
    public let all: [any BackendFixtures]

    /// A set of these fixtures. Precondition: no two are for one backend.
    public init(_ fixtures: [any BackendFixtures]) {
        let names = fixtures.map(\.backendName)
        precondition(Set(names).count == names.count, "two fixtures are for one backend: \(names)")
        all = fixtures
    }

    public init(arrayLiteral fixtures: any BackendFixtures...) {
        self.init(fixtures)
    }

    /// This set with `fixtures` added (replacing those of the same backend).
    public func adding(_ fixtures: any BackendFixtures) -> BackendFixtureSet {
        BackendFixtureSet(all.filter { $0.backendName != fixtures.backendName } + [fixtures])
    }

    /// The fixtures of the backend called `name`, if the set has them.
    public func fixtures(for name: String) -> (any BackendFixtures)? {
        all.first { $0.backendName == name }
    }

    /// Where the scratch store at `path` of `backend` is: its fixtures'
    /// ``BackendFixtures/scratchLocation(for:)``, else the path itself.
    public func scratchLocation(of backend: any BackendDescriptor, for path: String) -> String {
        fixtures(for: backend.name)?.scratchLocation(for: path) ?? path
    }

    /// The foreign-store samples of every backend in `registry` but `name`.
    public func foreignStoreSamples(in registry: BackendRegistry, except name: String) -> [ForeignStoreSample] {
        registry.names.filter { $0 != name }.flatMap { fixtures(for: $0)?.foreignStoreSamples ?? [] }
    }
}
