import AccountCore
import AccountTestSupport
import Testing

@testable import SQLiteBackend

/// `users count` reads through a small page cache and must leave the connection as it found
/// it: a reader connection is reused by every later read of the process (a server's lookups),
/// which would otherwise keep running with 16 pages.
@Suite("SQLite page cache around a scan")
struct SQLitePageCacheTests {
    static func cacheSize(of connection: SQLiteConnection) throws(AccountError) -> Int64? {
        try connection.firstRow("PRAGMA cache_size") { row throws(AccountError) in try row.integer(0) }
    }

    @Test("the scan runs with the small cache and the connection gets its own back")
    func restoredAfterTheScan() throws {
        let scratch = try ScratchFolder("sqlite-page-cache")
        let connection = try SQLiteConnection(path: scratch.path + "/a.sqlite", create: true)
        try connection.execute("PRAGMA cache_size = -4096")
        let inside = try connection.withPageCache(pages: 16) { () throws(AccountError) -> Int64? in
            try Self.cacheSize(of: connection)
        }
        #expect(inside == 16)
        #expect(try Self.cacheSize(of: connection) == -4096)
    }

    @Test("a scan that throws still gives the connection its cache back")
    func restoredAfterAFailure() throws {
        let scratch = try ScratchFolder("sqlite-page-cache-failure")
        let connection = try SQLiteConnection(path: scratch.path + "/a.sqlite", create: true)
        let before = try Self.cacheSize(of: connection)
        #expect(throws: AccountError.storeIO(detail: "scan failed")) {
            try connection.withPageCache(pages: 16) { () throws(AccountError) -> Int in
                throw AccountError.storeIO(detail: "scan failed")
            }
        }
        #expect(try Self.cacheSize(of: connection) == before)
        #expect(before != 16)
    }
}
