public import AccountCore
import AccountCrypto
import AccountJSON
import DurableFiles

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    public import Glibc
#endif

/// One record of an export file.
public enum ExportRecord: Sendable {
    case user(UserRecord)
    case session(SessionRecord)
    /// A sign-in at an outside provider (version 4 on), after its user's sessions.
    case identity(ProviderIdentity)
    /// A user that breaks a rule of stored records, read with `skippingInvalid` (its sessions
    /// still follow it).
    case refused(RefusedRecord)
}

/// The header of an export file.
public struct ExportHeader: Sendable {
    /// The backend the export came from.
    public let sourceBackend: String
    /// The users the header announces.
    public let users: Int
    /// Whether sessions were exported.
    public let withSessions: Bool
    /// The file's version (1 had no user numbers).
    public let version: Int
    /// The highest user number the source ever gave (from version 2 on).
    public let lastUserNumber: Int?
}

/// Reads an export file line by line, checking everything: the header, every record's fields
/// and canonical form, email order, unique ids, sessions following their user, and the
/// trailer's counts and SHA-256 over all bytes before it. Any problem is `invalidExport` naming
/// the line. Read a file once to validate it, then again to import it.
public final class ExportFileReader {
    /// What the messages call the file.
    private let name: String
    private let file: UnsafeMutablePointer<FILE>
    private var lineNumber = 0
    private var digest = SHA256Stream()
    private var lastEmail: String?
    private var currentUser: UserID?
    private var seenIDs = Set<UserID>()
    private var users = 0
    private var sessions = 0
    private var finished = false
    /// Whether a user that breaks a rule is handed back as `.refused` instead of ending the read.
    private let skippingInvalid: Bool
    /// The header, read on open.
    public private(set) var header = ExportHeader(
        sourceBackend: "", users: 0, withSessions: false, version: ExportFormat.version, lastUserNumber: nil)
    private var seenNumbers = Set<Int>()

    /// Opens `path` and reads its header.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - name: what messages call the file, when `path` is a copy of it (of standard input, or
    ///     of a pipe).
    ///   - skippingInvalid: hand back a user that breaks a rule of stored records as
    ///     `.refused` and read on; otherwise it is `invalidExport` naming the line and the rule.
    public init(path: String, shownAs name: String? = nil, skippingInvalid: Bool = false) throws(AccountError) {
        let name = name ?? path
        self.name = name
        self.skippingInvalid = skippingInvalid
        guard let file = fopen(path, "r") else {
            throw Self.cannotOpen(name)
        }
        self.file = file
        var info = stat()
        if fstat(fileno(file), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .invalidExport(
                detail: ErrorDetail([
                    .translated(
                        english: "\(name) is a folder, not an export file", korean: "\(name): 내보내기 파일이 아니라 폴더입니다")
                ]))
        }
        guard let line = try readLine() else { throw failure("the file is empty", "파일이 비어 있습니다") }
        header = try parseHeader(line)
        digest.update(line + "\n")
    }

    deinit { fclose(file) }

    /// The next record, or `nil` after a valid trailer.
    public func next() throws(AccountError) -> ExportRecord? {
        guard !finished else { return nil }
        guard let line = try readLine() else {
            throw failure("the file ends without its trailer line (truncated)", "파일이 마지막 확인 줄 없이 끝납니다 (잘림)")
        }
        let type = try decode(TypeProbe.self, line).type
        switch type {
        case "user":
            let user = try decode(UserRecordFields.self, line).record
            try requireCanonical(ExportFormat.line(user, version: header.version), line)
            if header.version >= 2 {
                guard let number = user.number, number > 0, number <= header.lastUserNumber ?? 0 else {
                    throw failure(
                        "the user number is missing, not positive, or above last_user_number",
                        "사용자 번호가 없거나, 양수가 아니거나, last_user_number보다 큽니다")
                }
                guard seenNumbers.insert(number).inserted else {
                    throw failure("the user number \(number) appears twice", "사용자 번호 \(number)가 두 번 나옵니다")
                }
            }
            if let lastEmail, user.email <= lastEmail {
                throw failure("users are not in ascending email order", "사용자가 이메일 오름차순이 아닙니다")
            }
            guard seenIDs.insert(user.id).inserted else {
                throw failure("the user id \(user.id) appears twice", "사용자 id \(user.id)가 두 번 나옵니다")
            }
            lastEmail = user.email
            currentUser = user.id
            users += 1
            digest.update(line + "\n")
            let broken = RecordRules.broken(by: user)
            guard broken.isEmpty else {
                let refused = RefusedRecord(source: "line \(lineNumber)", user: user, reasons: broken)
                guard skippingInvalid else { throw failure(refused.problem(.english), refused.problem(.korean)) }
                return .refused(refused)
            }
            return .user(user)
        case "session":
            let session = try decode(SessionRecordFields.self, line).record
            try requireCanonical(ExportFormat.line(session), line)
            guard session.userID == currentUser else {
                throw failure("a session does not follow its user", "세션이 그 사용자 바로 뒤에 있지 않습니다")
            }
            sessions += 1
            digest.update(line + "\n")
            return .session(session)
        case "identity" where header.version >= 4:
            let identity = try decode(ProviderIdentityFields.self, line).record
            try requireCanonical(ExportFormat.line(identity), line)
            guard identity.userID == currentUser else {
                throw failure("an identity does not follow its user", "외부 로그인 정보가 그 사용자 바로 뒤에 있지 않습니다")
            }
            digest.update(line + "\n")
            return .identity(identity)
        case "end":
            let end = try decode(Trailer.self, line)
            guard end.users == users, end.sessions == sessions else {
                throw failure(
                    "the trailer counts \(end.users) users and \(end.sessions) sessions; the file has \(users) and \(sessions)",
                    "마지막 줄은 사용자 \(end.users)명과 세션 \(end.sessions)개를 세지만 파일에는 \(users)명과 \(sessions)개가 있습니다")
            }
            guard end.sha256 == digest.hexDigest() else {
                throw failure(
                    "the SHA-256 does not match the contents (the file was edited or damaged)",
                    "SHA-256이 내용과 맞지 않습니다 (파일이 수정되었거나 손상됨)")
            }
            guard users == header.users else {
                throw failure(
                    "the header announces \(header.users) users; the file has \(users)",
                    "첫 줄은 사용자 \(header.users)명을 알리지만 파일에는 \(users)명이 있습니다")
            }
            guard try readLine() == nil else {
                throw failure("there is data after the trailer", "마지막 확인 줄 뒤에 데이터가 있습니다")
            }
            finished = true
            return nil
        default:
            throw failure("unknown record type '\(type)'", "알 수 없는 레코드 종류 '\(type)'")
        }
    }

    /// The error for an export file `name` that `open` refused, with the system's reason for
    /// `errno`.
    public static func cannotOpen(_ name: String, errno code: Int32 = errno) -> AccountError {
        let reason = String(cString: strerror(code))
        return .invalidExport(
            detail: ErrorDetail([
                .translated(english: "\(name): cannot be opened (\(reason))", korean: "\(name): 열 수 없습니다 (\(reason))")
            ]))
    }

    /// Reads the whole file, checking it; returns the header and, with `skippingInvalid`, the
    /// users that break a rule of stored records.
    public static func validate(
        path: String, shownAs name: String? = nil, skippingInvalid: Bool = false
    ) throws(AccountError) -> (header: ExportHeader, refused: [RefusedRecord]) {
        let reader = try ExportFileReader(path: path, shownAs: name, skippingInvalid: skippingInvalid)
        var refused: [RefusedRecord] = []
        while let record = try reader.next() {
            if case .refused(let record) = record { refused.append(record) }
        }
        return (reader.header, refused)
    }

    // MARK: - Parsing

    private func parseHeader(_ line: String) throws(AccountError) -> ExportHeader {
        guard let probe = try? JSONDecoder().decode(HeaderLine.self, from: Data(line.utf8)),
            probe.format == ExportFormat.name
        else {
            throw failure(
                "not an AccountStore export (the first line is not its header)",
                "AccountStore 내보내기 파일이 아닙니다 (첫 줄이 머리 줄이 아님)")
        }
        guard probe.version <= ExportFormat.version else {
            throw failure(
                "export version \(probe.version) is newer than this build reads (\(ExportFormat.version))",
                "내보내기 버전 \(probe.version)은 이 빌드가 읽는 버전(\(ExportFormat.version))보다 새롭습니다")
        }
        guard probe.version < 2 || (probe.lastUserNumber ?? -1) >= 0 else {
            throw failure(
                "the header's last_user_number is missing or negative", "머리 줄의 last_user_number가 없거나 음수입니다")
        }
        return ExportHeader(
            sourceBackend: probe.sourceBackend, users: probe.users, withSessions: probe.withSessions,
            version: probe.version, lastUserNumber: probe.version >= 2 ? probe.lastUserNumber : nil)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ line: String) throws(AccountError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(line.utf8))
        } catch {
            throw failure("the line is not a valid record", "올바른 레코드가 아닙니다")
        }
    }

    private func requireCanonical(_ expected: String, _ line: String) throws(AccountError) {
        guard expected == line else {
            throw failure("the record is not in canonical form (edited?)", "레코드가 정규 형식이 아닙니다 (수정됨?)")
        }
    }

    /// The problem on the current line, worded in English and in Korean.
    private func failure(_ english: String, _ korean: String) -> AccountError {
        .invalidExport(
            detail: ErrorDetail([
                .translated(
                    english: "\(name) line \(lineNumber): \(english)", korean: "\(name) \(lineNumber)번째 줄: \(korean)")
            ]))
    }

    private func readLine() throws(AccountError) -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let count = getline(&buffer, &capacity, file)
        if count < 0 {
            if ferror(file) != 0 { throw failure("read error", "읽기 오류") }
            return nil
        }
        lineNumber += 1
        guard let buffer else { return nil }
        var bytes = UnsafeRawBufferPointer(start: buffer, count: count).map { $0 }
        guard bytes.last == UInt8(ascii: "\n") else {
            throw failure("the last line is cut off (truncated)", "마지막 줄이 잘렸습니다")
        }
        bytes.removeLast()
        guard let text = bytes.withUnsafeBufferPointer({ String(strictUTF8: $0) }) else {
            throw failure("the line is not UTF-8", "UTF-8이 아닙니다")
        }
        return text
    }
}

private struct TypeProbe: Decodable {
    let type: String
}

private struct HeaderLine: Decodable {
    let format: String
    let version: Int
    let sourceBackend: String
    let users: Int
    let withSessions: Bool
    let lastUserNumber: Int?
    enum CodingKeys: String, CodingKey {
        case format, version, users
        case sourceBackend = "source_backend"
        case withSessions = "with_sessions"
        case lastUserNumber = "last_user_number"
    }
}

private struct Trailer: Decodable {
    let users: Int
    let sessions: Int
    let sha256: String
}
