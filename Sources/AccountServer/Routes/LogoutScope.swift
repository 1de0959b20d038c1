import Hummingbird

/// Which sessions `POST /v1/logout?scope=…` signs out: the asking one (`current`, the
/// default), every other one (`others`), or all of the user's (`all`), as GoTrue's logout
/// scopes. Any other value is refused by name, never read as the default.
enum LogoutScope: String, CaseIterable {
    case current, others, all

    /// The request's scope.
    /// - Throws: `RequestProblem` (`invalid_request`) for a scope not listed.
    init(_ request: Request) throws {
        guard let given = request.uri.queryParameters["scope"] else {
            self = .current
            return
        }
        guard let scope = LogoutScope(rawValue: String(given)) else {
            throw RequestProblem(kind: .badQuery(parameter: "scope", allowed: Self.allCases.map(\.rawValue)))
        }
        self = scope
    }
}
