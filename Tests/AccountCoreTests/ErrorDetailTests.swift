import AccountCore
import Foundation
import Testing

/// A store or file error's detail: the cause stays as the engine put it, and what the failure
/// left behind is said in the message's language.
@Suite("Error details")
struct ErrorDetailTests {
    /// Every outcome with its English wording, which scripts and the fault sweep read.
    static let outcomes: [(ErrorOutcome, String)] = [
        (.nothingWritten, "nothing was written"),
        (.nothingChanged, "nothing was changed"),
        (.nothingCreated(path: nil), "nothing was created"),
        (.nothingCreated(path: "/srv/a.sqlite"), "nothing was created at /srv/a.sqlite"),
        (.transactionRolledBack, "the transaction was rolled back"),
        (
            .commitUncertain,
            "the commit failed while writing to disk, so the change may or may not have taken effect (and if it did, it may not survive a power cut): check before retrying"
        ),
        (.holdsUsers(1), "it holds 1 user"),
        (.useMergeToAdd, "use --merge to add to it"),
        (.fileChangedAfterCheck, "the file changed after it was checked"),
        (
            .importedBeforeFailure(users: 2_000, sessions: 1, batchInFlight: nil),
            "2000 users and 1 session had been imported before this failure; run the same import again: it goes on where it stopped, keeping every number, and what is already there is kept"
        ),
        (
            .importedBeforeFailure(users: 1_000, sessions: 0, batchInFlight: 1),
            "1000 users and 0 sessions had been imported before this failure; the batch being written (1 user) may or may not have been stored; run the same import again: it goes on where it stopped, keeping every number, and what is already there is kept"
        ),
        (.migrationTargetHolds(location: "/srv/b.lmdb", users: 0), "the target /srv/b.lmdb holds no accounts"),
        (
            .migrationTargetHolds(location: "/srv/b.lmdb", users: 3),
            "the target /srv/b.lmdb holds a partial copy (3 users); remove it before migrating again"
        ),
        (
            .migrationTargetHolds(location: "/srv/b.lmdb", users: nil),
            "the target /srv/b.lmdb could not be read to tell what it holds, so it may hold a partial copy; remove it before migrating again"
        ),
        (.leftAsItWas(path: "/srv/a.json"), "/srv/a.json was left as it was"),
        (
            .replacedButNotSynced(path: "/srv/a.json"),
            "/srv/a.json was replaced, but its folder could not be synced, so the change may not survive a power cut"
        ),
    ]

    @Test("each outcome reads in English as scripts expect, and in Korean without English words", arguments: outcomes)
    func outcomeText(_ outcome: ErrorOutcome, english: String) {
        #expect(outcome.text(.english) == english)
        let korean = outcome.text(.korean)
        #expect(korean.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(korean)")
        // What may stay as it is: the paths, the store's location and the flag to type.
        var rest = korean
        for kept in ["/srv/a.sqlite", "/srv/b.lmdb", "/srv/a.json", "--merge"] {
            rest = rest.replacingOccurrences(of: kept, with: "")
        }
        #expect(!rest.contains { $0.isASCII && $0.isLetter }, "\(korean)")
    }

    @Test("a detail written as text is one clause, shown as it is in both languages")
    func textDetail() {
        let path = "/srv/a.sqlite"
        let error = AccountError.storeIO(detail: "\(path): disk I/O error (SQLite code 10)")
        guard case .storeIO(let detail) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(detail.clauses == [.text("/srv/a.sqlite: disk I/O error (SQLite code 10)")])
        #expect(detail.outcomes.isEmpty)
        #expect(error.message(.korean) == "저장소 입출력 오류: /srv/a.sqlite: disk I/O error (SQLite code 10)")
    }

    @Test("a translated cause is shown in the message's language, then the outcomes")
    func translatedCause() {
        let error = AccountError.invalidExport(
            detail: ErrorDetail([
                .translated(english: "e.jsonl line 2: the line is not UTF-8", korean: "e.jsonl 2번째 줄: UTF-8이 아닙니다")
            ])
        ).addingOutcome(.nothingWritten)
        #expect(
            error.message(.english)
                == "The export file is invalid: e.jsonl line 2: the line is not UTF-8; nothing was written")
        #expect(error.message(.korean) == "내보내기 파일이 잘못되었습니다: e.jsonl 2번째 줄: UTF-8이 아닙니다; 아무것도 쓰지 않았습니다")
    }

    @Test("outcomes follow the cause in order, each in the message's language")
    func addedOutcomes() {
        let error = AccountError.invalidExport(detail: "e.jsonl line 2: the line is not a valid record")
            .addingOutcome(.fileChangedAfterCheck)
            .addingOutcome("see the log")
            .addingOutcome(.nothingWritten)
        guard case .invalidExport(let detail) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(detail.outcomes == [.fileChangedAfterCheck, .nothingWritten])
        #expect(
            error.message(.english)
                == "The export file is invalid: e.jsonl line 2: the line is not a valid record; the file changed after it was checked; see the log; nothing was written"
        )
        #expect(
            error.message(.korean)
                == "내보내기 파일이 잘못되었습니다: e.jsonl line 2: the line is not a valid record; 검사한 뒤에 파일이 바뀌었습니다; see the log; 아무것도 쓰지 않았습니다"
        )
        #expect(String(describing: detail).hasSuffix("; see the log; nothing was written"))
    }

    @Test("an error that carries no detail is returned as it was")
    func noDetail() {
        #expect(AccountError.emailTaken.addingOutcome(.nothingWritten) == .emailTaken)
        #expect(AccountError.storeNotFound(location: "/x").addingOutcome("y") == .storeNotFound(location: "/x"))
    }
}
