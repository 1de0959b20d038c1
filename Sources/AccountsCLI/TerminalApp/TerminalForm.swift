import AccountCore

/// A form on the terminal, like the apps' screens: its fields are asked in order, each with its
/// rules shown first; an answer is checked as soon as it is entered, every broken rule listed
/// at once and the field asked again; an empty answer goes back to the field before (from the
/// first field it leaves the form). Nothing is written until the caller submits the values.
struct TerminalForm<Field: Hashable> {
    /// One field: its prompt, the rules shown before it, and its check.
    struct Entry {
        let field: Field
        let prompt: String
        var rules: String? = nil
        var hidden = false
        /// The field's rule for a visible answer whose bytes are not UTF-8 (its own code, as the
        /// command line and the pages refuse it); hidden answers are passwords.
        var notUTF8 = AccountError.invalidPassword(.notUTF8)
        /// Every problem with `answer` given the fields before it (empty when accepted). May read
        /// the store (the sign-up ID's duplicate check), so store errors are thrown.
        var check: (_ answer: String, _ values: [Field: String]) async throws -> [AccountError] = { _, _ in [] }
    }

    let entries: [Entry]
    private(set) var values: [Field: String] = [:]

    init(_ entries: [Entry]) {
        self.entries = entries
    }

    subscript(field: Field) -> String { values[field] ?? "" }

    /// Forgets a field's answer so that the next `fill` asks it again (after a refused submit).
    mutating func clear(_ fields: Field...) {
        for field in fields { values[field] = nil }
    }

    /// Asks every field that has no accepted answer yet. Returns `false` when the person went
    /// back out of the form.
    mutating func fill(_ io: TerminalIO) async throws -> Bool {
        var index = 0
        var showRules = true
        while index < entries.count {
            let entry = entries[index]
            guard values[entry.field] == nil else {
                index += 1
                showRules = true
                continue
            }
            if showRules, let rules = entry.rules { io.show("  " + rules) }
            showRules = false
            let answer: String
            do {
                if entry.hidden {
                    answer = try io.askHidden(entry.prompt)
                } else {
                    // Never kept repaired: broken bytes break the field's rule and it is asked again.
                    guard let read = try io.askStrictly(entry.prompt) else { throw entry.notUTF8 }
                    answer = read
                }
            } catch let error as AccountError {
                // An answer that cannot be read as typed (broken UTF-8) is a broken rule too.
                io.show(problems: [error])
                continue
            }
            if answer.isEmpty {
                guard index > 0 else { return false }
                index -= 1
                values[entries[index].field] = nil
                showRules = true
                continue
            }
            let problems = try await entry.check(answer, values)
            if problems.isEmpty {
                values[entry.field] = answer
            } else {
                io.show(problems: problems)
            }
        }
        return true
    }
}
