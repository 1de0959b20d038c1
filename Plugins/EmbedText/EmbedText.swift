import Foundation

/// `embed-text INPUT OUTPUT TYPE PROPERTY`: writes a Swift file declaring `enum TYPE` with
/// `static let PROPERTY`, a string holding INPUT's text exactly (without its last newline).
/// The EmbedOpenAPIDocument and EmbedBuildCommit plugins run it at build time. INPUT must be valid UTF-8: a file that
/// is not is refused, never repaired. A `@main` type rather than top-level code, so that it also
/// compiles where every executable is built as a library (the fuzzers' `-parse-as-library`).
@main enum EmbedText {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 5 else { fail("usage: embed-text INPUT OUTPUT TYPE PROPERTY", status: 2) }
        let (input, output, type, property) = (arguments[1], arguments[2], arguments[3], arguments[4])
        guard let data = FileManager.default.contents(atPath: input),
            var text = String(data: data, encoding: .utf8), !text.contains("\r")
        else { fail("embed-text: \(input) is missing, not UTF-8, or has CR line ends") }
        if text.hasSuffix("\n") { text.removeLast() }
        // A raw string's delimiter needs more `#`s than any run that could end it early or start
        // an escape in the text: `"""` or `\` followed by as many `#`s.
        var hashes = "#"
        while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        let swift = """
            // Made at build time from \(URL(fileURLWithPath: input).lastPathComponent) by embed-text, \
            run by one of the package's build-tool plugins.

            enum \(type) {
                static let \(property) = \(hashes)\"\"\"
            \(text)
            \"\"\"\(hashes)
            }

            """
        do {
            try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            fail("embed-text: cannot write \(output): \(error)")
        }
    }

    private static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}
