/// What a failed operation left behind, or what to do about it: the part of an error's detail
/// an operator acts on, so it is said in the message's language (see ``ErrorDetail``).
public enum ErrorOutcome: Sendable, Hashable {
    /// Nothing was written to the store (an import refused before its first batch).
    case nothingWritten
    /// The call changed nothing (said of a store that refused it).
    case nothingChanged
    /// Nothing was created (at `path`, when given).
    case nothingCreated(path: String?)
    /// The store rolled the transaction back: none of it took effect.
    case transactionRolledBack
    /// The commit failed while writing: the change may or may not have taken effect.
    case commitUncertain
    /// The target of an import already holds this many users.
    case holdsUsers(Int)
    /// An import into a store that is not empty needs `--merge`.
    case useMergeToAdd
    /// An export file was changed or replaced after it was checked.
    case fileChangedAfterCheck
    /// An import stopped after storing `users` and `sessions`; `batchInFlight` users were being
    /// written when it failed and may or may not have been stored.
    case importedBeforeFailure(users: Int, sessions: Int, batchInFlight: Int?)
    /// What a failed migration left in its new target: `users` accounts, or nil when the target
    /// could not be read to tell.
    case migrationTargetHolds(location: String, users: Int?)
    /// A file that was to be replaced was left as it was.
    case leftAsItWas(path: String)
    /// A file was replaced, but the rename may not survive a power cut.
    case replacedButNotSynced(path: String)

    /// The statement in `language`.
    public func text(_ language: Language) -> String {
        language == .korean ? korean : english
    }

    private var english: String {
        switch self {
        case .nothingWritten:
            "nothing was written"
        case .nothingChanged:
            "nothing was changed"
        case .nothingCreated(let path):
            "nothing was created" + (path.map { " at \($0)" } ?? "")
        case .transactionRolledBack:
            "the transaction was rolled back"
        case .commitUncertain:
            "the commit failed while writing to disk, so the change may or may not have taken effect (and if it did, it may not survive a power cut): check before retrying"
        case .holdsUsers(let count):
            "it holds \(EnglishPlural.count(count, "user"))"
        case .useMergeToAdd:
            "use --merge to add to it"
        case .fileChangedAfterCheck:
            "the file changed after it was checked"
        case .importedBeforeFailure(let users, let sessions, let batchInFlight):
            "\(EnglishPlural.count(users, "user")) and \(EnglishPlural.count(sessions, "session")) had been imported before this failure"
                + (batchInFlight.map {
                    "; the batch being written (\(EnglishPlural.count($0, "user"))) may or may not have been stored"
                } ?? "")
                + "; run the same import again: it goes on where it stopped, keeping every number, and what is already there is kept"
        case .migrationTargetHolds(let location, 0):
            "the target \(location) holds no accounts"
        case .migrationTargetHolds(let location, let count?):
            "the target \(location) holds a partial copy (\(EnglishPlural.count(count, "user"))); remove it before migrating again"
        case .migrationTargetHolds(let location, nil):
            "the target \(location) could not be read to tell what it holds, so it may hold a partial copy; remove it before migrating again"
        case .leftAsItWas(let path):
            "\(path) was left as it was"
        case .replacedButNotSynced(let path):
            "\(path) was replaced, but its folder could not be synced, so the change may not survive a power cut"
        }
    }

    private var korean: String {
        switch self {
        case .nothingWritten:
            "아무것도 쓰지 않았습니다"
        case .nothingChanged:
            "아무것도 바꾸지 않았습니다"
        case .nothingCreated(let path):
            (path.map { "\($0)에 " } ?? "") + "아무것도 만들지 않았습니다"
        case .transactionRolledBack:
            "트랜잭션을 되돌렸습니다"
        case .commitUncertain:
            "디스크에 쓰는 중에 커밋이 실패해, 변경이 반영되었을 수도 아닐 수도 있습니다 (반영되었더라도 정전이 나면 사라질 수 있습니다). 다시 시도하기 전에 확인하세요"
        case .holdsUsers(let count):
            "사용자 \(count)명이 있습니다"
        case .useMergeToAdd:
            "더하려면 --merge를 사용하세요"
        case .fileChangedAfterCheck:
            "검사한 뒤에 파일이 바뀌었습니다"
        case .importedBeforeFailure(let users, let sessions, let batchInFlight):
            "이 실패 전에 사용자 \(users)명과 세션 \(sessions)개를 가져왔습니다"
                + (batchInFlight.map { "; 쓰던 묶음(사용자 \($0)명)은 저장되었을 수도, 아닐 수도 있습니다" } ?? "")
                + "; 같은 가져오기를 다시 실행하면 멈춘 곳부터 번호를 그대로 지키며 이어 가져옵니다 (이미 있는 것은 그대로 둡니다)"
        case .migrationTargetHolds(let location, 0):
            "대상 \(location)에는 계정이 없습니다"
        case .migrationTargetHolds(let location, let count?):
            "대상 \(location)에 일부만 복사되었습니다 (사용자 \(count)명); 다시 옮기기 전에 지우세요"
        case .migrationTargetHolds(let location, nil):
            "대상 \(location)을(를) 읽을 수 없어 무엇이 있는지 알 수 없습니다. 일부만 복사되었을 수 있으니 다시 옮기기 전에 지우세요"
        case .leftAsItWas(let path):
            "\(path)은(는) 그대로 두었습니다"
        case .replacedButNotSynced(let path):
            "\(path)을(를) 바꿨지만 폴더를 동기화하지 못해, 정전이 나면 변경이 사라질 수 있습니다"
        }
    }
}
