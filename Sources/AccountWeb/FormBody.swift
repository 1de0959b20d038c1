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

    /// Splits `a=1&b=x+y` into fields, `+` as a space and `%XX` decoded, from the bytes as sent
    /// (decoding them as a string first would repair broken UTF-8 before it could be seen). A
    /// name that does not decode is dropped; a value that does not (broken UTF-8, or a `%`
    /// without two hex digits) is listed in `unreadable`.
    static func parse(_ bytes: [UInt8]) -> FormBody {
        var fields: [String: String] = [:]
        var unreadable: Set<String> = []
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let nameBytes = percentDecoded(parts[0]), let name = String(validating: nameBytes, as: UTF8.self),
                fields[name] == nil, !unreadable.contains(name)
            else { continue }
            let value =
                parts.count > 1 ? percentDecoded(parts[1]).flatMap { String(validating: $0, as: UTF8.self) } : ""
            if let value {
                fields[name] = value
            } else {
                fields[name] = ""
                unreadable.insert(name)
            }
        }
        return FormBody(fields: fields, unreadable: unreadable)
    }

    /// `+` as a space and `%XX` as its byte; `nil` when a `%` is not followed by two hex digits.
    private static func percentDecoded(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.count)
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < part.endIndex, let high = hexValue(part[index + 1]),
                    let low = hexValue(part[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
