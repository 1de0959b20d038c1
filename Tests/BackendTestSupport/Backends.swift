package import AccountBackendKit
import JSONFileBackend
import LMDBBackend
import PostgresBackend
import SQLiteBackend

/// The standard backends by name, for tests about one of them.
package enum Backends {
    package static let sqlite: any BackendDescriptor = SQLiteBackendDescriptor()
    package static let lmdb: any BackendDescriptor = LMDBBackendDescriptor()
    package static let json: any BackendDescriptor = JSONFileBackendDescriptor()
    package static let postgres: any BackendDescriptor = PostgresBackendDescriptor()
}
