public import AccountConformance

extension BackendFixtureSet {
    /// The fixtures of the backends this package ships (`BackendRegistry.standard`), assembled
    /// here and nowhere else; PostgreSQL's when the package's `PostgreSQL` trait is on.
    public static let standard: BackendFixtureSet = {
        var fixtures: [any BackendFixtures] = [SQLiteFixtures(), LMDBFixtures(), JSONFileFixtures()]
        #if PostgreSQL
            fixtures.append(PostgresFixtures())
        #endif
        return BackendFixtureSet(fixtures)
    }()
}
