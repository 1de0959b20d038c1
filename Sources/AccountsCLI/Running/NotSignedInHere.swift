import AccountCore

/// A command that needs a session on a store that has none saved, while sessions are saved for
/// other stores: the same code and exit status as `not_signed_in`, and the message says how to
/// reach the stores the user is signed in to.
struct NotSignedInHere: CommandFailure {
    let savedFor: [SessionStore]

    var code: String { AccountError.notSignedIn.code }
    var exitStatus: Int32 { ExitStatus.notSignedIn }

    func message(_ language: Language) -> String {
        let stores = savedFor.map { "--backend \($0.backend) --store \(shellQuoted($0.location))" }
        let list = stores.joined(separator: language == .korean ? ", " : "; ")
        return language == .korean
            ? "이 저장소에는 로그인되어 있지 않습니다. 저장된 세션은 다른 저장소의 것입니다: \(list)"
            : "You are not signed in to this store. Your saved sessions are for other stores: \(list)"
    }

    /// The location as a shell word, single-quoted unless it is only path characters.
    private func shellQuoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || "/._-+,:@=".utf8.contains(byte)
        }
        guard !plain || text.isEmpty else { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
