/// A form the service refused for the rules its fields break: every one of them, so that a
/// front end can show them all at once, each under its field (thrown by
/// `AccountService.signUp` and `changePassword`).
public struct InvalidForm<Field: CaseIterable & Hashable & Sendable>: RefusedForm {
    /// What each field breaks; never valid.
    public let check: FormCheck<Field>

    /// The rule the form breaks first in its fields' order: the one error the service's other
    /// methods throw for the same form.
    public let first: AccountError

    /// The refusal of `check`, or nil when it breaks no rule.
    public init?(_ check: FormCheck<Field>) {
        guard let first = check.brokenRules.first?.error else { return nil }
        self.check = check
        self.first = first
    }

    /// Every broken rule under its field's name in `names`, in the form's order; a field
    /// without a name is left out.
    public func brokenRules(named names: [Field: String]) -> [(field: String, error: AccountError)] {
        check.brokenRules.compactMap { rule in names[rule.field].map { ($0, rule.error) } }
    }
}

extension InvalidForm {
    /// Runs `body`, throwing only the first rule of a form it refuses (``first``, an
    /// `AccountError`), for a front end that shows one message at a time.
    public static func firstRule<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let invalid as InvalidForm<Field> {
            throw invalid.first
        }
    }
}

/// A form refused for the rules its fields break, whatever the form: what a handler of every
/// form (one that shows one message) needs of an ``InvalidForm``.
public protocol RefusedForm: Error {
    /// The rule the form breaks first in its fields' order.
    var first: AccountError { get }
}
