import AccountCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where secrets come from: lines on standard input (`--password-stdin`), or prompts on the
/// terminal with echo off. A secret is never echoed, logged or put in an error.
struct PasswordReader {
    let fromStandardInput: Bool
    let language: Language

    /// Reads one secret; `prompt` is shown only on a terminal.
    func read(_ prompt: String, what: String) throws -> String {
        if fromStandardInput {
            guard let line = try Self.readStandardInputLine() else {
                throw UsageProblem(
                    english: "Expected a line with the \(what) on standard input (--password-stdin).",
                    korean: "표준 입력에서 \(what) 줄을 읽지 못했습니다 (--password-stdin).")
            }
            return try Self.decodeSecret(line)
        }
        return try Self.decodeSecret(try TerminalPrompt.readHiddenBytes(prompt, language: language))
    }

    /// The bytes of a secret as text, refusing what is not UTF-8: Swift's usual decoding would
    /// replace broken bytes with U+FFFD, and different passwords would become one.
    /// - Throws: `invalidPassword(.notUTF8)`.
    static func decodeSecret(_ bytes: [UInt8]) throws(AccountError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidPassword(.notUTF8) }
        return text
    }

    /// One line of standard input as bytes, without its `\n` (or `\r\n`); `nil` at the end
    /// of input. Read a byte at a time so that nothing past the line is consumed.
    /// - Throws: a usage problem naming the reason when reading fails: the bytes read so far are
    ///   not the line, and taking them for it would change the password.
    static func readStandardInputLine() throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw UsageProblem(
                    english: "Could not read the secret from standard input (\(reason)); the command did not run.",
                    korean: "표준 입력에서 비밀번호를 읽지 못했습니다 (\(reason)). 명령을 실행하지 않았습니다.")
            }
            if count == 0 { return bytes.isEmpty ? nil : bytes }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return bytes
    }

    /// Asks for a word a destructive prompt shows ("Type yes to continue", in Korean `네` or
    /// `yes`); only those, as shown, confirm — not "y", not "YES", not "예".
    func confirm(_ prompt: String) throws -> Bool {
        InteractiveMessages(language: language).confirmationWords.contains(
            try TerminalPrompt.readVisible(prompt, language: language).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether an answer to a (y/N) question means yes, in English or Korean.
    static func isYes(_ answer: String) -> Bool {
        ["yes", "y", "예", "네"].contains(answer.lowercased().trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
