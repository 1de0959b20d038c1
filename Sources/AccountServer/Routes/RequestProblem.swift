import AccountCore

/// A request the API cannot take as it is, before any account rule is checked.
struct RequestProblem: Error {
    enum Kind {
        /// Not JSON (or not a form), not an object, or a field missing, null, repeated or of the
        /// wrong type.
        case malformed(BodyFault)
        /// A content type other than `application/json` (and, where `formsToo`, a form's: the
        /// Strapi routes take what Strapi's body parser takes).
        case unsupportedMediaType(formsToo: Bool)
        /// A JSON body that is not UTF-8 (another encoding, a byte order mark, or a `charset`
        /// that is not `utf-8`): JSON between systems is UTF-8 (RFC 8259 §8.1), and a body read
        /// one way by the repeated-key check and another by the decoder would let a field say
        /// two things.
        case notUTF8JSON
        /// A form body posted from a page of another site (Fetch Metadata, or a foreign `Origin`).
        case crossSiteForm
        /// A body over the configured limit.
        case tooLarge(limit: Int)
        /// A request line and headers over the HTTP parser's limit of `limit` bytes (or more
        /// header fields than it takes), refused before any route sees the request.
        case headersTooLarge(limit: Int)
        /// Bytes that are not an HTTP/1.1 request (a bad method, version or header line).
        case notHTTP
        /// A path no route has.
        case noSuchRoute
        /// A known path asked with a method it does not take; `allowed` are the ones it does.
        case methodNotAllowed(method: String, allowed: [String])
        /// `/metrics` asked by a client not in `server.monitoring_clients`.
        case monitoringOnly
        /// A query parameter whose value is not one of `allowed`.
        case badQuery(parameter: String, allowed: [String])
    }

    /// What is wrong with a JSON or form body.
    enum BodyFault: Equatable {
        case empty
        /// The connection ended (or failed) before the whole body came: the client's fault, as
        /// its `Content-Length` promised more than it sent.
        case cutShort
        case notJSON
        case notObject
        case missing(field: String)
        case null(field: String)
        case wrongType(field: String)
        case repeated(field: String)
        /// A form (urlencoded or multipart) that cannot be read: a `%` without two hex digits
        /// or a name that is not UTF-8, or parts that do not follow the multipart format.
        case notForm
        /// A form field whose value is not UTF-8 text (or is a file), never read as a repaired
        /// stand-in.
        case notText(field: String)
        /// A field the route does not take (only where a misspelt optional field would change
        /// what the request does).
        case unexpected(field: String)
        /// A device name that ``DeviceName/accepts(_:)`` refuses.
        case badDeviceName(field: String)

        func text(_ language: Language) -> String {
            let korean = language == .korean
            switch self {
            case .empty: return korean ? "본문이 비어 있습니다" : "it is empty"
            case .cutShort:
                return korean
                    ? "본문이 Content-Length보다 짧게 끝났습니다" : "it ended before the length its Content-Length announced"
            case .notJSON: return korean ? "올바른 JSON이 아닙니다" : "not valid JSON"
            case .notObject: return korean ? "JSON 객체가 아닙니다" : "not a JSON object"
            case .missing(let field): return korean ? "\"\(field)\" 필드가 없습니다" : "the field \"\(field)\" is missing"
            case .null(let field): return korean ? "\"\(field)\" 필드가 null입니다" : "the field \"\(field)\" is null"
            case .wrongType(let field):
                return korean ? "\"\(field)\" 필드의 형식이 맞지 않습니다" : "the field \"\(field)\" has the wrong type"
            case .repeated(let field):
                return korean ? "\"\(field)\" 필드가 두 번 이상 있습니다" : "the field \"\(field)\" appears more than once"
            case .notForm:
                return korean ? "올바른 양식(form) 본문이 아닙니다" : "not a valid form"
            case .notText(let field):
                return korean
                    ? "\"\(field)\" 필드가 UTF-8 텍스트가 아닙니다" : "the field \"\(field)\" is not UTF-8 text"
            case .unexpected(let field):
                return korean
                    ? "이 경로는 \"\(field)\" 필드를 받지 않습니다" : "this route takes no field \"\(field)\""
            case .badDeviceName(let field):
                return korean
                    ? "\"\(field)\" 필드는 보이는 문자 1~\(DeviceName.maximumLength)자여야 합니다"
                    : "the field \"\(field)\" must be 1 to \(DeviceName.maximumLength) visible characters"
            }
        }
    }

    let kind: Kind

    var code: String {
        switch kind {
        case .malformed(.badDeviceName): "invalid_device_name"
        case .malformed, .notHTTP, .badQuery: "invalid_request"
        case .headersTooLarge: "headers_too_large"
        case .unsupportedMediaType, .notUTF8JSON: "unsupported_media_type"
        case .crossSiteForm: "forbidden"
        case .tooLarge: "payload_too_large"
        case .noSuchRoute: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .monitoringOnly: "forbidden"
        }
    }

    func message(_ language: Language) -> String {
        let korean = language == .korean
        switch kind {
        case .malformed(let fault):
            let detail = fault.text(language)
            return korean ? "요청 본문을 읽을 수 없습니다: \(detail)" : "The request body is not valid: \(detail)"
        case .unsupportedMediaType(let formsToo):
            let types =
                formsToo
                ? "application/json, application/x-www-form-urlencoded \(korean ? "또는" : "or") multipart/form-data"
                : "application/json"
            return korean ? "요청 본문은 \(types) 이어야 합니다." : "The request body must be \(types)."
        case .notUTF8JSON:
            return korean
                ? "JSON 본문은 바이트 순서 표시(BOM) 없는 UTF-8이어야 합니다."
                : "A JSON body must be UTF-8, without a byte order mark."
        case .crossSiteForm:
            return korean
                ? "다른 사이트의 페이지에서 보낸 양식은 받지 않습니다." : "A form posted from another site's page is refused."
        case .tooLarge(let limit):
            return korean
                ? "요청 본문이 너무 큽니다 (최대 \(limit)바이트)." : "The request body is too large (at most \(limit) bytes)."
        case .headersTooLarge(let limit):
            return korean
                ? "요청의 URL과 헤더가 너무 깁니다 (합쳐서 최대 \(limit)바이트)."
                : "The request's URL and headers are too long (at most \(limit) bytes together)."
        case .notHTTP:
            return korean ? "요청이 올바른 HTTP/1.1 형식이 아닙니다." : "The request is not valid HTTP/1.1."
        case .noSuchRoute:
            return korean
                ? "이 경로는 없습니다. API의 경로는 /openapi.json 에 있습니다."
                : "There is no such route; /openapi.json lists the API's routes."
        case .methodNotAllowed(let method, _):
            return korean ? "이 경로는 \(method) 요청을 받지 않습니다." : "\(method) is not allowed here."
        case .monitoringOnly:
            return korean
                ? "server.monitoring_clients 에 있는 주소만 이 경로를 읽을 수 있습니다."
                : "Only the addresses in server.monitoring_clients may read this route."
        case .badQuery(let parameter, let allowed):
            let list = allowed.joined(separator: ", ")
            return korean
                ? "쿼리 매개변수 \"\(parameter)\"는 \(list) 중 하나여야 합니다."
                : "The query parameter \"\(parameter)\" must be one of \(list)."
        }
    }
}
