import AccountCore
import CLMDB

/// One open LMDB transaction, valid only inside the closure that received it.
struct LMDBTransaction {
    /// What the environment needs to know after a failed write: whether the map filled up.
    final class State {
        var mapFull = false
    }

    let handle: OpaquePointer
    let path: String
    /// Present in write transactions.
    let state: State?

    /// The value stored under `key`, copied out, or `nil`.
    func get(_ dbi: MDB_dbi, _ key: [UInt8]) throws(AccountError) -> [UInt8]? {
        var data = MDB_val()
        let status = key.withUnsafeBytes { raw in
            var keyValue = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
            return mdb_get(handle, dbi, &keyValue, &data)
        }
        if status == MDB_NOTFOUND { return nil }
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "get", path: path) }
        return Self.bytes(data)
    }

    /// Runs `body` on the value stored under `key` in place (no copy), or returns `nil`. The
    /// bytes are LMDB's own memory: valid only inside `body`.
    func withValue<T>(
        _ dbi: MDB_dbi, key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(AccountError) -> T
    ) throws(AccountError) -> T? {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val()
        let status = mdb_get(handle, dbi, &keyValue, &data)
        if status == MDB_NOTFOUND { return nil }
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "get", path: path) }
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// `withValue` keyed by a string's UTF-8, without copying it into an array first.
    func withValue<T>(
        _ dbi: MDB_dbi, key: String, _ body: (UnsafeRawBufferPointer) throws(AccountError) -> T
    ) throws(AccountError) -> T? {
        var key = key
        return try key.withUTF8 { utf8 in
            Result { () throws(AccountError) -> T? in try withValue(dbi, key: UnsafeRawBufferPointer(utf8), body) }
        }.get()
    }

    /// Stores `value` under `key`. With `unique`, returns `false` (and stores nothing) when the
    /// key is already there.
    @discardableResult
    func put(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], unique: Bool = false) throws(AccountError) -> Bool {
        let status = key.withUnsafeBytes { rawKey in
            value.withUnsafeBytes { rawValue in
                var keyValue = MDB_val(
                    mv_size: rawKey.count, mv_data: UnsafeMutableRawPointer(mutating: rawKey.baseAddress))
                var dataValue = MDB_val(
                    mv_size: rawValue.count, mv_data: UnsafeMutableRawPointer(mutating: rawValue.baseAddress))
                return mdb_put(handle, dbi, &keyValue, &dataValue, unique ? UInt32(MDB_NOOVERWRITE) : 0)
            }
        }
        if status == MDB_KEYEXIST { return false }
        if status == MDB_MAP_FULL { state?.mapFull = true }
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "put", path: path) }
        return true
    }

    /// Deletes `key`; returns whether it was there.
    @discardableResult
    func delete(_ dbi: MDB_dbi, _ key: [UInt8]) throws(AccountError) -> Bool {
        let status = key.withUnsafeBytes { raw in
            var keyValue = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
            return mdb_del(handle, dbi, &keyValue, nil)
        }
        if status == MDB_NOTFOUND { return false }
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "delete", path: path) }
        return true
    }

    /// Visits entries in key order from the first key ≥ `start` (or the first key), while
    /// `visit` returns `true`.
    func scan(
        _ dbi: MDB_dbi, from start: [UInt8]?, _ visit: (_ key: [UInt8], _ value: [UInt8]) throws(AccountError) -> Bool
    ) throws(AccountError) {
        var cursor: OpaquePointer?
        let opened = mdb_cursor_open(handle, dbi, &cursor)
        guard opened == MDB_SUCCESS, let cursor else { throw LMDBFailure.error(opened, "cursor", path: path) }
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val()
        var data = MDB_val()
        let startBytes = start ?? []
        var status = startBytes.withUnsafeBytes { raw in
            if start == nil { return mdb_cursor_get(cursor, &key, &data, MDB_FIRST) }
            key = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
            return mdb_cursor_get(cursor, &key, &data, MDB_SET_RANGE)
        }
        while status == MDB_SUCCESS {
            guard try visit(Self.bytes(key), Self.bytes(data)) else { return }
            status = mdb_cursor_get(cursor, &key, &data, MDB_NEXT)
        }
        guard status == MDB_NOTFOUND else { throw LMDBFailure.error(status, "cursor", path: path) }
    }

    /// The number of entries in `dbi`.
    func count(_ dbi: MDB_dbi) throws(AccountError) -> Int {
        var stat = MDB_stat()
        let status = mdb_stat(handle, dbi, &stat)
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "stat", path: path) }
        return stat.ms_entries
    }

    private static func bytes(_ value: MDB_val) -> [UInt8] {
        guard let base = value.mv_data, value.mv_size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: value.mv_size))
    }
}
