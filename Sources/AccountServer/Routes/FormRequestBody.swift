import Foundation

/// A form body of a Strapi route, read as the JSON object it stands for: each field a string.
/// The routes then decode it as they decode JSON, so a missing field is the same
/// `invalid_request` whichever way the client sent the body.
enum FormRequestBody {
    /// The two form encodings Strapi's body parser takes besides JSON.
    enum Encoding {
        case urlEncoded
        case multipart(boundary: String)
    }

    /// The JSON object of the fields in `bytes`. A repeated field, a field that is a file or is
    /// not UTF-8 text, and a form that cannot be read are refused, never repaired.
    static func json(_ bytes: [UInt8], _ encoding: Encoding) throws(RequestProblem) -> Data {
        var fields: [(name: String, value: [UInt8]?)] = []
        switch encoding {
        case .urlEncoded:
            for pair in URLEncodedForm.pairs(bytes) {
                guard let name = pair.name.flatMap({ String(validating: $0, as: UTF8.self) }) else {
                    throw RequestProblem(kind: .malformed(.notForm))
                }
                fields.append((name, pair.value))
            }
        case .multipart(let boundary):
            guard let parts = MultipartForm.parts(bytes, boundary: boundary) else {
                throw RequestProblem(kind: .malformed(.notForm))
            }
            fields = parts.map { ($0.name, $0.isFile ? nil : $0.value) }
        }
        var object: [String: String] = [:]
        for field in fields {
            guard object[field.name] == nil else {
                throw RequestProblem(kind: .malformed(.repeated(field: field.name)))
            }
            guard let value = field.value.flatMap({ String(validating: $0, as: UTF8.self) }) else {
                throw RequestProblem(kind: .malformed(.notText(field: field.name)))
            }
            object[field.name] = value
        }
        do {
            return try JSONSerialization.data(withJSONObject: object)
        } catch {
            // Strings only: not reachable, but a form is never taken as something else.
            throw RequestProblem(kind: .malformed(.notForm))
        }
    }
}
