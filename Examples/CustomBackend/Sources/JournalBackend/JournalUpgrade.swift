import AccountCore

/// Brings a journal of an older format to this one's: format 1 had no user numbers, formats 1
/// and 2 no device names (their sessions are read with an empty one), and formats 1 to 3 no
/// account state (their users are read active, with their own password, not proven) and no
/// values, formats 1 to 4 no refresh families (each session is its own), codes, outbox or
/// identities.
///
/// The journal is rewritten whole, compacted to one entry, under its exclusive lock, and put in
/// place by one rename (`JournalFile.replace`): a crash at any point leaves the old journal or
/// the new one. Every process checks, once it holds the lock, that the path still names the file
/// it opened; one that opened the old file reopens instead of writing to it.
enum JournalUpgrade {
    /// Upgrades the journal `file` has open, unless another process has replaced it meanwhile.
    static func upgrade(_ file: JournalFile) throws(AccountError) {
        try file.withLock(exclusive: true) { () throws(AccountError) in
            guard file.isStillAtPath else { return }
            let state = try JournalRepository.replayed(file)
            // Numbered in creation order, ties by id: the order every backend's upgrade uses.
            let users = state.usersByID.values.sorted {
                ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue)
            }
            let numbered =
                file.header.formatVersion >= 2
                ? users
                : users.enumerated().map { index, user in
                    var user = user
                    user.number = index + 1
                    return user
                }
            let sessions = state.sessionsByHash.values.sorted { $0.tokenHash < $1.tokenHash }
            var header = file.header
            header.formatVersion = JournalHeader.formatVersion
            var lines = [JournalCodec.encode(header)]
            // A numbered journal keeps its highest number given, which a withdrawal left above
            // every user's.
            let last = file.header.formatVersion >= 2 ? state.lastUserNumber : numbered.count
            var entry = JournalEntry(
                putUsers: numbered.isEmpty ? nil : numbered, putSessions: sessions.isEmpty ? nil : sessions,
                lastUserNumber: last > 0 ? last : nil)
            // A format-4 journal's values are carried; older ones had none.
            if !state.values.isEmpty { entry.values = state.values.mapValues { Optional($0) } }
            if !numbered.isEmpty || last > 0 || entry.values != nil { lines.append(JournalCodec.encode(entry)) }
            try JournalFile.replace(at: file.path, with: lines)
        }
    }
}
