import AccountServer
import Foundation
import Hummingbird
import NIOCore

/// The fields of a posted form (`application/x-www-form-urlencoded`, as browsers send it and
/// as the pages' script sends a live check), read up to the API's body limit.
struct FormBody: Sendable {
    let fields: [String: String]
    /// The names of fields whose value is not UTF-8 once decoded: refused with the field's
    /// `notUTF8` rule, never read as a repaired stand-in (their `fields` value is empty).
    var unreadable: Set<String> = []

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
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The client's connection ended or broke before the body did.
            throw FormProblem.cutShort
        }
        return parse(Array(buffer.readableBytesView))
    }

    /// The fields of `a=1&b=x+y` (`URLEncodedForm`). A name that does not decode is dropped; a
    /// value that does not (broken UTF-8, or a `%` without two hex digits) is listed in
    /// `unreadable`.
    static func parse(_ bytes: [UInt8]) -> FormBody {
        var fields: [String: String] = [:]
        var unreadable: Set<String> = []
        for pair in URLEncodedForm.pairs(bytes) {
            guard let nameBytes = pair.name, let name = String(validating: nameBytes, as: UTF8.self),
                fields[name] == nil, !unreadable.contains(name)
            else { continue }
            if let value = pair.value.flatMap({ String(validating: $0, as: UTF8.self) }) {
                fields[name] = value
            } else {
                fields[name] = ""
                unreadable.insert(name)
            }
        }
        return FormBody(fields: fields, unreadable: unreadable)
    }
}

/// A posted form the pages cannot read.
enum FormProblem: Error, Sendable {
    case unsupportedMediaType
    case tooLarge
    /// The body ended before its `Content-Length`.
    case cutShort
    /// The form token is missing or is not the browser's.
    case staleForm
}
