import AccountCore

#if canImport(Glibc)
    import Glibc
#endif

/// Prompts on the controlling terminal (`/dev/tty`), so that prompts work even when standard
/// output is redirected, and hidden input restores the terminal however the read ends.
enum TerminalPrompt {
    /// What the interrupt handler needs (it cannot capture): the terminal, and its settings to
    /// restore while echo is off.
    nonisolated(unsafe) private static var savedSettings = termios()
    nonisolated(unsafe) private static var savedDescriptor: Int32 = -1
    nonisolated(unsafe) private static var echoIsOff = false
    /// What Ctrl-C says and the status it exits with: set by the app before each prompt (see
    /// `TerminalIO.Leaving`), so Ctrl-C and Ctrl-D leave every prompt the same way. `nil`
    /// outside the app: the line is ended and the status is 130.
    nonisolated(unsafe) static var interruption: (line: [UInt8], status: Int32)?

    /// Reads a line with echo off, as bytes (the caller decides how strictly to decode).
    static func readHiddenBytes(_ prompt: String, language: Language) throws -> [UInt8] {
        try withTerminal(language) { fd in
            var original = termios()
            guard tcgetattr(fd, &original) == 0 else { return try readLine(fd, prompt) }
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            savedSettings = original
            echoIsOff = true
            tcsetattr(fd, TCSAFLUSH, &silent)
            defer {
                tcsetattr(fd, TCSAFLUSH, &original)
                echoIsOff = false
                // The Enter that ended the line was not echoed either.
                _ = write(fd, "\n", 1)
            }
            return try readLine(fd, prompt)
        }
    }

    /// Reads a secret with echo off; broken UTF-8 is refused (`invalidPassword(.notUTF8)`).
    static func readHidden(_ prompt: String, language: Language) throws -> String {
        try PasswordReader.decodeSecret(try readHiddenBytes(prompt, language: language))
    }

    /// Reads a visible line as bytes (the caller decides how strictly to decode).
    static func readVisibleBytes(_ prompt: String, language: Language) throws -> [UInt8] {
        try withTerminal(language) { fd in
            do {
                return try readLine(fd, prompt)
            } catch let cancelled as PromptCancelled {
                // Ctrl-D leaves the cursor after the prompt; what follows starts on its own line.
                _ = write(fd, "\n", 1)
                throw cancelled
            }
        }
    }

    /// A visible line; broken UTF-8 is shown as `U+FFFD` (for answers that are compared, never
    /// kept: a menu choice, a yes).
    static func readVisible(_ prompt: String, language: Language) throws -> String {
        String(decoding: try readVisibleBytes(prompt, language: language), as: UTF8.self)
    }

    /// Whether there is a controlling terminal to ask on.
    static var isAvailable: Bool {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    private static func withTerminal<T>(_ language: Language, _ body: (Int32) throws -> T) throws -> T {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw UsageProblem(
                english: "No terminal to ask on; pass the password on standard input with --password-stdin.",
                korean: "입력받을 터미널이 없습니다. --password-stdin으로 표준 입력을 통해 비밀번호를 전달하세요.")
        }
        defer { close(fd) }
        return try body(fd)
    }

    /// Reads bytes up to a newline; end of input (Ctrl-D) cancels. Ctrl-C ends the prompt's line
    /// (and puts echo back) before the process exits — with 130, or as `interruption` says — so
    /// the shell's prompt is not left after ours, nor blind.
    private static func readLine(_ fd: Int32, _ prompt: String) throws -> [UInt8] {
        savedDescriptor = fd
        let previous = signal(SIGINT) { _ in
            if TerminalPrompt.echoIsOff {
                tcsetattr(TerminalPrompt.savedDescriptor, TCSAFLUSH, &TerminalPrompt.savedSettings)
            }
            _ = write(TerminalPrompt.savedDescriptor, "\n", 1)
            guard let interruption = TerminalPrompt.interruption else { _exit(130) }
            // Only async-signal-safe calls here: write(2) of bytes made before the prompt.
            interruption.line.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            _exit(interruption.status)
        }
        defer { signal(SIGINT, previous) }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { throw PromptCancelled() }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return bytes
    }
}
