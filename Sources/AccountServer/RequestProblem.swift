import AccountCore

/// A request the API cannot take as it is, before any account rule is checked.
struct RequestProblem: Error {
    enum Kind {
        /// Not JSON, not an object, or a field missing or of the wrong type.
        case malformed(String)
        /// A content type other than `application/json`.
        case unsupportedMediaType
        /// A body over the configured limit.
        case tooLarge(limit: Int)
    }

    let kind: Kind

    var code: String {
        switch kind {
        case .malformed: "invalid_request"
        case .unsupportedMediaType: "unsupported_media_type"
        case .tooLarge: "payload_too_large"
        }
    }

    func message(_ language: Language) -> String {
        let korean = language == .korean
        switch kind {
        case .malformed(let detail):
            return korean ? "요청 본문을 읽을 수 없습니다: \(detail)" : "The request body is not valid: \(detail)"
        case .unsupportedMediaType:
            return korean
                ? "요청 본문은 application/json 이어야 합니다." : "The request body must be application/json."
        case .tooLarge(let limit):
            return korean
                ? "요청 본문이 너무 큽니다 (최대 \(limit)바이트)." : "The request body is too large (at most \(limit) bytes)."
        }
    }
}
