import AccountCore
import BackendTestSupport
import NIOHTTP1
import Testing

@testable import AccountServer

/// A JSON body the API cannot take is a 400 `invalid_request` whose message names the fault,
/// in the request's language, and writes nothing.
@Suite("Request bodies")
struct RequestBodyTests {
    static let password = "Tangerine-Kayak-42"

    @Test("each fault of a login body is named, in English and in Korean")
    func faultsAreNamed() async throws {
        let cases: [(body: String, english: String, korean: String)] = [
            ("", "it is empty", "본문이 비어 있습니다"),
            (#"{"email":"#, "not valid JSON", "올바른 JSON이 아닙니다"),
            (#"{"email":"leesoon7@example.com","password":"x"} and more"#, "not valid JSON", "올바른 JSON이 아닙니다"),
            ("[1,2]", "not a JSON object", "JSON 객체가 아닙니다"),
            ("null", "not a JSON object", "JSON 객체가 아닙니다"),
            (#""text""#, "not a JSON object", "JSON 객체가 아닙니다"),
            (#"{"email":"leesoon7@example.com"}"#, #"the field "password" is missing"#, #""password" 필드가 없습니다"#),
            (
                #"{"email":null,"password":"x"}"#, #"the field "email" is null"#, #""email" 필드가 null입니다"#
            ),
            (
                #"{"email":"leesoon7@example.com","password":"x","remember":"yes"}"#,
                #"the field "remember" has the wrong type"#, #""remember" 필드의 형식이 맞지 않습니다"#
            ),
            (
                #"{"email":"nobody77@example.com","em\u0061il":"leesoon7@example.com","password":"\#(Self.password)"}"#,
                #"the field "email" appears more than once"#, #""email" 필드가 두 번 이상 있습니다"#
            ),
        ]
        try await LiveServer.with(Backends.sqlite) { server in
            let signUp = #"{"email":"leesoon7@example.com","password":"\#(Self.password)","nickname":"이순신"}"#
            #expect(try await server.send(.POST, "/v1/signup", json: signUp).status == 201)
            for (body, english, korean) in cases {
                let reply = try await server.send(.POST, "/v1/login", json: body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.code == "invalid_request", "\(body)")
                #expect(reply.json["message"] as? String == "The request body is not valid: \(english)", "\(body)")
                let inKorean = try await server.send(
                    .POST, "/v1/login", json: body, headers: [("Accept-Language", "ko")])
                #expect(inKorean.json["message"] as? String == "요청 본문을 읽을 수 없습니다: \(korean)", "\(body)")
            }
            let user = try #require(try await server.repository.user(email: "leesoon7@example.com"))
            #expect(user.failedLoginCount == 0, "no body above reached the password check")
            let repeatedOnSignUp = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"other77@example.com","password":"\#(Self.password)","nickname":"a","nickname":"b"}"#)
            #expect(repeatedOnSignUp.status == 400)
            #expect(try await server.repository.user(email: "other77@example.com") == nil, "nothing was written")
        }
    }

    /// schemathesis sent `"confirmation": null` to /v1/signup, and it signed up: null was read
    /// as a field left out, where the document says the field is a string.
    @Test("an optional field sent as null is refused by name on every route, and nothing is written")
    func nullOptionalFields() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let signUp = #"{"email":"leesoon7@example.com","password":"\#(Self.password)","nickname":"이순신"}"#
            let session = try await server.send(.POST, "/v1/signup", json: signUp)
            let token = try #require(session.json["token"] as? String)
            let signedIn = [("Authorization", "Bearer \(token)")]
            let cases: [(path: String, body: String, field: String, headers: [(String, String)])] = [
                (
                    "/v1/signup",
                    #"{"email":"other777@example.com","password":"\#(Self.password)","nickname":"이순신","confirmation":null}"#,
                    "confirmation", []
                ),
                (
                    "/v1/signup",
                    #"{"email":"other777@example.com","password":"\#(Self.password)","nickname":"이순신","remember":null}"#,
                    "remember", []
                ),
                (
                    "/v1/login", #"{"email":"leesoon7@example.com","password":"\#(Self.password)","remember":null}"#,
                    "remember", []
                ),
                (
                    "/v1/login",
                    #"{"email":"leesoon7@example.com","password":"\#(Self.password)","device_token":null}"#,
                    "device_token", []
                ),
                (
                    "/api/auth/local",
                    #"{"identifier":"leesoon7@example.com","password":"\#(Self.password)","device_token":null}"#,
                    "device_token", []
                ),
                (
                    "/v1/password",
                    #"{"current_password":"\#(Self.password)","new_password":"Quince-Harbor-73","confirmation":null}"#,
                    "confirmation", signedIn
                ),
            ]
            for (path, body, field, headers) in cases {
                let reply = try await server.send(.POST, path, json: body, headers: headers)
                #expect(reply.status == 400, "\(path) \(body)")
                #expect(reply.text.contains(#"the field \"\#(field)\" is null"#), "\(path): \(reply.text)")
            }
            #expect(try await server.repository.user(email: "other777@example.com") == nil, "nothing was written")
            #expect(try await server.repository.userCount() == 1)
            let sessions = try await server.repository.sessions(
                userID: try #require(try await server.repository.user(email: "leesoon7@example.com")).id)
            #expect(sessions.count == 1, "no login went through")
            let unchanged = try await server.send(.POST, "/v1/login", json: signUp)
            #expect(unchanged.status == 200, "the password did not change")
        }
    }

    @Test("a repeated key is found only among the top-level object's own keys")
    func repeatedKeys() {
        let cases: [(json: String, repeated: String?)] = [
            (#"{"a":1,"b":2}"#, nil),
            (#"{"a":1,"a":2}"#, "a"),
            (#" { "a" : 1 , "b" : { "a" : 2 } , "b" : 3 } "#, "b"),
            (#"{"a":{"x":1,"x":2},"b":[{"a":1}]}"#, nil),
            (#"{"a":"\",\"a\":","b":"a"}"#, nil),
            (#"{"a\"b":1,"a\u0022b":2}"#, "a\"b"),
            (#"{"이름":1,"\uC774\uB984":2}"#, "이름"),
            (#"[{"a":1,"a":2}]"#, nil),
        ]
        for (json, repeated) in cases {
            #expect(JSONObjectKeys.firstRepeated(in: Array(json.utf8)) == repeated, "\(json)")
        }
    }
}
