/// A refused form's broken rules, each under the name a front end gives its field (a request
/// body's key, a command's option): the first one (what a one-message answer says) and every
/// rule each field breaks, so that a user sees them all at once. Unlike ``InvalidForm`` it
/// names no form type, so one error handler serves every form.
public struct InvalidFields: Error {
    /// One broken rule and the name of the field it belongs to.
    public struct Problem: Sendable {
        /// The field's name in the front end (`username` for a Strapi nickname).
        public let field: String
        /// The rule broken.
        public let error: AccountError
    }

    /// The rule the form breaks first.
    public let first: AccountError
    /// Every broken rule, field by field in the form's order.
    public let problems: [Problem]

    /// The rules of `invalid`, each field under its name in `names`. A field without a name,
    /// such as a confirmation the front end fills in itself, is left out, as is `except`.
    public init<Field>(_ invalid: InvalidForm<Field>, naming names: [Field: String], except left: Field? = nil) {
        first = invalid.first
        problems = invalid.brokenRules(named: names.filter { $0.key != left }).map {
            Problem(field: $0.field, error: $0.error)
        }
    }

    /// Runs `body`; when the service refuses its form (``InvalidForm``), throws
    /// ``init(_:naming:except:)`` of it instead.
    public static func naming<T, Field: CaseIterable & Hashable & Sendable>(
        _ names: [Field: String], except left: Field? = nil, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let invalid as InvalidForm<Field> {
            throw InvalidFields(invalid, naming: names, except: left)
        }
    }
}
