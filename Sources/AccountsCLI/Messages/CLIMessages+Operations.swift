import AccountCore
import AccountOperations

/// The operator commands' sentences: progress, the summaries of export, import and migrate,
/// and `users show` — in the language of the rest of the run, so `--lang ko` is Korean
/// throughout. Scripts read `--json`, whose keys never change with the language.
extension CLIMessages {
    /// What a progress line counts.
    enum CountedWork {
        case checked, exported, imported, migrated
    }

    /// "imported users: 500 of 3000 (1234/s, 3 seconds left)"; the rate and the time left
    /// only once there is a rate.
    func progress(_ work: CountedWork, done: Int, total: Int?, perSecond: Int?, secondsLeft: Int?) -> String {
        var text: String
        if ko {
            let what =
                switch work {
                case .checked: "검사한 사용자"
                case .exported: "내보낸 사용자"
                case .imported: "가져온 사용자"
                case .migrated: "옮긴 사용자"
                }
            text = "\(what): \(done)" + (total.map { " / \($0)" } ?? "")
            if let perSecond { text += " (초당 \(perSecond)" + (secondsLeft.map { ", \($0)초 남음" } ?? "") + ")" }
        } else {
            let what =
                switch work {
                case .checked: "checked users"
                case .exported: "exported users"
                case .imported: "imported users"
                case .migrated: "migrated users"
                }
            text = "\(what): \(done)" + (total.map { " of \($0)" } ?? "")
            if let perSecond {
                text +=
                    " (\(perSecond)/s" + (secondsLeft.map { ", \(EnglishPlural.count($0, "second")) left" } ?? "") + ")"
            }
        }
        return text
    }

    func exported(users: Int, sessions: Int) -> String {
        ko
            ? "사용자 \(users)명과 세션 \(sessions)개를 내보냈습니다."
            : "Exported \(EnglishPlural.count(users, "user")) and \(EnglishPlural.count(sessions, "session"))."
    }

    func imported(users: Int, sessions: Int) -> String {
        ko
            ? "사용자 \(users)명과 세션 \(sessions)개를 가져왔습니다."
            : "Imported \(EnglishPlural.count(users, "user")) and \(EnglishPlural.count(sessions, "session"))."
    }

    /// Users whose number the store had given before: they got its next numbers.
    func renumbered(_ count: Int) -> String {
        ko
            ? "사용자 \(count)명은 번호가 이 저장소에서 이미 쓰였거나 쓰인 적이 있어 새 번호를 받았습니다."
            : "\(EnglishPlural.count(count, "user")) got new numbers: theirs had been given in this store before."
    }

    /// A run that went on with an import of the same file that did not finish.
    func resumed(alreadyImported: Int) -> String {
        ko
            ? "끝나지 않은 같은 파일의 가져오기를 이어서 했습니다: 사용자 \(alreadyImported)명은 이미 저장되어 있었습니다."
            : "Resumed an unfinished import of this file: \(EnglishPlural.count(alreadyImported, "user")) had been stored already."
    }

    /// How many accounts come with a state from their source.
    func stateCounts(blocked: Int, temporary: Int, proven: Int) -> String {
        ko
            ? "계정 상태: 차단 \(blocked), 임시 비밀번호 \(temporary), 확인된 이메일 \(proven)"
            : "account states: blocked \(blocked), temporary password \(temporary), email proven \(proven)"
    }

    func loginCheckPassed(_ email: String) -> String {
        let shown = VisibleText.escaping(email)
        return ko
            ? "\(shown)의 비밀번호가 파일의 해시와 맞습니다." : "The password of \(shown) verifies against the file's hash."
    }

    func importConflict(_ email: String) -> String {
        ko
            ? "충돌: \(email) 계정이 이미 저장소에 있습니다 (그대로 두었습니다)"
            : "conflict: \(email) is already in the store (left as it was)"
    }

    /// One refused record, with where it was and every reason.
    func refused(_ record: RefusedRecord) -> String {
        (ko ? "거부: " : "refused: ") + record.source + ": " + record.problem(language)
    }

    func wouldImport(users: Int, refused: Int) -> String {
        ko
            ? "시험 실행: 사용자 \(users)명을 가져오고 \(refused)명을 거부합니다. 아무것도 쓰지 않았습니다."
            : "Dry run: would import \(EnglishPlural.count(users, "user")) and refuse \(refused). Nothing was written."
    }

    /// Where the refused records went and what to do with them: those an edit mends are
    /// imported again from the file; those without a password this store can verify are not
    /// (no edit makes one), and their users sign up again.
    func refusedWritten(_ count: Int, unmendable: Int, to path: String) -> String {
        let mendable = count - unmendable
        if ko {
            var text = "거부한 레코드 \(count)개를 \(path)에 썼습니다."
            if mendable > 0 { text += " 고칠 수 있는 \(mendable)개는 고친 뒤 --from refused --merge로 가져오세요." }
            if unmendable > 0 {
                text += " \(unmendable)개는 이 저장소가 확인할 수 있는 비밀번호가 없어 파일을 고쳐도 가져올 수 없습니다. 그 사용자는 다시 가입해야 합니다."
            }
            return text
        }
        var text = "Wrote \(EnglishPlural.count(count, "refused record")) to \(path)"
        if mendable > 0 {
            text +=
                "; fix \(mendable == count ? "them" : "the \(mendable) an edit mends"), then import it with --from refused --merge"
        }
        if unmendable > 0 {
            text +=
                "; \(unmendable == 1 ? "1 has" : "\(unmendable) have") no password this store can verify, which no edit of the file gives: "
                + "\(unmendable == 1 ? "its user signs" : "their users sign") up again"
        }
        return text + "."
    }

    /// "password schemes: bcrypt 3, django_pbkdf2_sha256 2", most used first.
    func schemeCounts(_ counts: [String: Int]) -> String {
        let list = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
        return (ko ? "비밀번호 방식: " : "password schemes: ") + list.joined(separator: ", ")
    }

    func migrated(users: Int, sessions: Int, from source: String, to target: String, digest: String) -> String {
        ko
            ? "사용자 \(users)명과 세션 \(sessions)개를 \(source)에서 \(target)(으)로 옮기고 검증했습니다 (sha256 \(digest))."
            : "Migrated \(EnglishPlural.count(users, "user")) and \(EnglishPlural.count(sessions, "session")) from \(source) to \(target); verified (sha256 \(digest))."
    }

    /// After an export or a migration: the mail still queued in the source, which stays there.
    func mailLeftQueued(_ count: Int) -> String {
        ko
            ? "원본 저장소에 보내지 않은 메일 \(count)통이 남아 있으며 옮기지 않았습니다. 옮긴 저장소로 바꾸기 전에 `accounts serve`가 보내게 하세요."
            : "\(EnglishPlural.count(count, "mail")) still queued in the source \(count == 1 ? "was" : "were") not carried: let `accounts serve` send \(count == 1 ? "it" : "them") before switching to the copy."
    }

    /// What `accounts upgrade` did.
    func upgraded(from found: Int, to current: Int) -> String {
        if found == current {
            return ko
                ? "저장소는 이미 형식 \(current)입니다. 바뀐 것은 없습니다."
                : "The store is already at format \(current); nothing was changed."
        }
        return ko
            ? "저장소를 형식 \(found)에서 형식 \(current)(으)로 올렸습니다."
            : "Upgraded the store from format \(found) to format \(current)."
    }

    func accountBlocked(_ email: String, _ changed: Bool) -> String {
        let shown = VisibleText.escaping(email)
        return switch (ko, changed) {
        case (false, true): "Blocked \(shown); its sessions ended."
        case (false, false): "\(shown) was blocked already; nothing changed."
        case (true, true): "\(shown) 계정을 차단했습니다. 모든 세션이 끝났습니다."
        case (true, false): "\(shown) 계정은 이미 차단되어 있습니다. 바뀐 것이 없습니다."
        }
    }

    func accountUnblocked(_ email: String, _ changed: Bool) -> String {
        let shown = VisibleText.escaping(email)
        return switch (ko, changed) {
        case (false, true): "Unblocked \(shown); it can sign in again."
        case (false, false): "\(shown) was not blocked; nothing changed."
        case (true, true): "\(shown) 계정의 차단을 풀었습니다. 다시 로그인할 수 있습니다."
        case (true, false): "\(shown) 계정은 차단되어 있지 않습니다. 바뀐 것이 없습니다."
        }
    }

    func emailVerified(_ email: String, _ changed: Bool) -> String {
        let shown = VisibleText.escaping(email)
        return switch (ko, changed) {
        case (false, true): "Marked the email \(shown) as proven."
        case (false, false): "The email \(shown) was proven already; nothing changed."
        case (true, true): "\(shown) 이메일을 확인된 것으로 표시했습니다."
        case (true, false): "\(shown) 이메일은 이미 확인되어 있습니다. 바뀐 것이 없습니다."
        }
    }

    func accountDetails(_ account: AccountDetails) -> [String] {
        let rows: [(english: String, korean: String, value: String)] = [
            ("Email", "이메일", account.profile.email), ("Nickname", "닉네임", account.profile.nickname),
            ("Id", "ID", "\(account.profile.id)"), ("Number", "번호", String(account.profile.number)),
            ("Created", "가입일", account.profile.createdAt.iso8601),
            ("Password changed", "비밀번호 변경일", account.passwordChangedAt.iso8601),
            ("Password scheme", "비밀번호 방식", account.passwordScheme),
            ("Failed logins", "로그인 실패", String(account.failedLoginCount)),
            ("Sessions", "세션", String(account.sessionCount)),
            (
                "Status", "상태",
                account.isBlocked ? (ko ? "차단됨 (로그인할 수 없음)" : "blocked (cannot sign in)") : (ko ? "사용 중" : "active")
            ),
            (
                "Password", "비밀번호",
                account.mustChangePassword
                    ? (ko ? "임시 (다음 로그인에서 바꿔야 함)" : "temporary (the next login must replace it)")
                    : (ko ? "본인이 정함" : "set by its owner")
            ),
            (
                "Email proven", "이메일 확인",
                account.emailVerifiedAt.map(\.iso8601) ?? (ko ? "확인되지 않음" : "not proven")
            ),
        ]
        // Values start at column 19 in both languages: the widest label, "Password changed:",
        // takes 17 columns, and Hangul two each.
        return rows.map { row in ((ko ? row.korean : row.english) + ":").padding(18) + VisibleText.escaping(row.value) }
    }
}
