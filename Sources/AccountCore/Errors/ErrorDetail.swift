/// The detail a store or file failure carries: the cause, as the engine or the file reader put
/// it (technical text, kept as it was), then what the failure did or did not change — said in
/// the language of the message, because an operator acts on it.
///
/// A string literal or interpolation makes one, so a backend writes
/// `.storeIO(detail: "\(path): \(reason)")` as it always has.
public struct ErrorDetail: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One clause of the detail, shown in order and separated by "; ".
    public enum Clause: Sendable, Hashable {
        /// Text shown as it is in every language: an engine's message, a path, a line number.
        case text(String)
        /// A statement about the store or the file that is translated.
        case outcome(ErrorOutcome)
        /// A cause its module words in each language (an export file's reader: "line 2: the
        /// line is not a valid record"), where an engine's own message would be `text`.
        case translated(english: String, korean: String)
    }

    /// The clauses, in order.
    public private(set) var clauses: [Clause]

    /// A detail of one or more clauses.
    public init(_ clauses: [Clause]) {
        self.clauses = clauses
    }

    /// A detail that is the text `cause`.
    public init(_ cause: String) {
        self.init([.text(cause)])
    }

    /// A detail that is the text of a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A detail that is the text of an interpolated string (`"\(path): \(reason)"`).
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    /// This detail with `clause` added at the end.
    public func adding(_ clause: Clause) -> ErrorDetail {
        ErrorDetail(clauses + [clause])
    }

    /// The translated statements, in order.
    public var outcomes: [ErrorOutcome] {
        clauses.compactMap { if case .outcome(let outcome) = $0 { outcome } else { nil } }
    }

    /// The clauses in `language`, separated by "; ".
    public func text(_ language: Language) -> String {
        clauses.map { clause in
            switch clause {
            case .text(let text): text
            case .outcome(let outcome): outcome.text(language)
            case .translated(let english, let korean): language == .korean ? korean : english
            }
        }.joined(separator: "; ")
    }

    /// The English text.
    public var description: String { text(.english) }
}
