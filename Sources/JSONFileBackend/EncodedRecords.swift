/// One kind of record in the file's order (ascending key), each kept with its encoded JSON, so
/// that rewriting the file after one change copies bytes instead of sorting and re-encoding
/// every record: the whole-file rewrite then costs about what writing the bytes costs.
struct EncodedRecords: Sendable {
    /// The keys in ascending order (Swift `String` order, as the file has always been sorted).
    private(set) var keys: [String] = []
    private var encoded: [String: [UInt8]] = [:]

    var isEmpty: Bool { keys.isEmpty }

    /// The encoded record for `key`.
    subscript(key: String) -> [UInt8]? { encoded[key] }

    /// Inserts or replaces the record at `key`.
    mutating func set(_ key: String, _ bytes: [UInt8]) {
        if encoded.updateValue(bytes, forKey: key) == nil { keys.insert(key, at: firstIndex(notBelow: key)) }
    }

    /// Removes the record at `key`, if any.
    mutating func remove(_ key: String) {
        guard encoded.removeValue(forKey: key) != nil else { return }
        keys.remove(at: firstIndex(notBelow: key))
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
