import AccountCore

/// A form's fields broke rules: the first one (the answer's `code` and `message`, as for any
/// other error) and every rule each field breaks, so that a client can show them all at once,
/// each under its field, as the terminal app and the web pages do.
struct InvalidFields: Error {
    /// One broken rule and the request field it belongs to.
    struct Problem: Sendable {
        /// The field's name in the request body (`username` for a Strapi nickname).
        let field: String
        let error: AccountError
    }

    /// The rule the form breaks first.
    let first: AccountError
    /// Every broken rule, field by field in the form's order.
    let problems: [Problem]

    /// Runs `body`; when the service refuses its form, throws every broken rule with each
    /// field under its name in the request (a field without a name, such as a confirmation the
    /// route fills in itself, is left out, as is `except`).
    static func naming<T, Field: CaseIterable & Hashable & Sendable>(
        _ names: [Field: String], except left: Field? = nil, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let invalid as InvalidForm<Field> {
            throw InvalidFields(
                first: invalid.first,
                problems: invalid.brokenRules(named: names.filter { $0.key != left }).map {
                    Problem(field: $0.field, error: $0.error)
                })
        }
    }
}
