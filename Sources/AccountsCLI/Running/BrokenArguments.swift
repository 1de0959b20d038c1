import AccountCore

#if canImport(Glibc)
    import Glibc
#endif

/// Command-line arguments whose bytes are not UTF-8. Swift hands a program its arguments as
/// strings already repaired (each broken sequence made `U+FFFD`), so they are found in the raw
/// `argv` before that, and the command refuses them instead of storing the repair: a nickname
/// with broken bytes is `invalid_nickname`, an email `invalid_email`, anything else a usage
/// error naming the argument.
struct BrokenArguments {
    /// One argument that is not UTF-8: its place (1 is the first after the program's name) and
    /// the option it is the value of, when it is one.
    struct Argument: Equatable {
        let position: Int
        let option: String?
    }

    /// The arguments of this run that are not UTF-8; empty when the arguments were not the
    /// process's own (an embedding program passed strings, which have no raw bytes).
    @TaskLocal static var found: [Argument] = []

    /// The process's own arguments that are not UTF-8.
    static func inProcessArguments() -> [Argument] {
        var raw: [[UInt8]] = []
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let pointer = CommandLine.unsafeArgv[index] else {
                raw.append([])
                continue
            }
            raw.append(Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))))
        }
        return find(in: raw)
    }

    /// The arguments among `arguments` (without the program's name) that are not UTF-8.
    static func find(in arguments: [[UInt8]]) -> [Argument] {
        arguments.indices.compactMap { index in
            let bytes = arguments[index]
            // ASCII is UTF-8: most command lines are checked without decoding.
            guard bytes.contains(where: { $0 >= 0x80 }), String(validating: bytes, as: UTF8.self) == nil else {
                return nil
            }
            if bytes.starts(with: Array("--".utf8)), let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                return Argument(position: index + 1, option: String(validating: bytes[..<equals], as: UTF8.self))
            }
            let previous = index > 0 ? String(validating: arguments[index - 1], as: UTF8.self) : nil
            let option = previous.flatMap { $0.hasPrefix("-") && !$0.contains("=") ? $0 : nil }
            return Argument(position: index + 1, option: option)
        }
    }

    /// Throws the error for the first argument of this run that is not UTF-8.
    static func refuseAny() throws {
        guard let first = found.first else { return }
        switch first.option {
        case "--nickname": throw AccountError.invalidNickname(.notUTF8)
        case "--email": throw AccountError.invalidEmail(.notUTF8)
        default:
            let named = first.option.map { " (the value of \($0))" } ?? ""
            let namedKorean = first.option.map { " (\($0)의 값)" } ?? ""
            throw UsageProblem(
                english:
                    "Argument \(first.position)\(named) is not valid UTF-8 (it has broken bytes); set the terminal's encoding to UTF-8.",
                korean: "\(first.position)번째 인자\(namedKorean)가 올바른 UTF-8이 아닙니다 (깨진 바이트가 있습니다). 단말기의 인코딩을 UTF-8로 맞추세요.")
        }
    }
}
