import AccountConformance
import AccountCore
import AccountJSON
import Foundation
import Testing

@testable import JSONFileBackend

/// The JSON store's own reader against Foundation's `JSONDecoder`, which read the store before
/// it: on the committed fixture and thousands of damaged copies of it, the reader accepts only
/// what `JSONDecoder` accepts, reads the same records from it, and refuses everything
/// `JSONDecoder` refuses, for the same reason when `JSONDecoder` names one.
@Suite("JSON store reader")
struct JSONStoreParserTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/json-v1-accounts.json")

    @Test("the committed store reads the same as through JSONDecoder")
    func fixtureMatchesDecoder() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixture))
        let ours = try Self.parse(bytes).get()
        let reference = try Self.oracle(bytes).get()
        #expect(ours.users.count == 10 && ours.sessions.count > 0)
        #expect(Self.same(ours, reference))
        // The escapes in the fixture's nicknames came through decoded.
        #expect(ours.users.contains { $0.nickname == "tab\tnew\nline\r\u{1}\u{7F}" })
        #expect(ours.users.contains { $0.nickname == "nul\u{0}inside" })
    }

    /// Damage of the kinds a crash, a bad edit or a wrong tool leaves: cut short, a byte
    /// replaced by one that matters to JSON, a byte dropped, a piece repeated.
    @Test("damaged copies: accepted only when JSONDecoder accepts, refused when it refuses")
    func damagedCopiesAgreeWithDecoder() throws {
        let original = try [UInt8](Data(contentsOf: Self.fixture))
        var random = SplitMix64(seed: 0x5EED_2026_1123)
        let specials = Array("\"\\{}[],:0-.eE \nntf1u".utf8) + [0xFF, 0x00, 0xC3]
        var accepted = 0
        var stricter = 0
        for round in 0..<3_000 {
            var bytes = original
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch round % 4 {
            case 0: bytes.removeSubrange(at...)
            case 1: bytes[at] = specials.randomElement(using: &random)!
            case 2: bytes.remove(at: at)
            default:
                let length = Int.random(in: 1...40, using: &random)
                bytes.insert(contentsOf: bytes[at..<min(at + length, bytes.count)], at: at)
            }
            let place =
                "round \(round) at byte \(at): …\(String(decoding: bytes[max(0, at - 30)..<min(bytes.count, at + 30)], as: UTF8.self))…"
            let ours = Self.parse(bytes)
            let reference = Self.oracle(bytes)
            switch (ours, reference) {
            case (.success(let mine), .success(let theirs)):
                accepted += 1
                #expect(Self.same(mine, theirs), "\(place): the same bytes read as different records")
            case (.success, .failure(let theirs)):
                Issue.record("\(place): accepted what JSONDecoder refuses (\(theirs))")
            case (.failure(let mine), .success):
                // Allowed only as the stricter grammar of values nobody reads.
                #expect(mine.isGrammar, "\(place): refused what JSONDecoder reads, with \(mine)")
                stricter += 1
            case (.failure(let mine), .failure(let theirs)):
                #expect(mine.agrees(with: theirs), "\(place): \(mine) where JSONDecoder says \(theirs)")
            }
        }
        // The damage must exercise both sides, or the comparison proves little.
        #expect(accepted > 100, "only \(accepted) damaged copies were still readable")
        #expect(stricter < 100, "\(stricter) copies refused for the stricter grammar alone")
    }

    @Test(
        "each fault is named at its place",
        arguments: [
            (#"{"format":"accountstore-json","format_version":1}"#, "store_id is missing"),
            (#"{"format":"x"}"#, "not a store: x"),
            (#"{"format_version":1}"#, "not a store"),
            (#"{"format":"accountstore-json","format_version":6}"#, "too new: 6"),
            (
                #"{"format":"accountstore-json","format_version":2,"store_id":"s","created_at_ms":5}"#,
                "last_user_number is missing"
            ),
            (Self.numberedStore(last: "-1", number: "1"), "last_user_number is invalid"),
            (Self.numberedStore(last: "1", number: nil), "users[0].number is missing"),
            (Self.numberedStore(last: "1", number: "0"), "users[0].number is invalid"),
            (Self.numberedStore(last: "1", number: "2"), "users[0].number is invalid"),
            (Self.numberedStore(last: "1", number: "\"1\""), "users[0].number has the wrong type"),
            (#"{"format":"accountstore-json","format_version":0}"#, "format_version is invalid"),
            (#"{"format":"accountstore-json","format_version":1.5}"#, "format_version is invalid"),
            (#"{"format":"accountstore-json","format_version":"1"}"#, "format_version has the wrong type"),
            (Self.store(users: #"[{"id":"a"}]"#), "users[0].email is missing"),
            (Self.store(users: #"[1]"#), "users[0] has the wrong type"),
            (Self.store(users: #"{}"#), "users has the wrong type"),
            (Self.store(users: "[" + Self.user(email: #""\ud800""#) + "]"), "users[0].email is invalid"),
            (Self.store(users: "[" + Self.user(email: "null") + "]"), "users[0].email has the wrong type"),
            (
                Self.store(
                    users: "[]",
                    sessions:
                        #"[{"token_sha256":"t","user_id":"u","created_at_ms":1,"last_seen_at_ms":1,"expires_at_ms":1,"idle_timeout_s":1,"remember":1}]"#
                ), "sessions[0].remember has the wrong type"
            ),
            (
                Self.store(users: "[" + Self.user(created: "9223372036854775808") + "]"),
                "users[0].created_at_ms is invalid"
            ),
            (Self.store(users: "[]") + " x", "grammar at byte"),
            (Self.store(users: "[01]"), "grammar at byte"),
            (Self.store(users: "[]", extra: #""note":"a\x""#), "grammar at byte"),
            (
                Self.store(users: "[]", extra: String(repeating: "[", count: 600) + String(repeating: "]", count: 600)),
                "grammar at byte"
            ),
            // A grammar fault comes first even after a field problem, as with JSONDecoder.
            (#"{"format":"x","users":[}"#, "grammar at byte"),
        ])
    func faultsAreNamed(text: String, expected: String) {
        let result = Self.parse(Array(text.utf8))
        guard case .failure(let failure) = result else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(failure.summary.contains(expected), "\(text): \(failure.summary)")
    }

    @Test(
        "a repeated id, email or token digest, or a negative failure count, is refused by its place",
        arguments: [
            (Self.store(users: "[" + Self.user() + "," + Self.user(email: #""f@x""#) + "]"), "users[1] repeats id i"),
            (
                Self.store(
                    users: "[" + Self.user() + "," + Self.user().replacingOccurrences(of: #""i""#, with: #""j""#) + "]"),
                "users[1] repeats an email"
            ),
            (
                Self.store(users: "[]", sessions: "[" + Self.session + "," + Self.session + "]"),
                "sessions[1] repeats a token digest"
            ),
            (
                Self.store(
                    users: "["
                        + Self.user().replacingOccurrences(
                            of: #""failed_login_count":0"#, with: #""failed_login_count":-1"#) + "]"),
                "users[0] has a negative failure count"
            ),
        ])
    func repeatsAreRefused(text: String, expected: String) {
        let error = #expect(throws: AccountError.self) { try JSONStoreDecoder.decode(Array(text.utf8), path: "s.json") }
        #expect(error?.code == "store_corrupted")
        #expect(error?.message(.english).contains("s.json: " + expected) == true, "\(String(describing: error))")
    }

    @Test("JSONDecoder's readings are kept: whole numbers, first of two keys, escapes, unknown keys")
    func decoderReadingsKept() throws {
        let user = Self.user(email: #""a\u00e9\ud83d\ude00\/b@x""#, created: "1.7e12")
        let text = Self.store(
            users: "[" + user.replacingOccurrences(of: "{", with: #"{"id":"first","extra":{"deep":[1,{"x":null}]},"#)
                + "]",
            extra: #""store_id":"second""#)
        let contents = try Self.parse(Array(text.utf8)).get()
        #expect(contents.storeID == "s")
        #expect(contents.users.first?.id.rawValue == "first")
        #expect(contents.users.first?.email == "aé😀/b@x")
        #expect(contents.users.first?.createdAt.millisecondsSince1970 == 1_700_000_000_000)
        #expect(Self.same(contents, try Self.oracle(Array(text.utf8)).get()))
    }

    // MARK: - Helpers

    static func store(users: String, sessions: String = "[]", extra: String? = nil) -> String {
        #"{"format":"accountstore-json","format_version":1,"store_id":"s","created_at_ms":5,"users":"#
            + users + #","sessions":"# + sessions + (extra.map { "," + $0 } ?? "") + "}"
    }

    /// A format-2 store of one user numbered `number` (left out for `nil`), the highest number
    /// `last`.
    static func numberedStore(last: String, number: String?) -> String {
        #"{"format":"accountstore-json","format_version":2,"store_id":"s","created_at_ms":5,"last_user_number":"#
            + last + #","users":["# + user().dropLast() + (number.map { #","number":"# + $0 } ?? "")
            + #"}],"sessions":[]}"#
    }

    static func user(email: String = #""e@x""#, created: String = "1") -> String {
        #"{"id":"i","email":"# + email
            + #","nickname":"n","password_hash":"h","created_at_ms":"# + created
            + #","password_changed_at_ms":1,"failed_login_count":0,"last_failed_login_at_ms":null}"#
    }

    static let session =
        #"{"token_sha256":"t","user_id":"u","created_at_ms":1,"last_seen_at_ms":1,"expires_at_ms":1,"idle_timeout_s":1,"remember":true}"#

    static func parse(_ bytes: [UInt8]) -> Result<JSONStoreParser.Contents, JSONStoreParser.Failure> {
        Result { () throws(JSONStoreParser.Failure) in
            try bytes.withUnsafeBufferPointer { (text) throws(JSONStoreParser.Failure) in
                try JSONStoreParser.parse(text)
            }
        }
    }

    static func same(_ ours: JSONStoreParser.Contents, _ reference: OracleContents) -> Bool {
        ours.storeID == reference.storeID && ours.createdAt == reference.createdAt && ours.users == reference.users
            && ours.sessions == reference.sessions
    }

    /// What `JSONDecoder` reads from a store, the way the store read itself before its own reader.
    struct OracleContents: Decodable {
        let storeID: String
        let createdAt: Int64
        let users: [UserRecord]
        let sessions: [SessionRecord]

        enum Keys: String, CodingKey {
            case format
            case formatVersion = "format_version"
            case storeID = "store_id"
            case createdAt = "created_at_ms"
            case users, sessions
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            guard let format = try? container.decodeIfPresent(String.self, forKey: .format),
                format == JSONStoreDocument.formatName
            else { throw OracleFailure.notAStore }
            let version = try container.decode(Int.self, forKey: .formatVersion)
            if version > JSONStoreDocument.formatVersion { throw OracleFailure.tooNew }
            if version < 1 { throw OracleFailure.field }
            storeID = try container.decode(String.self, forKey: .storeID)
            createdAt = try container.decode(Int64.self, forKey: .createdAt)
            users = try container.decode([UserRecordFields].self, forKey: .users).map(\.record)
            sessions = try container.decode([SessionRecordFields].self, forKey: .sessions).map(\.record)
        }
    }

    enum OracleFailure: Error {
        /// Not JSON, or a value it cannot represent (JSONDecoder says both without a path).
        case grammar
        case notAStore, tooNew
        /// A field missing, of the wrong type or out of range.
        case field
    }

    static func oracle(_ bytes: [UInt8]) -> Result<OracleContents, OracleFailure> {
        do {
            return .success(try JSONDecoder().decode(OracleContents.self, from: Data(bytes)))
        } catch let failure as OracleFailure {
            return .failure(failure)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            return .failure(.grammar)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            // The top level is not an object.
            return .failure(.notAStore)
        } catch {
            return .failure(.field)
        }
    }
}

extension JSONStoreParser.Failure {
    var isGrammar: Bool {
        if case .grammar = self { return true }
        return false
    }

    /// Whether this refusal is the one `JSONDecoder` gave. It reports a value it cannot represent
    /// (a lone surrogate, a number too large) as "not valid JSON"; this reader names the field.
    func agrees(with reference: JSONStoreParserTests.OracleFailure) -> Bool {
        switch (self, reference) {
        case (.grammar, _): true
        case (.notAStore, .notAStore), (.tooNew, .tooNew), (.field, .field): true
        case (.field(_, .invalid), .grammar): true
        default: false
        }
    }

    var summary: String {
        switch self {
        case .grammar(let offset): "grammar at byte \(offset)"
        case .notAStore(let format): "not a store" + (format.map { ": \($0)" } ?? "")
        case .tooNew(let version): "too new: \(version)"
        case .field(let path, .missing): "\(path) is missing"
        case .field(let path, .wrongType): "\(path) has the wrong type"
        case .field(let path, .invalid): "\(path) is invalid"
        }
    }
}
