import HTTPTypes

extension HTTPFields {
    /// The headers every answer of the API starts from: its content type, and `nosniff`, so
    /// that a browser never reads an answer (a JSON error quoting what a client sent, say) as
    /// another type than the one declared.
    static func answer(_ contentType: String) -> HTTPFields {
        [.contentType: contentType, .xContentTypeOptions: "nosniff"]
    }

    /// ``answer(_:)`` for JSON.
    static var jsonAnswer: HTTPFields { answer("application/json; charset=utf-8") }
}
