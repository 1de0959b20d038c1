/// One kind of record in the file's order (ascending key), each kept with its encoded JSON once
/// a write has needed it, so that rewriting the file after one change copies bytes instead of
/// sorting and re-encoding every record: the whole-file rewrite then costs about what writing
/// the bytes costs. Records read from the file start without their encoding (a read-only call,
/// such as one `accounts whoami`, never pays for it); the first write fills them in.
struct EncodedRecords: Sendable {
    /// The keys in ascending order (Swift `String` order, as the file has always been sorted).
    private(set) var keys: [String] = []
    private var encoded: [String: [UInt8]] = [:]

    var isEmpty: Bool { keys.isEmpty }

    /// The encoded record for `key`, if it has been encoded.
    subscript(key: String) -> [UInt8]? { encoded[key] }

    /// Inserts or replaces the record at `key` with its encoding.
    mutating func set(_ key: String, _ bytes: [UInt8]) {
        insertKey(key)
        encoded[key] = bytes
    }

    /// Inserts `key` without an encoding (or drops a stale one), for a record that is encoded
    /// only when a write needs it.
    mutating func setUnencoded(_ key: String) {
        insertKey(key)
        encoded[key] = nil
    }

    /// Makes room for `count` keys (the loading of a file).
    mutating func reserveCapacity(_ count: Int) { keys.reserveCapacity(count) }

    /// Inserts `key`, new to this list, without an encoding (the loading of a file: unlike
    /// `setUnencoded`, no stale encoding can exist to drop).
    mutating func insertNew(_ key: String) { insertKey(key) }

    /// Encodes, with `encode`, every record that has no encoding yet.
    mutating func encodeMissing(_ encode: (String) -> [UInt8]) {
        guard encoded.count < keys.count else { return }
        encoded.reserveCapacity(keys.count)
        for key in keys where encoded[key] == nil { encoded[key] = encode(key) }
    }

    /// Removes the record at `key`, if any.
    mutating func remove(_ key: String) {
        let index = firstIndex(notBelow: key)
        guard index < keys.count, keys[index] == key else { return }
        keys.remove(at: index)
        encoded[key] = nil
    }

    /// Removes every record whose key is in `doomed`.
    mutating func remove(_ doomed: Set<String>) {
        guard !doomed.isEmpty else { return }
        for key in doomed { encoded[key] = nil }
        keys.removeAll { doomed.contains($0) }
    }

    /// The keys after `key` (all when `nil`), in order.
    func keys(after key: String?) -> ArraySlice<String> {
        guard let key else { return keys[...] }
        var index = firstIndex(notBelow: key)
        if index < keys.count && keys[index] == key { index += 1 }
        return keys[index...]
    }

    private mutating func insertKey(_ key: String) {
        // Records read from the file arrive in order: appending is the common case.
        if let last = keys.last, last < key {
            keys.append(key)
            return
        }
        let index = firstIndex(notBelow: key)
        if index == keys.count || keys[index] != key { keys.insert(key, at: index) }
    }

    /// The first position whose key is not below `key` (binary search).
    private func firstIndex(notBelow key: String) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
