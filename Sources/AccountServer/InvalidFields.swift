import AccountCore

/// A form's fields broke rules: the one the service reported (the answer's `code` and
/// `message`, as before) and every rule each field breaks, so that a client can show them all
/// at once, each under its field, as the terminal app and the web pages do.
struct InvalidFields: Error {
    /// One broken rule and the request field it belongs to.
    struct Problem: Sendable {
        /// The field's name in the request body (`username` for a Strapi nickname).
        let field: String
        let error: AccountError
    }

    /// The rule the service reported first.
    let first: AccountError
    /// Every broken rule, field by field in the form's order.
    let problems: [Problem]

    /// `first` with every rule `check` finds, each field under its name in the request (a field
    /// without a name, such as a confirmation the route fills in itself, is left out).
    init<Field: CaseIterable & Hashable & Sendable>(
        _ first: AccountError, _ check: FormCheck<Field>, names: [Field: String]
    ) {
        self.first = first
        problems = Field.allCases.flatMap { field in
            names[field].map { name in check[field].map { Problem(field: name, error: $0) } } ?? []
        }
    }

    /// Runs `body`; when it throws a broken field rule, throws that with every rule `check`
    /// finds instead (or the rule alone when `check` fails: the session may have ended since).
    static func listing<T, Field: CaseIterable & Hashable & Sendable>(
        names: [Field: String], _ body: () async throws -> T, check: () async throws -> FormCheck<Field>
    ) async throws -> T {
        do {
            return try await body()
        } catch let error as AccountError where isFieldRule(error) {
            guard let found = try? await check() else { throw error }
            throw InvalidFields(error, found, names: names)
        }
    }

    /// Whether `error` is a broken rule of a form's field (rather than a store or session
    /// failure), so that listing every field's rules answers it better.
    static func isFieldRule(_ error: AccountError) -> Bool {
        switch error {
        case .invalidEmail, .invalidPassword, .weakPassword, .passwordMismatch, .invalidNickname: true
        default: false
        }
    }
}

extension Dictionary {
    /// The dictionary without `key` when `condition` holds.
    func without(_ key: Key, if condition: Bool) -> Self {
        guard condition else { return self }
        var copy = self
        copy[key] = nil
        return copy
    }
}
