public import AccountBackendKit
import JSONFileBackend
import LMDBBackend
import SQLiteBackend

#if PostgreSQL
    import PostgresBackend
#endif

extension BackendRegistry {
    /// The backends this package ships, assembled here and nowhere else: SQLite (the default),
    /// LMDB, JSON and, when the package's `PostgreSQL` trait is on (the default), PostgreSQL.
    public static let standard: BackendRegistry = {
        var backends: [any BackendDescriptor] = [
            SQLiteBackendDescriptor(), LMDBBackendDescriptor(), JSONFileBackendDescriptor(),
        ]
        #if PostgreSQL
            backends.append(PostgresBackendDescriptor())
        #endif
        return BackendRegistry(backends, defaultBackend: "sqlite")
    }()

    /// The standard backends that keep their stores in files on this host.
    public static let embedded = BackendRegistry(standard.descriptors.filter(\.storesInFiles), defaultBackend: "sqlite")
}
