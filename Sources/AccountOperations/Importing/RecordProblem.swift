public import AccountCore

/// Why an imported record is refused, worded in English and in Korean.
public struct RecordProblem: Sendable, Hashable {
    /// The reason in English.
    public let english: String
    /// The reason in Korean.
    public let korean: String
    /// Whether an edit of the record in the refused file can mend it (an email, a nickname, a
    /// duplicate). A missing or unverifiable password cannot be: no edit makes a hash that
    /// verifies the user's password.
    public var mendableInFile = true

    /// The reason in `language`.
    public func message(_ language: Language) -> String {
        language == .korean ? korean : english
    }

    /// A password hash no scheme of this build verifies (only its scheme's name is shown: the
    /// hash itself stays out of messages).
    public static func unverifiableHash(_ stored: String) -> RecordProblem {
        let dollar = stored.hasPrefix("$") ? "$" : ""
        let shown = VisibleText.escaping(dollar + stored.dropFirst(dollar.count).prefix { $0 != "$" }.prefix(24))
        return RecordProblem(
            english:
                "Its password hash ('\(shown)…') is of no scheme this build verifies; its user could never sign in.",
            korean: "비밀번호 해시('\(shown)…')가 이 빌드가 확인하는 방식이 아닙니다. 이 사용자는 로그인할 수 없습니다.",
            mendableInFile: false)
    }

    /// A password hash that can never be checked (`HashProblem`): not whole, or costing more
    /// to check than the configured limits allow (raising `hashing.legacy_…` admits it). No edit
    /// of the record can make it verify its user's password.
    public static func unusableHash(_ problem: HashProblem) -> RecordProblem {
        switch problem {
        case .malformed(let why):
            RecordProblem(
                english: "Its password hash is not whole (\(why)); its user could never sign in.",
                korean: "비밀번호 해시가 온전하지 않습니다(\(why)). 이 사용자는 로그인할 수 없습니다.",
                mendableInFile: false)
        case .tooCostly(let why):
            RecordProblem(
                english:
                    "Its password hash would cost too much to check (\(why)); raise the hashing.legacy_ limit to admit it.",
                korean: "비밀번호 해시를 확인하는 비용이 너무 큽니다(\(why)). 받아들이려면 hashing.legacy_ 한도를 올리십시오.",
                mendableInFile: false)
        }
    }

    /// A time column (`column`) holding `value`, which is no time the importers read.
    public static func unreadableTime(_ column: String, _ value: String) -> RecordProblem {
        let shown = VisibleText.escaping(String(value.prefix(40)))
        return RecordProblem(
            english: "Its \(column) holds '\(shown)', which is not a time.",
            korean: "\(column)의 값 '\(shown)'은(는) 시각이 아닙니다.", mendableInFile: false)
    }

    /// The source keeps the account from signing in (`why`, in its terms): refused unless the
    /// import keeps blocked accounts (`--keep-blocked`), as blocked ones.
    public static func blockedInSource(_ why: String) -> RecordProblem {
        RecordProblem(
            english: "\(why); import with --keep-blocked to bring it in blocked.",
            korean: "원래 시스템에서 로그인할 수 없는 계정입니다(\(why)). 차단된 채로 가져오려면 --keep-blocked를 쓰십시오.",
            mendableInFile: false)
    }

    /// No password this store can verify, and `why` (in English; the source's own words).
    public static func noPassword(_ why: String) -> RecordProblem {
        RecordProblem(
            english: "It has no password this store can verify: \(why).",
            korean: "이 저장소가 확인할 수 있는 비밀번호가 없습니다: \(why).", mendableInFile: false)
    }

    /// A second record with an email an earlier record (at `first`) has.
    public static func duplicateEmail(of first: String) -> RecordProblem {
        RecordProblem(
            english: "Its email (in lowercase) is also the email of \(first).",
            korean: "이메일이 (소문자로) \(first)의 이메일과 같습니다.")
    }

    /// A rule of stored records the record breaks (`UserRecord.brokenRules`).
    public static func rule(_ error: AccountError) -> RecordProblem {
        RecordProblem(english: error.message(.english), korean: error.message(.korean))
    }
}

/// The rules every imported record is held to, in one place: those a stored record must meet
/// (`UserRecord.brokenRules`), whichever system the record came from.
enum RecordRules {
    /// What `user` breaks (empty when it may be stored).
    static func broken(by user: UserRecord) -> [RecordProblem] {
        user.brokenRules.map(RecordProblem.rule)
    }
}

/// A record an import refused, with where it was in the source and why.
public struct RefusedRecord: Sendable {
    /// Where the record is in the source: `line 12`, `record 3`.
    public let source: String
    /// The source system's own id of the record, when it has one.
    public let sourceID: String?
    /// The record as it would have been stored.
    public let user: UserRecord
    /// Every reason it was refused.
    public let reasons: [RecordProblem]

    /// Whether editing the record in the refused file can mend every reason (see
    /// ``RecordProblem/mendableInFile``).
    public var mendableInFile: Bool { reasons.allSatisfy(\.mendableInFile) }

    /// Creates a refusal.
    public init(source: String, sourceID: String? = nil, user: UserRecord, reasons: [RecordProblem]) {
        self.source = source
        self.sourceID = sourceID
        self.user = user
        self.reasons = reasons
    }

    /// The refusal as one clause, the email shown with hidden characters escaped.
    public func problem(_ language: Language) -> String {
        let email = VisibleText.escaping(user.email)
        let reasons = reasons.map { $0.message(language) }.joined(separator: " ")
        return language == .korean
            ? "'\(email)' 사용자는 저장할 수 없습니다: \(reasons)" : "the user '\(email)' cannot be stored: \(reasons)"
    }
}
