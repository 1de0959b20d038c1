import AccountCore
import ArgumentParser
import DurableFiles

/// Devise's `config.pepper`, which `import --from devise` needs when the app set one: read from
/// a file, so the secret never shows in the process list or the shell's history.
struct DevisePepperOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A file holding the Devise app's config.pepper (one line), when it set one.", valueName: "file"),
        completion: .file())
    var devisePepperFile: String?

    /// The pepper's bytes (the line end an editor adds, `\n` or Windows' `\r\n`, is not part of
    /// it), or nil without the option.
    func pepper() throws -> [UInt8]? {
        guard let devisePepperFile else { return nil }
        guard var bytes = try? WholeInput.read(devisePepperFile, atMost: 4096) else {
            throw ValidationError("--devise-pepper-file \(devisePepperFile) cannot be read.")
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw ValidationError("--devise-pepper-file \(devisePepperFile) is empty.") }
        guard !bytes.contains(UInt8(ascii: "\n")), !bytes.contains(UInt8(ascii: "\r")) else {
            throw ValidationError("--devise-pepper-file \(devisePepperFile) holds more than one line; a pepper is one.")
        }
        return bytes
    }
}
