import AccountCore
import AccountSettings

/// The CLI's own sentences in English and Korean (errors live in `AccountError`).
struct CLIMessages {
    let language: Language
    var ko: Bool { language == .korean }

    /// The welcome line, one line whatever the stored nickname holds (see `VisibleText`).
    func welcome(_ profile: AccountProfile) -> String { VisibleText.escaping(profile.welcome(language)) }

    var serverStopped: String { ko ? "서버를 멈췄고 저장소를 닫았습니다." : "Server stopped; the store is closed." }

    func guest(expired: Bool) -> [String] {
        var lines: [String] = []
        if expired { lines.append(ko ? "세션이 만료되었습니다." : "Your session has expired.") }
        lines.append(ko ? "로그인되어 있지 않습니다." : "You are not signed in.")
        lines.append(
            ko
                ? "회원가입: accounts signup --email 이메일 --nickname 닉네임"
                : "Sign up:  accounts signup --email EMAIL --nickname NICKNAME")
        lines.append(ko ? "로그인:   accounts login --email 이메일" : "Log in:   accounts login --email EMAIL")
        return lines
    }

    var loggedOut: String { ko ? "로그아웃되었습니다." : "Logged out." }
    func withdrawn(_ email: String) -> String {
        ko ? "회원 탈퇴가 완료되었습니다. (\(email))" : "The account \(email) and all its sessions were deleted."
    }
    var passwordChanged: String {
        ko ? "비밀번호가 변경되었습니다. 다른 모든 세션은 로그아웃되었습니다." : "Password changed; every other session was signed out."
    }
    var passwordReset: String {
        ko
            ? "새 비밀번호를 정했습니다. 이전의 모든 세션은 로그아웃되었고 이 기기로 로그인했습니다."
            : "New password set; every earlier session was signed out, and this device is signed in."
    }
    /// After `accounts password forgot`: the same words whether an account holds the address.
    func resetRequested(email: String, relayConfigured: Bool) -> String {
        let address = VisibleText.escaping(email)
        if relayConfigured {
            return ko
                ? "\(address)을(를) 쓰는 계정이 있으면 코드가 담긴 메일을 보냈습니다. 받은 코드로: accounts password reset --code 코드"
                : "If an account uses \(address), a mail with a code is on its way. Then: accounts password reset --code CODE"
        }
        return ko
            ? "\(address)을(를) 쓰는 계정이 있으면 메일을 보낼 차례에 넣었습니다. mail.smtp_host가 정해진 `accounts serve`가 보냅니다."
            : "If an account uses \(address), its mail is queued in the store; `accounts serve` with mail.smtp_host set sends it."
    }
    /// A mail that could not be handed to the relay yet.
    func mailDeferred(_ failure: String) -> String {
        ko
            ? "메일을 아직 보내지 못해 나중에 다시 보냅니다: \(failure)"
            : "The mail could not be sent yet and will be tried again: \(failure)"
    }
    /// One line of `accounts sessions`: id, device, when opened and last used (UTC, to the
    /// minute), and which one is this.
    func session(_ session: SessionSummary) -> String {
        let device = session.device.isEmpty ? (ko ? "(알 수 없는 기기)" : "(unknown device)") : session.device
        let created = session.createdAt.minuteUTC
        let used = session.lastUsedAt.minuteUTC
        let fields = [
            session.id, VisibleText.escaping(device),
            ko ? "로그인 \(created)" : "signed in \(created)", ko ? "마지막 사용 \(used)" : "last used \(used)",
        ]
        return fields.joined(separator: "\t") + (session.current ? (ko ? "\t(이 기기)" : "\t(this session)") : "")
    }

    /// One linked identity: the provider, its id of the person, the email it gave, when linked.
    func identity(_ identity: ProviderIdentity) -> String {
        [
            identity.provider, VisibleText.escaping(identity.subject),
            VisibleText.escaping(identity.email ?? (ko ? "(이메일 없음)" : "(no email)")),
            ko ? "연결 \(identity.linkedAt.minuteUTC)" : "linked \(identity.linkedAt.minuteUTC)",
        ].joined(separator: "\t")
    }

    var noIdentities: String { ko ? "연결된 외부 계정이 없습니다." : "No provider is linked to this account." }

    func identityUnlinked(_ provider: String) -> String {
        ko ? "\(provider) 연결을 끊었습니다." : "Unlinked \(provider)."
    }

    /// Where `accounts login --provider` sends the person (on standard error: standard output
    /// is the command's answer).
    func openToSignIn(_ provider: String, _ url: String) -> String {
        ko
            ? "\(provider)(으)로 로그인하려면 브라우저에서 이 주소를 여세요(10분 동안 기다립니다):\n\(url)"
            : "Open this address in a browser to sign in with \(provider) (waiting for ten minutes):\n\(url)"
    }

    /// The page the browser shows once the provider sent it back to the CLI.
    var providerReturnPage: String {
        ko ? "터미널로 돌아가세요. 이 창은 닫아도 됩니다." : "Return to the terminal; you can close this window."
    }

    func sessionsRevoked(_ count: Int) -> String {
        ko ? "세션 \(count)개를 로그아웃했습니다." : "Signed out \(EnglishPlural.count(count, "session"))."
    }

    func profile(_ user: AccountProfile) -> [String] {
        [
            ko ? "닉네임: \(VisibleText.escaping(user.nickname))" : "Nickname: \(VisibleText.escaping(user.nickname))",
            ko ? "이메일: \(VisibleText.escaping(user.email))" : "Email:    \(VisibleText.escaping(user.email))",
        ]
    }

    var passwordPrompt: String { ko ? "비밀번호: " : "Password: " }
    var confirmationPrompt: String { ko ? "비밀번호 확인: " : "Confirm password: " }
    var currentPasswordPrompt: String { ko ? "현재 비밀번호: " : "Current password: " }
    var newPasswordPrompt: String { ko ? "새 비밀번호: " : "New password: " }
    var temporaryPasswordPrompt: String {
        ko ? "임시 비밀번호입니다. 새 비밀번호: " : "This password is temporary. New password: "
    }
    var confirmNewPasswordPrompt: String { ko ? "새 비밀번호 확인: " : "Confirm new password: " }
    func withdrawConfirmation(_ email: String) -> String {
        ko
            ? "\(email) 계정과 모든 세션을 삭제합니다. 계속하려면 네(또는 yes)를 입력하세요: "
            : "This deletes \(email) and all its sessions. Type yes to continue: "
    }
    var withdrawCancelled: String { ko ? "탈퇴를 취소했습니다." : "Withdrawal cancelled; nothing was deleted." }
    var withdrawNeedsConfirmation: String {
        ko
            ? "탈퇴하지 않았습니다: 확인이 없습니다. 물어볼 터미널이 없으니 --yes로 확인하세요 (비밀번호는 --password-stdin)."
            : "Not withdrawn: the confirmation is missing. There is no terminal to ask on; confirm with --yes (and give the password with --password-stdin)."
    }
    var errorPrefix: String { ko ? "오류" : "error" }
    func sessionFileNotRemoved(_ path: String, _ reason: String) -> String {
        ko
            ? "경고: 세션 파일 \(path)을(를) 지우지 못했습니다 (\(reason)). 그 안의 세션은 이미 폐기되어 다시 쓸 수 없습니다."
            : "warning: the session file \(path) could not be removed (\(reason)); the session it holds was revoked and can no longer be used."
    }
    func replacedSessionNotRevoked(_ reason: String) -> String {
        ko
            ? "경고: 이전 세션을 폐기하지 못했습니다 (\(reason)). 그 세션은 만료되면 스스로 끝납니다."
            : "warning: the previous session could not be revoked (\(reason)); it ends by itself when it expires."
    }

    // MARK: - doctor, verify

    func doctorStore(_ location: String, _ info: StoreInfo) -> String {
        let what = "\(location) (\(info.formatName) v\(info.formatVersion), id \(info.storeID))"
        return ko ? "저장소:    \(what)" : "store:     \(what)"
    }

    func doctorIntegrity(damaged: Bool) -> String {
        ko ? "무결성:    \(damaged ? "손상됨" : "정상")" : "integrity: \(damaged ? "DAMAGED" : "ok")"
    }

    func doctorProblem(_ problem: String) -> String { ko ? "  문제: \(problem)" : "  problem: \(problem)" }

    /// An account whose record breaks `rule`; the email shown escaped (it may be the culprit).
    func doctorBrokenRecord(_ email: String, _ rule: AccountError) -> String {
        let shown = VisibleText.escaping(email)
        return ko
            ? "  규칙 위반: \(shown) 계정: \(rule.message(language))"
            : "  rule broken: account \(shown): \(rule.message(language))"
    }

    func doctorUsers(_ count: Int) -> String { ko ? "사용자:    \(count)명" : "users:     \(count)" }

    /// "312 accounts still on bcrypt": users moved in who have not signed in since (their
    /// hash becomes Argon2id when they do).
    func doctorLegacyScheme(_ scheme: String, accounts: Int) -> String {
        ko
            ? "           \(accounts)개 계정이 아직 \(scheme) 방식입니다 (로그인하면 Argon2id로 바뀝니다)"
            : "           \(EnglishPlural.count(accounts, "account")) still on \(scheme) (Argon2id at the next login)"
    }

    func doctorUnusableHash(_ email: String, _ problem: HashProblem) -> String {
        let shown = VisibleText.escaping(email)
        return ko
            ? "           \(shown): 비밀번호 해시로 로그인할 수 없습니다 (\(problem.reason))"
            : "           \(shown): cannot sign in with its password hash (\(problem.reason))"
    }

    /// After the first ``DoctorCommand/listedUnusableHashes`` of them: how many more there are.
    func doctorMoreUnusableHashes(_ count: Int) -> String {
        ko
            ? "           … 그리고 \(count)명 더 (accounts doctor --json이 모두 보여 줍니다)"
            : "           … and \(count) more (accounts doctor --json lists them all)"
    }

    /// The outbox: mail waiting, and what the relay last said to one that failed.
    func doctorOutbox(_ outbox: OutboxSummary, lastFailure: String?) -> String {
        let failure = lastFailure.map { ko ? "; 마지막 실패: \($0)" : "; last failure: \($0)" } ?? ""
        return ko
            ? "보낼 메일: \(outbox.queued)통, 그중 실패한 메일 \(outbox.failing)통" + failure
            : "mail waiting: \(outbox.queued), of which \(outbox.failing) failed at least once" + failure
    }

    /// After `doctor --fix`: the replaced refresh tokens and one-time codes that had expired.
    func doctorPurgedFlowRecords(_ count: Int) -> String {
        ko
            ? "만료된 교체 토큰과 코드: \(count)개 삭제"
            : "expired replaced tokens and codes: \(count) purged"
    }

    func doctorExpired(_ count: Int, purged: Int?) -> String {
        if ko {
            let note = purged.map { " (\($0)개 삭제)" } ?? (count == 0 ? "" : " (--fix로 삭제할 수 있습니다)")
            return "만료된 세션: \(count)개" + note
        }
        let note = purged.map { " (\($0) purged)" } ?? (count == 0 ? "" : " (run with --fix to purge them)")
        return "expired sessions: \(count)" + note
    }

    func doctorRemovedOrphans(_ count: Int) -> String {
        ko ? "사용자가 없는 세션 \(count)개를 지웠습니다." : "removed \(EnglishPlural.count(count, "session")) whose user was gone"
    }

    func verifySkipped(_ check: String, missing: String) -> String {
        ko ? "SKIP  \(check): 백엔드가 선언하지 않은 기능: \(missing)" : "SKIP  \(check): the backend does not declare \(missing)"
    }

    /// What an error calls standard input when it is the file in question.
    var standardInput: String { ko ? "표준 입력" : "standard input" }

    func verifySkippedNotFiles(_ check: String) -> String {
        ko
            ? "SKIP  \(check): 백엔드가 저장소를 파일에 두지 않습니다"
            : "SKIP  \(check): the backend does not keep its stores in files"
    }

    func verifySkippedNoCutOff(_ check: String) -> String {
        ko
            ? "SKIP  \(check): 백엔드의 픽스처가 작업 도중 저장소를 끊을 방법을 주지 않습니다"
            : "SKIP  \(check): the backend's fixtures give no way to cut a store off mid-operation"
    }

    func verifySummary(_ backend: String, passed: Int, ran: Int, skipped: Int) -> String {
        if ko {
            return "verify \(backend): 검사 \(ran)개 중 \(passed)개 통과"
                + (skipped > 0 ? ", \(skipped)개 건너뜀 (이유는 SKIP 줄에)" : "")
        }
        return "verify \(backend): \(passed) of \(ran) checks passed"
            + (skipped > 0 ? ", \(skipped) skipped (each SKIP line says why)" : "")
    }

    func backendLine(selected: Bool, name: String, summary: String) -> String {
        "\(selected ? "*" : " ") \(name.padding(8)) \(summary)"
    }

    /// `accounts config`'s first line.
    func configFileLine(_ path: String?) -> String {
        guard let path else {
            return ko
                ? "설정 파일: 없음 (기본값과 ACCOUNTS_ 변수만 적용)" : "Config file: none (defaults and ACCOUNTS_ variables apply)"
        }
        return ko ? "설정 파일: \(path)" : "Config file: \(path)"
    }

    func settingValue(_ value: EffectiveSetting.Value) -> String {
        switch value {
        case .integer(let number): String(number)
        case .boolean(let flag): String(flag)
        case .text(let text): text
        case .none: ko ? "(없음)" : "(none)"
        case .hidden: ko ? "(설정됨, 표시 안 함)" : "(set, not shown)"
        }
    }

    /// Who set a value: the flag or variable by name; the file is named on the first line.
    func settingSource(_ source: EffectiveSetting.Source) -> String {
        switch source {
        case .flag(let flag): flag
        case .environment(let variable): variable
        case .file: ko ? "설정 파일" : "config file"
        case .builtIn: ko ? "기본값" : "default"
        }
    }
}
