import AccountCore
import AccountOperations
import ArgumentParser

/// Tab completion of an account's email (`users show EMAIL`, `users list --after EMAIL`) from
/// the store the command line being completed names: its `--config`, `--backend` and
/// `--store`, and the environment, read as the command itself would read them.
///
/// Completion runs on every TAB, so it never creates a store or a folder, prints nothing but
/// the emails, and offers nothing when the line does not parse or the store cannot be opened
/// (the command itself, once run, says why). It reads at most a few pages: the emails that
/// start with what was typed are one run of the store's byte order, found from just before it.
/// A store that does not answer within ``patience`` (a PostgreSQL host that drops packets, or
/// accepts and says nothing) gets nothing offered, rather than a shell held until the
/// backend's own connect timeout (10 s by default, up to 10 minutes).
enum StoredEmailCompletion {
    /// The most emails offered: more is a list nobody reads on a terminal.
    static let most = 100

    /// How long TAB waits for the store: longer than a reachable store takes to open and list a
    /// page, short enough that a shell never seems to hang.
    static let patience: Duration = .seconds(2)

    static var kind: CompletionKind {
        .custom { words, index, prefix in
            // swift-argument-parser cuts `prefix` at the cursor from the line's last word; a word
            // being completed before the end is taken whole.
            let typed = index < words.count - 1 && index >= 0 ? words[index] : prefix
            return await emails(words: words, index: index, prefix: typed)
        }
    }

    /// The emails to offer for the word at `index` of `words` (the whole command line, the
    /// program first), starting with `prefix`.
    static func emails(words: [String], index: Int, prefix: String) async -> [String] {
        guard let options = storeOptions(words: words, index: index) else { return [] }
        return await firstAnswer {
            do {
                let context = try await CommandContext.load(options)
                return try await context.withAdministration(reading: true) { administration in
                    try await collect(prefix: prefix) { after, limit in
                        try await administration.accounts(after: after, limit: limit).map(\.email)
                    }
                }
            } catch {
                return []
            }
        } orNothingOnce: {
            try? await Task.sleep(for: patience)
        }
    }

    /// What `lookup` answers, or nothing once `deadline` returns first. Neither is awaited past
    /// the first answer (a task group would wait for a lookup stuck in a connect): the other is
    /// cancelled and left behind, and the program exits once the offers are printed.
    static func firstAnswer(
        _ lookup: @escaping @Sendable () async -> [String], orNothingOnce deadline: @escaping @Sendable () async -> Void
    ) async -> [String] {
        let (answers, answer) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .bufferingOldest(1))
        let looking = Task {
            answer.yield(await lookup())
            answer.finish()
        }
        let waiting = Task {
            await deadline()
            answer.yield([])
            answer.finish()
        }
        var first = answers.makeAsyncIterator()
        let offers = await first.next() ?? []
        looking.cancel()
        waiting.cancel()
        return offers
    }

    /// The store options of the command line, parsed with the word being completed (possibly
    /// cut short, or not yet typed) replaced by a stand-in, as it need not be an email yet.
    static func storeOptions(words: [String], index: Int) -> StoreOptions? {
        var arguments = Array(words.dropFirst())
        let position = index - 1
        if arguments.indices.contains(position) {
            arguments[position] = "completion@example.com"
        } else if position == arguments.count {
            arguments.append("completion@example.com")
        }
        switch try? AccountsCommand.parseAsRoot(arguments) {
        case let show as UsersCommand.Show: return show.options
        case let list as UsersCommand.List: return list.options
        default: return nil
        }
    }

    /// Up to `most` emails starting with `prefix`, read `most` at a time through `page` (the
    /// emails after the first argument, in the store's byte order, at most the second).
    static func collect(prefix: String, page: (String?, Int) async throws -> [String]) async throws -> [String] {
        var found: [String] = []
        var after = start(before: prefix)
        while true {
            let emails = try await page(after, most)
            for email in emails {
                if email.utf8.starts(with: prefix.utf8) {
                    found.append(email)
                    if found.count == most { return found }
                } else if prefix.utf8.lexicographicallyPrecedes(email.utf8) {
                    return found  // past the run of emails that start with the prefix
                }
            }
            guard emails.count == most, let last = emails.last else { return found }
            after = last
        }
    }

    /// A string that sorts, byte by byte, before every email that starts with `prefix` and after
    /// nearly every other email before them, so the first page starts where they do: the
    /// prefix with its last character one lower and then the highest one. A prefix that ends in
    /// a non-ASCII character starts at the prefix without it, which only reads more.
    static func start(before prefix: String) -> String? {
        var scalars = prefix.unicodeScalars
        guard let last = scalars.popLast() else { return nil }
        guard last.isASCII, last.value > 0, let lower = Unicode.Scalar(last.value - 1) else {
            return scalars.isEmpty ? nil : String(scalars)
        }
        scalars.append(lower)
        scalars.append("\u{10FFFF}")
        return String(scalars)
    }
}
