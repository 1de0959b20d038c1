import AccountJSON
public import Foundation
public import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The log of `accounts serve`: one JSON object per line on standard error, with the time in
/// UTC to the second. Each line is written whole, so lines from several threads never
/// interleave: with one `write(2)` of its own, or through a `LogLineWriter`, which writes
/// many at once from a thread of its own (what the server does). Cheap enough to log every
/// request: the time's text is made once per second, and nothing else is formatted that the
/// line does not show.
public struct JSONLinesLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let destination: Destination

    private enum Destination {
        case file(Int32)
        case writer(LogLineWriter)
    }

    /// Writes each line with a `write(2)` of its own, on the logging thread, which waits while
    /// the descriptor has no room (a pipe nobody reads).
    /// - Parameters:
    ///   - label: the logger's label, shown as `"logger"`.
    ///   - file: the descriptor written to (standard error unless a test says otherwise).
    public init(label: String, file: Int32 = STDERR_FILENO) {
        self.label = label
        destination = .file(file)
    }

    /// Hands each line to `writer`, which writes it from its own thread.
    public init(label: String, writer: LogLineWriter) {
        self.label = label
        destination = .writer(writer)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: #"{"time":""#.utf8)
        line.append(contentsOf: Self.clock.now().utf8)
        line.append(contentsOf: #"","level":""#.utf8)
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(contentsOf: #"","logger":"#.utf8)
        JSONValue.appendQuoted(label, to: &line)
        line.append(contentsOf: #","message":"#.utf8)
        JSONValue.appendQuoted(event.message.description, to: &line)
        for (key, value) in Self.fields(metadata, event.metadata) {
            line.append(UInt8(ascii: ","))
            JSONValue.appendQuoted(key, to: &line)
            line.append(UInt8(ascii: ":"))
            JSONValue.appendQuoted(value.description, to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        switch destination {
        case .file(let file): LogLineWriter.write(line, to: file)
        case .writer(let writer): writer.append(line)
        }
    }

    /// The logger's fields and the entry's (which win on the same key), sorted by key: one
    /// array, where merging into a new dictionary hashed every key on insert and again on lookup.
    static func fields(
        _ logger: Logger.Metadata, _ entry: Logger.Metadata?
    ) -> [(key: String, value: Logger.MetadataValue)] {
        var fields: [(key: String, value: Logger.MetadataValue)] = []
        fields.reserveCapacity(logger.count + (entry?.count ?? 0))
        if let entry {
            for field in logger where entry[field.key] == nil { fields.append(field) }
            fields.append(contentsOf: entry)
        } else {
            fields.append(contentsOf: logger)
        }
        fields.sort { $0.key < $1.key }
        return fields
    }

    /// The current UTC time as ISO 8601 text, made anew only when the second changes.
    static let clock = SecondClock()

    final class SecondClock: Sendable {
        private let cached = Mutex<(second: Int, text: String)>((-1, ""))

        func now() -> String {
            let second = time(nil)
            return cached.withLock { cached in
                if cached.second != second {
                    var parts = tm()
                    var copy = second
                    gmtime_r(&copy, &parts)
                    cached = (
                        second,
                        String(
                            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1,
                            parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
                    )
                }
                return cached.text
            }
        }
    }
}
