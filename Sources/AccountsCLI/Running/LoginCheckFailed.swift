import AccountCore

/// `import --check-login`: the password given does not verify against the file's hash for the
/// email, so the import stops before writing (most often the Firebase parameters or the Devise
/// pepper given are not the project's).
struct LoginCheckFailed: CommandFailure {
    let email: String
    let file: String
    let firebase: Bool
    let devise: Bool

    var code: String { "login_check_failed" }
    var exitStatus: Int32 { ExitStatus.invalidCredentials }

    func message(_ language: Language) -> String {
        let shown = VisibleText.escaping(email)
        let hint: String =
            switch (firebase, devise, language) {
            case (true, _, .korean): " --firebase-hash-config의 값이 프로젝트의 것인지 확인하세요."
            case (true, _, _): " Check that --firebase-hash-config holds the project's parameters."
            case (_, true, .korean): " --devise-pepper-file이 앱의 pepper인지 확인하세요."
            case (_, true, _): " Check that --devise-pepper-file holds the app's pepper."
            default: ""
            }
        return language == .korean
            ? "비밀번호가 \(file)에 있는 \(shown)의 해시와 맞지 않습니다. 아무것도 쓰지 않았습니다." + hint
            : "The password does not verify against the hash \(file) holds for \(shown). Nothing was written." + hint
    }
}
