import AccountServer
import Foundation
import Hummingbird
import NIOCore

/// The fields of a posted form (`application/x-www-form-urlencoded`, as browsers send it and
/// as the pages' script sends a live check), read up to the API's body limit.
struct FormBody: Sendable {
    let fields: [String: String]

    subscript(name: String) -> String { fields[name] ?? "" }

    /// A checkbox that was ticked.
    func isChecked(_ name: String) -> Bool { fields[name] != nil }

    /// Reads and parses the body; a repeated name keeps its first value.
    static func read(_ request: Request, limit: Int) async throws -> FormBody {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == "application/x-www-form-urlencoded" else { throw FormProblem.unsupportedMediaType }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw FormProblem.tooLarge
        }
        return FormBody(fields: parse(String(buffer: buffer)))
    }

    /// Splits `a=1&b=x+y` into fields, `+` as a space and `%XX` decoded; a pair that does not
    /// decode as UTF-8 is dropped (its field is then empty and fails its rule).
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(parts[0]) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            guard let value, fields[name] == nil else { continue }
            fields[name] = value
        }
        return fields
    }
}

/// A posted form the pages cannot read.
enum FormProblem: Error, Sendable {
    case unsupportedMediaType
    case tooLarge
    /// The form token is missing or is not the browser's.
    case staleForm
}
