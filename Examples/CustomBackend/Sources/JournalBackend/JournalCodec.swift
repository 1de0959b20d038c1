import AccountCore
import Foundation

/// Lines of the journal as JSON, one object a line.
package enum JournalCodec {
    package static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding records and headers cannot fail: they hold only strings, numbers and booleans.
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    static func decodeHeader(_ line: [UInt8]) -> JournalHeader? {
        guard let header = try? JSONDecoder().decode(JournalHeader.self, from: Data(line)),
            header.format == JournalHeader.formatName, header.formatVersion >= 1
        else { return nil }
        return header
    }

    static func decodeEntry(_ line: ArraySlice<UInt8>) -> JournalEntry? {
        try? JSONDecoder().decode(JournalEntry.self, from: Data(line))
    }
}
